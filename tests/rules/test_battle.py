"""Battles (RULES §8) and their spoils (R5, R6, R10, R12), as rulebook examples.

The usual scene: Anne Bonny (player 0) is the Captain and plays first. She sails 3 spaces from
space 3 to space 6 (a 5-doubloon port at the first fork), where Mary Read (player 1) is anchored,
and fights her. Her evening move leaves space 6 by the fork, so the game stops there and asks her
which branch to take: everything the battle and the payment did can be read at that point.
The other players hold only loading cards, so nobody else moves.
"""

from __future__ import annotations

import pytest

from jamaica import Config, IllegalActionError, State
from jamaica.rules.data import GOLD, HOLD6, LADY_BETH, MAP, SABRE, SIXTH, SLOTS, TREASURE_NAMES
from jamaica.rules.invariants import check_invariants

from .helpers import give_face_down, give_power, holds, legal, place, round_, start, total

LOADS = ("gun-gold", "gold-gold", "food-gun")
ANNE, MARY, JOHN = 0, 1, 2


def anne_plays(card: str) -> State:
    """A 4-player game, Anne the Captain holding `card`; the others hold loading cards."""
    hands = [(card, "gold-gold", "food-gun"), LOADS, LOADS, LOADS]
    return start(Config(4), captain=ANNE, hands=hands)


def fight_at_6(
    anne: list[tuple[str, int]],
    mary: list[tuple[str, int]],
    *,
    card: str = "fwd-fwd",
    evening: int = 2,
) -> State:
    """Anne (space 3) moves 3 onto Mary (space 6); the battle is about to start."""
    s = anne_plays(card)
    place(s, ANNE, 3)
    place(s, MARY, 6)
    holds(s, ANNE, anne)
    holds(s, MARY, mary)
    round_(s, (3, evening), 3, {ANNE: card})
    return s


def hold(s: State, ship: int, h: int) -> tuple[str, int]:
    kind = ("-", "food", "powder", "gold")[s.hold_types[ship * SLOTS + h]]
    return kind, s.hold_counts[ship * SLOTS + h]


def happened(s: State, kind: str, player: int | None = None) -> list[list[int]]:
    """The arguments of every event of that kind (seen by `player`; None: the public ones)."""
    return [e["args"] for e in s.events_for(player) if e["kind"] == kind]


def firepower(s: State, ship: int) -> int:
    """The firepower of the ship's last combat die roll."""
    return [args[2] for args in happened(s, "die") if args[0] == ship][-1]


def anne_wins(s: State) -> None:
    """Anne spends nothing and rolls 10; Mary spends nothing and rolls 2."""
    for answer in ("powder 0", "die 10", "powder 0", "die 2"):
        if answer.startswith("powder") and s.decision_kind() != "powder":
            continue
        s.apply(answer)
    assert s.decision_kind() == "spoils" and s.current_player() == ANNE


# --- when a battle happens ------------------------------------------------------------------------
def test_battle_on_arrival_comes_before_paying_the_space() -> None:
    # Anne arrives without a doubloon at the 5-doubloon port: she fights first, pays with loot.
    s = fight_at_6([("food", 3)], [("gold", 5), ("food", 2)])
    assert happened(s, "battle") == [[ANNE, MARY, 6]] and happened(s, "pay") == []
    s.apply("die 8")
    s.apply("die 4")
    s.apply("take 0")
    assert happened(s, "load") == [[ANNE, GOLD, 5, 1]]
    assert happened(s, "pay") == [[ANNE, GOLD, 5, 6]] and happened(s, "shortage") == []
    assert total(s, ANNE, "gold") == 0 and total(s, MARY, "gold") == 0
    assert s.decision_kind() == "move" and legal(s) == ["move 8", "move 14"]


def test_the_space_is_paid_with_what_the_battle_left() -> None:
    # Anne loses, Mary takes her doubloons: Anne can no longer pay the port (a shortage).
    s = fight_at_6([("gold", 5), ("food", 3)], [("food", 2)])
    s.apply("die 4")
    s.apply("die 6")
    assert s.current_player() == MARY
    s.apply("take 0")
    assert happened(s, "shortage") == [[ANNE, GOLD, 0, 5]]
    assert s.decision_kind() == "combat_die"  # the 2021 shortage die


def test_no_battle_on_port_royal() -> None:
    s = anne_plays("back-fwd")
    place(s, ANNE, 2)  # the three others wait on Port Royal
    round_(s, (2, 1), 2, {ANNE: "back-fwd"})
    assert s.pos[ANNE] == 1  # back to Port Royal, then on to space 1: no battle on the way
    assert happened(s, "battle") == []


def test_passing_an_occupied_space_is_no_battle() -> None:
    s = anne_plays("fwd-fwd")
    place(s, ANNE, 2)
    place(s, MARY, 3)
    round_(s, (2, 4), 2, {ANNE: "fwd-fwd"})  # 2 → 4 passes Mary on 3
    assert s.pos[ANNE] == 4
    assert happened(s, "battle") == []


def test_attacker_chooses_one_opponent_among_several() -> None:
    s = anne_plays("fwd-fwd")
    place(s, ANNE, 3)
    place(s, MARY, 6)
    place(s, JOHN, 6)
    holds(s, ANNE, [("gold", 5)])
    round_(s, (3, 2), 3, {ANNE: "fwd-fwd"})
    assert s.decision_kind() == "attack" and s.current_player() == ANNE
    assert legal(s) == ["attack 1", "attack 2"]
    s.apply("attack 2")
    s.apply("die 10")
    s.apply("die 2")
    s.apply("nothing")
    assert happened(s, "battle") == [[ANNE, JOHN, 6]]
    assert total(s, MARY, "gold") == 3  # Mary is left alone


def test_battle_after_a_shortage_fall_back() -> None:
    # 2021: Anne can't feed her crew on space 3, the die says SEA: back to space 2, onto Mary.
    s = anne_plays("fwd-fwd")
    place(s, ANNE, 1)
    place(s, MARY, 2)
    holds(s, ANNE, [("gold", 3)])
    round_(s, (2, 4), 2, {ANNE: "fwd-fwd"})
    s.apply("die 4")  # the shortage die: SEA
    assert s.pos[ANNE] == 2
    assert happened(s, "battle") == [[ANNE, MARY, 2]]
    assert s.decision_kind() == "combat_die"


# --- gunpowder, dice and firepower ----------------------------------------------------------------
def test_gunpowder_spent_leaves_the_holds_and_adds_to_firepower() -> None:
    s = fight_at_6([("gold", 5), ("powder", 4)], [("powder", 2)])
    assert s.decision_kind() == "powder" and s.current_player() == ANNE
    assert legal(s) == [f"powder {n}" for n in range(5)]
    s.apply("powder 3")
    assert total(s, ANNE, "powder") == 1
    s.apply("die 2")
    assert firepower(s, ANNE) == 5
    assert s.current_player() == MARY and legal(s) == ["powder 0", "powder 1", "powder 2"]
    s.apply("powder 2")
    s.apply("die 4")
    assert firepower(s, MARY) == 6 and happened(s, "win") == [[MARY, ANNE]]
    assert total(s, ANNE, "powder") == 1 and total(s, MARY, "powder") == 0  # spent even on a win


def test_no_gunpowder_no_question() -> None:
    s = fight_at_6([("gold", 5)], [("food", 2)])
    assert s.decision_kind() == "combat_die"


def test_lady_beth_adds_two() -> None:
    s = fight_at_6([("gold", 5), ("powder", 1)], [("food", 2)])
    give_power(s, MARY, "beth")
    s.apply("powder 1")
    s.apply("die 6")  # 7
    s.apply("die 6")  # 6 + 2 = 8
    assert firepower(s, ANNE) == 7 and firepower(s, MARY) == 8
    assert happened(s, "win") == [[MARY, ANNE]]


def test_attacker_star_wins_at_once() -> None:
    s = fight_at_6([("gold", 5), ("powder", 2)], [("powder", 3), ("food", 4)])
    s.apply("powder 2")
    s.apply("die star")
    # Mary neither spends gunpowder nor rolls: Anne chooses her spoils at once.
    assert s.decision_kind() == "spoils" and s.current_player() == ANNE
    assert total(s, MARY, "powder") == 3 and total(s, ANNE, "powder") == 0
    assert [args[0] for args in happened(s, "die")] == [ANNE]
    assert happened(s, "win") == [[ANNE, MARY]]


def test_defender_star_wins_whatever_the_attackers_firepower() -> None:
    s = fight_at_6([("gold", 5), ("powder", 9)], [("food", 4)])
    give_power(s, ANNE, "beth")
    s.apply("powder 9")
    s.apply("die 10")  # 21
    assert firepower(s, ANNE) == 21
    s.apply("die star")
    assert s.decision_kind() == "spoils" and s.current_player() == MARY
    assert happened(s, "win") == [[MARY, ANNE]]


def test_higher_firepower_wins() -> None:
    s = fight_at_6([("gold", 5)], [("food", 4)])
    s.apply("die 4")
    s.apply("die 6")
    assert s.decision_kind() == "spoils" and s.current_player() == MARY


def test_tie_nothing_happens() -> None:
    s = fight_at_6([("gold", 5), ("food", 3)], [("powder", 2), ("food", 4)])
    s.apply("die 6")
    s.apply("powder 2")
    s.apply("die 4")
    assert happened(s, "tie") == [[ANNE, MARY]]
    assert happened(s, "win") == [] and happened(s, "take") == []
    assert hold(s, MARY, 1) == ("food", 4) and total(s, MARY, "powder") == 0
    assert total(s, ANNE, "gold") == 0  # then Anne pays the port as usual
    assert s.decision_kind() == "move"


# --- Saran's Sabre (R5) ---------------------------------------------------------------------------
def test_r5_sabre_owner_as_attacker_rerolls_own_die_and_gunpowder_still_counts() -> None:
    s = fight_at_6([("gold", 5), ("powder", 3)], [("powder", 1), ("food", 2)])
    give_power(s, ANNE, "sabre")
    s.apply("powder 2")
    s.apply("die 2")
    assert s.decision_kind() == "sabre" and s.current_player() == ANNE
    assert legal(s) == ["reroll", "accept"]
    s.apply("reroll")
    assert s.decision_kind() == "combat_die"  # no new gunpowder for the second roll
    s.apply("die 8")
    assert firepower(s, ANNE) == 10
    assert total(s, ANNE, "powder") == 1
    s.apply("powder 1")  # now Mary's turn to spend
    s.apply("die 8")  # 9: no Sabre question after it, the Sabre has been used
    assert s.decision_kind() == "spoils" and s.current_player() == ANNE


def test_r5_sabre_owner_as_defender_makes_the_attacker_reroll_a_star() -> None:
    s = fight_at_6([("gold", 5), ("powder", 2)], [("food", 4)])
    give_power(s, MARY, "sabre")
    s.apply("powder 2")
    s.apply("die star")
    assert s.decision_kind() == "sabre" and s.current_player() == MARY
    s.apply("reroll")
    s.apply("die 2")  # the second result stands: 2 + the 2 gunpowder already spent
    assert firepower(s, ANNE) == 4
    s.apply("die 6")  # Mary rolls; the Sabre is spent, so no question
    assert s.decision_kind() == "spoils" and s.current_player() == MARY


def test_r5_sabre_reroll_of_the_opponents_star() -> None:
    s = fight_at_6([("gold", 5)], [("powder", 3), ("food", 4)])
    give_power(s, ANNE, "sabre")
    s.apply("die 4")
    s.apply("accept")  # declining does not use the Sabre up
    s.apply("powder 3")
    s.apply("die star")
    assert s.decision_kind() == "sabre" and s.current_player() == ANNE
    s.apply("reroll")
    assert s.decision_kind() == "combat_die"
    s.apply("die 2")  # 2 + Mary's 3 gunpowder = 5 beats Anne's 4
    assert firepower(s, MARY) == 5
    assert s.decision_kind() == "spoils" and s.current_player() == MARY


def test_r5_sabre_second_result_stands_even_when_worse() -> None:
    s = fight_at_6([("gold", 5)], [("food", 4)])
    give_power(s, ANNE, "sabre")
    s.apply("die 8")
    s.apply("reroll")
    s.apply("die 2")
    s.apply("die 4")
    assert s.decision_kind() == "spoils" and s.current_player() == MARY


def test_r5_sabre_once_per_battle() -> None:
    s = fight_at_6([("gold", 5)], [("food", 4)])
    give_power(s, MARY, "sabre")
    s.apply("die 6")
    s.apply("reroll")  # Mary makes Anne roll again...
    s.apply("die 10")
    assert s.decision_kind() == "combat_die"  # ...and can't reroll that second result
    s.apply("die 2")
    assert s.decision_kind() == "spoils"  # nor her own die
    assert happened(s, "sabre") == [[MARY, ANNE]]


def test_r5_sabre_only_for_its_owner_in_this_battle() -> None:
    s = fight_at_6([("gold", 5)], [("food", 4)])
    give_power(s, JOHN, "sabre")
    s.apply("die 2")
    assert s.decision_kind() == "combat_die"


# --- spoils (R6) ----------------------------------------------------------------------------------
def test_r6_take_a_holds_contents_into_an_empty_hold() -> None:
    s = fight_at_6([("gold", 5)], [("powder", 3), ("food", 4), ("powder", 3)])
    anne_wins(s)
    assert legal(s) == ["take 0", "take 1", "nothing"]  # two holds alike: one choice
    s.apply("take 1")
    assert hold(s, ANNE, 1) == ("food", 4)
    assert hold(s, MARY, 1) == ("-", 0) and total(s, MARY, "powder") == 6


def test_r6_taken_loot_forces_emptying_a_hold_of_another_type() -> None:
    full = [("food", 1), ("food", 2), ("gold", 5), ("powder", 1), ("food", 3)]
    s = fight_at_6(full, [("food", 6)])
    anne_wins(s)
    s.apply("take 0")
    assert s.decision_kind() == "load" and s.current_player() == ANNE
    assert legal(s) == ["load 2", "load 3"]  # never a food hold
    s.apply("load 3")
    assert hold(s, ANNE, 3) == ("food", 6) and total(s, ANNE, "powder") == 0


def test_r6_loot_that_cannot_be_loaded_goes_back_to_the_bank() -> None:
    s = fight_at_6([("gold", 1), ("gold", 1), ("gold", 1), ("gold", 1), ("gold", 5)], [("gold", 4)])
    anne_wins(s)
    s.apply("take 0")
    assert happened(s, "load_ignored") == [[ANNE, GOLD, 4]]
    assert total(s, MARY, "gold") == 0
    assert s.decision_kind() == "pay" and total(s, ANNE, "gold") == 9  # only her own doubloons


def test_r6_steal_a_power_by_name() -> None:
    s = fight_at_6([("gold", 5)], [("food", 4)])
    give_power(s, MARY, "sabre")
    give_power(s, MARY, "map")
    s.apply("die 10")
    s.apply("accept")
    s.apply("die 2")
    s.apply("accept")
    assert legal(s) == ["take 0", "steal map", "steal sabre", "nothing"]
    s.apply("steal sabre")
    assert s.powers[SABRE] == ANNE and s.powers[MAP] == MARY
    assert happened(s, "steal_power") == [[ANNE, MARY, SABRE]]


def test_r6_blind_steal_is_random_and_the_thief_then_knows() -> None:
    s = fight_at_6([("gold", 5)], [("food", 4)])
    give_face_down(s, MARY, "+5")
    give_face_down(s, MARY, "-3")
    anne_wins(s)
    s.apply("steal blind")
    assert s.is_chance_node() and s.decision_kind() == "blind_steal"
    assert [str(a) for a, _ in s.chance_outcomes()] == ["blind 0", "blind 1"]
    assert [p for _, p in s.chance_outcomes()] == [0.5, 0.5]
    s.apply("blind 1")
    assert s.view(ANNE)["ships"][ANNE]["face_down_known"] == ["-3"]
    assert s.view(MARY)["ships"][MARY]["face_down_known"] == ["+5"]
    assert s.view(JOHN)["ships"][ANNE]["face_down_known"] == []
    assert s.view(JOHN)["ships"][ANNE]["face_down"] == 1
    assert s.scores()[ANNE].treasures == -3 and s.scores()[MARY].treasures == 5


def test_r6_give_a_cursed_treasure_the_winner_picks_which() -> None:
    s = fight_at_6([("gold", 5)], [("food", 4)])
    give_face_down(s, ANNE, "-2", klass=2)
    give_face_down(s, ANNE, "-4", klass=2)
    anne_wins(s)
    assert legal(s) == ["take 0", "give -2", "give -4", "nothing"]
    s.apply("give -4")
    assert s.scores()[ANNE].treasures == -2 and s.scores()[MARY].treasures == -4
    assert s.view(MARY)["ships"][MARY]["face_down_known"] == ["-4"]
    minus_4 = TREASURE_NAMES.index("-4")
    assert happened(s, "give_seen", MARY) == [[ANNE, MARY, minus_4]]
    assert happened(s, "give_seen", JOHN) == [] and happened(s, "give", JOHN) == [[ANNE, MARY]]


def test_r6_spoils_are_optional() -> None:
    s = fight_at_6([("gold", 5)], [("food", 4)])
    give_power(s, MARY, "beth")
    anne_wins(s)
    s.apply("nothing")
    assert happened(s, "nothing") == [[ANNE]]
    assert hold(s, MARY, 0) == ("food", 4) and s.powers[LADY_BETH] == MARY
    check_invariants(s)


def test_r12_stealing_the_6th_hold_takes_its_contents() -> None:
    s = fight_at_6([("gold", 5)], [("food", 4)])
    give_power(s, MARY, "hold6")
    holds(s, MARY, [("food", 4)], sixth=("powder", 5))
    anne_wins(s)
    assert "steal hold6" in legal(s) and "take 5" in legal(s)
    s.apply("steal hold6")
    assert s.powers[HOLD6] == ANNE
    assert hold(s, ANNE, SIXTH) == ("powder", 5) and hold(s, MARY, SIXTH) == ("-", 0)
    assert (
        s.view(MARY)["ships"][MARY]["holds"]
        == [{"type": "food", "count": 4}] + [{"type": "-", "count": 0}] * 4
    )
    check_invariants(s)


def test_r12_taking_the_6th_holds_contents_leaves_the_card() -> None:
    s = fight_at_6([("gold", 5)], [("food", 4)])
    give_power(s, MARY, "hold6")
    holds(s, MARY, [("food", 4)], sixth=("powder", 5))
    anne_wins(s)
    s.apply("take 5")
    assert s.powers[HOLD6] == MARY and hold(s, MARY, SIXTH) == ("-", 0)
    assert hold(s, ANNE, 1) == ("powder", 5)


def test_r10_stolen_map_the_loser_keeps_their_cards_and_draws_nothing() -> None:
    s = anne_plays("fwd-fwd")
    give_power(s, MARY, "map")
    s.hand[MARY] |= 1 << 1  # Mary drew a 4th card with the Map: fwd-fwd
    s.drawp[MARY] &= ~(1 << 1)
    place(s, ANNE, 3)
    place(s, MARY, 6)
    holds(s, ANNE, [("gold", 5), ("food", 4)])
    round_(s, (3, 2), 3, {ANNE: "fwd-fwd", MARY: "gun-gold"})
    anne_wins(s)
    s.apply("steal map")
    s.apply("move 8")
    while s.decision_kind() == "draw_card":
        s.apply(s.legal_actions()[0])
    assert s.decision_kind() == "roll_dice"
    assert [bin(h).count("1") for h in s.hand] == [4, 3, 3, 3]  # Mary drew nothing, kept 3
    assert s.view(MARY)["ships"][MARY]["hand_limit"] == 3
    assert s.view(ANNE)["ships"][ANNE]["hand_limit"] == 4


def test_illegal_spoils_are_refused() -> None:
    s = fight_at_6([("gold", 5)], [("food", 4)])
    anne_wins(s)
    with pytest.raises(IllegalActionError):
        s.apply("steal sabre")  # Mary has no Sabre
    with pytest.raises(IllegalActionError):
        s.apply("give -2")  # Anne has no cursed treasure
    assert s.decision_kind() == "spoils"
