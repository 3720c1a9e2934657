"""The `learned` bot: the policy network that `jamaica train` trains (numpy, the `rl` extra).

The network, what it reads and its weights live in `jamaica.learn` (`features`, `policy`); this
is the bot that plays with them. It sees what its player may see and nothing more: the features
are computed from `State.view(player)`.
"""

from __future__ import annotations

import random

import numpy as np

from ..learn.features import features, outputs
from ..learn.policy import Policy, shipped
from ..rules import Action, State
from ..rules.actions import ACTIONS


class LearnedBot:
    """Plays the legal action the policy rates highest (`sample=True`: draws one with the
    policy's probabilities, from its seeded generator). The policy defaults to the shipped
    weights; the trainer passes a frozen copy of its learner for self-play."""

    def __init__(
        self, seed: int | None = None, policy: Policy | None = None, sample: bool = False
    ) -> None:
        self.rng = random.Random(seed)
        self.policy = policy if policy is not None else shipped()
        self.sample = sample

    def act(self, state: State, player: int) -> Action:
        legal = state.legal
        if len(legal) == 1:
            return legal[0]
        logits = self.policy.logits(features(state.view(player)), outputs(state, player))
        if not self.sample:
            return ACTIONS[int(legal[int(np.argmax(logits))])]
        p = np.exp(logits - logits.max())
        x = self.rng.random() * float(p.sum())
        return ACTIONS[int(legal[min(int(np.searchsorted(np.cumsum(p), x)), len(legal) - 1)])]
