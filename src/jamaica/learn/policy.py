"""The `learned` bot's policy network, its checkpoint format and the shipped weights.

`logits = W2 · tanh(W1 · x + b1) + b2`: `x` is `features.features(view)` (`FEATURES` numbers),
a hidden layer of `tanh` units (`HIDDEN` by default), one logit per player action.

A checkpoint is a NumPy `.npz` archive (compressed) of four float16 arrays, `w1`
(hidden × `FEATURES`), `b1` (hidden), `w2` (`NUM_PLAYER_ACTIONS` × hidden) and `b2`
(`NUM_PLAYER_ACTIONS`); the hidden size is read from them. `jamaica train` writes one
(`Policy.save`); the shipped weights are the checkpoint `learned.npz` beside this module (package
data). `Policy.load` checks the shapes against `FEATURES` and the 140 actions, so a change to the
features fails loudly instead of misreading old weights.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

import numpy as np

from ..rules.actions import NUM_PLAYER_ACTIONS
from .features import FEATURES

HIDDEN: Final = 64
WEIGHTS_FILE: Final = "learned.npz"


@dataclass
class Policy:
    """logits = W2 · tanh(W1 · x + b1) + b2, one logit per player action."""

    w1: np.ndarray  # (HIDDEN, FEATURES)
    b1: np.ndarray
    w2: np.ndarray  # (NUM_PLAYER_ACTIONS, HIDDEN)
    b2: np.ndarray

    @staticmethod
    def initial(seed: int, hidden: int = HIDDEN) -> Policy:
        rng = np.random.default_rng(seed)
        return Policy(
            (rng.standard_normal((hidden, FEATURES)) / math.sqrt(FEATURES)).astype(np.float32),
            np.zeros(hidden, np.float32),
            (rng.standard_normal((NUM_PLAYER_ACTIONS, hidden)) * 0.01).astype(np.float32),
            np.zeros(NUM_PLAYER_ACTIONS, np.float32),
        )

    def params(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.w2, self.b2]

    def check(self) -> None:
        h = self.b1.shape[0]
        want = [(h, FEATURES), (h,), (NUM_PLAYER_ACTIONS, h), (NUM_PLAYER_ACTIONS,)]
        got = [p.shape for p in self.params()]
        if got != want:
            raise ValueError(f"learned weights have shapes {got}, the features need {want}")

    def logits(self, x: np.ndarray, rows: list[int]) -> np.ndarray:
        h = np.tanh(self.w1 @ x + self.b1)
        return self.w2[rows] @ h + self.b2[rows]  # type: ignore[no-any-return]

    def save(self, path: str) -> None:
        """Write the checkpoint: half-precision weights, compressed (about 110 kB)."""
        half = [p.astype(np.float16) for p in self.params()]
        np.savez_compressed(path, w1=half[0], b1=half[1], w2=half[2], b2=half[3])

    @staticmethod
    def load(path: Any = None) -> Policy:
        """The checkpoint at `path` (a file name or a binary file), or the shipped one."""
        if path is None:
            where: Any = resources.as_file(resources.files(__package__) / WEIGHTS_FILE)
        else:
            where = contextlib.nullcontext(path)
        with where as file, np.load(file) as data:
            policy = Policy(*(data[k].astype(np.float32) for k in ("w1", "b1", "w2", "b2")))
        policy.check()
        return policy


_SHIPPED: list[Policy] = []


def shipped() -> Policy:
    """The shipped weights (`learned.npz`), loaded once."""
    if not _SHIPPED:
        _SHIPPED.append(Policy.load())
    return _SHIPPED[0]
