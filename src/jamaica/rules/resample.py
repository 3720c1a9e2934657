"""Determinization: a complete state consistent with what one player may see (RULES §11).

Hidden from the player, and drawn here at random: the other players' hands and chosen cards and
the split of their unseen cards between hand and draw pile; the values of face-down treasure cards
the player does not know; which treasure cards are still in the pile. What the public knows is
kept: discard piles, the cards known to be in a hand since a reshuffle, and the class of each
face-down card (any card for the Ghost Ship's, a non-power for a player's own draws, a cursed one
for a card given in a battle).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, TypeVar

from .actions import ACTIONS, DRAW, PLAY, TREASURE
from .battle import spoils_options
from .data import (
    ALL_CARDS_MASK,
    CLASS_ANY,
    CLASS_CURSED,
    CLASS_TREASURE,
    NUM_CARDS,
    NUM_TREASURE_TYPES,
    in_class,
)
from .ops import C_DRAW, C_TREASURE, K_PLAY, K_SPOILS

if TYPE_CHECKING:
    from .base import BaseState

S = TypeVar("S", bound="BaseState")


def _bits(mask: int) -> list[int]:
    return [c for c in range(NUM_CARDS) if mask >> c & 1]


def _resample_cards(s: BaseState, q: int, rng: random.Random) -> None:
    chosen = s.chosen[q]
    in_hand = s.hand[q] | ((1 << chosen) if chosen >= 0 else 0)
    known = s.known_in_hand[q]
    unknown = _bits(ALL_CARDS_MASK & ~s.disc[q] & ~known)
    rng.shuffle(unknown)
    m = in_hand.bit_count() - known.bit_count()
    hand = known
    for c in unknown[:m]:
        hand |= 1 << c
    draw = 0
    for c in unknown[m:]:
        draw |= 1 << c
    if chosen >= 0:
        pick = rng.choice(_bits(hand))
        s.chosen[q] = pick
        hand &= ~(1 << pick)
    s.hand[q], s.drawp[q] = hand, draw


def _resample_treasures(s: BaseState, player: int, rng: random.Random) -> None:
    pool = list(s.pile)
    slots: list[tuple[int, int, int]] = []  # (class, where: ship index or -1 overboard, index)
    places = [*s.face_down, s.overboard]
    for where, cards in enumerate(places):
        for i, card in enumerate(cards):
            if not (card >> 6) >> player & 1:
                pool[card & 15] += 1
                slots.append(((card >> 4) & 3, where, i))
    # Most constrained first: the classes are nested (cursed ⊂ non-power ⊂ any), so drawing in
    # this order is uniform over every consistent assignment.
    slots.sort(key=lambda x: {CLASS_CURSED: 0, CLASS_TREASURE: 1, CLASS_ANY: 2}[x[0]])
    new = [list(cards) for cards in places]
    for klass, where, i in slots:
        allowed = [t for t in range(NUM_TREASURE_TYPES) if pool[t] and in_class(t, klass)]
        t = rng.choices(allowed, weights=[pool[t] for t in allowed])[0]
        pool[t] -= 1
        new[where][i] = (new[where][i] & ~15) | t
    s.face_down = [tuple(cards) for cards in new[:-1]]
    s.overboard = tuple(new[-1])
    s.pile = pool


def resample(s: S, player: int, rng: random.Random) -> S:
    if not isinstance(player, int) or not 0 <= player < s.n:
        raise ValueError(f"player must be 0..{s.n - 1}, not {player!r}")
    c = s.clone(log=False)
    for q in range(s.n):
        if q != player:
            _resample_cards(c, q, rng)
    _resample_treasures(c, player, rng)
    if s.events is not None:
        bit = 1 << player  # can_see(audience, player), inlined: this runs once per search world
        c.events = [e for e in s.events if e[0] & bit]
    c.history = []
    _refresh_pending(c)
    return c


def _refresh_pending(c: BaseState) -> None:
    """Recompute the legal actions of a pending question that depended on hidden cards. (It may
    be left with a single answer, which `apply` then accepts, so the view stays the same.)"""
    assert c.q is not None
    kind, _, ctx = c.q
    if kind == K_PLAY:
        c.legal = [ACTIONS[PLAY + k] for k in _bits(c.hand[ctx[0]])]
    elif kind == K_SPOILS:
        c.legal = spoils_options(c, ctx[0], ctx[1])
    elif kind == C_DRAW:
        c.legal = [ACTIONS[DRAW + k] for k in _bits(c.drawp[ctx[0]])]
    elif kind == C_TREASURE:
        n = sum(c.pile)
        c.legal = [ACTIONS[TREASURE + t] for t in range(NUM_TREASURE_TYPES) if c.pile[t]]
        c.probs = [c.pile[a - TREASURE] / n for a in c.legal]
