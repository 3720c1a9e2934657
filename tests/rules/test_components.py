"""RULES §1: the components as data, and the action catalog."""

import re

import pytest

import jamaica
from jamaica import NUM_ACTIONS, Action, ParseError
from jamaica.rules import actions, data


def test_eleven_cards_per_deck_with_their_icons() -> None:
    assert data.NUM_CARDS == 11
    assert data.CARD_NAMES == (
        "food-fwd", "fwd-fwd", "fwd-back", "back-fwd", "fwd-gun", "gun-gold",
        "gold-gold", "gold-fwd", "fwd-food", "food-gun", "gun-food",
    )  # fmt: skip


def test_twelve_treasure_cards() -> None:
    assert sum(data.TREASURE_COUNTS) == 12
    values = sorted(
        v
        for v, c in zip(data.TREASURE_VALUES[4:], data.TREASURE_COUNTS[4:], strict=True)
        for _ in range(c)
    )
    assert values == [-4, -3, -2, 3, 3, 5, 7, 7]
    assert [data.TREASURE_NAMES[t] for t in range(data.NUM_POWERS)] == [
        "map",
        "sabre",
        "beth",
        "hold6",
    ]


def test_combat_die_faces_and_shortage_symbols() -> None:
    assert data.COMBAT_FACES == (2, 4, 6, 8, 10, data.STAR)
    symbols = [data.SHORTAGE_NAMES[s] for s in data.SHORTAGE_SYMBOLS]
    assert symbols == ["port", "sea", "lair", "port", "sea", "stay"]


def test_board_has_fifty_spaces_and_nine_lairs() -> None:
    assert data.NUM_SPACES == 50
    assert data.LAIR_SPACES == (4, 9, 11, 19, 22, 25, 33, 37, 44)
    assert [s for s in range(50) if len(data.SPACE_NEXT[s]) == 2] == [6, 19, 32]


def test_every_action_round_trips_through_text_and_id() -> None:
    assert NUM_ACTIONS == 206
    for i in range(NUM_ACTIONS):
        a = Action.from_id(i)
        assert a.id == i and int(a) == i
        assert Action.parse(str(a)) == a
        assert eval(repr(a), {"Action": Action}) == a


def test_catalog_table_in_the_docs_matches_the_ids() -> None:
    doc = actions.__doc__ or ""
    rows = re.findall(r"^\| (\d+)(?:–(\d+))? +\| ([^|]+?) +\|", doc, flags=re.M)
    assert len(rows) == 19
    for lo, hi, cell in rows:
        words = re.findall(r"`([a-z]+)", cell)
        assert str(Action.from_id(int(lo))).split(" ")[0] == words[0], (lo, cell)
        assert str(Action.from_id(int(hi or lo))).split(" ")[0] == words[-1], (hi, cell)
    assert int(rows[-1][1]) == NUM_ACTIONS - 1


@pytest.mark.parametrize("bad", ["fly 3", "move", "move 50", ""])
def test_unknown_action_text_is_a_parse_error(bad: str) -> None:
    with pytest.raises(ParseError):
        Action.parse(bad)


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, True])
def test_unknown_action_id_is_a_parse_error(bad: int) -> None:
    with pytest.raises(ParseError):
        Action.from_id(bad)


def test_parse_error_and_illegal_action_are_value_errors() -> None:
    assert issubclass(ParseError, ValueError)
    assert issubclass(jamaica.IllegalActionError, ValueError)
