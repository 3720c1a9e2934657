"""One vocabulary for every research API (OpenSpiel, PettingZoo AEC and parallel, Gymnasium).

The names are the rules core's `Config`: `players`, `edition` (`"2021"` or `"classic"`),
`ghost_ship` (`None` = on with 2 players only, `True`, `False`), `max_rounds`; and one `reward`
for all: `"score"` (the final score), `"rank"` (1 − 2·(rank − 1)/(ships − 1): +1 for the winner, −1
for the last ship) or `"win"` (1 shared among the winning players, 0 otherwise).

The environments' own options (PettingZoo AEC and parallel, Gymnasium; `jamaica.envs.options`
says what each does): `observation` (`"absolute"`, `"relative"`: seat-relative, or `"fixed"`:
seat-relative and one size for 2–6 players; actions are seat-relative unless absolute),
`reward_shaping` (False, or True: score-delta rewards that add up to the final reward) and, for
PettingZoo, `illegal_action` (`"raise"` or `"penalize"`).

Two spellings exist only because OpenSpiel's game strings cannot say everything: `ghost_ship`
also takes `"auto"`, `"on"`, `"off"` (a parameter cannot be None), and `edition` also takes
`"modern"` for `"2021"` (`python_jamaica(edition=2021)` would read a number). Every API accepts
both spellings.
"""

from __future__ import annotations

from typing import Any, Final

from ..rules import Config, State
from ..rules.config import EDITIONS

REWARDS: Final = ("score", "rank", "win")
OBSERVATIONS: Final = ("absolute", "relative", "fixed")
ILLEGAL_ACTIONS: Final = ("raise", "penalize")
RENDER_MODES: Final = ("human", "ansi")  # human: printed; ansi: returned as text
GHOST_WORDS: Final[dict[str, bool | None]] = {"auto": None, "on": True, "off": False}
EDITION_ALIASES: Final = {"modern": "2021"}
# The bounds of a player's return, per reward (a final score lies within [-14, 76]).
RETURN_BOUNDS: Final[dict[str, tuple[float, float]]] = {
    "score": (-14.0, 76.0),
    "rank": (-1.0, 1.0),
    "win": (0.0, 1.0),
}


def edition(value: Any) -> str:
    """`"2021"` or `"classic"` (`"modern"` is read as `"2021"`)."""
    text = EDITION_ALIASES.get(value, value) if isinstance(value, str) else value
    if text not in EDITIONS:
        raise ValueError(f"edition must be 2021 (or modern) or classic, not {value!r}")
    return str(text)


def ghost_ship(value: Any) -> bool | None:
    """None, True or False; also the words auto, on and off."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str) and value in GHOST_WORDS:
        return GHOST_WORDS[value]
    raise ValueError(f"ghost_ship must be None, True, False, auto, on or off, not {value!r}")


def ghost_word(value: bool | None) -> str:
    """The word for a `ghost_ship` value: auto, on or off."""
    return "auto" if value is None else "on" if value else "off"


def reward(value: Any) -> str:
    if value not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {value!r}")
    return str(value)


def observation(value: Any) -> str:
    if value not in OBSERVATIONS:
        raise ValueError(f"observation must be one of {', '.join(OBSERVATIONS)}, not {value!r}")
    return str(value)


def illegal_action(value: Any) -> str:
    if value not in ILLEGAL_ACTIONS:
        raise ValueError(
            f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, not {value!r}"
        )
    return str(value)


def render_mode(value: Any) -> str | None:
    if value is not None and value not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {', '.join(RENDER_MODES)}, "
                         f"not {value!r}")  # fmt: skip
    return None if value is None else str(value)


def reward_shaping(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"reward_shaping must be True or False, not {value!r}")
    return value


def config(
    players: Any = 4, edition_: Any = "2021", ghost_ship_: Any = None, max_rounds: Any = 100
) -> Config:
    """A `Config` from values in either spelling (`Config` checks the rest)."""
    return Config(
        players=players,
        edition=edition(edition_),
        ghost_ship=ghost_ship(ghost_ship_),
        max_rounds=max_rounds,
    )


def returns(state: State, kind: str) -> list[float]:
    """Each player's return at the end of a game (zeros before): see the module's docstring.
    The Ghost Ship counts in the ranking (R8 tie-break; shared places are averaged); if it wins,
    `"win"` gives nobody anything."""
    n = state.n
    if not state.is_terminal():
        return [0.0] * n
    if kind == "win":
        winners = state.winners()
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]
    scores = state.scores()
    if kind == "score":
        return [float(scores[p].total) for p in range(n)]
    ships = state.ns
    key = [(-sc.total, state.moves_left(k)) for k, sc in enumerate(scores)]
    out = []
    for p in range(n):
        better = sum(1 for k in range(ships) if key[k] < key[p])
        same = sum(1 for k in range(ships) if key[k] == key[p])
        rank = better + (same + 1) / 2
        out.append(1.0 - 2.0 * (rank - 1) / (ships - 1))
    return out
