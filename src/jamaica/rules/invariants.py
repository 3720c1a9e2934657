"""What is true of every reachable state; checked on loading a state and by the tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import NUM_ACTIONS
from .data import (
    ALL_CARDS_MASK,
    EMPTY,
    GOLD,
    HAND_LIMIT_WITH_MAP,
    HOLD6,
    LADY_BETH,
    LAIR_SPACES,
    LAIRS_TOTAL,
    NUM_POWERS,
    NUM_SPACES,
    NUM_TREASURE_TYPES,
    SIXTH,
    SLOTS,
    TREASURE_COUNTS,
)
from .ops import CHANCE, DECIDE, TASKS, TERMINAL

if TYPE_CHECKING:
    from .state import State


def _fail(why: str) -> None:
    raise ValueError(f"inconsistent state: {why}")


def check_invariants(s: State) -> None:
    """Raise ValueError naming the first broken invariant."""
    n, ns = s.n, s.ns
    if not -1 <= s.cap < n or (s.rnd > 0 and s.cap < 0):
        _fail(f"captain {s.cap}")
    for k in range(ns):
        if not 0 <= s.pos[k] < NUM_SPACES:
            _fail(f"ship {k} is on space {s.pos[k]}")
        if s.lap[k] > 1 or (s.lap[k] == 1 and s.pos[k] != 0):
            _fail(f"ship {k} has lap {s.lap[k]} on space {s.pos[k]}")
        for h in range(SLOTS):
            kind, count = s.ht[k * SLOTS + h], s.hn[k * SLOTS + h]
            if not EMPTY <= kind <= GOLD or count < 0 or (kind == EMPTY) != (count == 0):
                _fail(f"ship {k} hold {h} holds {count} of type {kind}")
            if h == SIXTH and kind != EMPTY and s.pw[HOLD6] != k:
                _fail(f"ship {k} uses a 6th Hold it does not own")
        if k == s.gh and any(s.ht[k * SLOTS + h] not in (EMPTY, GOLD) for h in range(SLOTS)):
            _fail("the Ghost Ship holds something other than doubloons")
    for p in range(n):
        parts = [s.hand[p], s.drawp[p], s.disc[p]]
        if s.chosen[p] >= 0:
            parts.append(1 << s.chosen[p])
        union = 0
        for x in parts:
            union |= x
        if (
            any(x < 0 for x in parts)
            or union != ALL_CARDS_MASK
            or sum(x.bit_count() for x in parts) != ALL_CARDS_MASK.bit_count()
        ):
            _fail(f"player {p}'s 11 cards are not each in exactly one place")
        if s.hand[p].bit_count() > HAND_LIMIT_WITH_MAP:
            _fail(f"player {p} holds {s.hand[p].bit_count()} cards")
        if s.kh[p] & ~(s.hand[p] | ((1 << s.chosen[p]) if s.chosen[p] >= 0 else 0)):
            _fail(f"player {p}'s publicly known cards are not in their hand")
    # The treasure cards: every card is undrawn, face up, face down on a ship, or overboard.
    seen = [0] * NUM_TREASURE_TYPES
    for t in range(NUM_POWERS):
        if not -2 <= s.pw[t] < ns:
            _fail(f"power {t} owned by {s.pw[t]}")
        if s.pw[t] != -1:
            seen[t] += 1
    for cards in [*s.fd, s.ob]:
        for card in cards:
            t = card & 15
            if t >= NUM_TREASURE_TYPES or card >> 6 & ~((1 << s.n) - 1):
                _fail(f"face-down card {card}")
            seen[t] += 1
    if any(c < 0 for c in s.pile):
        _fail("negative treasure pile")
    for t in range(NUM_TREASURE_TYPES):
        if seen[t] + s.pile[t] != TREASURE_COUNTS[t]:
            _fail(f"treasure type {t} is counted {seen[t] + s.pile[t]} times")
    tokens_left = sum(1 for space in LAIR_SPACES if s.tokens >> space & 1)
    if s.tokens & ~sum(1 << space for space in LAIR_SPACES):
        _fail("a treasure token lies off the lairs")
    ghost_beth = 1 if s.gh >= 0 else 0
    drawn = sum(TREASURE_COUNTS) - ghost_beth - sum(s.pile)
    if drawn + tokens_left != LAIRS_TOTAL:
        _fail(f"{drawn} treasures drawn but {tokens_left} of 9 lair tokens left")
    if s.gh >= 0 and s.pw[LADY_BETH] == -1:
        _fail("Lady Beth is missing from a game with the Ghost Ship")
    q = s.q
    if q is None or not isinstance(q, tuple) or len(q) != 3:
        _fail("no pending question")
        return
    if q[1] == TERMINAL:
        if s.legal:
            _fail("a finished game has legal actions")
    else:
        if not 0 <= q[0] < len(DECIDE) or not (q[1] == CHANCE or 0 <= q[1] < n):
            _fail(f"pending question {q[:2]}")
        if not s.legal or len(set(s.legal)) != len(s.legal):
            _fail("a pending question needs distinct legal actions")
        if any(not 0 <= a < NUM_ACTIONS for a in s.legal):
            _fail("unknown legal action")
        if s.probs is not None and abs(sum(s.probs) - 1.0) > 1e-9:
            _fail("chance probabilities do not sum to 1")
    for task in s.stack:
        if not task or not 0 <= task[0] < len(TASKS):
            _fail(f"unknown task {task}")
    if s.battle is not None and (len(s.battle) != 7 or not all(0 <= x < ns for x in s.battle[:2])):
        _fail("malformed battle")
