"""RULES §11: what each player knows. Views and event logs leak nothing hidden, and a
determinization (`resample`) keeps everything the player may see."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings

from jamaica import Config, new_game
from jamaica.rules.events import E_CHOSE_SEEN, E_DRAW_SEEN, E_FACE_DOWN_SEEN
from jamaica.rules.invariants import check_invariants

from ..soak import soak
from .helpers import give_face_down, legal, start
from .strategies import configs, random_walk, seeds

NO_LEAKS_EVERY = soak(10, 5)


@pytest.mark.soak
@given(config=configs, seed=seeds)
@settings(max_examples=15)
def test_no_leaks_a_player_cannot_tell_worlds_that_differ_only_in_hidden_cards(
    config: Config, seed: int
) -> None:
    """If view(p) or the events p sees held anything hidden, a re-deal of the hidden cards
    would change them. Every 10th state (every 5th with JAMAICA_SOAK=1): the whole event log is
    compared at each, so the cost grows with the square of the game's length."""
    rng = random.Random(seed)
    for i, s in enumerate(random_walk(config, seed)):
        if s.is_terminal() or i % NO_LEAKS_EVERY:
            continue
        for p in range(s.n):
            world = s.resample(p, rng)
            assert world.view(p) == s.view(p)
            assert world.events_for(p) == s.events_for(p)
            assert world.view(None) == s.view(None)


@given(config=configs, seed=seeds)
@settings(max_examples=15)
def test_resampled_worlds_are_complete_consistent_states(config: Config, seed: int) -> None:
    rng = random.Random(seed)
    for i, s in enumerate(random_walk(config, seed)):
        if s.is_terminal() or i % 11:
            continue
        p = i % s.n
        world = s.resample(p, rng)
        check_invariants(world)
        assert world.hand[p] == s.hand[p] and world.drawp[p] == s.drawp[p]
        assert world.disc == s.disc
        for q in range(s.n):
            assert world.hand[q].bit_count() == s.hand[q].bit_count()
            assert world.drawp[q].bit_count() == s.drawp[q].bit_count()
            assert (
                world.known_in_hand[q] == s.known_in_hand[q]
            )  # cards known to be in the hand stay there
        assert [len(f) for f in world.face_down] == [len(f) for f in s.face_down]
        assert sum(world.pile) == sum(s.pile)
        while not world.is_terminal():  # a world plays on to the end
            world.apply(world.sample_chance(rng) if world.current_player() < 0 else world.legal[0])


def test_the_json_of_a_view_holds_no_other_hand_and_no_draw_pile_order() -> None:
    s = new_game(Config(4))
    for seed, state in enumerate(random_walk(Config(4), 3)):
        if seed > 120 or state.is_terminal():
            break
        s = state
    for p in range(4):
        v = s.view(p)
        json.dumps(v)  # JSON-safe
        for ship in v["ships"]:
            assert "hand" not in ship
            assert isinstance(ship["draw_pile"], int)  # a count, never cards
        assert v["hand"] == [c for c in v["hand"]]
    spectator = s.view(None)
    assert "hand" not in spectator and "chosen" not in spectator


def test_private_events_reach_only_their_player() -> None:
    *_, s = random_walk(Config(3), 11)
    assert s.events is not None
    for e in s.events:
        if e[1] in (E_DRAW_SEEN, E_CHOSE_SEEN, E_FACE_DOWN_SEEN):
            assert e[0] == 1 << e[2]  # the drawer / chooser / finder alone
    assert not any(e["kind"] == "draw_seen" and e["args"][0] != 0 for e in s.events_for(0))


def test_a_face_down_treasure_is_known_to_its_owner_only() -> None:
    s = start(Config(3))
    give_face_down(s, 1, "+7")
    assert s.view(1)["ships"][1]["face_down_known"] == ["+7"]
    assert s.view(0)["ships"][1]["face_down_known"] == []
    assert s.view(0)["ships"][1]["face_down"] == 1
    assert "+7" not in json.dumps(s.view(0)) and "+7" not in json.dumps(s.view(2))


def test_another_players_pending_choice_is_not_shown() -> None:
    hands = [
        ("food-fwd", "fwd-fwd", "gold-gold"),
        ("gun-gold", "food-gun", "gun-food"),
        ("fwd-back", "back-fwd", "fwd-gun"),
    ]
    s = start(Config(3), hands=hands)
    s.apply("roll 2-5")
    s.apply("morning 2")
    assert s.decision_kind() == "card" and s.current_player() == 0
    assert "legal" in s.view(0)["pending"]
    assert "legal" not in s.view(1)["pending"]
    assert legal(s) == ["play food-fwd", "play fwd-fwd", "play gold-gold"]
    s.apply("play gold-gold")
    assert s.view(0)["chosen"] == "gold-gold"
    assert s.view(1)["ships"][0]["has_chosen"] is True
    assert "gold-gold" not in json.dumps(s.view(1))
