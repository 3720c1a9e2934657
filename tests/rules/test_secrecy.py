"""RULES §11, R15 and R16: the engine's side channels, one test per leak found by the audit of
issue 9. Each builds two worlds that a player cannot tell apart and checks that everything the
player receives is the same in both (and, where it matters, that the test can see a difference).
"""

from __future__ import annotations

import random

from jamaica import Config, State
from jamaica.demo import narrate
from jamaica.rules.data import CLASS_ANY, CLASS_CURSED, CLASS_TREASURE, TREASURE_NAMES
from jamaica.rules.turns import encode_card

from .helpers import holds, legal, place, round_, start

ANNE, MARY, JOHN = 0, 1, 2


Card = tuple[int, str, int, int]  # ship, treasure, who knows it, its public class


def battle_at_6(
    players: int, *, anne: list[str], mary: list[str], more: tuple[Card, ...] = ()
) -> State:
    """Anne (space 3, 5 doubloons) sails onto Mary (space 6, empty holds) and wins the battle;
    `anne` and `mary` name face-down treasure cards they drew, `more` other face-down cards.
    Waits for Anne's spoils, if asked."""
    loads = ("gun-gold", "gold-gold", "food-gun")
    hands = [("fwd-fwd", "gold-gold", "food-gun")] + [loads] * (players - 1)
    s = start(Config(players), captain=ANNE, hands=hands)
    place(s, ANNE, 3)
    place(s, MARY, 6)
    holds(s, ANNE, [("gold", 5)])
    holds(s, MARY, [])
    for ship, names in ((ANNE, anne), (MARY, mary)):
        for name in names:
            face_down(s, ship, name, knowers=1 << ship)
    for ship, name, knowers, klass in more:
        face_down(s, ship, name, knowers=knowers, klass=klass)
    round_(s, (3, 2), 3, {ANNE: "fwd-fwd"})
    for answer in ("die 10", "die 2"):
        s.apply(answer)
    return s


def face_down(s: State, ship: int, name: str, *, knowers: int, klass: int = CLASS_TREASURE) -> None:
    t = TREASURE_NAMES.index(name)
    s.pile[t] -= 1
    lair = max(space for space in (4, 9, 11, 19, 22, 25, 33, 37, 44) if s.tokens >> space & 1)
    s.tokens &= ~(1 << lair)
    s.face_down[ship] += (encode_card(t, klass, knowers),)


def said_to(s: State, player: int | None) -> tuple[object, ...]:
    """Everything the engine tells `player`: the view, the events, who is asked what."""
    return (s.view(player), s.events_for(player), s.decision_kind(), s.current_player())


def resampled(s: State, player: int, seeds: range = range(12)) -> list[object]:
    return [s.resample(player, random.Random(k)).to_dict() for k in seeds]


# --- leak 3: public is a mark, not "every player" ---------------------------------------------
def test_leak3_spectator_of_a_two_player_game_does_not_see_a_stolen_card() -> None:
    worlds = []
    for card in ("-3", "+7"):
        s = battle_at_6(2, anne=[], mary=[card])
        s.apply("steal blind")  # a single card: no draw to make
        worlds.append(s)
    a, b = worlds
    assert said_to(a, None) == said_to(b, None)
    assert a.events_for(ANNE) != b.events_for(ANNE)  # both players see the value...
    assert a.events_for(MARY) != b.events_for(MARY)
    spectator = "\n".join(narrate(a, spectator=True))
    assert "steals a face-down" in spectator
    assert "-3" not in spectator and "cursed" not in spectator.lower()


# --- leak 4: whether a question is asked ------------------------------------------------------
def test_leak4_spoils_are_asked_whether_or_not_the_winner_holds_a_cursed_card() -> None:
    cursed = battle_at_6(4, anne=["-3"], mary=[])
    plain = battle_at_6(4, anne=["+5"], mary=[])
    for s in (cursed, plain):
        assert s.decision_kind() == "spoils" and s.current_player() == ANNE
    assert legal(cursed) == ["give -3", "nothing"] and legal(plain) == ["nothing"]
    for p in (MARY, JOHN, None):
        assert said_to(cursed, p) == said_to(plain, p)
    plain.apply("nothing")
    assert "nothing" in [e["kind"] for e in plain.events_for(None)]


def test_leak4_nothing_to_take_and_nothing_to_give_is_answered_by_the_engine() -> None:
    s = battle_at_6(4, anne=[], mary=[])  # everyone can see there is no choice
    assert s.decision_kind() != "spoils"
    assert [e["kind"] for e in s.events_for(None)].count("nothing") == 1


# --- leak 5: giving a cursed card --------------------------------------------------------------
def test_leak5_a_third_player_cannot_tell_which_cursed_card_was_given() -> None:
    """John gave Anne the -3 earlier (he knows it); Anne also holds a -2. Whichever she gives
    Mary, John sees the same."""
    worlds = []
    for given in ("-2", "-3"):
        known_to_john = (ANNE, "-3", (1 << ANNE) | (1 << JOHN), CLASS_CURSED)
        s = battle_at_6(4, anne=["-2"], mary=["+5"], more=(known_to_john,))
        s.apply(f"give {given}")
        worlds.append(s)
    a, b = worlds
    assert said_to(a, JOHN) == said_to(b, JOHN)
    assert said_to(a, None) == said_to(b, None)
    assert resampled(a, JOHN) == resampled(b, JOHN)
    assert a.view(MARY) != b.view(MARY)  # Mary sees which card she received
    assert a.view(ANNE)["ships"][ANNE]["face_down_known"] == ["-3"]  # the giver still knows


# --- leak 6: resample is a function of the player's information --------------------------------
def test_leak6_resample_does_not_know_the_class_of_a_card_stolen_blind() -> None:
    """Mary holds a +7 she drew and a -3 she was given; Anne steals one blind. John cannot tell
    which, so his determinizations must be the same for the same random numbers."""
    worlds = []
    for index in (0, 1):
        given_by_john = (MARY, "-3", (1 << MARY) | (1 << JOHN), CLASS_CURSED)
        s = battle_at_6(4, anne=[], mary=["+7"], more=(given_by_john,))
        s.apply("steal blind")
        s.apply(f"blind {index}")
        worlds.append(s)
    a, b = worlds
    assert said_to(a, JOHN) == said_to(b, JOHN)
    assert resampled(a, JOHN) == resampled(b, JOHN)
    values = {TREASURE_NAMES[c & 15] for w in (a, b) for c in w.face_down[ANNE]}
    assert values == {"+7", "-3"}  # the worlds do differ


def test_leak6_a_card_stolen_from_the_ghost_that_stays_face_down_is_not_a_power() -> None:
    """R15: Anne beats the Ghost Ship and steals its face-down +5 blind: it stays face down, so
    everyone knows it is no power, and John's determinizations never make it one."""
    loads = ("gun-gold", "gold-gold", "food-gun")
    hands = [("fwd-fwd", "gold-gold", "food-gun"), loads, loads]
    s = start(Config(3, ghost_ship=True), captain=ANNE, hands=hands)
    place(s, ANNE, 3)
    place(s, s.gh, 6)
    holds(s, ANNE, [("gold", 5)])
    holds(s, s.gh, [])
    face_down(s, s.gh, "+5", knowers=0, klass=CLASS_ANY)
    round_(s, (3, 2), 3, {ANNE: "fwd-fwd"})
    for answer in ("die 10", "die 2"):
        s.apply(answer)
    assert s.decision_kind() == "spoils" and s.current_player() == ANNE
    s.apply("steal blind")
    assert s.view(JOHN)["ships"][ANNE]["face_down"] == 1
    powers = 0
    for k in range(300):
        world = s.resample(JOHN, random.Random(k))
        powers += sum(1 for c in world.face_down[ANNE] if c & 15 < 4)
    assert powers == 0
