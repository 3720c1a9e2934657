"""Jamaica in OpenSpiel: the conformance run, its own search bots, infostates and rewards."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")  # the [rl] extra; installed with [dev]

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import jamaica.envs.openspiel  # noqa: E402,F401  (registers python_jamaica)


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2},
        {"players": 4},
        {"players": 3, "edition": "classic", "ghost_ship": "on"},
        {"players": 5, "reward": "win"},
    ],
    ids=str,
)
def test_random_sim_test(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_jamaica", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_openspiel_search_bots_play_it_to_the_end() -> None:
    game = pyspiel.load_game("python_jamaica", {"players": 2, "max_rounds": 30})
    rs = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rs),
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=rs),
    ]
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
            decisions += 1
    assert decisions > 20
    assert len(state.returns()) == 2


def test_infostates_survive_resampling_and_hide_the_hidden() -> None:
    game = pyspiel.load_game("python_jamaica", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(1)
    checked = 0
    while not state.is_terminal() and checked < 40:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        p = state.current_player()
        world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.observation_string(p) == state.observation_string(p)
        assert world.observation_tensor(p) == state.observation_tensor(p)
        assert world.legal_actions() == state.legal_actions()
        checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked == 40


def test_rewards_are_scores_or_wins() -> None:
    for reward in ("score", "win"):
        game = pyspiel.load_game("python_jamaica", {"players": 3, "reward": reward})
        state = game.new_initial_state()
        rng = random.Random(7)
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        engine = state.engine
        if reward == "score":
            assert state.returns() == [float(sc.total) for sc in engine.scores()]
        else:
            assert state.returns() == [
                1 / len(engine.winners()) if p in engine.winners() else 0.0 for p in range(3)
            ]


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(Exception, match="edition"):
        pyspiel.load_game("python_jamaica", {"edition": "2007"})
    with pytest.raises(Exception, match="Ghost Ship"):
        pyspiel.load_game("python_jamaica", {"players": 2, "ghost_ship": "off"})
