"""The shipped `deep` bot (numpy, no JAX): its weights fit the features, it answers only with
legal actions in every configuration, and the spec `deep` builds it."""

from __future__ import annotations

import random
import time
from pathlib import Path

import numpy as np
import pytest

from jamaica import Config, play_game
from jamaica.bots import make_bot, parse_spec
from jamaica.bots.deep import DeepBot
from jamaica.learn.deep import NAMES, DeepPolicy, probabilities, shapes, shipped
from jamaica.learn.features import FEATURES, features, outputs
from jamaica.rules import CHANCE, new_game
from jamaica.rules.actions import NUM_PLAYER_ACTIONS

from ..rules.strategies import ALL_CONFIGS


def _random_policy(seed: int, hidden: int = 16) -> DeepPolicy:
    rng = np.random.default_rng(seed)
    return DeepPolicy({k: rng.standard_normal(shape).astype(np.float32)
                       for k, shape in shapes(hidden).items()})  # fmt: skip


def test_the_shipped_weights_fit_the_features() -> None:
    policy = shipped()
    assert policy.weights["w1"].shape[0] == FEATURES
    assert policy.weights["wp"].shape[1] == NUM_PLAYER_ACTIONS
    assert parse_spec("deep") == ("deep", {})
    assert isinstance(make_bot("deep", 1), DeepBot)


def test_weights_of_another_shape_are_refused(tmp_path: Path) -> None:
    bad = _random_policy(0)
    bad.weights["w1"] = bad.weights["w1"][:-1]
    bad.save(tmp_path / "bad.npz")
    with pytest.raises(ValueError, match="shapes"):
        DeepPolicy.load(tmp_path / "bad.npz")


def test_a_checkpoint_round_trips_and_the_half_precision_copy_stays_close(tmp_path: Path) -> None:
    policy = _random_policy(1)
    policy.save(tmp_path / "full.npz")
    policy.save(tmp_path / "half.npz", half=True)
    full, half = DeepPolicy.load(tmp_path / "full.npz"), DeepPolicy.load(tmp_path / "half.npz")
    assert all(np.array_equal(full.weights[k], policy.weights[k]) for k in NAMES)
    assert all(np.allclose(half.weights[k], policy.weights[k], atol=1e-2, rtol=1e-3)
               for k in NAMES)  # fmt: skip


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=str)
def test_the_deep_bot_plays_only_legal_actions_in_every_configuration(config: Config) -> None:
    """Sampling from a random network, every action drawn is legal (the engine would raise):
    the mask gives illegal actions no probability at all."""
    bots = [DeepBot(seat, _random_policy(seat), sample=True) for seat in range(config.players)]
    record = play_game(config, bots, 5)
    assert record.winners


def test_illegal_actions_get_no_probability() -> None:
    policy = _random_policy(2)
    rng = random.Random(3)
    s = new_game(Config(players=3))
    checked = 0
    while not s.is_terminal() and checked < 40:
        who = s.current_player()
        if who != CHANCE and len(s.legal) > 1:
            logits, value = policy.forward(features(s.view(who)))
            p = probabilities(logits, outputs(s, who))
            assert p.shape == (len(s.legal),) and abs(p.sum() - 1) < 1e-5 and -1 <= value <= 1
            checked += 1
        s.apply(s.sample_chance(rng) if who == CHANCE else rng.choice(s.legal))
    assert checked == 40


def test_the_deep_bot_thinks_briefly() -> None:
    bot = make_bot("deep", 1)
    config = Config(players=2)
    start = time.perf_counter()
    record = play_game(config, [bot, make_bot("deep", 2)], 7)
    per_action = (time.perf_counter() - start) / len(record.actions)
    assert per_action < 0.005


def test_the_heads_up_table_alternates_seats_and_gives_a_wilson_interval() -> None:
    from jamaica.learn.jax.evaluate import heads_up

    line = heads_up("deep", "random", 4, 11, weights=_random_policy(5))
    assert line.games == 4 and 0 <= line.wins + line.lost <= 4
    lo, hi = line.ci
    assert 0 <= lo <= line.wins / 4 <= hi <= 1
    assert str(line).startswith("| `deep` vs `random` | 4 |")
