"""Bots: agents that play Jamaica fairly, deciding only from what their player may see.

Every bot has `act(state, player) -> Action` (the `jamaica.Agent` interface) and is seeded:
the same seed and the same game give the same decisions. A bot never reads the true hidden
cards: it works on `state.resample(player, rng)`, a world drawn from its player's view.

A bot is named by a spec: one of the `LEVELS` offered to players (`easy`, `medium`, `hard`: fixed
bots with iteration budgets, see `levels.py`), or a bot of `BOTS`, optionally with `:key=value`
options (`"ismcts:seconds=0.5:rollout=greedy"`). `parse_spec` is the one place a spec is checked
— known bots only, each option typed and bounded — and `make_bot` builds bots only through it, so
no front end (the terminal, the game server, the lab) can start a bot that never finishes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

from ..rules import Agent
from ..rules import RandomAgent as RandomBot
from .greedy import GreedyBot
from .ismcts import ISMCTSBot
from .levels import LEVEL_SPECS, LEVELS, RulesBot

RL_EXTRA: Final = "pip install -e '.[rl]'"  # from a checkout: the PyPI name is another project's
BOTS: Final = ("random", "greedy", "ismcts", "learned", "deep", "rules", "master")
FALLBACK: Final = "greedy"  # the bot that decides when a seat's own bot cannot
MAX_SPEC: Final = 200  # characters


@dataclass(frozen=True)
class _Option:
    kind: type  # int, float or str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()

    def allowed(self) -> str:
        if self.choices:
            return "one of " + ", ".join(self.choices)
        what = "an integer" if self.kind is int else "a number"
        return f"{what} from {self.low:g} to {self.high:g}"

    def parse(self, bot: str, key: str, text: str) -> Any:
        def bad() -> ValueError:
            return ValueError(f"option {key} of {bot} must be {self.allowed()}, not {text!r}")

        if self.choices:
            if text not in self.choices:
                raise bad()
            return text
        value: int | float
        try:
            value = int(text) if self.kind is int else float(text)
        except ValueError:
            raise bad() from None
        assert self.low is not None and self.high is not None
        if not math.isfinite(value) or not self.low <= value <= self.high:
            raise bad()
        return value


_OPTIONS: Final[dict[str, dict[str, _Option]]] = {
    **{level: {} for level in LEVELS},  # "master" takes options: below
    "random": {},
    "rules": {
        "knowledge": _Option(str, choices=("basic", "expert")),
        "slips": _Option(float, 0, 1),
    },
    "greedy": {
        "samples": _Option(int, 1, 64),
        "knowledge": _Option(str, choices=("basic", "expert")),
    },
    "ismcts": {
        "iterations": _Option(int, 1, 20_000),
        "heads_up": _Option(int, 1, 20_000),
        "seconds": _Option(float, 0.01, 10),
        "rollout": _Option(str, choices=("random", "greedy")),
        "rollout_rounds": _Option(int, 0, 5),
        "exploration": _Option(float, 0, 10),
        "knowledge": _Option(str, choices=("basic", "expert")),
    },
    "learned": {},
    "deep": {},
    "master": {
        "iterations": _Option(int, 1, 20_000),
        "heads_up": _Option(int, 1, 20_000),
        "exploration": _Option(float, 0, 10),
        "rollout_rounds": _Option(int, 0, 5),
        # what master adds to hard, each to be switched off for a comparison (0 or 1); `threat`
        # is the hand-made margin's (value=0): the fitted value always prices rival raids
        "simultaneous": _Option(int, 0, 1),
        "threat": _Option(int, 0, 1),
        "loads": _Option(int, 0, 1),
        "value": _Option(int, 0, 1),
    },
}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """`"ismcts:seconds=0.5:rollout=greedy"` → ("ismcts", {"seconds": 0.5, "rollout": "greedy"}).

    Raises ValueError, naming the option and what it allows, for an unknown bot or option, a
    repeated option, a value of the wrong type or out of range (NaN and infinities included)."""
    if not isinstance(spec, str):
        raise ValueError(f"a bot must be named by a text such as 'greedy', not {spec!r}")
    if len(spec) > MAX_SPEC:
        raise ValueError(f"a bot spec has at most {MAX_SPEC} characters")
    name, *parts = spec.strip().split(":")
    if name not in _OPTIONS:
        named = ", ".join(dict.fromkeys(LEVELS + BOTS))  # master is a level and a bot: once
        raise ValueError(f"unknown bot {name!r}; bots are {named}")
    known = _OPTIONS[name]
    options: dict[str, Any] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        option = known.get(key)
        if not eq or option is None:
            allowed = ", ".join(known) or "none"
            raise ValueError(f"bad option {part!r} for {name}; options: {allowed}")
        if key in options:
            raise ValueError(f"option {key} of {name} is given twice")
        options[key] = option.parse(name, key, value)
    return name, options


def safe_spec(spec: str) -> str:
    """`spec` if it names a valid bot, else `FALLBACK` (e.g. for a seat stored by an older
    server whose spec is no longer accepted)."""
    try:
        parse_spec(spec)
    except ValueError:
        return FALLBACK
    return spec


def make_bot(spec: str, seed: int | None = None) -> Agent:
    """A bot from its spec: a level name, optionally with `:key=value` options (checked by
    `parse_spec`; a bad spec raises ValueError)."""
    name, options = parse_spec(spec)
    if name == "master":
        from .master import MasterBot

        switches = ("simultaneous", "threat", "loads", "value")
        flags = {k: bool(v) for k, v in options.items() if k in switches}
        budget = {k: v for k, v in options.items() if k not in flags}
        return MasterBot(seed, **budget, **flags)
    if name in LEVEL_SPECS:
        return make_bot(LEVEL_SPECS[name], seed)
    if name == "random":
        return RandomBot(seed)
    if name == "rules":
        return RulesBot(seed, **options)
    if name == "greedy":
        return GreedyBot(seed, **options)
    if name == "learned":
        try:
            from .learned import LearnedBot  # numpy: the [rl] extra
        except ImportError as e:
            raise ValueError(f"the learned bot needs numpy (the rl extra: {RL_EXTRA}): {e}") from e
        return LearnedBot(seed)
    if name == "deep":
        try:
            from .deep import DeepBot  # numpy: the [rl] extra
        except ImportError as e:
            raise ValueError(f"the deep bot needs numpy (the rl extra: {RL_EXTRA}): {e}") from e
        return DeepBot(seed)
    return ISMCTSBot(seed, **options)


__all__ = [
    "BOTS",
    "FALLBACK",
    "LEVELS",
    "LEVEL_SPECS",
    "GreedyBot",
    "ISMCTSBot",
    "RandomBot",
    "RulesBot",
    "make_bot",
    "parse_spec",
    "safe_spec",
]
