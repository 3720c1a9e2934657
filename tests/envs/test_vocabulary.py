"""One vocabulary for every research API, Gymnasium's seeding convention, one action count."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import numpy as np
import pettingzoo  # noqa: F401  (the [rl] extra, installed with [dev]: a missing one fails)
import pyspiel
import pytest

import jamaica.envs.openspiel  # noqa: F401  (registers python_jamaica)
from jamaica import Config
from jamaica.envs import jamaica_v0, parallel, vocabulary
from jamaica.envs.encoding import FIXED_SIZE, observation_size
from jamaica.envs.gym_env import JamaicaEnv
from jamaica.rules import NUM_PLAYER_ACTIONS

SPELLINGS = [
    ({"edition": "2021", "ghost_ship": None}, Config(3, "2021", None)),
    ({"edition": "modern", "ghost_ship": "auto"}, Config(3, "2021", None)),
    ({"edition": "classic", "ghost_ship": True}, Config(3, "classic", True)),
    ({"edition": "classic", "ghost_ship": "on"}, Config(3, "classic", True)),
    ({"edition": "2021", "ghost_ship": False}, Config(3, "2021", False)),
    ({"edition": "2021", "ghost_ship": "off"}, Config(3, "2021", False)),
]


@pytest.mark.parametrize(("options", "config"), SPELLINGS, ids=str)
def test_every_api_reads_the_same_words(options: dict[str, Any], config: Config) -> None:
    assert jamaica_v0.raw_env(players=3, **options).config == config
    assert parallel.parallel_env(players=3, **options).config == config
    assert JamaicaEnv(opponents=["random", "random"], **options).config == config
    words = {
        k: vocabulary.ghost_word(v) if v in (None, True, False) else v for k, v in options.items()
    }  # OpenSpiel parameters cannot be None
    game = pyspiel.load_game("python_jamaica", {"players": 3, **words})
    assert game.config == config


@pytest.mark.parametrize("reward", vocabulary.REWARDS)
def test_every_api_takes_every_reward(reward: str) -> None:
    game = pyspiel.load_game("python_jamaica", {"players": 2, "reward": reward})
    assert (game.min_utility(), game.max_utility()) == vocabulary.RETURN_BOUNDS[reward]
    assert jamaica_v0.raw_env(players=2, reward=reward).reward_kind == reward
    assert parallel.parallel_env(players=2, reward=reward).reward_kind == reward
    assert JamaicaEnv(reward=reward).reward_kind == reward


@pytest.mark.parametrize("observation", vocabulary.OBSERVATIONS)
def test_every_environment_takes_every_observation_and_the_shaping(observation: str) -> None:
    """The environments' own options (issue 27) are read alike, to the same sizes."""
    size = FIXED_SIZE if observation == "fixed" else observation_size(Config(3))
    envs: list[Any] = [
        jamaica_v0.raw_env(players=3, observation=observation, reward_shaping=True),
        parallel.parallel_env(players=3, observation=observation, reward_shaping=True),
    ]
    for env in envs:
        assert env.view.kind == observation and env.shaping is not None
        assert env.observation_space("player_2")["observation"].shape == (size,)
    gym = JamaicaEnv(opponents=["random"] * 2, observation=observation, reward_shaping=True)
    assert gym.view.kind == observation and gym.shaping is not None
    assert gym.observation_space["observation"].shape == (size,)
    for kind in vocabulary.ILLEGAL_ACTIONS:
        assert jamaica_v0.raw_env(illegal_action=kind).illegal_action == kind
        assert parallel.parallel_env(illegal_action=kind).illegal_action == kind


def test_unknown_words_are_refused_alike() -> None:
    for bad in ({"edition": "2007"}, {"ghost_ship": "maybe"}, {"reward": "elo"}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            jamaica_v0.raw_env(**bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=next(iter(bad))):
            JamaicaEnv(**bad)  # type: ignore[arg-type]
        with pytest.raises(Exception, match=next(iter(bad))):
            pyspiel.load_game("python_jamaica", bad)
    for bad in ({"observation": "global"}, {"reward_shaping": 1}):  # the environments' own
        for make in (jamaica_v0.raw_env, parallel.parallel_env, JamaicaEnv):
            with pytest.raises(ValueError, match=next(iter(bad))):
                make(**bad)


def test_one_action_count() -> None:
    """Agents see the 140 player actions in every API; chance outcomes (ids 140–205) exist only
    as OpenSpiel chance outcomes."""
    game = pyspiel.load_game("python_jamaica", {"players": 2})
    assert game.num_distinct_actions() == NUM_PLAYER_ACTIONS == 140
    assert jamaica_v0.raw_env(players=2).action_space("player_0").n == 140
    assert parallel.parallel_env(players=2).action_space("player_0").n == 140
    assert JamaicaEnv().action_space.n == 140


def test_rank_rewards_order_the_ships() -> None:
    e = jamaica_v0.env(players=4, reward="rank")
    e.reset(seed=3)
    for _ in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[-1]))
    game = e.unwrapped.game
    ranks = vocabulary.returns(game, "rank")
    totals = [sc.total for sc in game.scores()]
    best = max(range(4), key=lambda p: ranks[p])
    assert ranks[best] == 1.0 and totals[best] == max(totals)
    assert sorted(ranks) == sorted(1 - 2 * r / 3 for r in range(4))  # no ties in this game


# --- seeding: Gymnasium's convention ------------------------------------------------------------
_EPISODES = """
import json, sys
import numpy as np
from jamaica.envs import jamaica_v0, parallel
from jamaica.envs.gym_env import JamaicaEnv

def first(mask):
    return int(np.flatnonzero(mask)[0])

def aec(e, seed):
    e.reset(seed=seed)
    for _ in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else first(obs["action_mask"]))
    return list(map(int, e.unwrapped.game.history))

def par(e, seed):
    obs, _ = e.reset(seed=seed)
    while e.agents:
        obs, *_ = e.step({a: first(o["action_mask"]) for a, o in obs.items()
                          if o["action_mask"].any()})
    return list(map(int, e.game.history))

def gym(e, seed):
    obs, info = e.reset(seed=seed)
    done = False
    while not done:
        obs, _, done, _, info = e.step(first(info["action_mask"]))
    return list(map(int, e.game.history))

out = {}
for name, make, play in (("aec", lambda: jamaica_v0.env(players=2), aec),
                         ("parallel", lambda: parallel.parallel_env(players=2), par),
                         ("gym", lambda: JamaicaEnv(opponents=["random"]), gym)):
    e = make()
    out[name] = [play(e, 42), play(e, None), play(e, None)]
print(json.dumps(out))
"""


def _episodes(hash_seed: str) -> dict[str, list[list[int]]]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = subprocess.run(
        [sys.executable, "-c", _EPISODES], capture_output=True, text=True, env=env, check=True
    )
    result: dict[str, list[list[int]]] = json.loads(out.stdout)
    return result


def test_after_a_seeded_reset_every_episode_is_the_same_in_every_process() -> None:
    """`reset(seed=42)` then plain `reset()`s: episodes 1, 2 and 3 are identical in two processes
    (with different hash seeds), and the later episodes are new games."""
    one, two = _episodes("1"), _episodes("2")
    assert one == two
    for episodes in one.values():
        assert episodes[0] != episodes[1] != episodes[2]


def test_a_later_episode_does_not_depend_on_the_actions_before_it() -> None:
    def second_episode(pick: int) -> list[int]:
        e = jamaica_v0.env(players=2)
        e.reset(seed=7)
        for _ in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[pick]))
        e.reset()
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
        return list(map(int, e.unwrapped.game.history))

    assert second_episode(0) == second_episode(-1)
