"""RULES §7 Shortage, in both editions, and ruling R4 (never back past Port Royal).

Most examples start on space 16 or 17 and sail to space 18, a 3-doubloon port. Behind it: 17 (sea,
2 food), 16 (port, 3), 15 (sea, 3) where fork 1 merges, then either the outer lane 12 (sea, 2),
11 (lair) … or the inner channel 14 (sea, 4), 13 (sea, 3), then 6 and 5 (ports) and 4 (lair).
"""

from __future__ import annotations

import pytest

from jamaica import CHANCE, Config, State
from jamaica.rules.data import COMBAT_FACE_NAMES, FOOD, GOLD, SHORTAGE_NAMES, SHORTAGE_SYMBOLS

from .helpers import holds, legal, place, round_, start, total

QUIET = ("gun-gold", "gold-gold", "food-gun")


def said(s, kind: str) -> list[tuple[int, ...]]:
    return [tuple(e["args"]) for e in s.events_for(None) if e["kind"] == kind]


def sail(
    edition: str,
    space: int,
    die: int,
    cargo: list[tuple[str, int]],
    *,
    card: str = "fwd-gun",
    others: dict[int, int] | None = None,
) -> State:
    """Anne Bonny, the Captain, with `cargo` on `space`, plays `card` with `die` in the morning
    (6 in the evening, or 5 when the morning die is 6). `others` places the other ships."""
    s = start(Config(3, edition=edition), captain=0, hands=[(card, *QUIET[:2]), QUIET, QUIET])
    place(s, 0, space)
    holds(s, 0, cargo)
    for ship, where in (others or {}).items():
        place(s, ship, where)
    round_(s, (die, 6 if die < 6 else 5), die, {0: card})
    return s


def shortage_die_symbol(face: str) -> str:
    return SHORTAGE_NAMES[SHORTAGE_SYMBOLS[COMBAT_FACE_NAMES.index(face)]]


# --- 2021: the shortage die (§7.2) ---------------------------------------------------------------
def test_2021_pays_everything_due_then_rolls_the_shortage_die():
    s = sail("2021", 17, 1, [("food", 3), ("gold", 1), ("gold", 1)])
    assert said(s, "shortage") == [(0, GOLD, 2, 3)]  # owes 3 doubloons, has 2, pays them
    assert total(s, 0, "gold") == 0 and total(s, 0, "food") == 3
    assert s.current_player() == CHANCE and s.decision_kind() == "combat_die"
    assert legal(s) == [f"die {f}" for f in ("2", "4", "6", "8", "10", "star")]


@pytest.mark.parametrize(
    ("face", "symbol", "lands"),
    [
        ("2", "port", 16),
        ("8", "port", 16),
        ("4", "sea", 17),
        ("10", "sea", 17),
        ("star", "stay", 18),
    ],
)
def test_2021_shortage_die_faces(face, symbol, lands):
    """RULES §1: 2→port 4→sea 6→lair 8→port 10→sea star→stay."""
    assert shortage_die_symbol(face) == symbol
    s = sail("2021", 17, 1, [("food", 3), ("gold", 1)])
    s.apply(f"die {face}")
    assert s.pos[0] == lands
    face_index, symbol_index = COMBAT_FACE_NAMES.index(face), SHORTAGE_NAMES.index(symbol)
    assert said(s, "shortage_die") == [(0, face_index, symbol_index)]


def test_2021_the_new_space_is_never_paid():
    s = sail("2021", 17, 1, [("food", 3), ("gold", 1)])
    s.apply("die 4")  # back to space 17, a 2-food sea space
    assert s.pos[0] == 17
    assert total(s, 0, "food") == 3
    assert said(s, "pay") == [] and len(said(s, "shortage")) == 1


def test_2021_lair_fallback_chooses_the_route_and_takes_the_treasure():
    assert shortage_die_symbol("6") == "lair"
    s = sail("2021", 17, 1, [("food", 3), ("gold", 1)])
    s.apply("die 6")
    # Backward through the merge at 15: the outer lane's lair 11 or, by the channel, lair 4.
    assert s.decision_kind() == "move" and s.current_player() == 0
    assert sorted(legal(s)) == ["move 11", "move 4"]
    s.apply("move 11")
    assert s.decision_kind() == "draw_treasure"
    s.apply("treasure +7")
    assert s.pos[0] == 11 and len(s.face_down[0]) == 1
    assert not s.tokens >> 11 & 1


@pytest.mark.parametrize(
    ("face", "choices"),
    [
        ("2", {31, 34}),  # ports: 34 on the outer lane, 31 past the channel
        ("4", {38, 40}),  # sea: the first space of either lane
        ("6", {37, 25, 19}),  # lairs: 37; or past the channel and fork 2 again: 25 or 19
    ],
)
def test_2021_route_choice_backward_through_the_merge_at_41(face, choices):
    s = sail("2021", 40, 1, [("food", 3), ("gold", 3)])  # space 41 costs 5 doubloons
    s.apply(f"die {face}")
    assert sorted(legal(s)) == sorted(f"move {c}" for c in choices)
    target = max(choices)
    s.apply(f"move {target}")
    assert s.pos[0] == target
    assert total(s, 0, "food") == 3  # never paid, even a sea space


def test_2021_battle_at_the_fallback_space_and_still_no_payment():
    s = sail("2021", 16, 2, [("food", 3), ("gold", 1)], others={1: 17})
    s.apply("die 4")  # back to the sea space 17, where Mary Read is
    assert said(s, "fallback") == [(0, 18, 17)]
    assert said(s, "battle") == [(0, 1, 17)]
    s.apply("die 10")  # Anne Bonny's combat die
    s.apply("die 2")  # Mary Read's
    assert said(s, "win") == [(0, 1)]
    s.apply("nothing")
    assert s.pos[0] == 17 and total(s, 0, "food") == 3


@pytest.mark.parametrize(("face", "lands"), [("2", 0), ("6", 0), ("8", 0), ("4", 1)])
def test_r4_2021_never_back_past_port_royal(face, lands):
    s = sail("2021", 1, 1, [("food", 2), ("gold", 3)])  # space 2 costs 3 food
    assert said(s, "shortage") == [(0, FOOD, 2, 3)]
    s.apply(f"die {face}")  # no port or lair behind space 2: Port Royal, which is free
    assert (s.pos[0], s.lap[0]) == (lands, 0)
    assert not s.ending and said(s, "finish") == []
    assert total(s, 0, "gold") == 3


# --- classic: fall back to a space you can pay (§7.1) --------------------------------------------
def test_classic_falls_back_to_the_first_space_it_can_pay_and_pays_it():
    s = sail("classic", 16, 2, [("food", 2), ("gold", 2)])
    assert said(s, "shortage") == [(0, GOLD, 2, 3)]
    assert said(s, "fallback") == [(0, 18, 17)]  # 17 costs 2 food: affordable
    assert said(s, "pay") == [(0, FOOD, 2, 17)]
    assert total(s, 0, "food") == 0 and total(s, 0, "gold") == 0


def test_classic_the_fallback_may_be_paid_in_the_other_resource():
    s = sail("classic", 15, 2, [("food", 1), ("gold", 3)])  # space 17 costs 2 food
    assert said(s, "shortage") == [(0, FOOD, 1, 2)]
    assert s.pos[0] == 16  # a 3-doubloon port: affordable
    assert said(s, "pay") == [(0, GOLD, 3, 16)]


def test_classic_a_lair_always_qualifies_and_the_route_is_chosen_at_a_merge():
    s = sail("classic", 16, 2, [("food", 1), ("gold", 2)])
    # 17, 16, 15, 12 / 14, 13, 6, 5 are all too dear now: the lairs 11 and 4 remain.
    assert s.decision_kind() == "move" and s.current_player() == 0
    assert sorted(legal(s)) == ["move 11", "move 4"]
    s.apply("move 4")
    s.apply("treasure -3")
    assert s.pos[0] == 4 and len(s.face_down[0]) == 1
    assert total(s, 0, "food") == 1


@pytest.mark.parametrize(("choice", "food_left"), [(38, 2), (32, 0)])
def test_classic_route_choice_at_the_merge_at_41(choice, food_left):
    s = sail("classic", 40, 1, [("food", 3), ("gold", 3)])  # space 41 costs 5 doubloons
    # The red −5 (38, 1 food) on the outer lane; by the channel (40, 39: 4 food) back to 32.
    assert sorted(legal(s)) == ["move 32", "move 38"]
    s.apply(f"move {choice}")
    assert s.pos[0] == choice and total(s, 0, "food") == food_left


def test_classic_battle_first_at_the_fallback_space_then_pay():
    s = sail("classic", 16, 2, [("food", 2), ("gold", 2)], others={1: 17})
    assert said(s, "battle") == [(0, 1, 17)]
    assert said(s, "pay") == []  # not yet
    s.apply("die 10")
    s.apply("die 2")
    s.apply("nothing")
    assert said(s, "pay") == [(0, FOOD, 2, 17)]
    assert s.pos[0] == 17


def test_classic_losing_the_battle_can_cause_a_second_shortage():
    s = sail("classic", 16, 2, [("food", 2), ("gold", 2)], others={1: 17})
    s.apply("die 2")  # Anne Bonny
    s.apply("die 10")  # Mary Read wins
    s.apply("take 0")  # ... and takes Anne Bonny's 2 food
    assert total(s, 1, "food") == 3 + 2
    # Now Anne Bonny can't pay space 17 either: a new shortage, a new fall-back.
    assert said(s, "shortage") == [(0, GOLD, 2, 3), (0, FOOD, 0, 2)]
    assert sorted(legal(s)) == ["move 11", "move 4"]
    s.apply("move 11")
    assert s.pos[0] == 11 and s.decision_kind() == "draw_treasure"


def test_r4_classic_never_back_past_port_royal():
    s = sail("classic", 0, 2, [("food", 2), ("gold", 3)])  # space 2 costs 3 food
    # Space 1 costs 2 food, none left: back to Port Royal, free, and no battle there.
    assert (s.pos[0], s.lap[0]) == (0, 0)
    assert said(s, "battle") == [] and not s.ending
    assert total(s, 0, "gold") == 3
