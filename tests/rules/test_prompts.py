"""The question in words says what the log says (issue 24, items 8 and 9): a payment says what is
due, what the engine has taken already and what is left; the Sabre's question gives the roll's
numbers."""

from __future__ import annotations

from jamaica import Config, State

from .helpers import give_power, holds, place, round_, start, texts

HANDS = [("fwd-fwd", "gold-gold", "food-gun"), ("fwd-fwd", "gold-gold", "food-gun")]


def _arrive_on_space_2(cargo: list[tuple[str, int]]) -> State:
    """Anne sails 1 from space 1 to space 2, a 3-food sea space (§6.2)."""
    s = start(Config(2), hands=HANDS)
    place(s, 0, 1)
    holds(s, 0, cargo)
    round_(s, (1, 2), 1, {0: "fwd-fwd", 1: "gold-gold"})
    return s


def test_a_payment_the_engine_began_says_what_is_left_to_pay() -> None:
    """§6: "The player chooses which holds to pay from." Between two holds of 2 food there is
    nothing to choose, so the engine takes the first token itself; only then do the holds
    differ (1 and 2) and the question comes. The log says "must pay 3 food"; the question said
    "2 food still to pay", as if that were the cost. It must say what is left of what."""
    s = _arrive_on_space_2([("food", 2), ("food", 2), ("gold", 3)])
    assert texts(s)[-1] == "Anne Bonny must pay 3 food for space 2."
    d = s.pending()
    assert d.kind == "pay"
    assert d.prompt == (
        "Anne Bonny: 3 food for space 2, 1 taken already where there was no choice: 2 still to "
        "pay — take one from which "
        "hold?"
    )
    assert d.options == ("hold 1 (1 food)", "hold 2 (2 food)")
    assert d.context == {"ship": 0, "due": 3, "left": 2, "for": "space 2",
                         "owed": "3 food for space 2, 1 taken already where there was no "
                                 "choice: 2 still to pay"}  # fmt: skip


def test_a_payment_from_the_start_says_what_it_is_for() -> None:
    s = _arrive_on_space_2([("food", 1), ("food", 4)])
    d = s.pending()
    assert d.prompt == "Anne Bonny: 3 food to pay for space 2 — take one from which hold?"
    assert (d.context["due"], d.context["left"]) == (3, 3)


def test_gunpowder_spent_is_paid_for_the_battle() -> None:
    """§8.1: the attacker spends gunpowder from the holds she chooses."""
    s = start(Config(2), hands=HANDS)
    place(s, 0, 3)
    place(s, 1, 6)
    holds(s, 0, [("powder", 2), ("powder", 2)])
    round_(s, (2, 3), 3, {0: "fwd-fwd"})
    s.apply("powder 3")
    assert texts(s)[-1] == "Anne Bonny spends 3 gunpowder."
    d = s.pending()
    assert d.prompt.startswith(
        "Anne Bonny: 3 gunpowder for the battle, 1 taken already where there was no choice: 2 "
    )


def _sabre_battle() -> State:
    """Anne (3 → 6) attacks Mary, who holds Saran's Sabre (R5), spending 2 gunpowder."""
    s = start(Config(2), hands=HANDS)
    place(s, 0, 3)
    place(s, 1, 6)
    give_power(s, 1, "sabre")
    holds(s, 0, [("powder", 2)])
    round_(s, (2, 3), 3, {0: "fwd-fwd"})
    s.apply("powder 2")
    return s


def test_the_sabre_question_gives_the_numbers() -> None:
    """R5, R13: the Sabre's owner decides right after a roll: they need the roll's firepower,
    and after the second roll what it is against."""
    s = _sabre_battle()
    s.apply("die 6")
    assert s.pending().prompt == (
        "Mary Read: Anne Bonny rolled 6: firepower 8 (6 + 2 gunpowder); you roll next — use "
        "Saran's Sabre to have Anne Bonny's die rolled again?"
    )
    s.apply("accept")
    s.apply("die 4")
    assert s.pending().prompt == (
        "Mary Read: you rolled 4: firepower 4 against Anne Bonny's 8 — use Saran's Sabre to have "
        "your die rolled again?"
    )


def test_the_sabre_question_after_the_star() -> None:
    """§8.2: the attacker's star wins at once."""
    s = _sabre_battle()
    s.apply("die star")
    assert "Anne Bonny rolled the star, which wins at once" in s.pending().prompt


def test_the_6th_hold_s_cargo_and_its_card_are_told_apart_among_the_spoils() -> None:
    """R6 / §8.6: the winner may take a hold's contents — the 6th Hold's too — or steal a
    treasure card, and the 6th Hold card comes with its contents. A web player saw "take the
    6th Hold (6 doubloons)" beside "steal 6th Hold" and could not tell them apart."""
    from jamaica.bench import SCENES
    from jamaica.rules.actions import Action

    s = SCENES["spoils"]()
    d = s.pending()
    said = dict(zip((str(a) for a in d.actions), d.options, strict=True))
    take = said[str(Action.parse("take 5"))]
    steal = next(label for label in d.options if "6th Hold card" in label)
    assert take == "take the cargo of the 6th Hold (6 doubloons), not the card", take
    assert steal == "steal the 6th Hold card, with its cargo"
    assert said[str(Action.parse("take 1"))] == "take hold 2 (2 food)"


def test_a_take_into_full_holds_says_which_hold_it_empties() -> None:
    """§5 / §8.6: spoils are loaded as a load is — with no empty hold, a hold of another type is
    emptied first. A strong player's review: "take hold 5 (5 doubloons)" into full holds silently
    threw out their only food. The option now says so, as the engine then does."""
    from jamaica.bench import SCENES
    from jamaica.rules.data import FOOD, GOLD, GUNPOWDER

    def spoils(types: list[int]) -> State:
        s = SCENES["spoils"]()  # Anne Bonny (ship 0) won against Mary Read (ship 1)
        s.hold_types[0:5] = types
        s.hold_counts[0:5] = [3 if kind else 0 for kind in types]
        return s

    def said(s: State, take: str) -> str:
        d = s.pending()
        return dict(zip((str(a) for a in d.actions), d.options, strict=True))[take]

    s = spoils([GOLD, GOLD, FOOD, GOLD, GOLD])
    assert said(s, "take 3") == "take hold 4 (4 doubloons), emptying your hold 3 (3 food)"
    # four alike doubloon holds: emptying any is the same (the engine takes the first)
    assert said(s, "take 0") == "take hold 1 (1 food), emptying your hold 1 (3 doubloons)"
    s.apply("take 3")
    assert s.hold_types[2] == GOLD and FOOD not in s.hold_types[0:5]  # as the option said
    s = spoils([GOLD, GOLD, FOOD, GUNPOWDER, GOLD])
    assert said(s, "take 3") == "take hold 4 (4 doubloons), emptying a hold"
    s = spoils([GOLD, GOLD, FOOD, GOLD, 0])  # an empty hold takes it
    assert said(s, "take 3") == "take hold 4 (4 doubloons)"
