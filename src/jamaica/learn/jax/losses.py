"""The two losses and their jitted optimizer steps: behaviour cloning and clipped PPO.

Both read a batch of decisions with their legal-action masks; the policy's log-probabilities are
taken over the legal actions only (`network.masked_log_softmax`), so no loss ever pushes
probability onto an illegal action and the entropy bonus counts legal actions only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import jax
import jax.numpy as jnp
import optax

from .network import Net, Params, masked_log_softmax

Arrays = dict[str, jax.Array]
Step = Callable[[Params, Any, Arrays], tuple[Params, Any, Arrays]]


def _chosen(logp_all: jax.Array, action: jax.Array) -> jax.Array:
    return jnp.take_along_axis(logp_all, action[:, None], axis=1)[:, 0]


def _entropy(logp_all: jax.Array, mask: jax.Array) -> jax.Array:
    return -jnp.where(mask, jnp.exp(logp_all) * logp_all, 0.0).sum(axis=1)


def bc_loss(net: Net, params: Params, b: Arrays) -> tuple[jax.Array, Arrays]:
    """Cross-entropy of the teacher's action + half the value's squared error to the return."""
    logits, value = cast(tuple[jax.Array, jax.Array], net.apply(params, b["x"]))
    nll = -_chosen(masked_log_softmax(logits, b["mask"]), b["action"]).mean()
    v = ((value - b["ret"]) ** 2).mean()
    return nll + 0.5 * v, {"nll": nll, "value": v}


def ppo_loss(
    net: Net, params: Params, b: Arrays, clip: float, vf: float, ent: float
) -> tuple[jax.Array, Arrays]:
    """The clipped surrogate (advantages normalized per minibatch), the value's squared error
    and an entropy bonus (Schulman et al. 2017)."""
    logits, value = cast(tuple[jax.Array, jax.Array], net.apply(params, b["x"]))
    logp_all = masked_log_softmax(logits, b["mask"])
    logp = _chosen(logp_all, b["action"])
    adv = (b["advantage"] - b["advantage"].mean()) / (b["advantage"].std() + 1e-8)
    ratio = jnp.exp(logp - b["logp"])
    pg = -jnp.minimum(ratio * adv, jnp.clip(ratio, 1 - clip, 1 + clip) * adv).mean()
    v = ((value - b["ret"]) ** 2).mean()
    h = _entropy(logp_all, b["mask"]).mean()
    kl = (b["logp"] - logp).mean()
    return pg + vf * v - ent * h, {"policy": pg, "value": v, "entropy": h, "kl": kl}


def optimizer(lr: float, max_norm: float = 0.5) -> optax.GradientTransformation:
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(lr))


def make_step(
    net: Net, opt: optax.GradientTransformation, loss: Callable[..., tuple[jax.Array, Arrays]],
    **hyper: float,
) -> Step:  # fmt: skip
    """One jitted gradient step of `loss` (bc_loss or ppo_loss, with its hyper-parameters)."""

    def step(params: Params, state: Any, b: Arrays) -> tuple[Params, Any, Arrays]:
        (_, info), grads = jax.value_and_grad(
            lambda p: loss(net, p, b, **hyper), has_aux=True
        )(params)
        updates, state = opt.update(grads, state, params)
        return optax.apply_updates(params, updates), state, info

    return jax.jit(step)
