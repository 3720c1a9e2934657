"""A value fitted to outcomes: each ship's chance to win the game, from the start of a round.

Hard's evaluation is a margin of points against the best rival, squashed into [0, 1] the same
way at every stage of the game; the study of its losses (issue 28) found that the limit of its
play. This one is fitted to how games actually end: a conditional logit over the ships,

    P(ship k wins) = exp(w · f(k)) / Σ_j exp(w · f(j)),

where f(k) are a few facts of ship k (`FEATURES`), each also multiplied by how late in the game
it is (`lateness`: 0 at the start, 1 when the leader finishes), since a point of margin decides
more near the end. The weights `w` are fitted by maximum likelihood to the winners of self-play
games (`jamaica lab fit-value`, which wrote `value.json` and the figures in `docs/bots.md`).

Pure Python on a world, so it plays without numpy (the server's `web` extra); a bot calls it on
worlds drawn from its player's view. `master` searches with it (`MasterBot(value=True)`).
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from typing import Final

from ..rules import State
from ..rules.data import FOOD, GOLD, GUNPOWDER
from . import expert, threat
from .heuristics import holds_of

# The facts of a ship, in `value.json`'s order; each comes plain and times the lateness.
FACTS: Final = ("estimate", "moves_left", "doubloons", "food", "gunpowder", "ghost")
FEATURES: Final = tuple(f for fact in FACTS for f in (fact, fact + "*late"))
HORIZON: Final = 45.0  # moves from the finish at which the game is still "early" (lateness 0)


def lateness(s: State) -> float:
    """0 while the leading ship is `HORIZON` moves or more from the finish, 1 when it is there."""
    leader = min(s.moves_left(k) for k in range(s.ns))
    return max(0.0, 1.0 - leader / HORIZON)


def facts(s: State, ship: int) -> tuple[float, float, float, float, float, float]:
    """`FACTS` of `ship`: the estimate of its final score (rival raids priced), its distance to
    the finish in tens of moves, its doubloons, food, gunpowder (at most 8), and 1 for the Ghost
    Ship."""
    ghost = ship == s.gh
    est = expert.estimate(s, ship, ship) if ghost else threat.estimate(s, ship, ship)
    return (est, s.moves_left(ship) / 10.0, float(holds_of(s, ship, GOLD)),
            float(holds_of(s, ship, FOOD)), float(min(8, holds_of(s, ship, GUNPOWDER))),
            1.0 if ghost else 0.0)  # fmt: skip


def features(s: State, ship: int, late: float) -> list[float]:
    """`FEATURES` of `ship` at lateness `late`."""
    return [x for fact in facts(s, ship) for x in (fact, fact * late)]


@cache
def weights() -> tuple[float, ...]:
    """The fitted weights, in `FEATURES` order (read once from the shipped `value.json`)."""
    data = json.loads(resources.files(__package__).joinpath("value.json").read_text("utf-8"))
    if tuple(data["features"]) != FEATURES:
        raise ValueError("value.json does not fit this version's features")
    return tuple(float(w) for w in data["weights"])


def win_chances(s: State, w: tuple[float, ...] | None = None) -> list[float]:
    """Each ship's chance to win, Ghost Ship included (they sum to 1). At the end: the winners
    share the win."""
    if s.is_terminal():
        won = s.winners()
        return [1.0 / len(won) if k in won else 0.0 for k in range(s.ns)]
    w = w if w is not None else weights()
    late = lateness(s)
    u = [sum(wi * x for wi, x in zip(w, features(s, k, late), strict=True)) for k in range(s.ns)]
    top = max(u)
    e = [math.exp(x - top) for x in u]
    total = sum(e)
    return [x / total for x in e]


def rewards(s: State) -> list[float]:
    """Per player, in [0, 1]: the chance to win (the search's reward)."""
    return win_chances(s)[: s.n]
