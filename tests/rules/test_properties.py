"""Property tests over every configuration: random games terminate, never raise, keep the
invariants, serialize exactly, replay identically, and clone independently."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings

from jamaica import CHANCE, Config, RandomAgent, Record, State, play_game, replay
from jamaica.rules.invariants import check_invariants

from ..soak import soak
from .strategies import ALL_CONFIGS, configs, random_walk, seeds

# The event log only grows: serializing it whole at every step is quadratic in the game's length.
# Every step is checked without its log, every 25th and the last with it (every one: JAMAICA_SOAK).
WITH_LOG_EVERY = soak(25, 1)


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=str)
def test_a_random_game_in_every_configuration_terminates(config: Config) -> None:
    for seed in range(3):
        states = list(random_walk(config, seed))
        final = states[-1]
        assert final.is_terminal()
        assert 1 <= final.rnd <= config.max_rounds
        assert len(final.scores()) == config.ships
        assert final.winners()


@given(config=configs, seed=seeds)
@settings(max_examples=60)
def test_invariants_hold_after_every_action(config: Config, seed: int) -> None:
    for s in random_walk(config, seed):
        check_invariants(s)
        if s.is_terminal():
            assert s.legal_actions() == []
            continue
        legal = s.legal_actions()
        # A question with one answer is answered by the engine, except spoils that might hide
        # a cursed treasure to give (R16: asking must not tell whether the winner holds one).
        assert len(legal) >= 2 or s.decision_kind() == "spoils"
        if s.current_player() == CHANCE:
            outcomes = s.chance_outcomes()
            assert [a for a, _ in outcomes] == legal
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert all(p > 0 for _, p in outcomes)


@pytest.mark.soak
@given(config=configs, seed=seeds)
@settings(max_examples=8)
def test_from_dict_of_to_dict_is_equal_at_every_step(config: Config, seed: int) -> None:
    for i, state in enumerate(random_walk(config, seed)):
        with_log = i % WITH_LOG_EVERY == 0 or state.is_terminal()
        s = state if with_log else state.clone(log=False)
        assert (s.events is not None) == with_log
        d = s.to_dict()
        again = State.from_dict(json.loads(json.dumps(d)))
        assert again.to_dict() == d  # what `again == s` compares
        if with_log:
            assert again == s and again.events == s.events


@given(config=configs, seed=seeds)
@settings(max_examples=25)
def test_records_replay_identically(config: Config, seed: int) -> None:
    agents = [RandomAgent(seed + p) for p in range(config.players)]
    finals: list[State] = []
    record = play_game(config, agents, seed, log=True, final_state=finals)
    again = play_game(config, [RandomAgent(seed + p) for p in range(config.players)], seed)
    assert again.to_json() == record.to_json()  # same seed, same decisions: byte for byte
    rebuilt = replay(Record.from_json(record.to_json()))
    assert rebuilt == finals[0]
    assert [sc.total for sc in rebuilt.scores()] == record.scores
    assert rebuilt.winners() == record.winners


@given(config=configs, seed=seeds)
@settings(max_examples=20)
def test_clone_is_independent_of_the_original(config: Config, seed: int) -> None:
    rng = random.Random(seed)
    for i, s in enumerate(random_walk(config, seed)):
        if s.is_terminal() or i % 17:
            continue
        before = s.to_dict()
        c = s.clone()
        assert c == s
        for _ in range(30):  # play the clone on; the original must not move
            if c.is_terminal():
                break
            c.apply(c.sample_chance(rng) if c.current_player() == CHANCE else rng.choice(c.legal))
        assert s.to_dict() == before
