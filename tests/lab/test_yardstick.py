"""The yardstick's OpenSpiel bot: OpenSpiel's own ISMCTS searching on the engine (issue 28) — the
same answers as `python_jamaica`'s states, the same search, seeded games, and cheaper."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts

from jamaica.lab import yardstick
from jamaica.lab.spielsearch import (
    UCT_C,
    EngineRollout,
    EngineSpielState,
    ismcts_bot,
    play_out,
    simulation_cost,
)
from jamaica.rules import new_game


def _game(players: int) -> Any:
    import jamaica.envs.openspiel  # noqa: F401  (registers python_jamaica)

    return pyspiel.load_game("python_jamaica", {"players": players, "reward": "win"})


def _same_answers(spiel: Any, mine: EngineSpielState, players: int) -> None:
    assert mine.current_player() == spiel.current_player()
    assert mine.is_chance_node() == spiel.is_chance_node()
    assert mine.is_terminal() == spiel.is_terminal()
    if spiel.is_terminal():
        assert mine.returns() == spiel.returns()
        return
    assert mine.legal_actions() == spiel.legal_actions()
    if spiel.is_chance_node():
        assert mine.chance_outcomes() == spiel.chance_outcomes()
        return
    for p in range(players):
        assert mine.information_state_string(p) == spiel.information_state_string(p)
    assert mine.information_state_string() == spiel.information_state_string()


@pytest.mark.parametrize("players", [2, 4])
def test_the_engine_state_answers_the_bot_as_python_jamaica_does(players: int) -> None:
    game = _game(players)
    rng = random.Random(players)
    spiel, mine = game.new_initial_state(), EngineSpielState.new(game)
    resampled = 0
    while not spiel.is_terminal():
        _same_answers(spiel, mine, players)
        who = spiel.current_player()
        if who >= 0 and rng.random() < 0.08:  # a world drawn for the player, both ways
            draw = [rng.random()] * 2
            world_s = spiel.resample_from_infostate(who, draw.pop)
            world_m = mine.resample_from_infostate(who, draw.pop)
            assert world_m.engine == world_s.engine
            for _ in range(30):  # and the search's walk on in that world
                _same_answers(world_s, world_m, players)
                if world_s.is_terminal():
                    break
                a = rng.choice(world_s.legal_actions())
                world_s.apply_action(a)
                world_m.apply_action(a)
            resampled += 1
        a = rng.choice(spiel.legal_actions())
        spiel.apply_action(a)
        mine.apply_action(a)
    _same_answers(spiel, mine, players)
    assert resampled > 5


def _bot(game: Any, seed: int) -> Any:
    rs = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, EngineRollout(random.Random(seed)), UCT_C, max_simulations=60,
                           random_state=rs, allow_inconsistent_action_sets=True)  # fmt: skip
    bot._resampler_cb = lambda state, player: state.resample_from_infostate(player, rs.uniform)
    return bot


def test_openspiel_s_search_grows_the_same_tree_on_either_state() -> None:
    game = _game(2)
    history = yardstick.decision_points(3, 11)[2]
    spiel, mine = game.new_initial_state(), EngineSpielState.new(game)
    for a in history:
        spiel.apply_action(a)
        mine.apply_action(a)
    through_pyspiel, on_engine = _bot(game, 4), _bot(game, 4)
    policy = through_pyspiel.run_search(spiel)
    assert on_engine.run_search(mine) == policy
    trees = [
        {key: sorted((a, c.visits, c.return_sum) for a, c in node.child_info.items())
         for key, node in bot._nodes.items()}
        for bot in (through_pyspiel, on_engine)
    ]  # fmt: skip
    assert trees[0] == trees[1]
    assert len(trees[0]) > 10  # a real tree: nodes of both players, keyed by their information


def test_a_rollout_plays_the_game_to_its_end_and_scores_a_win() -> None:
    game = _game(2)
    state = EngineSpielState.new(game)
    values = EngineRollout(random.Random(1)).evaluate(state)
    assert len(values) == 2 and sum(values) in (0.0, 1.0)
    assert not state.is_terminal()  # on a copy
    s = new_game(state.engine.cfg, log=False)
    play_out(s, random.Random(2))
    assert s.is_terminal()


def test_a_seeded_game_against_openspiel_replays() -> None:
    first = yardstick.play((7, 1, "greedy", 4))
    again = yardstick.play((7, 1, "greedy", 4))
    assert (first.share, first.rounds) == (again.share, again.rounds)
    assert len(first.theirs) > 10 and all(t > 0 for t in first.theirs)


def test_a_simulation_on_the_engine_costs_a_fraction_of_one_through_pyspiel() -> None:
    cost = simulation_cost(questions=3, simulations=10, repeat=1)
    assert cost.pyspiel_ms > 0 and cost.engine_ms > 0 and cost.rollout_ms > 0
    assert cost.ratio > 2.5, cost.text()  # measured 5-7x; interleaved, so load falls on both
    assert "x faster" in cost.text()


def test_the_calibration_buys_the_engine_bot_simulations() -> None:
    sims, per_question = yardstick.calibrate("greedy", points=4, probe=4)
    assert sims >= 1 and per_question > 0
    bot = ismcts_bot(_game(2), sims, 1)
    assert bot._max_simulations == sims
