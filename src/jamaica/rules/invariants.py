"""What is true of every reachable state; checked on loading a state and by the tests.

`check_invariants` takes a state whose fields have their types, lengths and ranges (as the engine
makes them, or as `serialize` reads them) and checks how they fit together: every card in exactly
one place, the treasure cards and lair tokens counted, the holds, the laps, and (in `flow`) the
task stack and the pending question. `check_events` checks the event log against `EVENT_ARGS`.
A broken invariant raises a `FieldError` ("inconsistent state: <path>: …").
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import chain
from operator import le
from typing import TYPE_CHECKING, Any, NoReturn

from .actions import MAX_POWDER
from .data import (
    ALL_CARDS_MASK,
    COMBAT_FACES,
    CURSED,
    EMPTY,
    FOOD,
    GOLD,
    HAND_LIMIT_WITH_MAP,
    HOLD6,
    LADY_BETH,
    LADY_BETH_BONUS,
    LAIR_SPACES,
    LAIRS_TOTAL,
    MAX_HOLD,
    NUM_CARDS,
    NUM_POWERS,
    NUM_SPACES,
    NUM_TREASURE_TYPES,
    SHORTAGE_NAMES,
    SIXTH,
    SLOTS,
    TREASURE_COUNTS,
    in_class,
)
from .events import E_OVERBOARD, EVENT_ARGS, EVENT_NAMES
from .fields import FieldError, is_int, json_type, show
from .flow import check_flow

if TYPE_CHECKING:
    from .base import BaseState

LAIR_MASK = sum(1 << space for space in LAIR_SPACES)


def _fail(path: str, why: str) -> NoReturn:
    raise FieldError("inconsistent state", path, why)


def check_invariants(s: BaseState) -> None:
    """Raise a FieldError naming the first broken invariant."""
    n, ns = s.n, s.ns
    if not -1 <= s.cap < n or (s.rnd > 0 and s.cap < 0):
        _fail("captain", f"{s.cap} in round {s.rnd}")
    for k in range(ns):
        if not 0 <= s.pos[k] < NUM_SPACES:
            _fail(f"position[{k}]", f"ship {k} is on space {s.pos[k]}")
        if s.lap[k] > 1 or (s.lap[k] == 1 and s.pos[k] != 0):
            _fail(f"lap[{k}]", f"ship {k} has lap {s.lap[k]} on space {s.pos[k]}")
        if s.lap[k] < -2 * s.rnd:  # a ship crosses the start line backward at most twice a round
            _fail(f"lap[{k}]", f"ship {k} is {-s.lap[k]} laps behind in round {s.rnd}")
        for h in range(SLOTS):
            i = k * SLOTS + h
            what, count = s.hold_types[i], s.hold_counts[i]
            if (
                not EMPTY <= what <= GOLD
                or not 0 <= count <= MAX_HOLD
                or ((what == EMPTY) != (count == 0))
            ):
                _fail(f"hold_count[{i}]", f"ship {k} hold {h} holds {count} of type {what}")
            if h == SIXTH and what != EMPTY and s.powers[HOLD6] != k:
                _fail(f"hold_type[{i}]", f"ship {k} uses a 6th Hold it does not own")
        if k == s.gh and any(
            s.hold_types[k * SLOTS + h] not in (EMPTY, GOLD) for h in range(SLOTS)
        ):
            _fail(f"hold_type[{k * SLOTS}]", "the Ghost Ship holds something other than doubloons")
    if s.ending != any(lap == 1 for lap in s.lap):
        _fail("ending", "the game ends with this round exactly when a ship has finished")
    for p in range(n):
        if not -1 <= s.chosen[p] < NUM_CARDS:
            _fail(f"chosen[{p}]", f"no card {s.chosen[p]}")
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
            _fail(f"hand[{p}]", f"player {p}'s 11 cards are not each in exactly one place")
        if s.hand[p].bit_count() > HAND_LIMIT_WITH_MAP:
            _fail(f"hand[{p}]", f"player {p} holds {s.hand[p].bit_count()} cards")
        if s.known_in_hand[p] & ~(s.hand[p] | ((1 << s.chosen[p]) if s.chosen[p] >= 0 else 0)):
            _fail(f"known_in_hand[{p}]", f"player {p}'s publicly known cards are not in their hand")
    _check_treasures(s)
    if s.gh >= 0 and s.powers[LADY_BETH] != s.gh:
        _fail(f"powers[{LADY_BETH}]", "the Ghost Ship keeps Lady Beth all game")
    for t in range(NUM_POWERS):  # the Ghost Ship's draws stay face down, its steals go overboard
        if s.gh >= 0 and s.powers[t] == s.gh and t != LADY_BETH:
            _fail(f"powers[{t}]", "the Ghost Ship owns no face-up card but Lady Beth")
    check_flow(s)


def _check_treasures(s: BaseState) -> None:
    """Every treasure card is undrawn, face up, face down on a ship, or overboard; one lair token
    left for every card not drawn (but the Ghost Ship's own Lady Beth)."""
    seen = [0] * NUM_TREASURE_TYPES
    for t in range(NUM_POWERS):
        if not -2 <= s.powers[t] < s.ns:
            _fail(f"powers[{t}]", f"power {t} owned by {s.powers[t]}")
        if s.powers[t] != -1:
            seen[t] += 1
    players = (1 << s.n) - 1
    places = [(f"face_down[{k}]", cards) for k, cards in enumerate(s.face_down)]
    for path, cards in [*places, ("overboard", s.overboard)]:
        for i, card in enumerate(cards):
            t, klass = card & 15, card >> 4 & 3
            if card < 0 or t >= NUM_TREASURE_TYPES or card >> 6 & ~players:
                _fail(f"{path}[{i}]", f"no face-down card {card}")
            if klass > 2 or not in_class(t, klass):
                _fail(f"{path}[{i}]", f"a card of type {t} cannot be known as of class {klass}")
            seen[t] += 1
    for t in range(NUM_TREASURE_TYPES):
        if s.pile[t] < 0:
            _fail(f"treasure_pile[{t}]", "a negative count")
        if seen[t] + s.pile[t] != TREASURE_COUNTS[t]:
            _fail(f"treasure_pile[{t}]", f"treasure type {t} is counted {seen[t] + s.pile[t]} "
                                         f"times, not {TREASURE_COUNTS[t]}")  # fmt: skip
    if s.tokens & ~LAIR_MASK or s.tokens < 0:
        _fail("lair_tokens", "a treasure token lies off the lairs")
    tokens_left = sum(1 for space in LAIR_SPACES if s.tokens >> space & 1)
    drawn = sum(TREASURE_COUNTS) - (1 if s.gh >= 0 else 0) - sum(s.pile)
    if drawn + tokens_left != LAIRS_TOTAL:
        _fail("lair_tokens", f"{drawn} treasures drawn but {tokens_left} of 9 lair tokens left")


# --- the event log -------------------------------------------------------------------------------

EventRanges = tuple[tuple[tuple[int, int], ...], ...]


def event_ranges(s: BaseState) -> EventRanges:
    """Per event code, the range of each argument in this game (see `events.EVENT_ARGS`)."""
    n, ns, last = s.n, s.ns, s.cfg.max_rounds
    ranges = {
        "players": (n, n),
        "ghost": (int(s.gh >= 0), int(s.gh >= 0)),
        "player": (0, n - 1),
        "ship": (0, ns - 1),
        "card": (0, NUM_CARDS - 1),
        "die": (1, 6),
        "face": (0, len(COMBAT_FACES) - 1),
        "symbol": (0, len(SHORTAGE_NAMES) - 1),
        "resource": (FOOD, GOLD),
        "count": (0, SLOTS * MAX_HOLD),
        "firepower": (0, max(COMBAT_FACES) + MAX_POWDER + LADY_BETH_BONUS),
        "hold": (0, SLOTS - 1),
        "space": (0, NUM_SPACES - 1),
        "power": (0, NUM_POWERS - 1),
        "treasure": (0, NUM_TREASURE_TYPES - 1),
        "cursed": (min(CURSED), max(CURSED)),
        "flag": (0, 1),
        "why": (0, 2),
        "round": (1, last),
        "last_round": (0, last),
        "cards": (0, NUM_CARDS),
        "overboard": (0, 2),
        "thing": (0, NUM_TREASURE_TYPES - 1),
    }
    return tuple(tuple(ranges[arg] for arg in args) for args in EVENT_ARGS)


def check_events(events: list[Any], s: BaseState) -> None:
    """The event log (as loaded: a list of lists): each event `[audience, code, *args]`, its
    audience a set of the game's players and PUBLIC, its arguments in their ranges."""
    ranges = event_ranges(s)
    audiences = s.all
    if set(map(type, events)) <= {list} and set(map(type, chain.from_iterable(events))) <= {int}:
        # The common case, at C speed but for one loop: integers, each event checked by code.
        seen = _audiences(audiences)
        bounds = {code: (2 + len(spec), (0, code, *(lo for lo, _ in spec)),
                         (audiences, code, *(hi for _, hi in spec)))
                  for code, spec in enumerate(ranges)}  # fmt: skip
        for i, e in enumerate(events):
            b = bounds.get(e[1]) if len(e) >= 2 else None
            if (
                b is None
                or len(e) != b[0]
                or e[0] not in seen
                or not all(map(le, b[1], e))
                or not all(map(le, e, b[2]))
                or e[1] == E_OVERBOARD
            ):
                check_event(e, f"events[{i}]", audiences, ranges)  # says what is wrong
        return
    for i, e in enumerate(events):
        if e.__class__ is not list:
            raise FieldError("corrupt state", f"events[{i}]",
                             f"an event is a list, not {json_type(e)}")  # fmt: skip
        check_event(e, f"events[{i}]", audiences, ranges)


@cache
def _audiences(audiences: int) -> frozenset[int]:
    """Every audience within the mask `audiences`."""
    return frozenset(a for a in range(audiences + 1) if not a & ~audiences)


def check_event(e: Sequence[Any], path: str, audiences: int, ranges: EventRanges) -> None:
    """One logged event: `[audience, code, *args]`, integers in their ranges; `audiences` is the
    mask of every audience bit (the players' and PUBLIC)."""

    def bad(where: str, why: str) -> NoReturn:
        raise FieldError("corrupt state", where, why)

    if len(e) < 2:
        bad(path, f"an event is [audience, code, arguments…], not {len(e)} values")
    audience, code = e[0], e[1]
    if not is_int(audience) or audience & ~audiences or audience < 0:
        bad(f"{path}[0]", f"must be an audience (a mask of {audiences:#x}), not {show(audience)}")
    if not is_int(code) or not 0 <= code < len(EVENT_ARGS):
        bad(f"{path}[1]", f"must be an event code from 0 to {len(EVENT_ARGS) - 1}, "
                          f"not {show(code)}")  # fmt: skip
    spec = ranges[code]
    if len(e) != 2 + len(spec):
        bad(path, f"a {EVENT_NAMES[code]} event has {len(spec)} arguments "
                  f"({', '.join(EVENT_ARGS[code])}), not {len(e) - 2}")  # fmt: skip
    for j, (lo, hi) in enumerate(spec, 2):
        x = e[j]
        if not is_int(x) or not lo <= x <= hi:
            what = EVENT_ARGS[code][j - 2]
            got = show(x) if is_int(x) else json_type(x)
            bad(f"{path}[{j}]", f"must be a {what} from {lo} to {hi}, not {got}")
    if code == E_OVERBOARD:
        what, thing = e[2], e[3]
        top = GOLD if what == 0 else NUM_POWERS - 1 if what == 1 else 0
        if not (FOOD if what == 0 else 0) <= thing <= top:
            bad(f"{path}[3]", f"not what can go overboard ({what}: {thing})")
