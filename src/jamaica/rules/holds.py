"""Holds: loading (RULES §5) and paying from chosen holds (§6), as tasks and decisions.

Holds are interchangeable except the 6th Hold (slot 5, it can be stolen with its contents, R12),
so the choices offered are deduplicated: among regular holds with the same contents only the
first is listed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .actions import ACTIONS, LOAD, PAY, Action
from .data import EMPTY, HOLD6, HOLDS, SIXTH, SLOTS
from .events import E_DUMP, E_LOAD, E_LOAD_IGNORED
from .ops import K_LOAD, K_PAY, T_LOAD, T_PAY, Task, ask, decision, ev, task

if TYPE_CHECKING:
    from .base import BaseState

LOAD_ACTIONS = ACTIONS[LOAD : LOAD + SLOTS]
PAY_ACTIONS = ACTIONS[PAY : PAY + SLOTS]


def slot_count(s: BaseState, ship: int) -> int:
    """Usable hold slots: 5, or 6 for the owner of the 6th Hold card."""
    return SLOTS if s.powers[HOLD6] == ship else HOLDS


def total(s: BaseState, ship: int, resource: int) -> int:
    base = ship * SLOTS
    ht, hn = s.hold_types, s.hold_counts
    have = 0
    for i in range(
        base, base + (SLOTS if s.powers[HOLD6] == ship else HOLDS)
    ):  # a hot spot: a loop
        if ht[i] == resource:
            have += hn[i]
    return have


def empty_all(s: BaseState, ship: int, resource: int) -> int:
    """Pay everything of a resource (a shortage, §7); returns how much that was."""
    base = ship * SLOTS
    ht, hn = s.hold_types, s.hold_counts
    paid = 0
    for i in range(base, base + slot_count(s, ship)):
        if ht[i] == resource:
            paid += hn[i]
            ht[i] = EMPTY
            hn[i] = 0
    return paid


def pay_options(s: BaseState, ship: int, resource: int) -> list[Action]:
    base = ship * SLOTS
    ht, hn = s.hold_types, s.hold_counts
    seen: list[int] = []
    out: list[Action] = []
    for h in range(slot_count(s, ship)):
        i = base + h
        if ht[i] == resource:
            if h == SIXTH:
                out.append(PAY_ACTIONS[h])
            elif hn[i] not in seen:
                seen.append(hn[i])
                out.append(PAY_ACTIONS[h])
    return out


def load_options(s: BaseState, ship: int, resource: int) -> list[Action]:
    """Empty holds if any (the first regular one, and the 6th Hold); otherwise the holds of a
    different type that may be emptied; none if every hold holds this type (§5)."""
    base = ship * SLOTS
    end = base + slot_count(s, ship)
    holds = load_holds(s.hold_types[base:end], s.hold_counts[base:end], resource)
    return [LOAD_ACTIONS[h] for h in holds]


def load_holds(types: Sequence[int], counts: Sequence[int], resource: int) -> list[int]:
    """`load_options` for a ship's usable holds given as their types and counts (the rules'
    hints ask it of holds as they would be later in a turn): the holds it may load into."""
    out: list[int] = []
    regular_empty = False
    for h, kind in enumerate(types):
        if kind == EMPTY and (h == SIXTH or not regular_empty):
            out.append(h)
            regular_empty = regular_empty or h != SIXTH
    if out:
        return out
    seen: list[tuple[int, int]] = []
    for h, kind in enumerate(types):
        if kind != resource:
            if h == SIXTH:
                out.append(h)
            elif (kind, counts[h]) not in seen:
                seen.append((kind, counts[h]))
                out.append(h)
    return out


@task(T_LOAD)
def load(s: BaseState, t: Task) -> None:
    _, ship, resource, amount, decider = t
    options = load_options(s, ship, resource)
    if not options:
        ev(s, s.all, E_LOAD_IGNORED, ship, resource, amount)
        return
    ask(s, K_LOAD, decider, (ship, resource, amount), options)


@decision(K_LOAD)
def _load_into(s: BaseState, ctx: tuple[Any, ...], a: Action) -> None:
    ship, resource, amount = ctx
    h = a - LOAD
    i = ship * SLOTS + h
    if s.hold_types[i] != EMPTY:
        ev(s, s.all, E_DUMP, ship, s.hold_types[i], s.hold_counts[i], h)
    s.hold_types[i] = resource
    s.hold_counts[i] = amount
    ev(s, s.all, E_LOAD, ship, resource, amount, h)


def pay(s: BaseState, ship: int, resource: int, amount: int) -> None:
    """Pay `amount` tokens of `resource` (which the ship has), asking from which holds."""
    while amount > 0:
        have = total(s, ship, resource)
        if have == amount:
            empty_all(s, ship, resource)
            return
        options = pay_options(s, ship, resource)
        if len(options) > 1:
            s.q = (K_PAY, ship, (ship, resource, amount))
            s.legal = options
            s.probs = None
            return
        _take_one(s, ship, options[0] - PAY)
        amount -= 1


def _take_one(s: BaseState, ship: int, h: int) -> None:
    i = ship * SLOTS + h
    s.hold_counts[i] -= 1
    if s.hold_counts[i] == 0:
        s.hold_types[i] = EMPTY


@task(T_PAY)
def _pay_task(s: BaseState, t: Task) -> None:
    pay(s, t[1], t[2], t[3])


@decision(K_PAY)
def _pay_from(s: BaseState, ctx: tuple[Any, ...], a: Action) -> None:
    pay_answer(s, ctx, a)


def pay_answer(s: BaseState, ctx: tuple[Any, ...], a: int) -> None:
    """One answer to a payment question (`ctx`: ship, resource, amount): a token from hold
    `a - PAY`, then the rest paid as `pay` does — the engine takes tokens itself while one way is
    left, and asks again (sets `s.q`) when there are several. Nothing else of the game runs."""
    ship, resource, amount = ctx
    _take_one(s, ship, a - PAY)
    pay(s, ship, resource, amount - 1)
