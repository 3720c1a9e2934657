"""`jamaica train --algo ppo` (the `jax` extra): the network and its numpy copy agree, the losses
move, masked actions are never drawn, and the command runs end to end on a 5-second budget."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from jamaica.bots.deep import DeepBot
from jamaica.cli import main
from jamaica.learn.deep import DeepPolicy, probabilities
from jamaica.learn.features import features, outputs
from jamaica.learn.jax import games
from jamaica.learn.jax.losses import bc_loss, make_step, optimizer, ppo_loss
from jamaica.learn.jax.network import Net, from_numpy, init, masked_log_softmax, to_numpy
from jamaica.rules import CHANCE, Config, new_game, play_game

HIDDEN = 16


def _data(seed: int) -> games.Batch:
    rng = random.Random(seed)
    return games.to_batch(games.teacher_game("greedy", Config(players=2), rng))


def _arrays(b: games.Batch) -> dict[str, jax.Array]:
    return {"x": jnp.asarray(b.x), "mask": jnp.asarray(b.mask), "action": jnp.asarray(b.action),
            "logp": jnp.asarray(b.logp), "advantage": jnp.asarray(b.advantage),
            "ret": jnp.asarray(b.ret)}  # fmt: skip


def test_the_numpy_copy_gives_the_jax_network_s_probabilities(tmp_path: Path) -> None:
    """What the bot plays (numpy, float16 on disk) is what was trained (JAX)."""
    params = init(3, HIDDEN)
    net = Net(HIDDEN)
    policy = to_numpy(params)
    policy.save(tmp_path / "half.npz", half=True)
    shipped = DeepPolicy.load(tmp_path / "half.npz")
    rng = random.Random(1)
    s = new_game(Config(players=4))
    compared = 0
    while not s.is_terminal() and compared < 30:
        who = s.current_player()
        if who != CHANCE and len(s.legal) > 1:
            x, rows = features(s.view(who)), outputs(s, who)
            mask = np.zeros(policy.weights["bp"].shape, bool)
            mask[rows] = True
            for p, numpy_policy in ((params, policy), (from_numpy(shipped), shipped)):
                logits, value = net.apply(p, jnp.asarray(x[None]))
                want = np.exp(np.asarray(masked_log_softmax(logits, jnp.asarray(mask[None]))[0]))
                got_logits, got_value = numpy_policy.forward(x)
                assert np.allclose(probabilities(got_logits, rows), want[rows], atol=1e-5)
                assert want[~mask].max(initial=0.0) < 1e-30
                assert abs(float(got_value) - float(value[0])) < 1e-5
            compared += 1
        s.apply(s.sample_chance(rng) if who == CHANCE else rng.choice(s.legal))
    assert compared == 30


def test_a_tiny_network_learns_its_teacher_and_ppo_moves_it() -> None:
    data = _arrays(_data(2))
    net = Net(HIDDEN)
    params = init(0, HIDDEN)
    opt = optimizer(3e-3)
    state = opt.init(params)
    step = make_step(net, opt, bc_loss)
    first = float(bc_loss(net, params, data)[0])
    for _ in range(30):
        params, state, _ = step(params, state, data)
    assert float(bc_loss(net, params, data)[0]) < 0.8 * first

    policy = to_numpy(params)
    t = games.learner_game(policy, Config(players=2), 0, {1: DeepBot(1, policy)},
                           random.Random(4))  # fmt: skip
    batch = games.to_batch([t])
    assert all(batch.mask[i, a] for i, a in enumerate(batch.action))  # only legal picks
    b = _arrays(batch)
    hyper = {"clip": 0.2, "vf": 0.5, "ent": 0.01}
    before = ppo_loss(net, params, b, **hyper)[1]
    assert abs(float(before["kl"])) < 1e-4  # the data was drawn by these very weights
    ppo = make_step(net, optimizer(1e-3), ppo_loss, **hyper)
    ppo_state = optimizer(1e-3).init(params)
    moved = params
    for _ in range(5):
        moved, ppo_state, _ = ppo(moved, ppo_state, b)
    assert float(ppo_loss(net, moved, b, **hyper)[0]) < float(ppo_loss(net, params, b, **hyper)[0])


def test_advantages_sum_to_the_return_s_surprise() -> None:
    """With λ = 1 the advantage of the first decision is the reward minus its value."""
    adv = games.gae([0.1, 0.3, -0.2], 1.0, 1.0)
    assert np.isclose(adv[0], 0.9) and np.isclose(adv[-1], 1.2)


def test_jamaica_train_ppo_runs_end_to_end_on_a_five_second_budget(tmp_path: Path) -> None:
    out, export = tmp_path / "run", tmp_path / "deep.npz"
    argv = ["train", "--algo", "ppo", "--seed", "2", "--minutes", str(5 / 60), "--games", "6",
            "--teacher", "greedy", "--out", str(out), "--export", str(export)]  # fmt: skip
    assert main(argv) == 0
    rows = list(csv.DictReader((out / "curve.csv").open()))
    assert [r["phase"] for r in rows] == ["bc", "ppo"]
    assert 0 <= float(rows[-1]["vs_greedy"]) <= 1 and int(rows[-1]["duels"]) >= 2
    assert (out / "curve.png").stat().st_size > 0 and (out / "best.npz").exists()
    policy = DeepPolicy.load(export)
    assert play_game(Config(players=3), [DeepBot(k, policy) for k in range(3)], 1).winners


def test_the_same_seed_and_games_give_the_same_weights(tmp_path: Path) -> None:
    """The budget in games is counted, so a run is reproducible from its seed."""
    from jamaica.learn.jax.train import Settings, train

    settings = Settings(seed=4, games=8, teacher_games=2, bc_epochs=1, hidden=HIDDEN,
                        games_per_update=4, eval_every=1, eval_games=2, minibatch=64,
                        opponents=("greedy", "self"))  # fmt: skip
    runs = [train(settings, str(tmp_path / name), lambda _: None) for name in ("a", "b")]
    a, b = (DeepPolicy.load(tmp_path / name / "ppo-00002.npz") for name in ("a", "b"))
    assert all(np.array_equal(a.weights[k], b.weights[k]) for k in a.weights)
    assert [p.win for p in runs[0].points] == [p.win for p in runs[1].points]
