"""Setting up positions for scenario tests, the way a rulebook example would: deal chosen hands,
roll chosen dice, put ships where the example needs them, then play the actions by name."""

from __future__ import annotations

from collections.abc import Iterable

from jamaica import Action, Config, State, new_game
from jamaica.rules.data import (
    CARD_NAMES,
    EMPTY,
    FOOD,
    GOLD,
    GUNPOWDER,
    NUM_POWERS,
    SLOTS,
    TREASURE_NAMES,
)
from jamaica.rules.turns import encode_card

RES = {"food": FOOD, "powder": GUNPOWDER, "gold": GOLD}
DEFAULT_HANDS = ("fwd-fwd", "food-fwd", "gold-gold")


def start(
    config: Config | None = None,
    *,
    captain: int = 0,
    hands: Iterable[Iterable[str]] | None = None,
) -> State:
    """A new game after setup: each player holds the named cards; waiting for the first roll."""
    s = new_game(config or Config())
    deals = list(hands) if hands is not None else [DEFAULT_HANDS] * s.n
    for p in range(s.n):
        for card in deals[p]:
            s.apply(f"draw {card}")
    s.apply(f"captain {captain}")
    assert s.decision_kind() == "roll_dice"
    return s


def holds(
    s: State,
    ship: int,
    contents: Iterable[tuple[str, int]],
    sixth: tuple[str, int] | None = None,
) -> None:
    """Set a ship's holds, e.g. [("food", 3), ("gold", 2)]; the rest are emptied."""
    base = ship * SLOTS
    items = list(contents)
    for h in range(SLOTS):
        s.hold_types[base + h], s.hold_counts[base + h] = EMPTY, 0
    for h, (kind, count) in enumerate(items):
        s.hold_types[base + h], s.hold_counts[base + h] = RES[kind], count
    if sixth is not None:
        s.hold_types[base + 5], s.hold_counts[base + 5] = RES[sixth[0]], sixth[1]


def place(s: State, ship: int, space: int, lap: int = 0) -> None:
    s.pos[ship], s.lap[ship] = space, lap


def give_power(s: State, ship: int, name: str) -> None:
    t = TREASURE_NAMES.index(name)
    assert t < NUM_POWERS
    if s.pile[t]:
        s.pile[t] -= 1
        s.tokens &= ~(1 << _a_lair_with_token(s))
    s.powers[t] = ship


def give_face_down(s: State, ship: int, name: str, klass: int = 1) -> None:
    """A face-down treasure card (drawn from the pile, its lair token gone)."""
    t = TREASURE_NAMES.index(name)
    s.pile[t] -= 1
    s.tokens &= ~(1 << _a_lair_with_token(s))
    knowers = 0 if ship == s.gh else 1 << ship
    s.face_down[ship] += (encode_card(t, klass, knowers),)


def _a_lair_with_token(s: State) -> int:
    from jamaica.rules.data import LAIR_SPACES

    for space in reversed(LAIR_SPACES):  # take tokens from the far end: the tests' lairs stay
        if s.tokens >> space & 1:
            return space
    raise AssertionError("no lair token left")


def round_(
    s: State, roll: tuple[int, int], morning: int, cards: dict[int, str] | None = None
) -> None:
    """Roll the dice, put `morning` in the morning, and have every player choose a card
    (the given ones; others their first card)."""
    lo, hi = sorted(roll)
    s.apply(f"roll {lo}-{hi}")
    if lo != hi:
        s.apply(f"morning {morning}")
    chosen = cards or {}
    while s.decision_kind() == "card":
        p = s.current_player()
        card = chosen.get(p)
        if card is None:
            card = CARD_NAMES[(s.legal[0] - Action.parse("play food-fwd"))]
        s.apply(f"play {card}")


def legal(s: State) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def texts(s: State, player: int | None = None) -> list[str]:
    return [e["text"] for e in s.events_for(player)]


def total(s: State, ship: int, kind: str) -> int:
    base = ship * SLOTS
    return sum(s.hold_counts[base + h] for h in range(SLOTS) if s.hold_types[base + h] == RES[kind])
