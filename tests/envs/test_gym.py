"""The single-agent Gymnasium environment: the other seats are the project's bots."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from jamaica import IllegalActionError
from jamaica.envs.gym_env import ENV_ID, JamaicaEnv
from jamaica.rules import NUM_PLAYER_ACTIONS


def _first(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize(
    "options",
    [
        {"opponents": ["random"]},
        {"opponents": ["greedy", "learned", "random"], "seat": None, "edition": "classic"},
        {"opponents": ["random"] * 5, "seat": 3, "reward": "score"},
        {"opponents": ["greedy"], "observation": "fixed", "reward_shaping": True},
        {
            "opponents": ["random"] * 3,
            "seat": None,
            "observation": "relative",
            "reward": "score",
            "reward_shaping": True,
        },
    ],
    ids=str,
)
def test_check_env(options: dict[str, object]) -> None:
    check_env(gymnasium.make(ENV_ID, **options).unwrapped)


def test_the_agent_answers_only_its_own_questions_and_the_mask_is_everywhere() -> None:
    env = gymnasium.make(ENV_ID, opponents=["greedy", "random"], seat=1)
    obs, info = env.reset(seed=4)
    game = env.unwrapped.game
    steps, reward, done = 0, 0.0, False
    while not done:
        assert game.current_player() == 1
        legal = sorted(int(a) for a in game.legal)
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        assert env.observation_space.contains(obs)
        obs, reward, done, truncated, info = env.step(legal[-1])
        assert not truncated
        steps += 1
    assert game.is_terminal() and steps > 20
    assert not obs["action_mask"].any()
    from jamaica.envs.vocabulary import returns

    assert reward == returns(game, "rank")[1]


def test_an_illegal_action_loses_or_raises() -> None:
    env = JamaicaEnv(opponents=["random"], reward="win")
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, done, _, info = env.step(bad)
    # worse than any loss, as in PettingZoo (a loss is 0 with reward="win")
    assert (reward, done, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(bad)
    strict = JamaicaEnv(opponents=["random"], illegal="raise")
    obs, _ = strict.reset(seed=1)
    before = list(strict.game.history)
    with pytest.raises(IllegalActionError, match="legal"):
        strict.step(bad)
    assert strict.game.history == before


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        JamaicaEnv(opponents=["grandmaster"])
    with pytest.raises(ValueError, match="players"):
        JamaicaEnv(opponents=["random"] * 6)
    with pytest.raises(ValueError, match="seat"):
        JamaicaEnv(opponents=["random"], seat=2)


def test_seeded_episodes_repeat_with_the_bots_seeded_too() -> None:
    def episode(env: JamaicaEnv, seed: int | None) -> list[int]:
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            _, _, done, _, info = env.step(_first(info["action_mask"]))
        return list(env.game.history)

    a, b = JamaicaEnv(opponents=["greedy"]), JamaicaEnv(opponents=["greedy"])
    assert [episode(a, 8), episode(a, None)] == [episode(b, 8), episode(b, None)]
    assert episode(a, 8) != episode(a, None)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_it_vectorises(mode: str) -> None:
    """`gymnasium.make_vec`: batched observations and masks, autoreset after an episode, and the
    same seed gives the same batch."""

    def run() -> tuple[list[np.ndarray], int]:
        envs = gymnasium.make_vec(ENV_ID, num_envs=3, vectorization_mode=mode, opponents=["random"])
        obs, _ = envs.reset(seed=[1, 2, 3])
        size = envs.single_observation_space["observation"].shape[0]
        assert obs["observation"].shape == (3, size)
        assert obs["action_mask"].shape == (3, NUM_PLAYER_ACTIONS)
        seen, finished = [], 0
        for _ in range(400):
            masks = obs["action_mask"]
            # after an episode ends, the next step resets that env (its action is ignored)
            actions = np.array([_first(m) if m.any() else 0 for m in masks])
            obs, _, done, _, _ = envs.step(actions)
            finished += int(done.sum())
            seen.append(obs["observation"].copy())
        envs.close()
        return seen, finished

    first, finished = run()
    assert finished >= 3
    second, _ = run()
    assert all(np.array_equal(x, y) for x, y in zip(first, second, strict=True))


def test_human_rendering_prints_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    env = JamaicaEnv(opponents=["random"], render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    assert "Port Royal" in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode must be None or one of human, ansi"):
        JamaicaEnv(opponents=["random"], render_mode="rgb_array")
