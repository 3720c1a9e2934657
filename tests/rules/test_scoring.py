"""RULES §9 End of the game and scoring; rulings R7 (round limit) and R8 (tie-breaks)."""

from __future__ import annotations

import pytest

from jamaica import TERMINAL, Config

from .helpers import give_face_down, give_power, holds, place, round_, start

QUIET = ("gun-gold", "gold-gold", "food-gun")


def said(s, kind: str) -> list[tuple[int, ...]]:
    return [tuple(e["args"]) for e in s.events_for(None) if e["kind"] == kind]


def table(n: int = 4):
    """A game waiting for its first roll, every ship with 3 food and 3 doubloons on Port Royal."""
    return start(Config(n), hands=[QUIET] * n)


# --- the score -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("space", "lap", "position"),
    [
        (0, 1, 15),  # finished in Port Royal
        (41, 0, 2),  # the first space past the red line
        (42, 0, 3),
        (44, 0, 5),
        (45, 0, 6),
        (49, 0, 10),
        (38, 0, -5),  # the red −5 itself
        (40, 0, -5),  # the inner channel beside it: still before space 41
        (37, 0, -5),
        (20, 0, -5),
        (1, 0, -5),
        (0, 0, -5),  # on Port Royal without having finished
        (49, -1, -5),  # behind the start line, though space 49 shows 10
        (44, -1, -5),
    ],
)
def test_position_score(space, lap, position):
    s = table()
    place(s, 1, space, lap)
    assert s.scores()[1].position == position


def test_score_is_position_plus_doubloons_plus_treasures():
    s = table()
    place(s, 2, 45)
    holds(s, 2, [("gold", 3), ("food", 4), ("gold", 5), ("powder", 6)])
    give_face_down(s, 2, "+7")
    give_face_down(s, 2, "-3")
    give_power(s, 2, "sabre")  # a power is worth nothing
    sc = s.scores()[2]
    assert (sc.position, sc.doubloons, sc.treasures) == (6, 8, 4)
    assert sc.total == 18


def test_doubloons_in_the_6th_hold_count():
    s = table()
    give_power(s, 0, "hold6")
    holds(s, 0, [("gold", 2)], sixth=("gold", 4))
    assert s.scores()[0].doubloons == 6


# --- the end of the game -------------------------------------------------------------------------
def test_the_round_is_played_to_its_end_after_a_ship_finishes():
    s = start(Config(4), captain=1, hands=[QUIET, ("fwd-food", *QUIET[:2]), QUIET, QUIET])
    place(s, 1, 47)
    give_face_down(s, 0, "+5")
    round_(s, (6, 2), 6, {1: "fwd-food"})
    # Mary Read, the Captain, finishes in the morning; her evening load is ignored …
    assert said(s, "finish") == [(1,)] and said(s, "ignored") == [(1,)]
    # … and John Rackham, Olivier Levasseur and Anne Bonny still play their turns.
    assert [p for p, _ in said(s, "reveal")] == [1, 2, 3, 0]
    assert [a[0] for a in said(s, "load")] == [2, 2, 3, 3, 0, 0]
    # Then the game is over: no draws, no new round.
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.decision_kind() == "" and s.legal_actions() == []
    assert said(s, "game_end") == [(0,)]
    assert s.rnd == 1 and [s.hand[p].bit_count() for p in range(4)] == [2, 2, 2, 2]
    assert s.scores()[1].position == 15
    # Every face-down treasure is revealed for scoring.
    v = s.view(2)
    assert v["game_over"] and v["ships"][0]["face_down_known"] == ["+5"]
    assert [sc["total"] for sc in v["scores"]] == [sc.total for sc in s.scores()]


def test_the_game_goes_on_while_nobody_has_finished():
    s = table()
    round_(s, (2, 5), 2)
    assert not s.is_terminal() and s.decision_kind() == "draw_card"


# --- tie-breaks (R8) -----------------------------------------------------------------------------
def scene(*ships: tuple[int, int, int]):
    """Four ships, each (space, lap, doubloons); nothing else aboard."""
    s = table(len(ships))
    for k, (space, lap, gold) in enumerate(ships):
        place(s, k, space, lap)
        holds(s, k, [("gold", gold)] if gold else [])
    return s


def test_highest_score_wins():
    s = scene((44, 0, 9), (49, 0, 3), (0, 0, 3), (0, 0, 3))
    assert [sc.total for sc in s.scores()] == [14, 13, -2, -2]
    assert s.winners() == [0]


def test_r8_tie_goes_to_the_ship_furthest_along():
    s = scene((44, 0, 5), (49, 0, 0), (0, 0, 3), (0, 0, 3))  # 10 and 10
    assert s.winners() == [1]


def test_r8_a_finished_ship_is_furthest_along():
    s = scene((0, 1, 0), (49, 0, 5), (0, 0, 3), (0, 0, 3))  # 15 and 15
    assert s.winners() == [0]


def test_r8_furthest_along_means_fewest_moves_left_not_the_space_number():
    s = scene((12, 0, 3), (13, 0, 3), (0, 0, 1), (0, 0, 1))
    # Space 12 ends the outer lane of fork 1 (24 moves left); 13 starts the channel (25).
    assert (s.moves_left(0), s.moves_left(1)) == (24, 25)
    assert s.winners() == [0]


def test_r8_behind_the_start_line_counts_a_whole_lap_more():
    s = scene((49, -1, 3), (1, 0, 3), (0, 0, 1), (0, 0, 1))
    assert (s.moves_left(0), s.moves_left(1)) == (1 + 32, 31)
    assert s.winners() == [1]


def test_r8_still_tied_is_a_shared_victory():
    s = scene((11, 0, 4), (13, 0, 4), (0, 0, 1), (0, 0, 1))  # 25 moves left each
    assert s.winners() == [0, 1]


# --- the round limit (R7) ------------------------------------------------------------------------
def test_r7_default_round_limit_is_100():
    assert Config().max_rounds == 100


def test_r7_the_game_ends_after_the_last_allowed_round_and_is_scored_normally():
    s = start(Config(3, max_rounds=2), hands=[QUIET] * 3)
    round_(s, (2, 5), 2)
    assert not s.is_terminal()
    while s.decision_kind() == "draw_card":
        s.apply(s.legal_actions()[0])
    assert s.rnd == 2
    for p in range(3):
        holds(s, p, [("food", 3), ("gold", 3)])
    round_(s, (1, 4), 1, {p: "food-gun" for p in range(3)})
    assert s.is_terminal() and not s.ending
    assert said(s, "game_end") == [(2,)]
    assert [sc.total for sc in s.scores()] == [-5 + 3] * 3
    assert s.winners() == [0, 1, 2]
