"""The Ghost Ship (RULES §10, R8, R9), as rulebook examples.

Most examples are 2-player games: Anne Bonny (player 0) is the Captain, Mary Read (player 1) the
other player, and the Ghost Ship is ship 2. The players hold loading cards (gold-gold first), so
they stay put unless an example says otherwise, and the Ghost Ship moves after them.
"""

from __future__ import annotations

import pytest

from jamaica import Config, IllegalActionError, State
from jamaica.rules.data import (
    FOOD,
    GOLD,
    GUNPOWDER,
    HOLD6,
    LADY_BETH,
    MAP,
    SABRE,
    SLOTS,
    TREASURE_NAMES,
)
from jamaica.rules.invariants import check_invariants

from .helpers import give_face_down, give_power, holds, legal, place, round_, start, total

GOLDS = ("gold-gold", "food-gun", "gun-food")
ANNE, MARY, GHOST = 0, 1, 2


def two_players(anne_card: str | None = None, captain: int = ANNE) -> State:
    """Anne is the Captain unless told otherwise; with `anne_card`, she holds that card."""
    anne = GOLDS if anne_card is None else (anne_card, "gold-gold", "food-gun")
    return start(Config(2), captain=captain, hands=[anne, GOLDS])


def happened(s: State, kind: str, player: int | None = None) -> list[list[int]]:
    """The arguments of every event of that kind (seen by `player`; None: the public ones)."""
    return [e["args"] for e in s.events_for(player) if e["kind"] == kind]


def overboard_texts(s: State) -> list[str]:
    return [e["text"] for e in s.events_for(None) if e["kind"] == "overboard"]


def ghost_holds(s: State) -> list[tuple[int, int]]:
    base = GHOST * SLOTS
    return [
        (s.hold_types[base + h], s.hold_counts[base + h])
        for h in range(SLOTS)
        if s.hold_counts[base + h]
    ]


# --- how it moves ---------------------------------------------------------------------------------
def test_moves_twice_after_the_players_morning_die_then_evening_die() -> None:
    s = two_players()
    place(s, ANNE, 10)
    place(s, MARY, 12)
    place(s, GHOST, 3)  # alone in last place: forward
    round_(s, (2, 4), 2)
    kinds = [e["kind"] for e in s.events_for(None)]
    assert max(i for i, k in enumerate(kinds) if k == "load") < kinds.index("move")
    assert happened(s, "move") == [[GHOST, 3, 5, 1, 0]]  # the morning die first
    # Evening: 4 from space 5 crosses the first fork; the Captain chooses the branch.
    assert s.decision_kind() == "move" and s.current_player() == ANNE
    assert legal(s) == ["move 9", "move 15"]
    s.apply("move 15")
    assert s.pos[GHOST] == 15
    assert happened(s, "ghost_direction") == [[1, 1], [1, 1]]


def test_never_pays_for_a_space() -> None:
    s = two_players()
    place(s, ANNE, 10)
    place(s, MARY, 12)
    place(s, GHOST, 3)
    round_(s, (2, 4), 2)  # a 3-doubloon port...
    s.apply("move 15")  # ...then a 3-food sea space, and the Ghost Ship has no food
    assert ghost_holds(s) == [(GOLD, 5), (GOLD, 3)]
    assert [a for a in happened(s, "pay") if a[0] == GHOST] == []
    assert happened(s, "shortage") == []


def test_alone_in_the_lead_it_moves_backward() -> None:
    s = two_players()
    place(s, ANNE, 3)
    place(s, MARY, 5)
    place(s, GHOST, 18)
    round_(s, (1, 2), 1)
    assert s.pos[GHOST] == 15
    assert happened(s, "ghost_direction") == [[0, 0], [0, 0]]


def test_r8_alone_in_last_place_is_measured_in_moves_left() -> None:
    # Space 7 is the long way round the first fork: 29 moves left, more than Anne's 27 on space 5.
    s = two_players()
    place(s, ANNE, 5)
    place(s, MARY, 10)
    place(s, GHOST, 7)
    round_(s, (1, 3), 1)
    assert happened(s, "ghost_direction")[0] == [1, 1]
    assert s.pos[GHOST] in (11, 12)  # 1 then 3 forward, no choice of going back


def test_r8_behind_the_start_line_it_is_last_and_crossing_does_not_finish() -> None:
    s = two_players()
    place(s, ANNE, 6)
    place(s, MARY, 8)
    place(s, GHOST, 49, lap=-1)  # 33 moves left: behind everyone
    round_(s, (2, 1), 2)
    assert (s.pos[GHOST], s.lap[GHOST]) == (2, 0)
    assert happened(s, "ghost_direction") == [[1, 1], [1, 1]]
    assert not s.ending and happened(s, "finish") == []


def test_r8_tied_for_the_lead_the_captain_chooses() -> None:
    # Space 40 (inner channel) and space 38 (outer lane) are both 1 move from the merge.
    s = two_players()
    place(s, ANNE, 38)
    place(s, MARY, 10)
    place(s, GHOST, 40)
    round_(s, (2, 5), 2)
    assert s.decision_kind() == "move" and s.current_player() == ANNE
    assert sorted(legal(s)) == ["move 32", "move 42"]  # backward or forward
    assert happened(s, "ghost_direction") == []


def test_r8_tied_for_last_place_the_captain_chooses() -> None:
    # Space 7 on the long lane and space 3 are both 29 moves from the finish.
    s = two_players()
    place(s, ANNE, 3)
    place(s, MARY, 20)
    place(s, GHOST, 7)
    round_(s, (1, 5), 1)
    assert s.decision_kind() == "move" and s.current_player() == ANNE
    assert sorted(legal(s)) == ["move 6", "move 8"]
    assert happened(s, "ghost_direction") == []


# --- lairs ----------------------------------------------------------------------------------------
def test_takes_a_lair_treasure_face_down_unseen_by_all() -> None:
    s = two_players()
    place(s, ANNE, 10)
    place(s, MARY, 12)
    place(s, GHOST, 2)
    round_(s, (2, 1), 2)  # forward 2 onto the lair of space 4
    assert s.decision_kind() == "draw_treasure"
    s.apply("treasure +7")
    assert not s.tokens >> 4 & 1
    for p in (ANNE, MARY):
        ghost = s.view(p)["ships"][GHOST]
        assert ghost["face_down"] == 1 and ghost["face_down_known"] == []
        assert happened(s, "face_down_seen", p) == []
    assert s.scores()[GHOST].treasures == 7


def test_a_power_found_by_it_stays_face_down() -> None:
    s = two_players()
    place(s, ANNE, 10)
    place(s, MARY, 12)
    place(s, GHOST, 2)
    round_(s, (2, 1), 2)
    s.apply("treasure sabre")
    assert s.powers[SABRE] == -1 and len(s.face_down[GHOST]) == 1
    assert s.view(ANNE)["ships"][GHOST]["powers"] == ["beth"]


# --- battles it fights: who decides (R9) ----------------------------------------------------------
def john_attacks_the_ghost(captain: int) -> State:
    """4 players and the Ghost Ship: John Rackham (player 2) sails onto it, and loses."""
    john = 2
    hands = [GOLDS] * 4
    hands[john] = ("fwd-fwd", "gold-gold", "food-gun")
    s = start(Config(4, ghost_ship=True), captain=captain, hands=hands)
    ghost = 4
    for p, space in enumerate((10, 12, 3, 20)):
        place(s, p, space)
    place(s, ghost, 6)
    round_(s, (3, 2), 3, {john: "fwd-fwd"})
    assert s.powers[LADY_BETH] == ghost
    s.apply("die 2")
    # The Ghost Ship has no gunpowder: it only rolls (a chance event), with Lady Beth's +2.
    assert s.is_chance_node() and s.decision_kind() == "combat_die"
    s.apply("die 8")
    assert happened(s, "die")[-1][2] == 10 and happened(s, "win") == [[ghost, john]]
    assert s.decision_kind() == "spoils"
    return s


def test_r9_the_captain_decides_for_the_ghost_ship() -> None:
    s = john_attacks_the_ghost(captain=0)
    assert s.current_player() == 0


def test_r9_when_the_captain_fights_it_the_next_player_decides() -> None:
    s = john_attacks_the_ghost(captain=2)
    assert s.current_player() == 3


def test_r9_two_players_the_other_player_decides_and_the_captain_may_attack_her_own_ship() -> None:
    s = two_players(captain=MARY)
    place(s, ANNE, 16)
    place(s, MARY, 16)
    place(s, GHOST, 18)  # alone in the lead: backward 2 onto both ships
    round_(s, (2, 3), 2)
    assert s.decision_kind() == "attack" and s.current_player() == MARY  # the Captain
    assert legal(s) == ["attack 0", "attack 1"]
    s.apply("attack 1")  # her own ship
    s.apply("die 10")
    s.apply("die 2")
    assert happened(s, "win") == [[GHOST, MARY]]
    assert s.decision_kind() == "spoils" and s.current_player() == ANNE


# --- the Ghost Ship wins: only doubloons are kept -------------------------------------------------
def ghost_beats_mary(
    powers: tuple[str, ...] = (),
    face_down: tuple[str, ...] = (),
    sixth: tuple[str, int] | None = None,
    ghost_cards: tuple[str, ...] = (),
) -> State:
    """The Captain sends the Ghost Ship from space 17 back onto Mary (space 16), and it wins."""
    s = two_players()
    place(s, ANNE, 44)
    place(s, MARY, 16)
    place(s, GHOST, 17)
    round_(s, (1, 3), 1)
    assert sorted(legal(s)) == ["move 16", "move 18"]  # neither alone first nor last: free choice
    for name in powers:
        give_power(s, MARY, name)
    for name in face_down:
        give_face_down(s, MARY, name)
    for name in ghost_cards:
        give_face_down(s, GHOST, name, klass=0)  # found on a lair earlier
    holds(s, MARY, [("food", 4), ("gold", 6), ("powder", 2)], sixth=sixth)
    s.apply("move 16")
    s.apply("die 10")
    s.apply("powder 0")
    s.apply("die 2")
    assert s.decision_kind() == "spoils" and s.current_player() == ANNE
    return s


def test_winning_it_keeps_doubloons_by_the_loading_rules() -> None:
    s = ghost_beats_mary()
    s.apply("take 1")
    assert ghost_holds(s) == [(GOLD, 5), (GOLD, 3), (GOLD, 6)]
    assert total(s, MARY, "gold") == 0


def test_winning_it_throws_resources_overboard() -> None:
    s = ghost_beats_mary()
    s.apply("take 2")
    assert happened(s, "overboard") == [[0, GUNPOWDER]]
    assert "gunpowder" in overboard_texts(s)[0]
    assert total(s, MARY, "powder") == 0 and ghost_holds(s) == [(GOLD, 5), (GOLD, 3)]
    check_invariants(s)


def test_winning_it_throws_a_stolen_power_overboard() -> None:
    s = ghost_beats_mary(powers=("map",))
    s.apply("steal map")
    assert s.powers[MAP] == -2 and happened(s, "overboard") == [[1, MAP]]
    assert "Map" in overboard_texts(s)[0]
    assert s.view(MARY)["ships"][GHOST]["powers"] == ["beth"]


def test_r12_stealing_the_6th_hold_it_keeps_the_doubloons_in_it() -> None:
    s = ghost_beats_mary(powers=("hold6",), sixth=("gold", 4))
    s.apply("steal hold6")
    assert s.powers[HOLD6] == -2
    assert ghost_holds(s) == [(GOLD, 5), (GOLD, 3), (GOLD, 4)]
    assert total(s, MARY, "gold") == 6  # her regular holds are hers still
    check_invariants(s)


def test_r12_stealing_the_6th_hold_full_of_food_all_goes_overboard() -> None:
    s = ghost_beats_mary(powers=("hold6",), sixth=("food", 4))
    s.apply("steal hold6")
    assert happened(s, "overboard") == [[1, HOLD6], [0, FOOD]]
    assert ghost_holds(s) == [(GOLD, 5), (GOLD, 3)] and total(s, MARY, "food") == 4


def test_winning_it_throws_a_stolen_face_down_card_overboard() -> None:
    s = ghost_beats_mary(face_down=("+7",))
    s.apply("steal blind")  # a single card: no need to draw
    assert s.face_down[MARY] == () and s.face_down[GHOST] == () and len(s.overboard) == 1
    assert happened(s, "overboard") == [[2, 0]]
    assert "face-down" in overboard_texts(s)[0]
    assert s.scores()[GHOST].treasures == 0 and s.view(ANNE)["overboard"] == 1


def test_it_never_gives_a_cursed_treasure() -> None:
    s = ghost_beats_mary(face_down=("+3",), ghost_cards=("-3",))
    assert "give -3" not in legal(s)
    assert legal(s) == ["take 0", "take 1", "take 2", "steal blind", "nothing"]


# --- a player beats it ----------------------------------------------------------------------------
def anne_beats_the_ghost(cursed: tuple[str, ...] = (), ghost_cards: tuple[str, ...] = ()) -> State:
    s = two_players("fwd-fwd")
    place(s, ANNE, 3)
    place(s, MARY, 20)
    place(s, GHOST, 6)
    holds(s, ANNE, [("gold", 5), ("food", 3)])
    for name in cursed:
        give_face_down(s, ANNE, name, klass=2)
    for name in ghost_cards:
        give_face_down(s, GHOST, name, klass=0)
    round_(s, (3, 2), 3, {ANNE: "fwd-fwd"})
    s.apply("die 10")
    s.apply("die 2")
    assert happened(s, "win") == [[ANNE, GHOST]]
    assert s.decision_kind() == "spoils" and s.current_player() == ANNE
    return s


def test_lady_beth_can_not_be_stolen_from_it() -> None:
    s = anne_beats_the_ghost(cursed=("-2",), ghost_cards=("+7",))
    assert legal(s) == ["take 0", "take 1", "steal blind", "give -2", "nothing"]
    with pytest.raises(IllegalActionError):
        s.apply("steal beth")
    s.apply("take 0")
    assert ghost_holds(s) == [(GOLD, 3)]
    assert s.powers[LADY_BETH] == GHOST


def test_beating_it_steal_its_face_down_card_blind() -> None:
    s = anne_beats_the_ghost(ghost_cards=("+7", "+3"))
    s.apply("steal blind")
    s.apply("blind 0")
    assert s.view(ANNE)["ships"][ANNE]["face_down_known"] == ["+7"]
    assert s.view(MARY)["ships"][ANNE]["face_down_known"] == []
    assert s.scores()[GHOST].treasures == 3


def test_beating_it_a_power_it_found_comes_face_up() -> None:
    s = anne_beats_the_ghost(ghost_cards=("sabre",))
    s.apply("steal blind")
    assert s.powers[SABRE] == ANNE and s.face_down[GHOST] == ()


def test_beating_it_give_it_a_cursed_treasure() -> None:
    s = anne_beats_the_ghost(cursed=("-2", "-4"), ghost_cards=("+7",))
    s.apply("give -4")
    assert s.scores()[GHOST].treasures == 3 and s.scores()[ANNE].treasures == -2
    minus_4 = TREASURE_NAMES.index("-4")
    assert happened(s, "give_seen", ANNE) == [[ANNE, GHOST, minus_4]]
    assert happened(s, "give_seen", MARY) == []


# --- scoring and the end --------------------------------------------------------------------------
def test_it_scores_like_a_player_can_win_and_its_finish_ends_the_game() -> None:
    s = two_players()
    place(s, ANNE, 48)  # 2 moves left
    place(s, MARY, 20)
    place(s, GHOST, 47)  # 3 moves left: the Captain chooses
    round_(s, (5, 1), 5)
    assert sorted(legal(s)) == ["move 0", "move 42"]
    s.apply("move 0")  # 5 forward, cut short at Port Royal
    assert (s.pos[GHOST], s.lap[GHOST]) == (0, 1)
    assert happened(s, "finish") == [[GHOST]]
    assert [a[0] for a in happened(s, "move")].count(GHOST) == 1  # no evening move
    assert s.is_terminal()  # the players had played their turns: the round, and the game, end
    assert s.scores()[GHOST].total == 15 + 8
    assert s.scores()[ANNE].total == 9 + 3 + 5 + 1
    assert s.winners() == [GHOST]
