"""The three levels offered to players — `easy`, `medium`, `hard` — and the `rules` bot.

A level is a fixed bot with a budget counted in iterations, never in seconds, so a game against a
level replays exactly from its seed whatever the machine:

- `easy`: the `rules` bot — a sensible pirate without foresight: every question answered by the
  rules of thumb of `heuristics.py`, at once.
- `medium`: the one-step lookahead of `greedy` with the expert's knowledge (`expert.py`).
- `hard`: information-set MCTS with the expert's knowledge, spending its iterations on the card
  and the dice order and a share of them on smaller questions; at most about 1 s per decision on
  one core.
"""

from __future__ import annotations

import random
from typing import Final

from ..rules import Action, State
from . import expert, heuristics

LEVELS: Final = ("easy", "medium", "hard")

# What each level is, as the spec of the bot it plays like (see `jamaica.bots.parse_spec`).
LEVEL_SPECS: Final = {
    "easy": "rules",
    "medium": "greedy:samples=2:knowledge=expert",
    "hard": "ismcts:iterations=300:knowledge=expert",
}


class RulesBot:
    """Answers every question by rules of thumb, without lookahead; fair: it decides on a world
    drawn from its player's view."""

    name = "rules"

    def __init__(self, seed: int | None = None, knowledge: str = "basic") -> None:
        if knowledge not in ("basic", "expert"):
            raise ValueError(f"knowledge must be 'basic' or 'expert', not {knowledge!r}")
        self.rng = random.Random(seed)
        self.quick = expert.quick if knowledge == "expert" else heuristics.quick

    def act(self, state: State, player: int) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self.quick(state.resample(player, self.rng), player, self.rng)
