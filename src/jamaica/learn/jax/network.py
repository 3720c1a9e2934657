"""The policy-and-value network in Flax, and its exchange with the numpy forward pass.

The same function as `jamaica.learn.deep.DeepPolicy.forward` (two `tanh` layers, a logit per
player action, a `tanh` value): the trainer computes gradients here and plays its games with the
numpy copy (`to_numpy`), one question at a time, where JAX's per-call dispatch would cost more
than the arithmetic. Illegal actions are masked by a large negative logit before the softmax.
"""

from __future__ import annotations

from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np

from ...rules.actions import NUM_PLAYER_ACTIONS
from ..deep import HIDDEN, DeepPolicy
from ..features import FEATURES

Params = Any  # a Flax parameter tree: {"params": {layer: {"kernel", "bias"}}}
MASKED = -1e9
_LAYERS = (("hidden1", "w1", "b1"), ("hidden2", "w2", "b2"), ("policy", "wp", "bp"),
           ("value", "wv", "bv"))  # fmt: skip


class Net(nn.Module):
    """x (…, FEATURES) → (logits (…, NUM_PLAYER_ACTIONS), value (…))."""

    hidden: int = HIDDEN

    @nn.compact
    def __call__(self, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        h = jnp.tanh(nn.Dense(self.hidden, name="hidden1")(x))
        h = jnp.tanh(nn.Dense(self.hidden, name="hidden2")(h))
        small = nn.initializers.variance_scaling(0.01, "fan_in", "truncated_normal")
        logits = nn.Dense(NUM_PLAYER_ACTIONS, name="policy", kernel_init=small)(h)
        value = jnp.tanh(nn.Dense(1, name="value")(h))[..., 0]
        return logits, value


def init(seed: int, hidden: int = HIDDEN) -> Params:
    return Net(hidden).init(jax.random.PRNGKey(seed), jnp.zeros((1, FEATURES), jnp.float32))


def masked_log_softmax(logits: jax.Array, mask: jax.Array) -> jax.Array:
    """log π(a) over the legal actions (`mask` True); illegal ones get a log-probability near
    −1e9, so they are never drawn and add nothing to an entropy or a loss."""
    return jax.nn.log_softmax(jnp.where(mask, logits, MASKED), axis=-1)


def to_numpy(params: Params) -> DeepPolicy:
    p = params["params"]
    weights: dict[str, np.ndarray] = {}
    for layer, w, b in _LAYERS:
        weights[w] = np.asarray(p[layer]["kernel"], np.float32)
        weights[b] = np.asarray(p[layer]["bias"], np.float32)
    return DeepPolicy(weights)


def from_numpy(policy: DeepPolicy) -> Params:
    w = policy.weights
    return {"params": {layer: {"kernel": jnp.asarray(w[k]), "bias": jnp.asarray(w[b])}
                       for layer, k, b in _LAYERS}}  # fmt: skip
