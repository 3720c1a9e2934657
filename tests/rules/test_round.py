"""RULES §4 A round: dice, secret cards, actions in turn, the end-of-round draw, the Captain;
ruling R10 (Morgan's Map and the hand limit)."""

from __future__ import annotations

from jamaica import CHANCE, Config
from jamaica.rules.data import CARD_NAMES, FOOD, GOLD, GUNPOWDER, MAP

from .helpers import give_power, holds, legal, place, round_, start

QUIET = ("gun-gold", "gold-gold", "food-gun")  # load cards: nobody moves, nobody fights


def said(s, kind: str, player: int | None = None) -> list[tuple[int, ...]]:
    """The arguments of every `kind` event that `player` saw (None: public events)."""
    return [tuple(e["args"]) for e in s.events_for(player) if e["kind"] == kind]


def log(s, player: int | None = None) -> list[tuple]:
    """Every event `player` saw, as (kind, *args)."""
    return [(e["kind"], *e["args"]) for e in s.events_for(player)]


def card(name: str) -> int:
    return CARD_NAMES.index(name)


def bits(*cards: str) -> int:
    return sum(1 << CARD_NAMES.index(c) for c in cards)


def end_of_round_draws(s) -> list[str]:
    """Answer every end-of-round draw with the first card of the pile; the names drawn."""
    drawn = []
    while s.decision_kind() == "draw_card":
        a = s.legal_actions()[0]
        drawn.append(str(a).removeprefix("draw "))
        s.apply(a)
    return drawn


def test_captain_rolls_and_chooses_the_morning_die():
    s = start(Config(4), captain=2, hands=[QUIET] * 4)
    assert s.current_player() == CHANCE and s.decision_kind() == "roll_dice"
    s.apply("roll 2-5")
    assert s.decision_kind() == "dice_order" and s.current_player() == 2
    assert legal(s) == ["morning 2", "morning 5"]
    s.apply("morning 5")
    assert (s.morning, s.evening) == (5, 2)
    assert said(s, "dice") == [(2, 5, 2)]  # John Rackham: 5 in the morning, 2 in the evening


def test_doubles_need_no_decision():
    s = start(Config(4), hands=[QUIET] * 4)
    s.apply("roll 4-4")
    assert (s.morning, s.evening) == (4, 4)
    assert s.decision_kind() == "card"


def test_every_player_chooses_a_card_before_anyone_acts():
    s = start(Config(4), captain=1, hands=[("fwd-fwd", "gun-gold", "food-gun")] * 4)
    s.apply("roll 1-2")
    s.apply("morning 1")
    for p, name in ((1, "fwd-fwd"), (2, "gun-gold"), (3, "gun-gold")):
        assert s.decision_kind() == "card" and s.current_player() == p
        s.apply(f"play {name}")
        assert s.pos == [0, 0, 0, 0]  # the Captain has not moved yet
        assert said(s, "reveal") == []
    assert s.current_player() == 0
    s.apply("play gun-gold")
    assert s.pos == [0, 3, 0, 0]
    events = log(s)
    assert events.index(("chose", 0)) < events.index(("reveal", 1, card("fwd-fwd")))


def test_a_chosen_card_is_hidden_from_the_others_until_revealed():
    s = start(Config(3), captain=0, hands=[QUIET] * 3)
    s.apply("roll 1-2")
    s.apply("morning 1")
    s.apply("play food-gun")  # Anne Bonny chooses; Mary Read must choose without knowing it
    assert s.view(0)["chosen"] == "food-gun"
    assert s.view(1)["chosen"] is None and s.view(2)["chosen"] is None
    assert "chosen" not in s.view(None)
    assert s.view(1)["ships"][0]["has_chosen"] is True
    assert s.view(1)["ships"][0]["discard"] == []
    assert "food-gun" not in s.view(1)["ships"][0].get("hand", [])
    assert said(s, "chose_seen", 0) == [(0, card("food-gun"))]
    assert said(s, "chose_seen", 1) == [] and said(s, "chose_seen", None) == []
    assert said(s, "chose", 1) == [(0,)]  # the others only know that she has chosen
    s.apply("play gun-gold")
    s.apply("play gun-gold")
    # Revealed: now public, on the discard pile.
    assert (0, card("food-gun")) in said(s, "reveal", 1)
    assert s.view(1)["ships"][0]["discard"] == ["food-gun"]


def test_actions_go_from_the_captain_clockwise_morning_then_evening():
    s = start(Config(4), captain=2, hands=[QUIET] * 4)
    round_(s, (2, 5), 2)  # everyone plays gun-gold: 2 gunpowder, then 5 doubloons
    acts = [e for e in log(s) if e[0] in ("reveal", "load")]
    gun_gold = card("gun-gold")
    assert acts == [
        step
        for p in (2, 3, 0, 1)
        for step in (
            ("reveal", p, gun_gold),
            ("load", p, GUNPOWDER, 2, 2),  # morning: 2 gunpowder into the third hold
            ("load", p, GOLD, 5, 3),  # evening: 5 doubloons into the fourth
        )
    ]


def test_morning_action_is_complete_before_the_evening_one():
    """The morning move is paid before the evening load happens."""
    s = start(Config(3), captain=0, hands=[("fwd-food", *QUIET[:2]), QUIET, QUIET])
    round_(s, (1, 4), 1, {0: "fwd-food"})
    events = log(s)
    i_move = events.index(("move", 0, 0, 1, 1, 0))
    i_pay = events.index(("pay", 0, FOOD, 2, 1))
    i_load = events.index(("load", 0, FOOD, 4, 2))
    assert i_move < i_pay < i_load


def test_end_of_round_everyone_draws_back_up_to_3_and_the_captain_passes_clockwise():
    s = start(Config(4), captain=3, hands=[QUIET] * 4)
    round_(s, (2, 5), 2)
    assert [s.hand[p].bit_count() for p in range(4)] == [2, 2, 2, 2]
    assert s.current_player() == CHANCE and s.decision_kind() == "draw_card"
    drawn = end_of_round_draws(s)
    assert len(drawn) == 4
    for p in range(4):
        assert s.hand[p].bit_count() == 3
        assert s.disc[p] == bits("gun-gold")
        assert s.drawp[p].bit_count() == 7
    assert s.cap == 0 and s.rnd == 2
    assert s.decision_kind() == "roll_dice"
    assert said(s, "captain") == [(3,), (0,)]


def test_an_empty_draw_pile_is_reshuffled_from_the_discard_pile():
    s = start(Config(3), captain=0, hands=[QUIET] * 3)
    old = ("food-fwd", "fwd-fwd", "fwd-back", "back-fwd", "fwd-gun", "gold-fwd", "fwd-food")
    old += ("gun-food",)
    s.drawp[0], s.disc[0] = 0, bits(*old)  # Anne Bonny's draw pile is used up
    round_(s, (2, 5), 2)
    assert s.decision_kind() == "draw_card"
    assert said(s, "reshuffle") == [(0,)]
    assert s.disc[0] == 0
    # The new draw pile is the whole discard pile, this round's card included.
    assert sorted(legal(s)) == sorted(f"draw {c}" for c in (*old, "gun-gold"))
    s.apply("draw fwd-back")
    assert s.hand[0] == bits("gold-gold", "food-gun", "fwd-back")
    assert s.drawp[0].bit_count() == 8
    end_of_round_draws(s)
    assert said(s, "reshuffle") == [(0,)]


def test_morgans_map_gives_a_hand_of_4():
    s = start(Config(3), captain=0, hands=[QUIET] * 3)
    give_power(s, 0, "map")
    round_(s, (2, 5), 2)
    end_of_round_draws(s)
    assert [s.hand[p].bit_count() for p in range(3)] == [4, 3, 3]
    assert s.view(1)["ships"][0]["hand_limit"] == 4


def test_r10_map_stolen_keeps_4_cards_and_draws_nothing_until_below_3():
    """R10: the hand limit is read when drawing. Anne Bonny had 4 cards with the Map; it is
    stolen in Mary Read's turn. Nobody discards; Anne Bonny draws only once below 3, Mary Read
    draws up to her new limit of 4 that same round."""
    s = start(Config(4), captain=0, hands=[QUIET, ("fwd-gun", *QUIET[:2]), QUIET, QUIET])
    give_power(s, 0, "map")
    s.hand[0] |= bits("fwd-fwd")  # Anne Bonny holds 4 cards thanks to the Map
    s.drawp[0] &= ~bits("fwd-fwd")
    place(s, 0, 5)
    place(s, 1, 2)
    holds(s, 1, [("food", 3), ("gold", 3)])
    round_(s, (3, 5), 3, {0: "food-gun", 1: "fwd-gun"})
    # Mary Read sails onto Anne Bonny, rolls the star and steals Morgan's Map.
    assert said(s, "battle") == [(1, 0, 5)]  # Mary Read attacks Anne Bonny on space 5
    s.apply("die star")
    assert "steal map" in legal(s)
    s.apply("steal map")
    assert s.powers[MAP] == 1
    # End of round: Anne Bonny keeps 3 cards and draws none; Mary Read draws up to 4.
    assert [s.hand[p].bit_count() for p in range(4)] == [3, 2, 2, 2]
    draws_before = said(s, "draw").count((0,))
    end_of_round_draws(s)
    assert [s.hand[p].bit_count() for p in range(4)] == [3, 4, 3, 3]
    assert said(s, "draw").count((0,)) == draws_before
    # Next round she plays one and is below 3: she draws one.
    round_(s, (4, 6), 4, {0: "gun-gold", 1: "gold-gold", 2: "gold-gold", 3: "gold-gold"})
    while s.decision_kind() == "load":  # holds full: make room in the first hold offered
        s.apply(s.legal_actions()[0])
    end_of_round_draws(s)
    assert s.hand[0].bit_count() == 3
    assert said(s, "draw").count((0,)) == draws_before + 1
