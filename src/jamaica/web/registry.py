"""The server's live tables, by id: the unfinished ones rebuilt from the store at start,
archived when idle and rebuilt on demand, listed for the lobby. The server and the lobby both
hold this registry; it knows nothing of either (one live table is `tables.LiveTable`).

A finished table leaves memory once nobody has looked at it for `finished_after` seconds (or at
once, the least recently touched first, beyond FINISHED_KEPT of them), its lobby line written to
the database; at start no finished table is read at all. It stays
replayable (rebuilt when visited), listed and among its players' tables from the database
(`history.py`): this registry keeps only the newest `FINISHED_LISTED` lines for the lobby, in an
index kept in order. Neither a restart nor a lobby request does work that grows with the games
the server has ever played."""

from __future__ import annotations

import asyncio
import bisect
import logging
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from . import history, rated, seating
from .outbox import spawn
from .store import Store, StoreError, one_line
from .tables import LiveTable

log = logging.getLogger("jamaica.web")
FINISHED_LISTED = 50  # finished tables in the lobby's list (a player's own are all in /api/me)
# Finished tables nobody watches kept in memory, at most: beyond, a new table sends the least
# recently touched to the archive at once (bot tables finish in seconds: many addresses could
# otherwise fill memory within `finished_after`).
FINISHED_KEPT = 200
PRIVATE = ("holders", "waiting")  # in a shared lobby line, for /api/me only: never listed


class Elsewhere(Protocol):
    """Other nodes' lobby lines (several nodes share them through Redis: `shared.Shared`)."""

    def others(self, local: set[str]) -> list[dict[str, Any]]: ...


class Tables:
    """Every table of this server, rebuilt from the store at start, one by one: a table that
    cannot be rebuilt is set aside (logged, listed as unavailable) and the others are served."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.live: dict[str, LiveTable] = {}
        self.made = 0  # new tables since the start (a list of them made before is out of date)
        self.broken: dict[str, str] = {}  # table id -> why it could not be rebuilt
        # The archive's index in memory: every paused table (archived unfinished: few, as
        # unfinished tables are bounded) and the newest FINISHED_LISTED finished ones.
        self.archived: set[str] = set()
        self.archived_summaries: dict[str, dict[str, Any]] = {}
        self.archived_seats: dict[str, dict[str, int]] = {}  # paused: table -> player id -> seat
        self.archived_by_player: dict[str, dict[str, int]] = {}  # paused: player -> table -> seat
        self.finished_order: list[tuple[float, str]] = []  # archived finished: (created, id)
        self.paused_order: list[tuple[float, str]] = []  # archived unfinished: (created, id)
        self.finished_stored = 0  # finished tables out of memory (counted at start, then kept)
        self.unsaved: dict[str, str] = {}  # archived finished tables' lines, to write
        self.archive_after = float(os.environ.get("JAMAICA_ARCHIVE_AFTER", 7 * 24 * 3600))
        self.finished_after = float(os.environ.get("JAMAICA_ARCHIVE_FINISHED_AFTER", 600))
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self.by_address: dict[str, str] = {}  # table id -> the address that created it
        self.elsewhere: Elsewhere | None = None  # several nodes: the others' tables
        # Several nodes: a table this node keeps (taken if no node does) or where it is kept.
        self.locator: Callable[[str], Awaitable[LiveTable | str | None]] | None = None

    def restore_all(self) -> None:
        """Rebuild the unfinished tables (the finished ones stay in the store: `load_finished`)."""
        try:
            ids = self.store.unfinished_ids()
        except StoreError as e:  # the database itself cannot be read: say so in one line
            log.error("%s", e)
            raise SystemExit(2) from None
        for table_id in ids:
            try:
                record = self.store.table(table_id)
                if record is None or record.finished:
                    continue
                table = LiveTable.restore(record, self.store)
                if self._due(table, time.time()):  # left: not loaded, and listed from its
                    self._archive(table)  # summary (the game stays stored)
                else:
                    self.live[table_id] = table
            except Exception as e:  # one bad table must not stop the server
                reason = str(e).splitlines()[0] if str(e) else type(e).__name__
                log.error("table %s cannot be rebuilt and is set aside: %s", table_id, reason)
                self.broken[table_id] = reason
        self.load_finished()

    def load_finished(self) -> None:
        """The newest finished tables' lines for the lobby, from the database (and, once, the
        results of finished tables stored before results were kept). A thread's work."""
        try:
            filled = history.backfill(self.store)
            if filled:
                log.info("results written for %d finished tables that had none", filled)
            for line in reversed(history.newest(self.store, FINISHED_LISTED)):
                if line["id"] not in self.live:
                    self._index_finished(line)
            count = self.store.read("SELECT count(*) FROM tables WHERE finished = 1")[0][0]
            self.finished_stored = max(0, int(count) - sum(1 for t in self.live.values()
                                                           if t.record.finished))  # fmt: skip
        except StoreError as e:  # listed later, when the database answers again
            log.error("finished tables cannot be listed now: %s", e)

    async def get(self, table_id: str) -> LiveTable | None:
        """A table by id; an archived one (paused, or any finished one in the store) is rebuilt
        from the store on demand (in a thread, once however many ask for it at the same time)."""
        table = self.live.get(table_id)
        if table is not None or table_id in self.broken or not _plausible(table_id):
            return table
        loading = self._loading.get(table_id)
        if loading is None:
            loading = self._loading[table_id] = asyncio.ensure_future(self._unarchive(table_id))
        try:
            return await asyncio.shield(loading)
        finally:
            if loading.done():
                self._loading.pop(table_id, None)

    async def find(self, table_id: str) -> LiveTable | str | None:
        """The table; with several nodes, the address of the node that keeps it if that is not
        this one ('': none can say now — ask again in a moment). None: there is no such table."""
        if self.locator is None:
            return await self.get(table_id)
        return await self.locator(table_id)

    async def _unarchive(self, table_id: str) -> LiveTable | None:
        def load() -> LiveTable | None:
            if self.locator is not None and table_id not in self.archived:
                return None  # several nodes: a table is taken through `find` (claimed), never here
            record = self.store.table(table_id)
            if record is None or not (record.finished or table_id in self.archived):
                return None  # unfinished and not archived here: not this server's to rebuild
            return LiveTable.restore(record, self.store)

        try:
            table = await asyncio.to_thread(load)
        except StoreError:
            raise
        except Exception as e:  # a stored game that cannot be rebuilt: set aside, said once
            self.broken[table_id] = one_line(e)
            log.error("table %s cannot be rebuilt and is set aside: %s", table_id, one_line(e))
            return None
        if table is not None and table_id not in self.live:
            if table.record.finished:
                self.finished_stored = max(0, self.finished_stored - 1)
            table.touched = time.time()  # visited: not unloaded again at the next sweep
            self.live[table_id] = table
            self.make_room(keep=table_id)
            self._forget(table_id)
            table.kick()
            _show_ratings(table)
        return self.live.get(table_id)

    def add(self, table: LiveTable) -> None:
        """A new table, and room made for it: at most FINISHED_KEPT finished tables nobody
        watches stay in memory (the least recently touched go to the archive)."""
        self.live[table.id] = table
        self.made += 1
        self.make_room()

    def make_room(self, keep: str | None = None) -> None:
        """At most FINISHED_KEPT finished tables nobody watches in memory (but `keep`): the
        least recently touched go to the archive. Called when a table comes into memory (new,
        or rebuilt to be visited) and at every sweep (for the tables that finished since)."""
        done = [t for t in self.live.values() if t.record.finished and not t.clients]
        over = len(done) - FINISHED_KEPT
        if over > 0:
            done.sort(key=lambda t: t.touched)
            for old in [t for t in done if t.id != keep][:over]:
                del self.live[old.id]
                self._archive(old)

    def adopt(self, table: LiveTable) -> None:
        """A table this node has just taken over (several nodes): it plays on here."""
        self.live[table.id] = table
        table.kick()
        _show_ratings(table)

    def archive_idle(self, now: float | None = None) -> list[str]:
        """Unload the tables nobody watches that nobody has touched for a while: a finished one
        after `finished_after` seconds, an unfinished one after `archive_after` if it is untimed
        or still waiting for players. They stay in the store, listed (and in their players'
        tables), replayable, and come back when visited."""
        now = time.time() if now is None else now
        gone = []
        for table_id, table in list(self.live.items()):
            if not table.clients and self._due(table, now):
                del self.live[table_id]
                self._archive(table)
                gone.append(table_id)
        if gone:
            log.info("archived %d idle tables", len(gone))
        return gone

    def _due(self, table: LiveTable, now: float) -> bool:
        """Whether `table` has been left long enough to leave memory: finished and untouched for
        `finished_after`, or untimed (or not started) and untouched for `archive_after`."""
        idle = now - table.touched
        if table.record.finished:
            return idle > self.finished_after
        paused = table.record.seconds_per_decision is None or not table.record.started
        return paused and idle > self.archive_after

    def _archive(self, table: LiveTable) -> None:
        """`table` leaves memory (closed). A finished one's lobby line is written to the store
        (by the next sweep, in a thread) and indexed if it is among the newest; a paused one's
        summary and seats are kept for the lobby and its players."""
        table.close()
        table_id = table.id
        summary = {**table.summary(), "archived": True, "watchers": 0}
        if table.record.finished:
            self.unsaved[table_id] = history.stored(summary)
            self.finished_stored += 1
            self._index_finished(summary)
            return
        self.archived.add(table_id)
        self.archived_summaries[table_id] = summary
        seats = {seat["player"]: i for i, seat in enumerate(table.record.seats)
                 if seat.get("player") is not None}  # fmt: skip
        self.archived_seats[table_id] = seats
        for player, seat in seats.items():
            self.archived_by_player.setdefault(player, {})[table_id] = seat
        bisect.insort(self.paused_order, (summary["created"], table_id))

    def _index_finished(self, line: dict[str, Any]) -> None:
        """A finished table out of memory, in the lobby's index if among the newest."""
        entry = (line["created"], line["id"])
        if len(self.finished_order) >= FINISHED_LISTED and entry < self.finished_order[0]:
            return  # older than every one listed
        self.archived.add(line["id"])
        self.archived_summaries[line["id"]] = line
        bisect.insort(self.finished_order, entry)
        while len(self.finished_order) > FINISHED_LISTED:
            _, oldest = self.finished_order.pop(0)
            self.archived.discard(oldest)
            self.archived_summaries.pop(oldest, None)

    async def save_summaries(self) -> None:
        """Write the archived finished tables' lines (one at a time, in a thread). One that
        cannot be written now is worked out again when it is next listed."""
        while self.unsaved:
            table_id, summary = self.unsaved.popitem()
            try:
                await asyncio.to_thread(self.store.save_summary, table_id, summary)
            except StoreError as e:
                log.warning("the line of finished table %s is not stored: %s", table_id, e)

    def _forget(self, table_id: str) -> None:
        """An archived table is live again: out of the archive's lists and indexes."""
        self.archived.discard(table_id)
        summary = self.archived_summaries.pop(table_id, None)
        for player in self.archived_seats.pop(table_id, {}):
            held = self.archived_by_player.get(player, {})
            held.pop(table_id, None)
            if not held:
                self.archived_by_player.pop(player, None)
        if summary is not None:
            entry = (summary["created"], table_id)
            for order in (self.finished_order, self.paused_order):
                i = bisect.bisect_left(order, entry)
                if i < len(order) and order[i] == entry:
                    del order[i]

    def unfinished_from(self, address: str) -> int:
        """Unfinished tables created from `address` since the server started."""
        for table_id in [t for t in self.by_address if t not in self.live]:
            del self.by_address[table_id]  # archived: no longer counted
        return sum(1 for table_id, a in self.by_address.items()
                   if a == address and not self.live[table_id].record.finished)  # fmt: skip

    async def sweep(self, every: float = 60.0) -> None:
        while True:
            await asyncio.sleep(every)
            self.archive_idle()
            self.make_room()
            await self.save_summaries()

    def shared_lines(self) -> dict[str, dict[str, Any]]:
        """This node's lobby lines for the other nodes: each table's summary, and (for "my
        tables" only, never listed) who holds or has been kept which seat and whom it waits for;
        of the finished tables it archived, the newest `FINISHED_LISTED` (as every node lists)."""
        out = {}
        for table_id, table in self.live.items():
            s = table.session.state
            playing = table.record.started and not s.is_terminal() and s.current_player() >= 0
            holders = {}
            for i, seat in enumerate(table.record.seats):
                who = seating.holder(seat)
                if who is None and seating.kind(seat) == "reserved":
                    who = seat.get("player")
                if who is not None:
                    holders[who] = i
            out[table_id] = {**table.summary(), "holders": holders,
                             "waiting": table.waiting_for() if playing else []}  # fmt: skip
        for _, table_id in self.finished_order:  # archived: the newest only; players' own
            out[table_id] = {**self.archived_summaries[table_id], "waiting": [], "holders": {}}
            # are read from the database (`history.mine`)
        return out

    def remote(self) -> list[dict[str, Any]]:
        """Other nodes' lobby lines (none on a single server, or while Redis is away)."""
        return [] if self.elsewhere is None else self.elsewhere.others(set(self.live))

    def summaries(self) -> list[dict[str, Any]]:
        """The lobby's list: tables waiting for players, then those in play, then the last
        finished ones, newest first in each; tables set aside are listed as unavailable. With
        several nodes, every node's tables."""
        lines = [t.summary() for t in reversed(list(self.live.values()))]
        remote = self.remote()
        elsewhere = {x.get("id") for x in remote if not x.get("archived")}  # kept by another node
        for line in remote:  # one line a table: a copy archived on two nodes is listed from here
            if not (line.get("archived") and line.get("id") in self.archived):
                lines.append({k: v for k, v in line.items() if k not in PRIVATE})
        lines.sort(key=lambda x: -x["created"])
        order = {"waiting": 0, "playing": 1, "finished": 2}
        lines.sort(key=lambda x: order[x["status"]])  # stable: newest first in each
        finished = [x for x in lines if x["status"] == "finished"]
        newest = self.finished_order[-FINISHED_LISTED:]  # the archived ones: from their index
        finished += [self.archived_summaries[t] for _, t in reversed(newest) if t not in elsewhere]
        finished.sort(key=lambda x: -x["created"])
        out = [x for x in lines if x["status"] != "finished"] + finished[:FINISHED_LISTED]
        paused = reversed(self.paused_order[-FINISHED_LISTED:])  # newest first, from the index
        out += [{**self.archived_summaries[t], "status": "archived"} for _, t in paused
                if t not in elsewhere]  # fmt: skip
        out += [{"id": table_id, "available": False, "reason": reason}
                for table_id, reason in self.broken.items()]  # fmt: skip
        return out

    def start(self) -> None:
        for table in self.live.values():
            table.kick()
            _show_ratings(table)


def _show_ratings(table: LiveTable) -> None:
    """A rated table rebuilt here: read its players' ratings for the lobby, in the background."""
    if table.record.rated:
        spawn(rated.refresh(table))


def _plausible(table_id: str) -> bool:
    """Whether `table_id` could name a stored table (ids are short URL-safe tokens): anything
    else is answered without asking the database."""
    return 0 < len(table_id) <= 64 and all(
        c.isascii() and (c.isalnum() or c in "-_") for c in table_id)
