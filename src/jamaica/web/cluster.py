"""This node among several (`jamaica serve --node NAME --db postgresql://…`): which live tables
it keeps, taking over those of a node that died, handing its own over when it stops, and sending
clients that reached the wrong node to the right one.

Every `lease / 3` seconds the node renews the leases of its tables (one UPDATE); a table whose
lease it no longer holds (another node took it over while this one was paused) is dropped here
and its clients are told to go where it is now. Every second it takes over orphans — tables whose
owner's lease ran out — at most `TAKE_PER_ROUND` at a time, rebuilt from their stored decisions
with their clocks. All database work runs in threads, never on the event loop.
"""

from __future__ import annotations

import asyncio
import logging

from .health import count_takeover, monitor_of
from .outbox import Outbox, spawn
from .registry import Tables
from .store import StoreError
from .store_pg import PostgresStore
from .tables import LiveTable

log = logging.getLogger("jamaica.web")
TAKE_PER_ROUND = 20  # orphans a node takes over per second (a dead node's tables spread out)
CLOSE_MOVED = 4307  # the WebSocket close code after a `moved` message: reconnect there


class Cluster:
    def __init__(self, store: PostgresStore, node: str, address: str, lease: float) -> None:
        self.store, self.node, self.address, self.lease = store, node, address, lease
        self.draining = False
        self.takeovers = 0
        store.join_cluster(node, address, lease)

    async def locate(self, tables: Tables, table_id: str) -> LiveTable | str | None:
        """The table if this node keeps it (taking it if no node does), else the address of the
        node that keeps it ('': none can say now, e.g. this node is handing its tables over)."""
        table = tables.live.get(table_id)
        if table is not None:
            return table
        if self.draining:
            return ""
        owner = await asyncio.to_thread(self.store.owner, table_id)
        if owner is not None and owner[0] != self.node:
            return owner[1]
        return await self._take(tables, table_id)

    async def _take(self, tables: Tables, table_id: str) -> LiveTable | str | None:
        def load() -> LiveTable | str | None:
            record = self.store.table(table_id)
            if record is None:
                return None
            if self.store.claim(table_id) is None:
                owner = self.store.owner(table_id)
                return owner[1] if owner else ""
            return LiveTable.restore(record, self.store)

        found = await asyncio.to_thread(load)
        if not isinstance(found, LiveTable):
            return found
        if table_id in tables.live:  # taken meanwhile by another request of this node
            found.close()
            return tables.live[table_id]
        tables.adopt(found)
        self.takeovers += 1
        count_takeover("gained", self.store)
        log.warning("node %s keeps table %s now", self.node, table_id)
        return found

    async def run(self, tables: Tables) -> None:
        """Renew, drop what was lost, take orphans: until cancelled."""
        beat = 0.0
        while True:
            try:
                if beat <= 0:
                    beat = self.lease / 3
                    await self.renew(tables)
                if not self.draining:
                    for table_id in await asyncio.to_thread(self.store.orphans, TAKE_PER_ROUND):
                        await self._take(tables, table_id)
            except StoreError as e:
                log.warning("node %s: the database is out of reach: %s", self.node, e)
            await asyncio.sleep(1.0)
            beat -= 1.0

    async def renew(self, tables: Tables) -> None:
        """Say this node is alive, extend its leases, and drop the tables it lost. Only tables it
        held before asking are judged: one being made or rebuilt meanwhile (claimed, not yet
        listed) is neither lost nor idle."""
        await asyncio.to_thread(self.store.heartbeat, self.address, self.draining)
        asked = set(self.store.epochs)
        kept = await asyncio.to_thread(self.store.renew)
        for table_id in [t for t in tables.live if t in asked and t not in kept]:
            await self.lose(tables, table_id)
        idle = [t for t in kept if t in tables.archived]
        if idle:  # archived here: any node loads them when someone visits
            await asyncio.to_thread(self.store.release, idle, True)

    async def lose(self, tables: Tables, table_id: str) -> None:
        """Another node keeps the table now: stop playing it here and send its clients there."""
        table = tables.live.pop(table_id, None)
        if table is None:
            return
        table.close()
        count_takeover("lost", self.store)
        owner = await asyncio.to_thread(self.store.owner, table_id)
        log.warning("node %s lost table %s to node %s", self.node, table_id,
                    owner[0] if owner else "(none yet)")  # fmt: skip
        self.send_away(table, owner[1] if owner else "")

    @staticmethod
    def send_away(table: LiveTable, to: str) -> None:
        """Tell the table's clients to reconnect at `to` ('': through the front door)."""
        for client in list(table.clients):
            client.outbox.put({"op": "moved", "v": 1, "to": to})
            spawn(_close_after(client.outbox, CLOSE_MOVED))

    async def drain(self, tables: Tables) -> None:
        """SIGTERM: hand every table over (their leases end now, other nodes take them within a
        second) and tell the clients to reconnect through the front door."""
        self.draining = True
        monitor_of(self.store).hold("draining", "this node is handing its tables over")
        ids = list(tables.live)
        try:
            await asyncio.to_thread(self.store.heartbeat, self.address, True)
            await asyncio.to_thread(self.store.release, ids)
        except StoreError as e:
            log.warning("node %s: could not hand its tables over (%s): their leases will run "
                        "out", self.node, e)  # fmt: skip
        for table_id in ids:
            table = tables.live.pop(table_id)
            table.close()
            self.send_away(table, "")
        log.info("node %s handed over %d tables", self.node, len(ids))


async def _close_after(outbox: Outbox, code: int) -> None:
    await outbox.drain()
    outbox.close(code)
