"""A second world a player cannot tell from the first, built independently of the engine's own
determinization (`resample`), and the public knowledge it must respect, derived from the rules
(RULES §11, R15, R16) rather than read from the engine.

- `PRIVATE_EVENTS`: who may see each private event; every other event is public. `check_audiences`
  compares every logged event with it.
- `public_classes`: what everyone knows of each face-down treasure card (any card, not a power, a
  cursed one), replayed from the public events alone.
- `other_world(s, p, rng)`: every value hidden from `p` re-dealt at random, consistently: the
  other players' hands, chosen cards and draw piles; the face-down cards `p` does not know; the
  treasure pile; and the private events `p` cannot see.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from jamaica import Action, State
from jamaica.rules.battle import spoils_options
from jamaica.rules.data import (
    ALL_CARDS_MASK,
    CARD_NAMES,
    CLASS_ANY,
    CLASS_CURSED,
    CLASS_TREASURE,
    NUM_CARDS,
    NUM_TREASURE_TYPES,
    TREASURE_NAMES,
    in_class,
)
from jamaica.rules.events import (
    E_CHOSE_SEEN,
    E_DRAW_SEEN,
    E_FACE_DOWN,
    E_FACE_DOWN_SEEN,
    E_GIVE,
    E_GIVE_SEEN,
    E_POWER,
    E_STEAL_BLIND,
    E_STEAL_SEEN,
)
from jamaica.rules.ops import PUBLIC


def _players(s: State, *ships: int) -> int:
    return sum(1 << k for k in ships if k < s.n)


# code -> (who may see it, given the event's args; the range of its secret last argument)
PRIVATE_EVENTS: dict[int, tuple[Callable[[State, tuple[int, ...]], int], int]] = {
    E_DRAW_SEEN: (lambda s, a: _players(s, a[0]), NUM_CARDS),
    E_CHOSE_SEEN: (lambda s, a: _players(s, a[0]), NUM_CARDS),
    E_FACE_DOWN_SEEN: (lambda s, a: _players(s, a[0]), NUM_TREASURE_TYPES),
    E_STEAL_SEEN: (lambda s, a: _players(s, a[0], a[1]), NUM_TREASURE_TYPES),
    E_GIVE_SEEN: (lambda s, a: _players(s, a[0], a[1]), NUM_TREASURE_TYPES),
}


def answer_audience(s: State, action: int) -> int:
    """Who sees the answer `action` to the pending question (RULES §11, R16): the decider;
    only the drawing player their card; a power drawn by a player is public, another treasure
    only its drawer's (nobody sees the Ghost Ship's); a blind steal and a gift only the two
    ships' players; a card choice only its decider; everything else is public."""
    assert s.q is not None
    who, ctx, kind = s.q[1], s.q[2], s.decision_kind()
    everyone = ((1 << s.n) - 1) | PUBLIC
    if kind == "card":
        return 1 << who
    if kind == "draw_card":
        return _players(s, ctx[0])
    if kind == "draw_treasure":
        power = TREASURE_NAMES.index(str(Action.from_id(action)).split()[1]) < 4
        if ctx[0] == s.gh:
            return 0
        return everyone if power else _players(s, ctx[0])
    if kind == "blind_steal" or (
        kind == "spoils" and str(Action.from_id(action)).startswith("give")
    ):
        return _players(s, ctx[0], ctx[1])
    return everyone


def expected_audience(s: State, event: tuple[int, ...]) -> int:
    rule = PRIVATE_EVENTS.get(event[1])
    return rule[0](s, event[2:]) if rule else ((1 << s.n) - 1) | PUBLIC


def check_audiences(s: State) -> None:
    for e in s.events or []:
        assert e[0] == expected_audience(s, e), f"event {e} has the wrong audience"


def sees(audience: int, p: int | None) -> bool:
    """The rule, restated: spectators see what is marked public, players what names them."""
    return bool(audience & PUBLIC) if p is None else bool(audience >> p & 1)


def public_classes(s: State) -> tuple[list[list[int]], list[int]]:
    """Per ship, the public class of each face-down card (in the engine's order), and of each
    card thrown overboard, from the public events alone."""
    fd: list[list[int]] = [[] for _ in range(s.ns)]
    overboard: list[int] = []
    stolen_to: int | None = None
    for e in s.events or []:
        if not e[0] & PUBLIC:
            continue
        code, a = e[1], e[2:]
        if code == E_FACE_DOWN:  # drawn from a lair: a player's shows powers face up (R15)
            fd[a[0]].append(CLASS_ANY if a[0] == s.gh else CLASS_TREASURE)
        elif code == E_GIVE:  # nobody else knows which of the giver's cards went
            giver, receiver = a[0], a[1]
            weakest = min(fd[giver])
            fd[giver] = [weakest] * (len(fd[giver]) - 1)
            fd[receiver].append(CLASS_CURSED)
        elif code == E_STEAL_BLIND:  # a random card: what is left is only known as a whole
            thief, loser = a[0], a[1]
            weakest = min(fd[loser])
            fd[loser] = [weakest] * (len(fd[loser]) - 1)
            if thief == s.gh:
                overboard.append(weakest)
            else:  # face down in a player's hands: not a power, or it is shown at once (R15)
                fd[thief].append(max(weakest, CLASS_TREASURE))
                stolen_to = thief
                continue
        elif code == E_POWER and stolen_to == a[0]:  # the stolen card was a power: face up
            fd[a[0]].pop()
        stolen_to = None
    return fd, overboard


def knowledge(s: State, p: int) -> tuple[list[list[bool]], list[bool]]:
    """Per ship, whether `p` knows the value of each face-down card (and of each card thrown
    overboard), from the events alone: an owner knows their cards, a thief and the robbed player
    the stolen card, a giver and the receiver the given card; after a blind steal or a gift, no one
    else can tell the ship's remaining cards apart (they are forgotten)."""
    fd: list[list[bool]] = [[] for _ in range(s.ns)]
    overboard: list[bool] = []
    stolen_to: int | None = None
    for e in s.events or []:
        if not e[0] & PUBLIC:
            continue
        code, a = e[1], e[2:]
        if code == E_FACE_DOWN:
            fd[a[0]].append(p == a[0])
        elif code == E_GIVE:
            giver, receiver = a[0], a[1]
            fd[giver] = [p == giver] * (len(fd[giver]) - 1)
            fd[receiver].append(p in (giver, receiver))
        elif code == E_STEAL_BLIND:
            thief, loser = a[0], a[1]
            fd[loser] = [p == loser] * (len(fd[loser]) - 1)
            if thief == s.gh:
                overboard.append(p == loser)
            else:
                fd[thief].append(p in (thief, loser))
                stolen_to = thief
                continue
        elif code == E_POWER and stolen_to == a[0]:
            fd[a[0]].pop()
        stolen_to = None
    return fd, overboard


def check_knowledge(s: State, p: int) -> None:
    """The engine's record of who knows which card is what the events imply."""
    if s.is_terminal():
        return
    fd, overboard = knowledge(s, p)
    assert [[bool(c >> 6 >> p & 1) for c in cards] for cards in s.face_down] == fd, (
        f"{p}'s knowledge"
    )
    assert [bool(c >> 6 >> p & 1) for c in s.overboard] == overboard, f"{p}'s knowledge overboard"


def check_classes(s: State) -> Classes:
    """The engine's public classes are those the public events imply; returns them."""
    fd, overboard = public_classes(s)
    assert [[c >> 4 & 3 for c in cards] for cards in s.face_down] == fd, "face-down classes"
    assert [c >> 4 & 3 for c in s.overboard] == overboard, "overboard classes"
    return fd, overboard


def _bits(mask: int) -> list[int]:
    return [c for c in range(NUM_CARDS) if mask >> c & 1]


def _deal_cards(w: State, q: int, rng: random.Random, keep_chosen: bool) -> None:
    chosen = w.chosen[q]
    fixed = w.known_in_hand[q] | (1 << chosen if keep_chosen and chosen >= 0 else 0)
    size = w.hand[q].bit_count() + (chosen >= 0)
    free = _bits(ALL_CARDS_MASK & ~w.disc[q] & ~fixed)
    rng.shuffle(free)
    take = size - fixed.bit_count()
    held = fixed | sum(1 << c for c in free[:take])
    w.drawp[q] = sum(1 << c for c in free[take:])
    if chosen >= 0 and not keep_chosen:
        chosen = rng.choice(_bits(held))
    w.chosen[q] = chosen
    w.hand[q] = held & ~(1 << chosen) if chosen >= 0 else held


Classes = tuple[list[list[int]], list[int]]


def _deal_treasures(w: State, p: int | None, rng: random.Random, known: Classes) -> None:
    fd, overboard = known
    places = [list(cards) for cards in w.face_down] + [list(w.overboard)]
    classes = [*fd, overboard]
    pool = list(w.pile)
    slots = []
    for where, cards in enumerate(places):
        for i, card in enumerate(cards):
            if p is None or not card >> 6 >> p & 1:
                pool[card & 15] += 1
                slots.append((classes[where][i], where, i))
    rng.shuffle(slots)
    slots.sort(key=lambda x: -x[0])  # cursed first, then non-powers, then any: always feasible
    for klass, where, i in slots:
        allowed = [t for t in range(NUM_TREASURE_TYPES) if pool[t] and in_class(t, klass)]
        t = rng.choices(allowed, [pool[t] for t in allowed])[0]
        pool[t] -= 1
        places[where][i] = (places[where][i] & ~15) | t
    w.face_down = [tuple(cards) for cards in places[:-1]]
    w.overboard = tuple(places[-1])
    w.pile = pool


def other_world(
    s: State,
    p: int | None,
    rng: random.Random,
    *,
    keep_chosen: bool = False,
    classes: Classes | None = None,
) -> State:
    """A state `p` (None: a spectator) cannot tell from `s`. With `keep_chosen`, the cards chosen
    this round stay as they are (so the worlds agree on the coming reveals). `classes`: the
    result of `public_classes(s)`, if already known."""
    w = s.clone()
    for q in range(s.n):
        if q != p:
            _deal_cards(w, q, rng, keep_chosen)
    _deal_treasures(w, p, rng, classes or public_classes(s))
    events = []
    for e in w.events or []:
        rule = PRIVATE_EVENTS.get(e[1])
        if rule is not None and not sees(e[0], p):
            e = (*e[:-1], rng.randrange(rule[1]))
        events.append(e)
    w.events = events
    _refresh_question(w)
    return w


def _refresh_question(w: State) -> None:
    """The legal answers of a pending question that depends on re-dealt cards."""
    assert w.q is not None
    ctx = w.q[2]
    name = w.decision_kind()
    if name == "card":
        w.legal = [Action.parse(f"play {CARD_NAMES[c]}") for c in _bits(w.hand[ctx[0]])]
    elif name == "draw_card":
        w.legal = [Action.parse(f"draw {CARD_NAMES[c]}") for c in _bits(w.drawp[ctx[0]])]
    elif name == "spoils":
        w.legal = spoils_options(w, ctx[0], ctx[1])
    elif name == "draw_treasure":
        kinds = [t for t in range(NUM_TREASURE_TYPES) if w.pile[t]]
        w.legal = [Action.parse(f"treasure {TREASURE_NAMES[t]}") for t in kinds]
        w.probs = [w.pile[t] / sum(w.pile) for t in kinds]
