"""The public API: configuration errors, illegal actions, corrupt states, records."""

from __future__ import annotations

import copy
import json

import pytest

import jamaica
from jamaica import CHANCE, TERMINAL, Config, IllegalActionError, Record, State, new_game, replay

from .helpers import start
from .strategies import random_walk


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        ({"players": 1}, "2 to 6"),
        ({"players": 7}, "2 to 6"),
        ({"players": "4"}, "2 to 6"),
        ({"edition": "2007"}, "edition"),
        ({"players": 2, "ghost_ship": False}, "always used"),
        ({"players": 6, "ghost_ship": True}, "no ship left"),
        ({"ghost_ship": "yes"}, "ghost_ship"),
        ({"max_rounds": 0}, "max_rounds"),
    ],
)
def test_a_bad_configuration_says_why(kwargs: dict[str, object], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        Config(**kwargs)  # type: ignore[arg-type]


def test_ghost_ship_default_is_on_with_two_players_only() -> None:
    assert Config(players=2).ghost and not Config(players=3).ghost
    assert Config(players=3, ghost_ship=True).ships == 4
    assert Config(players=5).ships == 5


def test_new_game_starts_with_setup_chance_events() -> None:
    s = new_game(Config(4))
    assert s.current_player() == CHANCE
    assert s.decision_kind() == "draw_card"
    assert s.rnd == 0


def test_an_illegal_action_names_the_legal_ones_and_changes_nothing() -> None:
    s = start(Config(3))
    s.apply("roll 2-5")
    before = s.to_dict()
    for bad in ("morning 4", "move 3", 9999, "walk the plank", -1, 2.5, None):
        with pytest.raises(IllegalActionError) as err:
            s.apply(bad)  # type: ignore[arg-type]
        assert s.to_dict() == before
    assert "morning 2, morning 5" in str(err.value)
    with pytest.raises(IllegalActionError, match="legal: morning 2, morning 5"):
        s.apply("morning 4")
    s.apply(jamaica.Action.parse("morning 5"))
    assert s.morning == 5 and s.evening == 2


def test_no_action_is_legal_once_the_game_is_over() -> None:
    *_, final = random_walk(Config(2), 4)
    assert final.is_terminal() and final.current_player() == TERMINAL
    with pytest.raises(IllegalActionError, match="over"):
        final.apply(0)
    with pytest.raises(ValueError):
        final.chance_outcomes()


def test_corrupt_state_dicts_are_refused_with_a_reason() -> None:
    good = start(Config(4)).to_dict()
    State.from_dict(copy.deepcopy(good))  # the original loads
    broken = []
    for key, value in [
        ("position", [0, 0, 0]),
        ("position", [0, 0, 0, 99]),
        ("hold_count", "lots"),
        ("hand", [0, 0, 0, 0]),
        ("treasure_pile", [9] * 10),
        ("lair_tokens", 1),
        ("pending", [1, 2]),
        ("legal", [9999]),
        ("format", 99),
        ("config", {"players": 9}),
        ("ending", "no"),
    ]:
        d = copy.deepcopy(good)
        d[key] = value
        broken.append(d)
    missing = copy.deepcopy(good)
    del missing["stack"]
    broken += [missing, [], "state", None]
    for d in broken:
        with pytest.raises(ValueError, match=r"corrupt|inconsistent|unsupported|players|state"):
            State.from_dict(d)


def test_records_round_trip_and_refuse_garbage() -> None:
    agents = [jamaica.RandomAgent(p) for p in range(3)]
    record = jamaica.play_game(Config(3), agents, seed=9)
    assert Record.from_json(record.to_json()) == record
    assert replay(record).is_terminal()
    for bad in ("{", "[]", json.dumps({"format": 1}), json.dumps({"format": 2})):
        with pytest.raises(ValueError):
            Record.from_json(bad)
    tampered = Record.from_json(record.to_json())
    tampered.actions[5] = 0
    with pytest.raises(ValueError, match="does not replay"):
        replay(tampered)


def test_play_game_needs_one_agent_per_player() -> None:
    with pytest.raises(ValueError, match="3 agents"):
        jamaica.play_game(Config(3), [jamaica.RandomAgent(0)], seed=1)


def test_pending_question_in_words() -> None:
    s = start(Config(3))
    s.apply("roll 2-5")
    d = s.pending()
    assert d.player == 0 and d.kind == "dice_order"
    assert [str(a) for a in d.actions] == ["morning 2", "morning 5"]
    assert d.options == ("2 in the morning", "5 in the morning")
    assert "Captain" in d.prompt
