"""End-of-game scoring and tie-breaks (RULES §9, R8)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .board import moves_left
from .data import FINISH_SCORE, GOLD, NO_SCORE, PORT_ROYAL, SLOTS, SPACE_SCORE, TREASURE_VALUES

if TYPE_CHECKING:
    from .base import BaseState


class Score(NamedTuple):
    position: int
    doubloons: int
    treasures: int

    @property
    def total(self) -> int:
        return self.position + self.doubloons + self.treasures


def position_score(space: int, lap: int) -> int:
    """15 for a finished ship; −5 behind the start line or on Port Royal unfinished (§9)."""
    if lap >= 1 and space == PORT_ROYAL:
        return FINISH_SCORE
    if lap < 0:
        return NO_SCORE
    return SPACE_SCORE[space]


def score(s: BaseState, ship: int) -> Score:
    base = ship * SLOTS
    gold = sum(s.hold_counts[i] for i in range(base, base + SLOTS) if s.hold_types[i] == GOLD)
    treasures = sum(TREASURE_VALUES[card & 15] for card in s.face_down[ship])
    return Score(position_score(s.pos[ship], s.lap[ship]), gold, treasures)


def rank_key(s: BaseState, ship: int) -> tuple[int, int]:
    """A ship's place in the ranking as a key, smaller ahead: the highest total, then furthest
    along (fewest moves left, R8). Equal keys share a place."""
    return -score(s, ship).total, moves_left(s.pos[ship], s.lap[ship])


def winners(s: BaseState) -> list[int]:
    """Highest total; tie: furthest along (fewest moves left, R8); still tied: all of them."""
    keys = [rank_key(s, k) for k in range(s.ns)]
    best = min(keys)
    return [k for k in range(s.ns) if keys[k] == best]
