"""The blunders `hard` keeps out of its search (issue 15) are judged by the worst case of the dice
its player cannot choose, and nothing is kept out when every answer is as bad."""

from __future__ import annotations

from jamaica import Config, State
from jamaica.bots import make_bot
from jamaica.bots.blunders import mend, sound_actions
from jamaica.rules.actions import LOAD, MOVE

from ..rules.helpers import holds, place, round_, start

QUIET = ("gun-gold", "gold-gold", "food-gun")


def _on_space_5_without_food(hand: tuple[str, str, str]) -> State:
    """Anne Bonny on space 5 with 3 doubloons and no food; dice 3 (morning) and 2."""
    s = start(Config(2), captain=0, hands=[hand, QUIET])
    holds(s, 0, [("gold", 3)])
    place(s, 0, 5)
    s.apply("roll 2-3")
    s.apply("morning 3")
    assert s.decision_kind() == "card" and s.current_player() == 0
    return s


def test_a_card_an_unlucky_shortage_die_would_make_fruitless_is_left_out() -> None:
    """Forward 3 from space 5 reaches sea space 8 or 14 (3 and 4 food): short of food either way.
    Most faces of the shortage die leave the ship ahead of space 5 — the likeliest fall-back is
    ahead — but the lair face sends it back to space 4, behind where it started."""
    s = _on_space_5_without_food(("fwd-gun", "gold-gold", "gun-gold"))
    assert sorted(str(a) for a in sound_actions(s, 0) or []) == ["play gold-gold", "play gun-gold"]
    assert str(make_bot("hard", 1).act(s, 0)) != "play fwd-gun"


def test_nothing_is_kept_out_when_every_card_is_as_risky() -> None:
    s = _on_space_5_without_food(("fwd-gun", "fwd-fwd", "fwd-food"))
    assert sound_actions(s, 0) is None


def test_the_branch_of_a_fork_that_may_fall_back_behind_the_start_is_left_out() -> None:
    """On space 4 with 3 food, forward 4 ends on sea space 8 (3 food, paid) or, through the inner
    channel, on 14 (4 food): short, and though most faces of the shortage die leave the ship
    ahead, the lair face sends it back to space 4. Only the branch to 8 is sound."""
    s = start(Config(2), captain=0, hands=[("fwd-gun", "gold-gold", "gun-gold"), QUIET])
    holds(s, 0, [("food", 3), ("gold", 3)])
    place(s, 0, 4)
    round_(s, (4, 2), 4, {0: "fwd-gun", 1: "gun-gold"})
    while s.current_player() != 0 or s.decision_kind() != "move":
        s.apply(s.legal_actions()[0])
    assert sorted(a - MOVE for a in s.legal_actions()) == [8, 14]
    assert [a - MOVE for a in sound_actions(s, 0) or []] == [8]


def test_a_morning_load_keeps_the_food_the_evening_sea_needs() -> None:
    """Seen in a `hard` game: on space 34 with every hold full (3 food, doubloons, 5 gunpowder),
    gold-fwd with dice 5 and 1. The doubloons must empty a hold; the rules of thumb emptied the
    food, and forward 1 onto sea space 35 (2 food) then ran short and fell back to 34."""
    s = start(Config(2), captain=0, hands=[("gold-fwd", "gold-gold", "gun-gold"), QUIET])
    holds(s, 0, [("food", 3), ("gold", 5), ("gold", 4), ("gold", 4), ("powder", 5)])
    place(s, 0, 34)
    round_(s, (1, 5), 5, {0: "gold-fwd", 1: "gun-gold"})
    while s.current_player() != 0 or s.decision_kind() != "load":
        s.apply(s.legal_actions()[0])
    food_hold, powder_hold = LOAD + 0, LOAD + 4
    assert sorted(s.legal_actions()) == [food_hold, powder_hold]
    assert sound_actions(s, 0) == [powder_hold]
    assert mend(s, 0, food_hold) == powder_hold
    assert make_bot("hard", 1).act(s, 0) == powder_hold


def test_a_load_that_must_empty_the_food_hold_counts_as_losing_the_food() -> None:
    """Seen in a `hard` game: on Port Royal with 3 food and every other hold full of doubloons,
    gold-fwd with dice 6 and 1 must empty the food to load, and forward 1 onto sea space 1
    (2 food) then runs short — back to Port Royal on a port face of the shortage die."""
    s = start(Config(2), captain=0, hands=[("gold-fwd", "back-fwd", "fwd-back"), QUIET])
    holds(s, 0, [("food", 3), ("gold", 3), ("gold", 4), ("gold", 2), ("gold", 4)])
    s.apply("roll 1-6")
    s.apply("morning 6")
    assert s.decision_kind() == "card" and s.current_player() == 0
    assert "play gold-fwd" not in [str(a) for a in sound_actions(s, 0) or s.legal_actions()]


def test_with_nothing_sound_the_ghost_ship_is_still_avoided_where_a_card_can() -> None:
    """Seen in a `hard` game: on space 44 with no food and no gunpowder, the Ghost Ship on 45,
    dice 1 and 4. Forward 1 attacks it; back-fwd runs short on 43, and one fall-back (41) would
    sail onto it in the evening — but that is a chance, the others a certainty."""
    s = start(Config(2), captain=0, hands=[("fwd-fwd", "fwd-back", "back-fwd"), QUIET])
    holds(s, 0, [("gold", 9)])
    place(s, 0, 44)
    place(s, s.gh, 45)
    s.apply("roll 1-4")
    s.apply("morning 1")
    assert [str(a) for a in sound_actions(s, 0) or []] == ["play back-fwd"]


def test_the_evening_move_is_judged_from_where_the_turn_began() -> None:
    """Seen in a `hard` game: on space 18 with 2 food, back-fwd with dice 1 and 4. The morning
    pays the 2 food of sea space 17; the evening's forward 4 offers space 21 or sea space 27
    (4 food, short), whose port face of the shortage die falls back to 18 — no further along than
    the turn began, though ahead of 17 where the evening question is asked."""
    s = start(Config(2), captain=0, hands=[("back-fwd", "gold-gold", "gun-gold"), QUIET])
    holds(s, 0, [("food", 2), ("gold", 9)])
    place(s, 0, 18)
    place(s, s.gh, 40)
    round_(s, (1, 4), 1, {0: "back-fwd", 1: "gun-gold"})
    while s.current_player() != 0 or s.decision_kind() != "move" or len(s.legal) < 2:
        s.apply(s.legal_actions()[0])
    assert s.pos[0] == 17 and sorted(a - MOVE for a in s.legal_actions()) == [21, 27]
    assert [a - MOVE for a in sound_actions(s, 0) or []] == [21]
    assert make_bot("hard", 1).act(s, 0) - MOVE == 21
