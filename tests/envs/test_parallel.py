"""The parallel form: every player chooses a card in the same step (RULES §4.2), the rest of the
game one decider at a time; PettingZoo's parallel conformance suite and its conversions."""

from __future__ import annotations

import gc
import random
import weakref

import numpy as np
import pettingzoo  # noqa: F401  (the [rl] extra, installed with [dev]: a missing one fails)
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, render_test
from pettingzoo.utils.conversions import parallel_to_aec

from jamaica import IllegalActionError
from jamaica.envs import jamaica_v0, parallel
from jamaica.rules.actions import PLAY


def _legal(obs: dict[str, dict[str, np.ndarray]]) -> dict[str, list[int]]:
    return {a: np.flatnonzero(o["action_mask"]).tolist() for a, o in obs.items()}


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 3, "edition": "classic", "ghost_ship": True},
        {"players": 6},
        {"players": 4, "observation": "fixed", "reward_shaping": True},
        {"players": 5, "observation": "relative", "illegal_action": "penalize"},
    ],
    ids=str,
)
def test_parallel_api_test(options: dict[str, object]) -> None:
    parallel_api_test(parallel.parallel_env(**options), num_cycles=3000)


@pytest.mark.parametrize(
    "options",
    [{"players": 4}, {"players": 2, "observation": "fixed", "reward_shaping": True}],
    ids=str,
)
def test_parallel_seed_test_with_illegal_actions_penalized(options: dict[str, object]) -> None:
    """PettingZoo's `parallel_seed_test` samples actions without masks: with
    `illegal_action="penalize"` the first illegal one ends the game (issue 27)."""
    parallel_seed_test(
        lambda: parallel.parallel_env(illegal_action="penalize", **options), num_cycles=500
    )


def test_the_conversions_pass_their_suites() -> None:
    api_test(parallel.aec_env(players=3), num_cycles=300)
    parallel_api_test(parallel.turn_based(players=3), num_cycles=300)


def test_every_player_chooses_a_card_in_the_same_step() -> None:
    """In a card step every player acts, each offered the cards of its own hand; in every other
    step exactly one player acts and the others pass (an empty mask)."""
    env = parallel.parallel_env(players=4)
    obs, infos = env.reset(seed=3)
    rng = random.Random(3)
    card_steps = 0
    while env.agents:
        legal = _legal(obs)
        acting = [a for a in env.agents if legal[a]]
        assert acting == [a for a in env.agents if infos[a]["acting"]]
        was_card = env.game.decision_kind() == "card"
        if was_card:
            card_steps += 1
            assert len(acting) == 4
            for a in acting:
                hand = env.game.hand[int(a[-1])]
                assert legal[a] == [PLAY + c for c in range(11) if hand >> c & 1]
        else:
            assert len(acting) == 1
        rounds = env.game.rnd
        obs, _, _, _, infos = env.step({a: rng.choice(legal[a]) for a in acting})
        if was_card and env.agents:  # every card was chosen in that one step
            assert env.game.decision_kind() != "card" or env.game.rnd > rounds
    assert card_steps == env.game.rnd  # one card step per round


def test_it_is_the_aec_game_regrouped() -> None:
    """Same seed and same decisions: the parallel env plays exactly the AEC env's game."""
    par = parallel.parallel_env(players=3)
    obs, _ = par.reset(seed=11)
    rng = random.Random(11)
    while par.agents:
        obs, *_ = par.step({a: rng.choice(m) for a, m in _legal(obs).items() if m})
    decisions = [a for a in par.game.history if a < 140]
    aec = jamaica_v0.env(players=3)
    aec.reset(seed=11)
    given = iter(decisions)
    for _ in aec.agent_iter():
        _, _, term, trunc, _ = aec.last()
        aec.step(None if term or trunc else next(given))
    assert aec.unwrapped.game.history == par.game.history
    assert aec.unwrapped.game.is_terminal()


def test_a_bad_step_changes_nothing_and_passing_agents_are_ignored() -> None:
    env = parallel.parallel_env(players=2)
    obs, _ = env.reset(seed=5)
    while env.game.decision_kind() != "card":  # answer the Captain's dice order
        obs, *_ = env.step({a: m[0] for a, m in _legal(obs).items() if m})
    legal = _legal(obs)
    before = list(env.game.history)
    with pytest.raises(IllegalActionError, match="player_1 must act"):
        env.step({"player_0": legal["player_0"][0]})
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step({"player_0": legal["player_0"][0], "player_1": 17})
    assert env.game.history == before
    obs, *_ = env.step({a: m[0] for a, m in legal.items()})
    legal = _legal(obs)
    actor = next(a for a, m in legal.items() if m)
    other = next(a for a in legal if a != actor)
    env.step({actor: legal[actor][0], other: 999})  # a passing agent's action is ignored
    assert env.game.history[len(before) + 2] == legal[actor][0]


def test_environments_are_freed_and_keep_one_space_per_agent() -> None:
    """The spaces are the same objects at every call (as the API asks), yet a dropped
    environment is freed: no cache outlives it."""
    env = parallel.parallel_env(players=3)
    env.reset(seed=1)
    assert env.observation_space("player_1") is env.observation_space("player_1")
    assert env.action_space("player_2") is env.action_space("player_2")
    gone = weakref.ref(env)
    del env
    gc.collect()
    assert gone() is None


def test_pettingzoos_render_test_passes() -> None:
    """PettingZoo's render_test (an AEC test: the parallel env through its conversion)."""
    render_test(lambda render_mode=None: jamaica_v0.env(players=2, render_mode=render_mode))
    render_test(lambda render_mode=None: parallel_to_aec(
        parallel.parallel_env(players=2, render_mode=render_mode)))  # fmt: skip
