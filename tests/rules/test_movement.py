"""RULES §6 Movement and spaces; rulings R2 (forks) and R3 (behind the start line)."""

from __future__ import annotations

import pytest

from jamaica import Config, State
from jamaica.rules.data import FOOD, GOLD, GUNPOWDER, SABRE

from .helpers import holds, legal, place, round_, start, total

QUIET = ("gun-gold", "gold-gold", "food-gun")


def said(s, kind: str, player: int | None = None) -> list[tuple[int, ...]]:
    """The arguments of every `kind` event that `player` saw (None: public events)."""
    return [tuple(e["args"]) for e in s.events_for(player) if e["kind"] == kind]


def game(card: str, *, space: int = 0, lap: int = 0) -> State:
    """Three players; Anne Bonny is the Captain, holds `card`, and sits on `space`."""
    s = start(Config(3), captain=0, hands=[(card, *QUIET[:2]), QUIET, QUIET])
    place(s, 0, space, lap)
    return s


# --- forks (R2) ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("space", "die", "forward", "destinations"),
    [
        (5, 3, True, {8, 14}),  # fork 1: outer lane or inner channel
        (6, 1, True, {7, 13}),
        (19, 1, True, {20, 26}),
        (32, 3, True, {35, 41}),  # the inner channel is short: through it, past the merge
        (16, 3, False, {11, 13}),  # backward through a merge
        (41, 6, False, {29, 33}),
        (20, 2, True, {22}),  # no fork: one destination, no question
    ],
)
def test_r2_a_move_offers_the_distinct_destinations(space, die, forward, destinations):
    s = game("fwd-gun" if forward else "back-fwd", space=space)
    holds(s, 0, [("food", 9), ("gold", 9)])
    round_(s, (die, 6 if die < 6 else 5), die, {0: "fwd-gun" if forward else "back-fwd"})
    if len(destinations) == 1:
        assert s.pos[0] in destinations  # moved at once
    else:
        assert s.decision_kind() == "move" and s.current_player() == 0
        assert sorted(legal(s)) == sorted(f"move {d}" for d in destinations)


def test_r2_the_mover_chooses_the_branch():
    s = game("fwd-gun", space=5)
    holds(s, 0, [("food", 9), ("gold", 9)])
    round_(s, (3, 2), 3, {0: "fwd-gun"})
    s.apply("move 14")
    assert s.pos[0] == 14
    assert said(s, "pay") == [(0, FOOD, 4, 14)]


# --- costs (§6.2) --------------------------------------------------------------------------------
def test_a_port_costs_its_doubloons_once_on_arrival():
    s = game("fwd-gun")
    round_(s, (5, 2), 5, {0: "fwd-gun"})
    assert s.pos[0] == 5
    assert total(s, 0, "gold") == 0 and total(s, 0, "food") == 3
    assert said(s, "pay") == [(0, GOLD, 3, 5)]  # the evening load costs nothing more


def test_a_sea_space_costs_one_food_per_square():
    s = game("fwd-gun")
    round_(s, (2, 4), 2, {0: "fwd-gun"})
    assert s.pos[0] == 2
    assert total(s, 0, "food") == 0 and total(s, 0, "gold") == 3


def test_a_lair_is_free():
    s = game("fwd-gun")
    s.tokens &= ~(1 << 4)  # already looted
    round_(s, (4, 2), 4, {0: "fwd-gun"})
    assert s.pos[0] == 4
    assert (total(s, 0, "food"), total(s, 0, "gold")) == (3, 3)
    assert said(s, "pay") == []


@pytest.mark.parametrize(
    ("choices", "left"),
    [
        # the lone food first: the rest from the big hold, which keeps 1
        (["pay 1"], [(FOOD, 1), (GUNPOWDER, 4)]),
        # the big hold twice; the third comes from holds alike (1 and 1): no question
        (["pay 0", "pay 0"], [(GUNPOWDER, 4), (FOOD, 1)]),
    ],
)
def test_the_player_chooses_which_holds_to_pay_from(choices, left):
    s = game("fwd-gun")
    holds(s, 0, [("food", 3), ("food", 1), ("gold", 3)])
    round_(s, (2, 4), 2, {0: "fwd-gun"})  # space 2 costs 3 food; 4 food aboard
    for c in choices:
        assert s.decision_kind() == "pay" and s.current_player() == 0
        assert legal(s) == ["pay 0", "pay 1"]
        s.apply(c)
    assert s.decision_kind() != "pay"
    # (the evening's 4 gunpowder went into the hold that was emptied)
    assert [(s.hold_types[0], s.hold_counts[0]), (s.hold_types[1], s.hold_counts[1])] == left
    assert said(s, "pay") == [(0, FOOD, 3, 2)]


def test_no_payment_question_when_everything_goes():
    s = game("fwd-gun")
    holds(s, 0, [("food", 2), ("food", 1), ("gold", 3)])
    round_(s, (2, 5), 2, {0: "fwd-gun"})  # exactly the 3 food due
    assert s.pos[0] == 2 and total(s, 0, "food") == 0


def test_no_payment_question_when_the_holds_are_alike():
    s = game("fwd-gun", space=28)
    holds(s, 0, [("food", 2), ("food", 2), ("gold", 3)])
    round_(s, (1, 5), 1, {0: "fwd-gun"})  # space 29 costs 1 food
    assert s.pos[0] == 29
    assert [s.hold_counts[0], s.hold_counts[1]] == [1, 2]


def test_a_lair_power_is_drawn_face_up():
    s = game("fwd-gun")
    round_(s, (4, 2), 4, {0: "fwd-gun"})
    assert s.decision_kind() == "draw_treasure"
    s.apply("treasure sabre")
    assert s.powers[SABRE] == 0
    assert not s.tokens >> 4 & 1
    assert s.view(1)["ships"][0]["powers"] == ["sabre"]
    assert s.face_down[0] == ()


def test_a_lair_treasure_is_face_down_and_known_to_its_owner_only():
    s = game("fwd-gun")
    round_(s, (4, 2), 4, {0: "fwd-gun"})
    s.apply("treasure +5")
    assert len(s.face_down[0]) == 1
    assert s.view(0)["ships"][0]["face_down_known"] == ["+5"]
    mine_seen_by_other = s.view(1)["ships"][0]
    assert mine_seen_by_other["face_down"] == 1 and mine_seen_by_other["face_down_known"] == []
    assert said(s, "face_down_seen", 0) and not said(s, "face_down_seen", 1)


def test_a_lair_gives_its_treasure_only_once():
    s = start(Config(3), captain=0, hands=[("fwd-fwd", *QUIET[:2]), ("fwd-gun", *QUIET[:2]), QUIET])
    holds(s, 0, [("food", 3), ("gold", 9)])
    round_(s, (4, 2), 4, {0: "fwd-fwd", 1: "fwd-gun"})
    s.apply("treasure +3")  # Anne Bonny loots the lair on space 4, then sails on to space 6
    assert s.tokens >> 4 & 1 == 0 and s.pos[0] == 6
    # Mary Read lands on space 4 in her turn: the token is gone, nothing to draw.
    assert s.pos[1] == 4
    assert s.decision_kind() == "draw_card"  # the round is over: no treasure question was asked
    assert s.face_down[1] == () and len(s.face_down[0]) == 1
    assert (total(s, 1, "food"), total(s, 1, "gold")) == (3, 3)


# --- the start line (R3) -------------------------------------------------------------------------
def test_r3_a_backward_first_move_puts_the_ship_behind_the_start_line():
    s = game("back-fwd")
    holds(s, 0, [("food", 5), ("gold", 3)])
    round_(s, (4, 1), 4, {0: "back-fwd"})  # back 4 to space 46, then forward 1 to space 47
    assert said(s, "move")[0] == (0, 0, 46, 0, 1)  # backward, across the start line
    assert (s.pos[0], s.lap[0]) == (47, -1)
    assert total(s, 0, "food") == 0  # 2 + 3 food: the spaces are paid as usual
    assert s.scores()[0].position == -5  # not 8: it is a whole lap behind
    assert s.moves_left(0) == 3 + 32


def test_r3_crossing_port_royal_forward_from_behind_does_not_finish():
    s = game("fwd-food", space=48, lap=-1)
    round_(s, (3, 2), 3, {0: "fwd-food"})
    assert (s.pos[0], s.lap[0]) == (1, 0)  # the move goes on past Port Royal
    assert not s.ending and said(s, "finish") == []
    assert said(s, "ignored") == []
    assert total(s, 0, "food") == 1 + 2  # paid 2 for space 1, then loaded 2 in the evening


def test_r3_landing_on_port_royal_from_behind_starts_the_lap():
    s = game("fwd-food", space=49, lap=-1)
    place(s, 1, 0)
    round_(s, (1, 2), 1, {0: "fwd-food"})
    assert (s.pos[0], s.lap[0]) == (0, 0)
    assert not s.ending and said(s, "battle") == []  # no battle on Port Royal
    assert s.scores()[0].position == -5  # on Port Royal without having finished


def test_r3_after_going_round_the_ship_finishes():
    s = game("back-fwd")
    holds(s, 0, [("food", 9), ("gold", 3)])
    round_(s, (1, 2), 1, {0: "back-fwd"})  # back to 49, then forward across the line to 1
    assert (s.pos[0], s.lap[0]) == (1, 0) and not s.ending
    s.apply("draw food-fwd")  # Anne Bonny's end-of-round draw; the others draw their first card
    while s.decision_kind() == "draw_card":
        s.apply(s.legal_actions()[0])
    place(s, 0, 47, s.lap[0])  # ... later in the race, on the same lap
    for p in (1, 2):
        holds(s, p, [("food", 3), ("gold", 3)])
    round_(s, (3, 4), 3, {0: "food-fwd", 1: "gold-gold", 2: "gold-gold"})
    assert (s.pos[0], s.lap[0]) == (0, 1)
    assert s.ending and s.is_terminal()


# --- the finish (§6, §9) -------------------------------------------------------------------------
def test_overshooting_port_royal_stops_the_ship_there_and_finishes():
    s = game("fwd-food", space=47)
    round_(s, (6, 2), 6, {0: "fwd-food"})
    assert (s.pos[0], s.lap[0]) == (0, 1)
    assert s.ending and said(s, "finish") == [(0,)]
    assert s.scores()[0].position == 15


def test_the_evening_action_is_ignored_after_a_morning_finish():
    s = game("fwd-food", space=48)
    round_(s, (3, 5), 3, {0: "fwd-food"})
    assert (s.pos[0], s.lap[0]) == (0, 1)
    assert said(s, "ignored") == [(0,)]
    assert total(s, 0, "food") == 3  # the 5 food were never loaded
    assert [a for a in said(s, "load") if a[0] == 0] == []


def test_resources_loaded_in_the_evening_cannot_pay_the_morning_move():
    s = game("fwd-food")
    holds(s, 0, [("food", 1), ("gold", 3)])
    round_(s, (2, 6), 2, {0: "fwd-food"})  # space 2 costs 3 food: only 1 aboard this morning
    assert said(s, "shortage") == [(0, FOOD, 1, 3)]
    assert s.decision_kind() == "combat_die"  # the 2021 shortage die, before the evening
    s.apply("die star")  # the ship stays
    assert s.pos[0] == 2 and total(s, 0, "food") == 6


def test_resources_loaded_in_the_morning_can_pay_the_evening_move():
    s = game("gold-fwd")
    holds(s, 0, [("food", 3)])
    round_(s, (3, 5), 3, {0: "gold-fwd"})  # 3 doubloons, then space 5, a 3-doubloon port
    assert s.pos[0] == 5 and total(s, 0, "gold") == 0
    assert said(s, "shortage") == []
