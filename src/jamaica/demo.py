"""`jamaica demo`: a whole game between bots, told as a play-by-play log with the final scores."""

from __future__ import annotations

from collections.abc import Iterator

from .bots import make_bot
from .rules import Config, State, play_game
from .rules.events import (
    E_CHOSE,
    E_DRAW,
    E_FACE_DOWN,
    E_ROUND,
    EVENT_NAMES,
    describe,
    ship_name,
)
from .rules.view import can_see

# A public line that is immediately followed by its private detail says the same thing twice.
_SHADOWED = {E_DRAW, E_CHOSE, E_FACE_DOWN}


def narrate(s: State, spectator: bool = False) -> Iterator[str]:
    """The game's events in words: everything (the narrator sees all) or public events only."""
    events = s.events or []
    for i, e in enumerate(events):
        public = can_see(e[0], None)
        if spectator and not public:
            continue
        if (
            not spectator
            and e[1] in _SHADOWED
            and i + 1 < len(events)
            and not can_see(events[i + 1][0], None)
        ):
            continue
        text = describe(e, s.n)
        if e[1] == E_ROUND:
            yield ""
            yield f"=== {text.rstrip('.')} ==="
        elif not public and not spectator:
            who = [ship_name(p, s.n) for p in range(s.n) if can_see(e[0], p)]
            yield f"  [{' & '.join(who)} only] {text}"
        else:
            yield f"  {text}"


def score_table(s: State) -> list[str]:
    rows = [f"{'ship':<20}{'position':>9}{'doubloons':>10}{'treasures':>10}{'total':>7}"]
    winners = s.winners()
    for k, sc in enumerate(s.scores()):
        mark = "  <- winner" if k in winners else ""
        name = ship_name(k, s.n)
        rows.append(
            f"{name:<20}{sc.position:>9}{sc.doubloons:>10}{sc.treasures:>10}{sc.total:>7}{mark}"
        )
    return rows


def run_demo(config: Config, seed: int, spectator: bool = False, bot: str = "greedy") -> str:
    finals: list[State] = []
    play_game(
        config,
        [make_bot(bot, seed * 100 + p) for p in range(config.players)],
        seed,
        log=True,
        final_state=finals,
    )
    s = finals[0]
    lines = [
        f"Jamaica — {config.players} players, {config.edition} edition"
        + (", with the Ghost Ship" if s.gh >= 0 else "")
        + f", seed {seed}. Every seat is played by the {bot} bot.",
    ]
    lines += list(narrate(s, spectator))
    lines += ["", f"Final scores after {s.rnd} rounds:", *score_table(s)]
    return "\n".join(lines)


__all__ = ["EVENT_NAMES", "narrate", "run_demo", "score_table"]
