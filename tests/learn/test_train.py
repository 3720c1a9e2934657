"""The trained baseline: `jamaica train`, its policy gradient, and the shipped `learned` bot."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy  # noqa: F401  (the [rl] extra, installed with [dev]: a missing one fails)
import numpy as np
import pytest

from jamaica import Config, play_game
from jamaica.bots import make_bot
from jamaica.bots.learned import LearnedBot
from jamaica.cli import main
from jamaica.learn.features import FEATURES, features, outputs
from jamaica.learn.policy import Policy, shipped
from jamaica.learn.trainer import _Game, gradients, train
from jamaica.rules.actions import ATTACK, NUM_PLAYER_ACTIONS

from ..rules.strategies import ALL_CONFIGS, random_walk


def test_the_shipped_weights_fit_the_features() -> None:
    """The weights must match the features the bot computes: a change to `features` that
    forgets the weights fails here, not silently in play."""
    policy = shipped()
    assert policy.w1.shape[1] == FEATURES and policy.w2.shape[0] == NUM_PLAYER_ACTIONS
    for config in ALL_CONFIGS[::4]:
        s = next(x for x in random_walk(config, 1) if x.current_player() >= 0)
        assert features(s.view(s.current_player())).shape == (FEATURES,)


def test_weights_of_another_shape_are_refused(tmp_path: Path) -> None:
    small = Policy.initial(0)
    small.w1 = small.w1[:, :-1]
    small.save(str(tmp_path / "bad.npz"))
    with pytest.raises(ValueError, match="shapes"):
        Policy.load(str(tmp_path / "bad.npz"))


@pytest.mark.parametrize("config", ALL_CONFIGS[::5], ids=str)
def test_the_features_hold_only_what_the_player_may_see(config: Config) -> None:
    rng = random.Random(4)
    for i, s in enumerate(random_walk(config, 2)):
        if s.is_terminal() or i % 11:
            continue
        for p in range(s.n):
            mine = features(s.view(p))
            assert np.array_equal(features(s.resample(p, rng).view(p)), mine)


def test_attacks_are_named_by_the_target_s_seat_from_the_attacker() -> None:
    """`attack K` maps to the slot of ship K as its attacker sees the table, so one set of
    weights reads every seat alike."""
    checked = 0
    for seed in range(40):
        for s in random_walk(Config(players=4), seed):
            if s.current_player() >= 0 and s.decision_kind() == "attack":
                me = s.current_player()
                for a, row in zip(s.legal, outputs(s, me), strict=True):
                    k = a - ATTACK
                    if 0 <= k < 4:
                        assert row == ATTACK + (k - me) % 4
                        checked += 1
        if checked >= 5:
            break
    assert checked >= 5


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_learned_bot_plays_every_configuration(players: int) -> None:
    bots = [make_bot("learned", p) for p in range(players)]
    record = play_game(Config(players=players), bots, seed=players)
    assert record.winners


def test_the_learned_bot_beats_random_heads_up() -> None:
    """Fixed seeds, so the same games every run; random against random wins about 40% here."""
    wins = 0.0
    for g in range(60):
        seats = [make_bot("learned", g), make_bot("random", g)]
        if g % 2:
            seats.reverse()
        record = play_game(Config(players=2), seats, seed=1000 + g)
        learner = g % 2
        wins += 1 / len(record.winners) if learner in record.winners else 0.0
    assert wins / 60 >= 0.55


def test_the_gradient_is_the_policy_gradient() -> None:
    """Finite differences on a tiny policy: the gradient of −advantage · log π(a)."""
    policy = Policy.initial(3, hidden=4)
    rng = np.random.default_rng(0)
    x = rng.random(FEATURES).astype(np.float32)
    rows, pick, advantage = [5, 17, 40], 1, 0.7
    game = _Game([x], [rows], [pick], advantage, 0.0, "random")

    def loss(p: Policy) -> float:
        logits = p.logits(x, rows).astype(np.float64)
        logp = logits - np.log(np.exp(logits - logits.max()).sum()) - logits.max()
        return float(-advantage * logp[pick])

    grads = gradients(policy, [game], {"random": 0.0}, entropy=0.0)
    eps = 1e-2
    for param, grad in zip(policy.params(), grads, strict=True):
        flat = param.reshape(-1)
        for i in np.flatnonzero(np.abs(grad.reshape(-1)) > 1e-4)[:5]:
            old = flat[i]
            flat[i] = old + eps
            up = loss(policy)
            flat[i] = old - eps
            down = loss(policy)
            flat[i] = old
            assert (up - down) / (2 * eps) == pytest.approx(grad.reshape(-1)[i], rel=0.05)


def test_training_is_seeded_and_saves_its_weights(tmp_path: Path) -> None:
    out = tmp_path / "w.npz"
    a, curve = train(games=16, batch=8, opponents=["random"], seed=5, out=str(out))
    b, _ = train(games=16, batch=8, opponents=["random"], seed=5)
    assert [p.games for p in curve.points] == [8, 16]
    assert all(np.array_equal(x, y) for x, y in zip(a.params(), b.params(), strict=True))
    assert not np.array_equal(a.w2, Policy.initial(5).w2)  # it learned something
    loaded = Policy.load(str(out))
    assert np.allclose(loaded.w1, a.w1, atol=1e-2)
    bot = LearnedBot(1, loaded)
    play_game(Config(players=2), [bot, make_bot("random", 1)], seed=2)


def test_jamaica_train_writes_weights_and_a_learning_curve(tmp_path: Path) -> None:
    out, plot = tmp_path / "w.npz", tmp_path / "curve.png"
    argv = ["train", "--games", "8", "--opponents", "random,self", "--out", str(out)]
    assert main([*argv, "--plot", str(plot)]) == 0
    assert Policy.load(str(out)).w1.shape == (64, FEATURES)
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_train_plot_without_matplotlib_fails_before_training(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 27: with only the [rl] extra, `--plot` used to train the whole budget, then crash.
    Now it stops at once, saying how to install matplotlib, and trains nothing."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    out = tmp_path / "w.npz"
    argv = ["train", "--games", "8", "--out", str(out), "--plot", str(tmp_path / "c.png")]
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert "pip install -e '.[lab]'" in capsys.readouterr().err
    assert not out.exists()


def test_training_keeps_the_best_weights_seen(tmp_path: Path) -> None:
    """With a window of one batch, the weights kept are those after the batch with the best win
    rate: the same as a run stopped right after that batch."""
    out = tmp_path / "best.npz"
    kept, curve = train(games=40, batch=8, opponents=["random"], seed=2, window=1, out=str(out))
    rates = [p.win_rate["random"] for p in curve.points]
    best = rates.index(max(rates))
    assert best < len(rates) - 1  # the last batch is not the best one: keeping matters here
    stopped, _ = train(games=8 * (best + 1), batch=8, opponents=["random"], seed=2, window=99)
    assert all(np.array_equal(x, y) for x, y in zip(kept.params(), stopped.params(), strict=True))
    assert np.allclose(Policy.load(str(out)).w2, kept.w2, atol=1e-2)
