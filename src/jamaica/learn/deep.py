"""The `deep` bot's network in numpy: the forward pass of the policy `jamaica train --algo ppo`
trains in JAX, so the bot plays with the base install and the `rl` extra's numpy, without JAX.

    h1 = tanh(x · W1 + b1)      x: `features.features(view)` (`FEATURES` numbers, seat-relative)
    h2 = tanh(h1 · W2 + b2)
    logits = h2 · Wp + bp       one per player action (`attack K` renamed by K's slot)
    value = tanh(h2 · wv + bv)  the player's expected "rank" return (+1 first, −1 last)

The input and the output rows are those of the `learned` bot (`features.py`): padded to six
ships and read from the player's seat, so one network plays 2 to 6 players. The illegal actions'
logits are masked out (`probabilities`).

A checkpoint is a compressed NumPy `.npz` of the eight arrays (`NAMES`); the JAX trainer writes
them in float32, the shipped `deep.npz` beside this module in float16 (half the size; the trainer
measures the exported policy, rounding included). `DeepPolicy.load` checks the shapes, so a change
to the features fails loudly instead of misreading old weights.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

import numpy as np

from ..rules.actions import NUM_PLAYER_ACTIONS
from .features import FEATURES

HIDDEN: Final = 256
WEIGHTS_FILE: Final = "deep.npz"
NAMES: Final = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")


def shapes(hidden: int) -> dict[str, tuple[int, ...]]:
    """Each array's shape for a network of `hidden` units per layer."""
    return {
        "w1": (FEATURES, hidden), "b1": (hidden,), "w2": (hidden, hidden), "b2": (hidden,),
        "wp": (hidden, NUM_PLAYER_ACTIONS), "bp": (NUM_PLAYER_ACTIONS,),
        "wv": (hidden, 1), "bv": (1,),
    }  # fmt: skip


@dataclass
class DeepPolicy:
    """The eight arrays of the network (`NAMES`), float32."""

    weights: dict[str, np.ndarray]

    @property
    def hidden(self) -> int:
        return int(self.weights["b1"].shape[0])

    def check(self) -> None:
        want = shapes(self.hidden)
        got = {k: tuple(self.weights[k].shape) for k in NAMES if k in self.weights}
        if got != want:
            raise ValueError(f"deep weights have shapes {got}, the features need {want}")

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Logits (…, `NUM_PLAYER_ACTIONS`) and value (…) for features `x` (…, `FEATURES`)."""
        w = self.weights
        h = np.tanh(x @ w["w1"] + w["b1"])
        h = np.tanh(h @ w["w2"] + w["b2"])
        return h @ w["wp"] + w["bp"], np.tanh(h @ w["wv"] + w["bv"])[..., 0]

    def save(self, path: Any, half: bool = False) -> None:
        """Write the checkpoint (float16 if `half`: the shipped file)."""
        w = {k: a.astype(np.float16 if half else np.float32) for k, a in self.weights.items()}
        np.savez_compressed(path, w1=w["w1"], b1=w["b1"], w2=w["w2"], b2=w["b2"],
                            wp=w["wp"], bp=w["bp"], wv=w["wv"], bv=w["bv"])  # fmt: skip

    @staticmethod
    def load(path: Any = None) -> DeepPolicy:
        """The checkpoint at `path` (a file name or a binary file), or the shipped one."""
        if path is None:
            where: Any = resources.as_file(resources.files(__package__) / WEIGHTS_FILE)
        else:
            where = contextlib.nullcontext(path)
        with where as file, np.load(file) as data:
            missing = [k for k in NAMES if k not in data]
            if missing:
                raise ValueError(f"deep weights lack {', '.join(missing)}")
            policy = DeepPolicy({k: data[k].astype(np.float32) for k in NAMES})
        policy.check()
        return policy


def probabilities(logits: np.ndarray, rows: list[int]) -> np.ndarray:
    """The policy's probability of each legal action (`rows`: their output rows)."""
    z = logits[rows]
    p = np.exp(z - z.max())
    return p / p.sum()  # type: ignore[no-any-return]


_SHIPPED: list[DeepPolicy] = []


def shipped() -> DeepPolicy:
    """The shipped weights (`deep.npz`), loaded once."""
    if not _SHIPPED:
        _SHIPPED.append(DeepPolicy.load())
    return _SHIPPED[0]
