"""The four levels offered to players — `easy`, `medium`, `hard`, `master` — and the `rules` bot.

A level is a fixed bot with a budget counted in iterations, never in seconds, so a game against a
level replays exactly from its seed whatever the machine:

- `easy`: the `rules` bot, careless a quarter of the time — a pirate without foresight: a
  question is answered by the rules of thumb of `heuristics.py`, at once, or one time in four by
  any legal answer at random (drawn from the bot's seed, so a game still replays).
- `medium`: the one-step lookahead of `greedy` with the expert's knowledge (`expert.py`).
- `hard`: information-set MCTS with the expert's knowledge, spending its iterations on the card
  and the dice order and a share of them on smaller questions: 300 of them, or 600 heads-up,
  where an iteration plays two players' turns instead of four and costs about half as much; at
  most about 1 s per decision on one core.
- `master`: the `master` bot (`master.py`): hard's search with the card choice searched as a
  simultaneous move, rival ships priced as a threat, a value fitted to who wins (loads and
  payments by the expert's rules of thumb, as hard), and a larger budget — at most about 1 s per
  decision on one core.
"""

from __future__ import annotations

import random
from typing import Final

from ..rules import Action, State
from . import expert, heuristics

LEVELS: Final = ("easy", "medium", "hard", "master")

# What each level is, as the spec of the bot it plays like (see `jamaica.bots.parse_spec`).
LEVEL_SPECS: Final = {
    "easy": "rules:slips=0.25",
    "medium": "greedy:samples=2:knowledge=expert",
    "hard": "ismcts:iterations=300:heads_up=600:knowledge=expert",
    "master": "master",  # its own bot (`master.py`), with its default budget
}


class RulesBot:
    """Answers every question by rules of thumb, without lookahead — or, `slips` of the time, by
    any legal answer at random (a careless pirate); fair: it decides on a world drawn from its
    player's view, and its slips are drawn from its own seeded generator."""

    name = "rules"

    def __init__(
        self, seed: int | None = None, knowledge: str = "basic", slips: float = 0.0
    ) -> None:
        if knowledge not in ("basic", "expert"):
            raise ValueError(f"knowledge must be 'basic' or 'expert', not {knowledge!r}")
        if not 0.0 <= slips <= 1.0:
            raise ValueError(f"slips must be a share from 0 to 1, not {slips!r}")
        self.rng = random.Random(seed)
        self.quick = expert.quick if knowledge == "expert" else heuristics.quick
        self.slips = slips

    def act(self, state: State, player: int) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.slips and self.rng.random() < self.slips:
            return legal[int(self.rng.random() * len(legal))]
        return self.quick(state.resample(player, self.rng), player, self.rng)
