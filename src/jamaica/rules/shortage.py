"""Shortage (RULES §7, R4): the classic fall-back and the 2021 shortage die.

The player has already paid everything they had of the resource due (see `turns.settle`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import ACTIONS, DIE, MOVE
from .board import BACK_ROUTES, NEAREST
from .data import (
    COMBAT_FACES,
    FOOD,
    GOLD,
    LAIR,
    PORT,
    PORT_ROYAL,
    SEA,
    SHORT_LAIR,
    SHORT_PORT,
    SHORT_STAY,
    SHORTAGE_SYMBOLS,
    SPACE_COST,
    SPACE_TYPE,
)
from .events import E_SHORTAGE_DIE
from .holds import total
from .ops import (
    C_DIE,
    K_MOVE,
    M_FALLBACK_2021,
    M_FALLBACK_CLASSIC,
    T_SHORTAGE,
    Task,
    ask,
    chance,
    ev,
    task,
)

if TYPE_CHECKING:
    from .base import BaseState

_DIE_ACTIONS = list(ACTIONS[DIE : DIE + len(COMBAT_FACES)])
_SYMBOL_TO_SPACE = {SHORT_PORT: PORT, SHORT_LAIR: LAIR}


def classic_fallbacks(s: BaseState, ship: int) -> tuple[int, ...]:
    """§7.1: on each backward route, the first space whose full cost the ship can now pay (a lair
    always; Port Royal at the latest, R4)."""
    food, gold = total(s, ship, FOOD), total(s, ship, GOLD)
    found: set[int] = set()
    for route in BACK_ROUTES[s.pos[ship]]:
        for space in route:
            kind = SPACE_TYPE[space]
            if (
                space == PORT_ROYAL
                or kind == LAIR
                or (kind == PORT and gold >= SPACE_COST[space])
                or (kind == SEA and food >= SPACE_COST[space])
            ):
                found.add(space)
                break
    return tuple(sorted(found))


def _ask_fallback(s: BaseState, ship: int, spaces: tuple[int, ...], mode: int) -> None:
    options = tuple((space, 0, 0) for space in spaces)
    ask(s, K_MOVE, ship, (ship, mode, options), [ACTIONS[MOVE + space] for space in spaces])


@task(T_SHORTAGE)
def _shortage(s: BaseState, t: Task) -> None:
    ship = t[1]
    if s.classic:
        _ask_fallback(s, ship, classic_fallbacks(s, ship), M_FALLBACK_CLASSIC)
    else:
        chance(s, C_DIE, (1, ship), _DIE_ACTIONS, None)


def shortage_die(s: BaseState, ship: int, face: int) -> None:
    """§7.2: the shortage die sends the ship back to the nearest port, sea space or lair."""
    symbol = SHORTAGE_SYMBOLS[face]
    ev(s, s.all, E_SHORTAGE_DIE, ship, face, symbol)
    if symbol == SHORT_STAY:
        return
    space_type = _SYMBOL_TO_SPACE.get(symbol, SEA)
    _ask_fallback(s, ship, NEAREST[space_type][s.pos[ship]], M_FALLBACK_2021)
