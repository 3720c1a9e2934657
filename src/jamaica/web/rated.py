"""Rated tables (issue 25): what makes a table fit to be rated, who may sit at one, the ratings
the lobby shows beside its players, and "play now".

A rated table is made by a player (their key), has a time limit per decision, and every seat is
for a person: the creator's and open seats, no bots (they may not be started early with bots
either) and no invitation links (a link can be opened by anyone, without a player's identity).
Its creator may keep it for players "within ±N of me": the range is fixed when it is made, from
the creator's shown rating then.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from . import seating, standings
from .players import Player
from .protocol import ProtocolError
from .standings import Shown
from .store import Store, TableRecord


class LiveTable(Protocol):
    """What rated play needs of a live table (`tables.LiveTable`)."""

    record: TableRecord
    store: Store
    shown: dict[str, Shown]  # the seated players' shown ratings, by player id
    on_change: Callable[[], None] | None

    def seat_of(self, player: Player) -> int | None: ...


T = TypeVar("T", bound=LiveTable)

LIMITS = (10, 900)  # seconds per decision a rated table may have
WITHIN = (25, 1000)  # the "±N of me" a creator may ask for
PLAY_NOW_SECONDS = 60  # the time per decision of a table made by "play now"


def check_rated(specs: Sequence[Any], limit: float | None, creator: Player | None) -> None:
    """A ValueError unless a table with these seats may be rated."""
    if creator is None:
        raise ProtocolError(
            "bad_request", "a rated table is made by a player: send your player key"
        )
    if limit is None or not LIMITS[0] <= limit <= LIMITS[1]:
        raise ProtocolError("bad_request", "a rated table has a time limit of {low} to {high} "
                            "seconds per decision", low=LIMITS[0], high=LIMITS[1])  # fmt: skip
    kinds = [x.get("kind") if isinstance(x, dict) else None for x in specs]
    if kinds.count("me") != 1 or any(k not in ("me", "open") for k in kinds):
        raise ProtocolError("bad_request", "a rated table has your seat and open seats only: "
                            "people play it, no bots and no invitation links")  # fmt: skip


def check_within(within: object) -> int | None:
    if within is None:
        return None
    if (
        not isinstance(within, int)
        or isinstance(within, bool)
        or not (WITHIN[0] <= within <= WITHIN[1])
    ):
        raise ProtocolError("bad_request", "within is a whole number of rating points, {low} to "
                            "{high}", low=WITHIN[0], high=WITHIN[1])  # fmt: skip
    return within


async def shown(store: Store, player_ids: list[str], edition: str) -> dict[str, Shown]:
    """The players' shown ratings in an edition (read in a thread)."""
    found = await asyncio.to_thread(standings.ratings, store, player_ids, edition)
    return {p: Shown.of(r) for p, r in found.items()}


def holders(table: LiveTable) -> list[str]:
    return [p for p in (seating.holder(x) for x in table.record.seats) if p is not None]


async def refresh(table: LiveTable) -> None:
    """Read the ratings of a rated table's players again (someone sat, the game ended)."""
    if not table.record.rated:
        return
    try:
        table.shown = await shown(table.store, holders(table), table.record.config["edition"])
    except Exception:  # the lobby shows no number until the next refresh; the game goes on
        return
    if table.on_change is not None:
        table.on_change()


def admits(table: LiveTable, rating: Shown) -> bool:
    low, high = table.record.rating_low, table.record.rating_high
    return (low is None or rating.display >= low) and (high is None or rating.display <= high)


def refusal(table: LiveTable, rating: Shown) -> ProtocolError | None:
    """Why a player with this rating may not sit at the table (None: they may)."""
    if admits(table, rating):
        return None
    return ProtocolError("not_your_level", "this table is for players rated {low} to {high}; "
                         "yours is {yours}", low=table.record.rating_low,
                         high=table.record.rating_high, yours=rating.display)  # fmt: skip


def summary(table: LiveTable) -> dict[str, Any]:
    """The lobby line's part for rated play: whether it is rated, its range, and each seated
    player's shown rating with their profile's id (None for an empty seat)."""
    if not table.record.rated:
        return {"rated": False}
    seats: list[dict[str, Any] | None] = []
    for seat in table.record.seats:
        who = seating.holder(seat)
        r = table.shown.get(who) if who is not None else None
        seats.append(None if who is None else {"id": who, **(r.to_dict() if r else {})})
    rng = table.record.rating_low, table.record.rating_high
    return {"rated": True, "range": None if rng == (None, None) else list(rng), "ratings": seats}


def closest(
    tables: Sequence[T], player: Player, mine: Shown, edition: str, players: int | None
) -> tuple[T, int] | None:
    """The open rated table (and seat) of this edition whose seated players' mean shown rating is
    closest to `mine`, among those that admit the player and where they do not sit already."""
    best: tuple[float, float, T, int] | None = None
    for table in tables:
        r = table.record
        if not r.rated or r.started or r.finished or r.config["edition"] != edition:
            continue
        if players is not None and len(r.seats) != players:
            continue
        if table.seat_of(player) is not None or not admits(table, mine):
            continue
        free = [i for i, x in enumerate(r.seats) if seating.kind(x) == "open"]
        if not free:
            continue
        ratings = [table.shown[p].display for p in holders(table) if p in table.shown]
        gap = abs(sum(ratings) / len(ratings) - mine.display) if ratings else 0.0
        key = (gap, r.created)
        if best is None or key < best[:2]:
            best = (gap, r.created, table, free[0])
    return None if best is None else (best[2], best[3])
