"""Jamaica in PettingZoo: the conformance suites, rewards, rendering, and observations that hold
only what the acting player may see."""

from __future__ import annotations

import random

import numpy as np
import pettingzoo  # noqa: F401  (the [rl] extra, installed with [dev]: a missing one fails)
import pytest
from pettingzoo.test import api_test, seed_test

from jamaica import Config, IllegalActionError
from jamaica.envs import jamaica_v0
from jamaica.envs.encoding import encode, observation_size

from ..rules.strategies import ALL_CONFIGS, random_walk


@pytest.mark.parametrize("players", [2, 4, 6])
def test_api_test(players: int) -> None:
    api_test(jamaica_v0.env(players=players), num_cycles=300)


def test_seed_test() -> None:
    seed_test(lambda: jamaica_v0.env(players=3, edition="classic"), num_cycles=300)


NEW_OPTIONS = [  # issue 27: seat-relative and fixed-size observations, shaping, penalties
    {"players": 2, "observation": "fixed", "reward_shaping": True, "illegal_action": "penalize"},
    {"players": 5, "observation": "relative", "reward": "score", "reward_shaping": True},
    {"players": 6, "observation": "fixed", "illegal_action": "penalize", "reward": "win"},
]


@pytest.mark.parametrize("options", NEW_OPTIONS, ids=str)
def test_api_test_and_seed_test_with_the_options(options: dict[str, object]) -> None:
    api_test(jamaica_v0.env(**options), num_cycles=300)
    seed_test(lambda: jamaica_v0.env(**options), num_cycles=300)


def _play(e: object, seed: int) -> dict[str, float]:
    e.reset(seed=seed)  # type: ignore[attr-defined]
    rng = random.Random(seed)
    total: dict[str, float] = {}
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, reward, term, trunc, _ = e.last()  # type: ignore[attr-defined]
        total[agent] = total.get(agent, 0.0) + reward
        if term or trunc:
            e.step(None)  # type: ignore[attr-defined]
            continue
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))  # type: ignore[attr-defined]
    return total


def test_rewards_rank_and_score() -> None:
    e = jamaica_v0.env(players=3, reward="score")
    scores = _play(e, 5)
    game = e.unwrapped.game
    assert scores == {f"player_{p}": float(game.scores()[p].total) for p in range(3)}
    r = jamaica_v0.env(players=3)
    ranks = _play(r, 5)
    values = sorted(ranks.values())
    assert all(-1.0 <= v <= 1.0 for v in values)
    winners = r.unwrapped.game.winners()
    for p in range(3):
        assert (ranks[f"player_{p}"] == 1.0) == (winners == [p])


def test_render_ansi_draws_the_board() -> None:
    e = jamaica_v0.env(players=2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert "Port Royal" in text and "outer" in text and "inner" in text and "[" not in text


def test_illegal_actions_are_refused() -> None:
    e = jamaica_v0.env(players=2)
    e.reset(seed=1)
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(bad)


def test_a_refused_action_keeps_the_reward_not_yet_collected() -> None:
    """An illegal action with `illegal_action="raise"` changes nothing, the agent's reward since
    its last turn included (with shaping, rewards come every step): retrying collects it."""
    e = jamaica_v0.env(players=4, reward="score", reward_shaping=True)
    e.reset(seed=1)
    rng = random.Random(1)
    while True:
        obs, reward, done, _, _ = e.last()
        assert not done, "no step gave a reward"
        if reward != 0:
            break
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    agent = e.agent_selection
    with pytest.raises(IllegalActionError):
        e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert e.agent_selection == agent and e.last()[1] == reward


def test_human_rendering_prints_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    """`render_mode="human"` (PettingZoo's render_test builds it) prints what "ansi" returns."""
    e = jamaica_v0.env(players=2, render_mode="human")
    e.reset(seed=1)
    assert e.render() is None
    assert "Port Royal" in capsys.readouterr().out


@pytest.mark.parametrize("config", ALL_CONFIGS[::3], ids=str)
def test_the_observation_holds_only_what_the_player_may_see(config: Config) -> None:
    """Re-dealing the hidden cards (other hands and draw piles, unknown treasures) never changes
    a player's observation vector — and the vector has the documented size."""
    rng = random.Random(2)
    size = observation_size(config)
    for i, s in enumerate(random_walk(config, 4)):
        if s.is_terminal() or i % 9:
            continue
        for p in range(s.n):
            mine = encode(s, p)
            assert mine.shape == (size,) and mine.dtype == np.float32
            assert np.array_equal(encode(s.resample(p, rng), p), mine)


def test_action_masks_are_fresh_and_match_the_legal_actions() -> None:
    """The mask is built from ready bytes per set of legal actions: each call returns the
    agent's own writable array, ones exactly at the legal ids, zeros for the others."""
    e = jamaica_v0.raw_env(players=3)
    e.reset(seed=4)
    rng = random.Random(4)
    for _ in range(300):
        s = e.game
        mover = e.agent_selection
        for agent in e.agents:
            mask = e.observe(agent)["action_mask"]
            want = sorted(int(a) for a in s.legal) if agent == mover else []
            assert mask.dtype == np.int8 and np.flatnonzero(mask).tolist() == want
            mask[:] = 1  # the caller's own copy: the next observation is unchanged
        legal = np.flatnonzero(e.observe(mover)["action_mask"]).tolist()
        e.step(rng.choice(legal))
        if all(e.terminations.values()):
            e.reset()
