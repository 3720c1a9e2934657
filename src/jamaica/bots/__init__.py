"""Bots: agents that play Jamaica fairly, deciding only from what their player may see.

Every bot has `act(state, player) -> Action` (the `jamaica.Agent` interface) and is seeded:
the same seed and the same game give the same decisions. A bot never reads the true hidden
cards: it works on `state.resample(player, rng)`, a world drawn from its player's view.
"""

from __future__ import annotations

from typing import Any, Final

from ..rules import Agent
from ..rules import RandomAgent as RandomBot
from .greedy import GreedyBot
from .ismcts import ISMCTSBot

LEVELS: Final = ("random", "greedy", "ismcts")
_OPTIONS: Final[dict[str, dict[str, type]]] = {
    "random": {},
    "greedy": {"samples": int},
    "ismcts": {
        "iterations": int,
        "seconds": float,
        "rollout": str,
        "rollout_rounds": int,
        "exploration": float,
    },
}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """`"ismcts:seconds=0.5:rollout=greedy"` → ("ismcts", {"seconds": 0.5, "rollout": "greedy"})."""
    name, *parts = spec.strip().split(":")
    if name not in _OPTIONS:
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join(LEVELS)}")
    options: dict[str, Any] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        kind = _OPTIONS[name].get(key)
        if not eq or kind is None:
            allowed = ", ".join(_OPTIONS[name]) or "none"
            raise ValueError(f"bad option {part!r} for {name}; options: {allowed}")
        try:
            options[key] = kind(value)
        except ValueError:
            raise ValueError(f"option {key} of {name} must be a {kind.__name__}") from None
    return name, options


def make_bot(spec: str, seed: int | None = None) -> Agent:
    """A bot from its spec: a level name, optionally with `:key=value` options."""
    name, options = parse_spec(spec)
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed, **options)
    return ISMCTSBot(seed, **options)


__all__ = ["LEVELS", "GreedyBot", "ISMCTSBot", "RandomBot", "make_bot", "parse_spec"]
