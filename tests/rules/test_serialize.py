"""Loading a saved state, record or configuration (issue 21): whatever the data holds, the loader
either refuses it with a ValueError that names the bad field, or returns an object that works —
views, event texts, the pending question, copies, a round trip, and every legal action."""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from jamaica import CHANCE, Config, FieldError, RandomAgent, Record, State, play_game, replay
from jamaica.rules.events import E_MOVE, EVENT_NAMES, describe
from jamaica.rules.invariants import check_invariants
from jamaica.rules.progress import question, resolving

from ..soak import soak
from .helpers import start
from .mutations import mutate
from .strategies import ALL_CONFIGS, random_walk

# Each configuration once (2–6 players, both editions, with and without the Ghost Ship); one
# random game in each (four with JAMAICA_SOAK).
CONFIGS = list({(c.players, c.edition, c.ghost): c for c in ALL_CONFIGS}.values())
GAMES = soak(1, 4)
# Questions asked all game long: a state is kept for some of them only.
COMMON = {"draw_card", "card", "roll_dice", "dice_order", "move", "load", "pay"}


@cache
def real_states() -> tuple[str, ...]:
    """States of random games, as JSON: in each game, the first of every kind of question asked
    (a battle's, the spoils', a shortage's…; a common one about every 23rd action) and the end;
    every other state without its event log."""
    pool: list[str] = []
    for i, config in enumerate(CONFIGS * GAMES):
        kept: set[str] = set()
        for step, s in enumerate(random_walk(config, 1000 + i)):
            kind = "over" if s.is_terminal() else s.decision_kind()
            if kind in kept or (kind in COMMON and step % 23 != 22):
                continue
            kept.add(kind)
            keep = s if len(pool) % 2 else s.clone(log=False)
            pool.append(json.dumps(keep.to_dict()))
    return tuple(pool)


def assert_usable(s: State, d: dict[str, Any]) -> None:
    """Everything a front end, a bot or a driver does with a loaded state works."""
    names = [f"ship {k}" for k in range(s.ns)]
    for p in [None, *range(s.n)]:
        json.dumps(s.view(p))
        s.events_for(p)
    for e in s.events or []:
        describe(e, s.n, names)
    assert s.to_dict() == d  # what was accepted is exactly what the state holds
    again = State.from_dict(json.loads(json.dumps(d)))
    assert again == s and s.clone() == s
    repr(s)
    s.pending(names)
    s.scores()
    s.winners()
    question(s)
    resolving(s)
    rng = random.Random(0)
    for p in range(s.n):  # a search's worlds
        check_invariants(s.resample(p, rng))
    if s.is_terminal():
        assert s.legal_actions() == []
        return
    if s.current_player() == CHANCE:
        assert abs(sum(p for _, p in s.chance_outcomes()) - 1) < 1e-9
        s.sample_chance(rng)
    for a in s.legal_actions():
        c = s.clone()
        c.apply(a)
        check_invariants(c)
    for _ in range(40):  # and the game goes on
        if c.is_terminal():
            break
        c.apply(c.sample_chance(rng) if c.current_player() == CHANCE else rng.choice(c.legal))
    check_invariants(c)


def test_every_pool_state_loads_and_is_usable() -> None:
    for text in real_states():
        d = json.loads(text)
        assert_usable(State.from_dict(d), d)


@pytest.mark.soak
@given(data=st.data())
@settings(max_examples=soak(300, 5000))
def test_a_damaged_state_is_refused_or_usable(data: st.DataObject) -> None:
    pool = real_states()
    d = json.loads(pool[data.draw(st.integers(0, len(pool) - 1))])
    note(f"changes: {mutate(data, d)}")
    try:
        s = State.from_dict(d)
    except ValueError:
        return
    assert_usable(s, d)


# --- the defects of the audit, one by one ----------------------------------------------------


def late_state() -> State:
    *_, s = random_walk(Config(4), 7)
    return s


def test_an_event_with_too_few_arguments_is_refused() -> None:
    d = late_state().to_dict()
    i = next(i for i, e in enumerate(d["events"]) if e[1] == E_MOVE)
    d["events"][i] = d["events"][i][:4]  # a move needs 5 arguments
    with pytest.raises(ValueError, match=rf"events\[{i}\]: .*{EVENT_NAMES[E_MOVE]}"):
        State.from_dict(d)


def test_an_event_argument_out_of_range_is_refused() -> None:
    d = late_state().to_dict()
    i = next(i for i, e in enumerate(d["events"]) if e[1] == E_MOVE)
    d["events"][i][4] = 50  # no space 50
    with pytest.raises(ValueError, match=rf"events\[{i}\]\[4\]"):
        State.from_dict(d)


def test_a_chosen_card_far_out_of_range_is_refused() -> None:
    d = start(Config(3)).to_dict()
    d["chosen"][1] = 2**40 - 1  # once a MemoryError in the invariants' 1 << chosen
    with pytest.raises(ValueError, match=r"chosen\[1\]"):
        State.from_dict(d)


@pytest.mark.parametrize("key", ["round", "captain", "position", "legal", "pending", "stack"])
def test_a_bool_where_an_integer_is_meant_is_refused(key: str) -> None:
    d = start(Config(3)).to_dict()
    if key == "stack":
        d["stack"] = [[0]]  # a round to begin (not stored by the engine: it begins at once)
    path = key
    if isinstance(d[key], list):
        d[key][0] = bool(d[key][0]) if isinstance(d[key][0], int) else [True]
        path = rf"{key}\[0\]"
    else:
        d[key] = bool(d[key])  # JSON's true is not 1, nor false 0
    with pytest.raises(ValueError, match=path):
        State.from_dict(d)


def test_a_bool_format_is_refused() -> None:
    record = json.loads(a_record())
    record["format"] = True  # == 1 in Python
    with pytest.raises(ValueError, match="format"):
        Record.from_dict(record)


def test_a_stack_task_of_the_wrong_shape_is_refused() -> None:
    d = start(Config(3)).to_dict()
    d["pending"] = [0, 0, [2, 5]]  # a dice-order question
    d["stack"] = [[2]]  # a turn without its player
    with pytest.raises(ValueError, match=r"stack\[0\]"):
        State.from_dict(d)


def test_unknown_and_missing_keys_are_refused() -> None:
    d = start(Config(3)).to_dict()
    d["extra"] = 1
    with pytest.raises(ValueError, match="extra"):
        State.from_dict(d)
    del d["extra"], d["history"]
    with pytest.raises(ValueError, match="history"):
        State.from_dict(d)


# --- records -----------------------------------------------------------------------------------


@cache
def a_record() -> str:
    """A short game (6 rounds at most), so that a fuzzed copy replays quickly."""
    config = Config(3, max_rounds=6)
    return play_game(config, [RandomAgent(p) for p in range(3)], seed=5).to_json()


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("winners", None),
        ("scores", None),
        ("winners", [7]),
        ("winners", [True]),
        ("scores", [1, 2]),
        ("rounds", True),
        ("rounds", False),
        ("scores", [True, 1, 2]),
        ("rounds", "3"),
        ("rounds", -1),
        ("seed", 1.5),
        ("seed", True),
        ("actions", [9999]),
        ("config", {"players": 9}),
        ("config", None),
    ],
)
def test_a_bad_record_field_is_refused_by_name(key: str, value: Any) -> None:
    d = json.loads(a_record())
    d[key] = value
    with pytest.raises(ValueError, match=key):
        Record.from_dict(d)
    with pytest.raises(ValueError, match=key):
        Record.from_json(json.dumps(d))


def test_a_record_round_trips() -> None:
    r = Record.from_json(a_record())
    assert r.to_json() == a_record()


@pytest.mark.soak
@given(data=st.data())
@settings(max_examples=soak(300, 3000))
def test_a_damaged_record_is_refused_or_usable(data: st.DataObject) -> None:
    d = json.loads(a_record())
    mutate(data, d)
    try:
        r = Record.from_json(json.dumps(d))
    except ValueError:
        return
    assert Record.from_json(r.to_json()) == r == Record.from_dict(copy.deepcopy(r.to_dict()))
    try:
        replay(r, log=False)
    except ValueError as e:
        assert "does not replay" in str(e)


# --- configurations ----------------------------------------------------------------------------


@pytest.mark.soak
@given(data=st.data())
@settings(max_examples=soak(200, 2000))
def test_a_damaged_configuration_is_refused_or_usable(data: st.DataObject) -> None:
    d = Config(3, "classic", True, 40).to_dict()
    mutate(data, d)
    try:
        c = Config.from_dict(d)
    except ValueError:
        return
    assert Config.from_dict(c.to_dict()) == c
    json.dumps(c.to_dict())
    State(c, log=False)


def test_a_configuration_names_its_bad_key() -> None:
    with pytest.raises(ValueError, match="max_rounds must be an integer from 1 to 10000, not an"):
        Config.from_dict({"players": 3, "max_rounds": 10**5000})  # too long to print, or to show
    with pytest.raises(ValueError, match="unknown configuration keys: rounds"):
        Config.from_dict({"players": 3, "rounds": 5})


def test_the_error_carries_the_path_of_the_bad_field() -> None:
    d = start(Config(3)).to_dict()
    d["hold_count"][7] = -1
    with pytest.raises(FieldError) as err:
        State.from_dict(d)
    assert err.value.path == "hold_count[7]"
    assert str(err.value) == "corrupt state: hold_count[7]: must be an integer from 0 to 99, not -1"
