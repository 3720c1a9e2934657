"""Loading a save file (issue 21): whatever it holds, `GameSession.from_dict` refuses it with a
ValueError that names the bad field, or returns a session that plays on."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from jamaica import Config
from jamaica.session import GameSession, make_seats

from .rules.mutations import mutate
from .soak import soak


@cache
def a_save() -> str:
    """A short game between a human and a bot, saved half-way."""
    session = GameSession(Config(2, max_rounds=4), make_seats(["human", "random"]), 11)
    while len(session.state.history) < 60:
        if session.human_to_move() is not None:
            session.answer(session.state.legal[0])
        else:
            session.step()
    return json.dumps(session.to_dict())


def assert_plays_on(session: GameSession) -> None:
    again = GameSession.from_dict(json.loads(json.dumps(session.to_dict())))
    assert again.state == session.state and again.seats == session.seats
    for _ in range(30):
        if session.state.is_terminal():
            break
        if session.human_to_move() is not None:
            session.answer(session.state.legal[-1])
        else:
            session.step()


def test_a_save_loads_and_plays_on() -> None:
    assert_plays_on(GameSession.from_dict(json.loads(a_save())))


def test_a_save_without_a_seed_loads() -> None:
    d = json.loads(a_save())
    d["seed"] = None  # a game whose randomness came from the system (the game server's)
    session = GameSession.from_dict(d)
    assert session.seed is None and session.to_dict() == d


@pytest.mark.parametrize(
    ("key", "value", "path"),
    [
        ("seed", True, "seed"),
        ("seed", "7", "seed"),
        ("actions", [0.0], r"actions\[0\]"),
        ("actions", ["roll 2-5"], r"actions\[0\]"),
        ("actions", [True], r"actions\[0\]"),
        ("actions", [9999], r"actions\[0\]"),
        ("seats", [{"name": "Anne", "bot": None}], "seats"),
        ("seats", [{"name": 3, "bot": None}, {"name": "", "bot": None}], r"seats\[0\]"),
        ("seats", [{"name": "A", "bot": None}, {"name": "B", "bot": "nobody"}], r"seats\[1\]"),
        ("seats", [{"name": "A", "bot": None}, {"name": "B", "bot": None, "x": 1}], r"seats\[1\]"),
        ("format", True, "save file"),
        ("config", {"players": 9}, "config"),
        ("extra", 1, "extra"),
    ],
)
def test_a_bad_save_field_is_refused_by_name(key: str, value: Any, path: str) -> None:
    d = json.loads(a_save())
    d[key] = value
    with pytest.raises(ValueError, match=path):
        GameSession.from_dict(d)


def test_an_action_that_is_not_legal_is_refused_by_its_place() -> None:
    d = json.loads(a_save())
    d["actions"][5] = 0
    with pytest.raises(ValueError, match=r"actions\[5\]: .*not legal"):
        GameSession.from_dict(d)


@pytest.mark.soak
@given(data=st.data())
@settings(max_examples=soak(150, 2000))
def test_a_damaged_save_is_refused_or_plays_on(data: st.DataObject) -> None:
    d = json.loads(a_save())
    note(f"changes: {mutate(data, d)}")
    try:
        session = GameSession.from_dict(d)
    except ValueError:
        return
    assert_plays_on(session)
