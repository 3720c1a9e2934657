"""The `deep` bot: the network `jamaica train --algo ppo` trains in JAX, played in numpy.

One forward pass per question (about a tenth of a millisecond), no search: its think time is
bounded by the network's size. It sees what its player may see and nothing more: its input is
computed from `State.view(player)`. The weights and the forward pass live in `jamaica.learn.deep`.
"""

from __future__ import annotations

import random

import numpy as np

from ..learn.deep import DeepPolicy, probabilities, shipped
from ..learn.features import features, outputs
from ..rules import Action, State
from ..rules.actions import ACTIONS


class DeepBot:
    """Plays the legal action the policy rates highest (`sample=True`: draws one with the
    policy's probabilities, from its seeded generator). The policy defaults to the shipped
    weights (`deep.npz`)."""

    name = "deep"

    def __init__(
        self, seed: int | None = None, policy: DeepPolicy | None = None, sample: bool = False
    ) -> None:
        self.rng = random.Random(seed)
        self.policy = policy if policy is not None else shipped()
        self.sample = sample

    def act(self, state: State, player: int) -> Action:
        legal = state.legal
        if len(legal) == 1:
            return legal[0]
        logits, _ = self.policy.forward(features(state.view(player)))
        rows = outputs(state, player)
        if not self.sample:
            return ACTIONS[int(legal[int(np.argmax(logits[rows]))])]
        p = np.cumsum(probabilities(logits, rows))
        i = int(np.searchsorted(p, self.rng.random() * float(p[-1])))
        return ACTIONS[int(legal[min(i, len(legal) - 1)])]
