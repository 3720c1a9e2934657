"""RULES §5 Loading, and ruling R11 (a 6th Hold drawn in the morning is usable that evening)."""

from __future__ import annotations

from jamaica import Config
from jamaica.rules.data import EMPTY, FOOD, GOLD, GUNPOWDER, HOLD6, SLOTS

from .helpers import give_power, holds, legal, round_, start, total

QUIET = ("gun-gold", "gold-gold", "food-gun")


def said(s, kind: str) -> list[tuple[int, ...]]:
    return [tuple(e["args"]) for e in s.events_for(None) if e["kind"] == kind]


def contents(s, ship: int) -> list[tuple[int, int]]:
    base = ship * SLOTS
    return [(s.hold_types[base + h], s.hold_counts[base + h]) for h in range(SLOTS)]


def test_load_goes_into_an_empty_hold():
    s = start(Config(3), hands=[QUIET] * 3)
    round_(s, (2, 5), 2)  # Anne Bonny, the Captain, plays gun-gold: 2 gunpowder, then 5 doubloons
    assert contents(s, 0)[:5] == [(FOOD, 3), (GOLD, 3), (GUNPOWDER, 2), (GOLD, 5), (EMPTY, 0)]
    assert said(s, "load")[:2] == [(0, GUNPOWDER, 2, 2), (0, GOLD, 5, 3)]


def test_no_empty_hold_means_emptying_a_hold_of_another_type():
    s = start(Config(3), hands=[("food-gun", "gun-gold", "gold-gold"), QUIET, QUIET])
    holds(s, 0, [("food", 3), ("gold", 3), ("powder", 2), ("gold", 3), ("food", 1)])
    round_(s, (4, 6), 4, {0: "food-gun"})
    # Loading 4 food: only a gold or a gunpowder hold may be emptied (identical holds listed once).
    assert s.decision_kind() == "load" and s.current_player() == 0
    assert legal(s) == ["load 1", "load 2"]
    s.apply("load 2")
    assert contents(s, 0)[:5] == [(FOOD, 3), (GOLD, 3), (FOOD, 4), (GOLD, 3), (FOOD, 1)]
    assert said(s, "dump") == [(0, GUNPOWDER, 2, 2)]  # back to the bank
    # Evening: 6 gunpowder; no gunpowder is aboard now, so any hold can go (food 3/4/1, gold 3).
    assert legal(s) == ["load 0", "load 1", "load 2", "load 4"]
    s.apply("load 1")
    assert total(s, 0, "gold") == 3 and total(s, 0, "powder") == 6


def test_every_hold_of_that_type_means_the_load_is_ignored():
    s = start(Config(3), hands=[QUIET] * 3)
    holds(s, 0, [("powder", 1)] * 5)
    round_(s, (2, 5), 2)  # gun-gold: 2 gunpowder (ignored), then 5 doubloons
    assert said(s, "load_ignored") == [(0, GUNPOWDER, 2)]
    # The doubloons must replace some gunpowder; the holds are alike, so no question is asked.
    assert contents(s, 0)[:5] == [(GOLD, 5)] + [(GUNPOWDER, 1)] * 4


def test_gold_gold_is_two_separate_loads():
    s = start(Config(3), hands=[QUIET] * 3)
    round_(s, (3, 3), 3, {0: "gold-gold"})
    assert contents(s, 0)[:5] == [(FOOD, 3), (GOLD, 3), (GOLD, 3), (GOLD, 3), (EMPTY, 0)]
    assert total(s, 0, "gold") == 9


def test_gold_gold_second_load_never_joins_the_first():
    s = start(Config(3), hands=[QUIET] * 3)
    holds(s, 0, [("food", 3), ("gold", 3), ("powder", 1), ("food", 2)])
    round_(s, (2, 4), 2, {0: "gold-gold"})
    # The 2 doubloons took the last empty hold; the 4 must empty a food or gunpowder hold.
    assert contents(s, 0)[4] == (GOLD, 2)
    assert legal(s) == ["load 0", "load 2", "load 3"]
    s.apply("load 2")
    assert contents(s, 0)[:5] == [(FOOD, 3), (GOLD, 3), (GOLD, 4), (FOOD, 2), (GOLD, 2)]


def test_6th_hold_is_a_choice_beside_a_regular_empty_hold():
    s = start(Config(3), hands=[QUIET] * 3)
    give_power(s, 0, "hold6")
    round_(s, (2, 5), 2)
    assert legal(s) == ["load 2", "load 5"]
    s.apply("load 5")
    assert contents(s, 0)[5] == (GUNPOWDER, 2)
    # The evening's doubloons: the first empty regular hold is the only place left.
    assert contents(s, 0)[2] == (GOLD, 5)


def test_6th_hold_may_be_emptied_to_make_room():
    s = start(Config(3), hands=[QUIET] * 3)
    give_power(s, 0, "hold6")
    holds(s, 0, [("gold", 3)] + [("food", 3)] * 4, sixth=("food", 3))
    round_(s, (2, 5), 2)
    # 2 gunpowder: a gold hold, a food hold (all alike), or the 6th Hold (it differs: R12).
    assert legal(s) == ["load 0", "load 1", "load 5"]
    s.apply("load 5")
    assert contents(s, 0)[5] == (GUNPOWDER, 2)
    # 5 doubloons: a food hold or the 6th Hold's gunpowder.
    assert legal(s) == ["load 1", "load 5"]
    s.apply("load 5")
    assert contents(s, 0) == [(GOLD, 3)] + [(FOOD, 3)] * 4 + [(GOLD, 5)]


def test_without_the_6th_hold_card_slot_6_is_not_a_hold():
    s = start(Config(3), hands=[QUIET] * 3)
    holds(s, 0, [("food", 3), ("gold", 3), ("food", 1), ("food", 2), ("gold", 4)])
    round_(s, (2, 5), 2)
    assert "load 5" not in legal(s)


def test_r11_6th_hold_drawn_in_the_morning_is_loaded_that_evening():
    s = start(Config(3), hands=[("fwd-food", *QUIET[:2]), QUIET, QUIET])
    holds(s, 0, [("food", 3), ("gold", 3), ("powder", 1), ("gold", 2), ("powder", 2)])
    round_(s, (4, 5), 4, {0: "fwd-food"})
    s.apply("treasure hold6")  # the lair on space 4
    assert s.powers[HOLD6] == 0
    # The 5 food go straight into the new, empty 6th Hold: nothing is thrown overboard.
    assert contents(s, 0)[:5] == [(FOOD, 3), (GOLD, 3), (GUNPOWDER, 1), (GOLD, 2), (GUNPOWDER, 2)]
    assert contents(s, 0)[5] == (FOOD, 5)
    assert said(s, "load")[0] == (0, FOOD, 5, 5) and said(s, "dump") == []
