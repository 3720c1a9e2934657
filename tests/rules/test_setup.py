"""RULES §3 Setup: starting holds, hands, lair tokens, the Ghost Ship, the first Captain."""

from __future__ import annotations

import pytest

from jamaica import CHANCE, Config, new_game
from jamaica.rules.data import (
    CARD_NAMES,
    EMPTY,
    FOOD,
    GOLD,
    LADY_BETH,
    LAIR_SPACES,
    SLOTS,
    TREASURE_NAMES,
)

from .helpers import legal, start


def said(s, kind: str, player: int | None = None) -> list[tuple[int, ...]]:
    """The arguments of every `kind` event that `player` saw (None: public events)."""
    return [tuple(e["args"]) for e in s.events_for(player) if e["kind"] == kind]


def deal_everyone(s) -> None:
    """Answer the setup draws with the first card left in each draw pile."""
    while s.decision_kind() == "draw_card":
        s.apply(s.legal_actions()[0])


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_ship_starts_on_port_royal_with_3_food_and_3_doubloons_in_separate_holds(players):
    s = new_game(Config(players))
    for p in range(players):
        assert (s.pos[p], s.lap[p]) == (0, 0)
        contents = [
            (s.hold_types[p * SLOTS + h], s.hold_counts[p * SLOTS + h]) for h in range(SLOTS)
        ]
        assert sorted(c for c in contents if c[0] != EMPTY) == [(FOOD, 3), (GOLD, 3)]
        assert s.face_down[p] == ()
    if players > 2:
        assert s.powers == [-1, -1, -1, -1]  # no Ghost Ship by default: no power is out yet
    else:
        assert s.powers[LADY_BETH] == players


def test_each_player_shuffles_11_cards_and_draws_3():
    s = new_game(Config(3))
    # The draws are chance events, one card at a time, from the player's own 11-card deck.
    assert s.current_player() == CHANCE and s.decision_kind() == "draw_card"
    assert len(legal(s)) == 11
    s.apply("draw gold-gold")
    assert "draw gold-gold" not in legal(s) and len(legal(s)) == 10
    deal_everyone(s)
    assert s.decision_kind() == "first_captain"
    for p in range(3):
        assert s.hand[p].bit_count() == 3
        assert s.drawp[p].bit_count() == 8
        assert s.disc[p] == 0
        assert s.hand[p] & s.drawp[p] == 0
    assert "gold-gold" in s.view(0)["hand"]
    assert said(s, "draw").count((0,)) == 3
    # The card drawn is private: only its owner hears its name.
    gold_gold = CARD_NAMES.index("gold-gold")
    assert (0, gold_gold) in said(s, "draw_seen", 0)
    assert said(s, "draw_seen", 1) == [(1, c) for c in range(11) if s.hand[1] >> c & 1]


def test_a_treasure_token_on_each_of_the_9_lairs():
    s = new_game(Config(4))
    assert LAIR_SPACES == (4, 9, 11, 19, 22, 25, 33, 37, 44)
    assert s.tokens == sum(1 << space for space in LAIR_SPACES)
    v = s.view(None)
    assert v["lair_tokens"] == list(LAIR_SPACES)
    assert v["treasure_pile"] == 9


def test_treasure_draw_is_from_the_12_cards():
    """The 9-card pile is a random 9 of the 12: the first draw is any of the 12, equally likely."""
    s = start(Config(4), hands=[("fwd-fwd", "gun-gold", "gold-gold")] * 4)
    s.apply("roll 4-6")
    s.apply("morning 4")
    s.apply("play fwd-fwd")  # Anne Bonny, the Captain, will reach the lair on space 4
    for _ in range(3):
        s.apply("play gun-gold")
    assert s.decision_kind() == "draw_treasure" and s.current_player() == CHANCE
    odds = {str(a): p for a, p in s.chance_outcomes()}
    assert set(odds) == {f"treasure {t}" for t in TREASURE_NAMES}
    assert odds["treasure +7"] == pytest.approx(2 / 12)
    assert odds["treasure beth"] == pytest.approx(1 / 12)


def test_two_players_always_play_with_the_ghost_ship():
    s = new_game(Config(2))
    g = 2
    assert (s.ns, s.gh) == (3, g)
    assert (s.pos[g], s.lap[g]) == (0, 0)
    contents = [(s.hold_types[g * SLOTS + h], s.hold_counts[g * SLOTS + h]) for h in range(SLOTS)]
    assert sorted(c for c in contents if c[0] != EMPTY) == [(GOLD, 3), (GOLD, 5)]
    # Lady Beth is face up beside it, out of the treasure cards.
    assert s.powers[LADY_BETH] == g
    assert s.pile[LADY_BETH] == 0 and sum(s.pile) == 11
    ghost = s.view(0)["ships"][g]
    assert ghost["ghost"] and ghost["powers"] == ["beth"] and "hand_size" not in ghost
    # The Ghost Ship has no cards: only the two players draw.
    deal_everyone(s)
    assert len(said(s, "draw")) == 6
    with pytest.raises(ValueError):
        Config(2, ghost_ship=False)


def test_ghost_ship_is_an_option_with_3_to_5_players():
    assert new_game(Config(4)).gh == -1
    s = new_game(Config(3, ghost_ship=True))
    assert (s.ns, s.gh, s.powers[LADY_BETH]) == (4, 3, 3)
    assert s.hold_counts[3 * SLOTS : 3 * SLOTS + 2] == [5, 3]


def test_first_captain_is_a_chance_event():
    s = new_game(Config(5))
    deal_everyone(s)
    assert s.current_player() == CHANCE and s.decision_kind() == "first_captain"
    outcomes = s.chance_outcomes()
    assert [str(a) for a, _ in outcomes] == [f"captain {p}" for p in range(5)]
    assert all(p == pytest.approx(1 / 5) for _, p in outcomes)
    s.apply("captain 3")
    assert s.cap == 3 and s.rnd == 1
    assert said(s, "captain") == [(3,)]
    assert s.decision_kind() == "roll_dice" and s.current_player() == CHANCE
