"""The places of a finished game's players, as the engine ranks them (RULES §9, R8).

The engine decides the order (`rules.scoring.rank_key`): the highest total first, and between
equal totals the ship furthest along, fewest moves left to finish (R8) — the order in which
`State.winners()` picks the winners. Ships still equal share a place, and the next place is
skipped (1, 2, 2, 4), as the end screen shows them. The Ghost Ship is not a player: it is left out
and the players keep their order among themselves.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..rules import State
from ..rules.scoring import rank_key
from .model import RatingError


def competition_places(keys: Sequence[tuple[int, int]]) -> list[int]:
    """1 + the number of keys strictly better (smaller): equal keys share a place."""
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def places_of(state: State, abandoned: Collection[int] = ()) -> list[int]:
    """Each player's place (by seat, the Ghost Ship left out) in the finished game: 1 for the
    winners, equal places for a tie (R8). A seat in `abandoned` (left, replaced by a bot, not
    back by the end) takes the last place whatever its ship scored, shared with any other seat
    that abandoned; the others keep their order above them."""
    if not state.is_terminal():
        raise RatingError("the game is not over: only a finished game has places")
    n = state.n
    bad = [seat for seat in abandoned if not (isinstance(seat, int) and 0 <= seat < n)]
    if bad:
        raise RatingError(f"abandoned seats are players' seats 0 to {n - 1}, not {bad[0]!r}")
    if len(set(abandoned)) == n:
        raise RatingError("every player abandoned the game: there is nobody to rank")
    keys = [rank_key(state, k) for k in range(n)]
    stayed = [k for k in range(n) if k not in abandoned]
    kept = dict(zip(stayed, competition_places([keys[k] for k in stayed]), strict=True))
    return [kept.get(k, len(stayed) + 1) for k in range(n)]


__all__ = ["competition_places", "places_of"]
