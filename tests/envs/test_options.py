"""The environments' own options (issue 27): seat-relative and fixed-size observations with
seat-relative actions, score-delta reward shaping, and the illegal-action penalty."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from jamaica.envs import jamaica_v0, parallel
from jamaica.envs.encoding import FIXED_SIZE, encode_fixed
from jamaica.envs.gym_env import JamaicaEnv
from jamaica.envs.options import illegal_penalty
from jamaica.envs.relative import to_relative
from jamaica.envs.vocabulary import returns
from jamaica.rules.actions import ATTACK


def _legal(mask: np.ndarray) -> list[int]:
    return np.flatnonzero(mask).tolist()  # type: ignore[no-any-return]


def play_aec(options: dict[str, Any], seed: int) -> tuple[dict[str, list[float]], Any]:
    """A random game in the AEC env: every reward each agent received, and the env."""
    e = jamaica_v0.env(**options)
    e.reset(seed=seed)
    rng = random.Random(seed)
    got: dict[str, list[float]] = {a: [] for a in e.possible_agents}
    for _ in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        e.step(rng.choice(_legal(obs["action_mask"])))
        for a, r in e.unwrapped.rewards.items():  # this step's rewards, every agent's
            got[a].append(r)
    return got, e.unwrapped


@pytest.mark.parametrize("reward", ["score", "rank", "win"])
def test_shaped_rewards_add_up_to_the_final_reward(reward: str) -> None:
    for players, seed in ((2, 1), (4, 2), (5, 3)):
        options = {"players": players, "reward": reward}
        shaped, env = play_aec({**options, "reward_shaping": True}, seed)
        plain, env2 = play_aec(options, seed)
        assert env.game.history == env2.game.history  # the same game
        final = returns(env.game, reward)
        for p, agent in enumerate(env.possible_agents):
            assert sum(shaped[agent]) == pytest.approx(final[p], abs=1e-9)
            assert sum(plain[agent]) == final[p]
            assert not any(plain[agent][:-1])  # without shaping: at the end only
        during = [r for rs in shaped.values() for r in rs[:-1]]
        assert sum(r != 0 for r in during) > 10, "the shaping gave no reward during the game"


def test_a_shaped_reward_is_the_change_of_the_own_score() -> None:
    """With `reward="score"` each step's reward is the change of the player's score (position,
    doubloons, treasures) over the step, until the end; steps that move only treasure cards
    (a blind steal, a cursed card given) included."""
    changes = cards_only = 0
    for seed in range(4):
        e = jamaica_v0.raw_env(players=4, reward="score", reward_shaping=True)
        e.reset(seed=seed)
        rng = random.Random(seed)
        while not all(e.terminations.values()):
            s = e.game
            before, cards = [sc.total for sc in s.scores()], list(s.face_down)
            others = (list(s.pos), list(s.hold_types), list(s.hold_counts))
            e.step(rng.choice(_legal(e.observe(e.agent_selection)["action_mask"])))
            if s.is_terminal():
                break
            after = [sc.total for sc in s.scores()]
            for p, agent in enumerate(e.possible_agents):
                assert e.rewards[agent] == after[p] - before[p]
            changes += after != before
            cards_only += cards != s.face_down and others == (s.pos, s.hold_types, s.hold_counts)
    assert changes > 40 and cards_only > 0


def test_shaping_in_the_parallel_env_adds_up_too() -> None:
    for reward in ("score", "rank"):
        env = parallel.parallel_env(players=4, reward=reward, reward_shaping=True)
        obs, _ = env.reset(seed=5)
        rng = random.Random(5)
        total = dict.fromkeys(env.possible_agents, 0.0)
        while env.agents:
            actions = {a: rng.choice(_legal(o["action_mask"])) for a, o in obs.items()
                       if o["action_mask"].any()}  # fmt: skip
            obs, rewards, *_ = env.step(actions)
            for a, r in rewards.items():
                total[a] += r
        final = returns(env.game, reward)
        assert [total[a] for a in env.possible_agents] == pytest.approx(final)


def test_shaping_in_the_gym_env_adds_up_too() -> None:
    env = JamaicaEnv(opponents=["greedy", "random"], reward="score", reward_shaping=True)
    _, info = env.reset(seed=3)
    rewards, done = [], False
    while not done:
        _, r, done, _, info = env.step(_legal(info["action_mask"])[0])
        rewards.append(r)
    assert sum(rewards) == returns(env.game, "score")[0]
    assert sum(r != 0 for r in rewards[:-1]) > 5


def test_an_illegal_action_is_penalized_and_ends_the_game() -> None:
    for options in ({}, {"reward_shaping": True, "reward": "score"}):
        e = jamaica_v0.env(players=3, illegal_action="penalize", **options)
        e.reset(seed=2)
        rng = random.Random(2)
        for _ in range(40):  # some way into the game
            e.step(rng.choice(_legal(e.last()[0]["action_mask"])))
        offender = e.agent_selection
        before = list(e.unwrapped.game.history)
        bad = _legal(e.last()[0]["action_mask"] == 0)[0]
        e.step(bad)
        assert e.unwrapped.game.history == before  # nothing applied
        assert all(e.terminations.values())
        assert e.infos[offender] == {"illegal_action": True}
        penalty = illegal_penalty(e.unwrapped.reward_kind)
        assert penalty < 0
        for agent in e.possible_agents:  # the offender's game adds up to the penalty, others 0
            total = e.unwrapped.rewards[agent]  # the last step's reward
            if options:  # shaped: plus what was received before
                total += sum(_history_rewards(options, agent))
            assert total == pytest.approx(penalty if agent == offender else 0.0)


def _history_rewards(options: dict[str, Any], agent: str) -> list[float]:
    """The shaped rewards `agent` received in the first 40 steps of the game above."""
    e = jamaica_v0.raw_env(players=3, illegal_action="penalize", **options)
    e.reset(seed=2)
    rng = random.Random(2)
    out = []
    for _ in range(40):
        mover = e.agent_selection
        e.step(rng.choice(_legal(e.observe(mover)["action_mask"])))
        out.append(e.rewards[agent])
    return out


def test_the_parallel_env_penalizes_every_offender_and_applies_nothing() -> None:
    env = parallel.parallel_env(players=4, illegal_action="penalize", reward="win")
    obs, _ = env.reset(seed=1)
    while not sum(o["action_mask"].any() for o in obs.values()) > 1:  # to a card choice
        obs, *_ = env.step({a: _legal(o["action_mask"])[0] for a, o in obs.items()
                            if o["action_mask"].any()})  # fmt: skip
    acting = [a for a, o in obs.items() if o["action_mask"].any()]
    before = list(env.game.history)
    actions = {a: _legal(obs[a]["action_mask"])[0] for a in acting}
    actions[acting[0]] = _legal(obs[acting[0]]["action_mask"] == 0)[0]
    del actions[acting[1]]  # a missing action is illegal too
    _, rewards, terms, _, infos = env.step(actions)
    assert env.game.history == before and env.agents == [] and all(terms.values())
    for a in env.possible_agents:
        offended = a in acting[:2]
        assert rewards[a] == (-1.0 if offended else 0.0)
        assert infos[a].get("illegal_action", False) == offended


@pytest.mark.parametrize("observation", ["relative", "fixed"])
def test_relative_actions_play_the_same_game(observation: str) -> None:
    """The same choices, made in absolute ids in one env and in seat-relative ids in the other,
    play the same game; the relative env's masks are the absolute ones mapped."""
    attacks = 0
    for players, seed in ((2, 4), (3, 5), (5, 6), (6, 7)):
        a = jamaica_v0.raw_env(players=players)
        r = jamaica_v0.raw_env(players=players, observation=observation)
        a.reset(seed=seed)
        r.reset(seed=seed)
        rng = random.Random(seed)
        while not all(a.terminations.values()):
            agent = a.agent_selection
            p = a.possible_agents.index(agent)
            legal = _legal(a.observe(agent)["action_mask"])
            mapped = sorted(to_relative(x, p, players) for x in legal)
            assert _legal(r.observe(agent)["action_mask"]) == mapped
            choice = rng.choice(legal)
            attacks += ATTACK <= choice < ATTACK + 7
            a.step(choice)
            r.step(to_relative(choice, p, players))
            assert r.game.history == a.game.history
        if observation == "fixed":
            assert np.array_equal(r.observe(agent)["observation"], encode_fixed(r.game, p))
    assert attacks > 0


def test_the_fixed_observation_has_one_size_for_every_player_count() -> None:
    spaces = [jamaica_v0.raw_env(players=n, observation="fixed").observation_space("player_0")
              for n in range(2, 7)]  # fmt: skip
    assert {s["observation"].shape for s in spaces} == {(FIXED_SIZE,)}
    gym = JamaicaEnv(opponents=["random"] * 3, observation="fixed")
    assert gym.observation_space["observation"].shape == (FIXED_SIZE,)
    par = parallel.parallel_env(players=6, observation="fixed")
    assert par.observation_space("player_5")["observation"].shape == (FIXED_SIZE,)


def test_bad_option_values_are_refused() -> None:
    with pytest.raises(ValueError, match="observation must be one of absolute, relative, fixed"):
        jamaica_v0.env(observation="egocentric")
    with pytest.raises(ValueError, match="illegal_action must be one of raise, penalize"):
        parallel.parallel_env(illegal_action="ignore")
    with pytest.raises(ValueError, match="reward_shaping"):
        JamaicaEnv(reward_shaping="yes")  # type: ignore[arg-type]
