"""The PostgreSQL back-end (`postgresql://…`, psycopg 3 and its pool): the truth shared by every
node of a service.

The queries are the SQLite back-end's (`SQLStore`), their `?` marks turned into `%s`. Every failure
is a one-line `StoreError`: a refused connection, a restart under a running node (the pool drops
broken connections and the next call reconnects), a constraint. A write is one transaction,
committed whole or not at all. Times that decide between nodes (leases) come from this
database's clock, never a node's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from .sqltx import Tx
from .store import NotOwner, SQLStore, StoreError, StoreUnavailable, one_line, safe_url

CONNECT_SECONDS = 3.0  # to connect, or to wait for a free connection of the pool
# The pool reconnects with a doubling delay (1, 2, 4… s); after this long it gives that attempt
# up and starts again at 1 s when a connection is asked for: a node finds a database that came
# back within about 2 s, not 16.
RECONNECT_SECONDS = 3.0
NOW = "extract(epoch FROM clock_timestamp())"  # the database's clock: the same for every node
STATEMENT_MS = 10_000  # no query of ours runs longer; one that does is cut off (a StoreError)


def _pg(sql: str) -> str:
    return sql.replace("%", "%%").replace("?", "%s")


class _PgTx:
    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def run(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        cur = self.conn.execute(_pg(sql), tuple(params))
        return list(cur.fetchall()) if cur.description is not None else []

    def run_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self.conn.cursor() as cur:
            cur.executemany(_pg(sql), [tuple(r) for r in rows])


class PostgresStore(SQLStore):
    """Opening checks that the server answers and that the database is at a schema this code
    knows; an empty database gets the schema, an older one is refused unless `upgrade` (several
    nodes share it: `jamaica db upgrade` migrates it once, on purpose)."""

    _TABLE_EXISTS = (
        "SELECT 1 FROM information_schema.tables WHERE table_name = ? "
        "AND table_schema = current_schema()"
    )
    _FOR_UPDATE = " FOR UPDATE"

    def __init__(self, url: str, *, upgrade: bool = False, max_size: int = 8) -> None:
        self.url = url
        self._pool = ConnectionPool(
            url, min_size=1, max_size=max_size, timeout=CONNECT_SECONDS, open=False,
            reconnect_timeout=RECONNECT_SECONDS,
            check=ConnectionPool.check_connection, name="jamaica",
            kwargs={"connect_timeout": int(CONNECT_SECONDS),
                    "options": f"-c statement_timeout={STATEMENT_MS}"},
        )  # fmt: skip
        try:  # one plain connection first: its error says why (the pool's only that it timed out)
            psycopg.connect(url, connect_timeout=int(CONNECT_SECONDS)).close()
            self._pool.open(wait=True, timeout=CONNECT_SECONDS)
        except Exception as e:
            self._pool.close()
            raise StoreError(f"cannot open the database {safe_url(url)}: {one_line(e)}") from None
        try:
            self.check_schema(upgrade=upgrade)
        except StoreError as e:
            self._pool.close()
            raise StoreError(f"cannot open the database {safe_url(url)}: {e}") from None

    @contextmanager
    def _connection(self, what: str) -> Iterator[Any]:
        try:
            with self._pool.connection() as conn:
                yield conn
        except PoolTimeout:
            raise StoreUnavailable(f"cannot {what} the database: no connection within "
                                   f"{CONNECT_SECONDS:g} s") from None  # fmt: skip
        except psycopg.errors.TransactionRollback as e:  # a deadlock, a serialization
            raise StoreError(f"cannot {what} the database: {one_line(e)}") from None  # failure
        except psycopg.OperationalError as e:  # the server is gone, restarting, unreachable
            raise StoreUnavailable(f"cannot {what} the database: {one_line(e)}") from None
        except psycopg.Error as e:
            raise StoreError(f"cannot {what} the database: {one_line(e)}") from None

    @contextmanager
    def _write(self) -> Iterator[_PgTx]:
        with self._connection("write to") as conn, conn.transaction():
            yield _PgTx(conn)

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._connection("read") as conn:
            return _PgTx(conn).run(sql, params)

    def _lock_schema(self, db: Any) -> None:
        db.run("SELECT pg_advisory_xact_lock(7366)")  # one migrating process at a time

    def now(self) -> float:
        """The database's clock (seconds since the epoch): the one clock all nodes share."""
        return float(self._read("SELECT extract(epoch FROM clock_timestamp())")[0][0])

    def close(self) -> None:
        self._pool.close()

    # --- which node keeps which live table (several nodes) ----------------------------------------
    # Each live table has one owner row: its node, an epoch that grows at every change of owner,
    # and a lease (database time) the owner renews. A node writes a table's decisions only in a
    # transaction that finds its own node and epoch still in that row (locked: a takeover waits
    # for the write, or the write sees the takeover) — two nodes never both store decisions.
    node: str | None = None  # None: one server alone (nothing is fenced)
    lease: float = 10.0

    def join_cluster(self, node: str, address: str, lease: float) -> None:
        """Be node `node`, reachable by clients at `address`; claims last `lease` seconds."""
        self.node, self.lease, self.epochs = node, lease, {}
        self.heartbeat(address)

    epochs: dict[str, int]

    def heartbeat(self, address: str, draining: bool = False) -> None:
        with self._write() as db:
            db.run(f"INSERT INTO nodes (name, address, seen, draining) VALUES (?, ?, {NOW}, ?) "
                   "ON CONFLICT (name) DO UPDATE SET address = excluded.address, "
                   "seen = excluded.seen, draining = excluded.draining",
                   (self.node, address, int(draining)))  # fmt: skip

    def _claim(self, db: Tx, table_id: str) -> int | None:
        rows = db.run(
            "INSERT INTO owners (table_id, node, epoch, lease_until) "
            f"VALUES (?, ?, 1, {NOW} + ?) ON CONFLICT (table_id) DO UPDATE SET "
            "node = excluded.node, epoch = owners.epoch + 1, lease_until = excluded.lease_until "
            f"WHERE owners.lease_until < {NOW} OR owners.node = excluded.node RETURNING epoch",
            (table_id, self.node, self.lease),
        )
        if not rows:
            return None
        self.epochs[table_id] = int(rows[0][0])
        return self.epochs[table_id]

    def _created(self, db: Tx, table_id: str) -> None:
        if self.node is not None:
            self._claim(db, table_id)

    def claim(self, table_id: str) -> int | None:
        """Make the table this node's, unless another node holds a live lease on it: the new
        epoch, or None."""
        with self._write() as db:
            return self._claim(db, table_id)

    def owner(self, table_id: str) -> tuple[str, str] | None:
        """The node holding a live lease on the table, and its address; None if none does."""
        rows = self._read(
            "SELECT o.node, n.address FROM owners o JOIN nodes n ON n.name = o.node "
            f"WHERE o.table_id = ? AND o.lease_until >= {NOW}",
            (table_id,),
        )
        return (str(rows[0][0]), str(rows[0][1])) if rows else None

    def renew(self) -> set[str]:
        """Extend the leases of this node's tables; the ids of the tables it still owns (with
        the epoch it knows): any other table it thought its own has been taken over. Only those
        leases: a row that names this node with an epoch it does not know was claimed by an
        earlier process of the same name (killed, restarted at once), which holds nothing now —
        renewing it would keep the table from every node; its lease runs out and it is taken."""
        known = dict(self.epochs)
        if not known:
            return set()
        with self._write() as db:
            rows = db.run(  # locked in the tables' order, as a group commit locks them
                f"UPDATE owners SET lease_until = {NOW} + ? FROM (SELECT table_id FROM owners "
                "WHERE node = ? AND (table_id, epoch) IN (SELECT * FROM unnest(?::text[], "
                "?::bigint[])) ORDER BY table_id FOR UPDATE) AS mine "
                "WHERE owners.table_id = mine.table_id RETURNING owners.table_id, owners.epoch",
                (self.lease, self.node, list(known), list(known.values())),
            )
        return {str(t) for t, e in rows if known.get(str(t)) == int(e)}

    def orphans(self, limit: int) -> list[str]:
        """Unfinished tables whose owner's lease ran out (a node died or handed them over), or
        that no node has held yet, oldest first; not those set aside as idle (owner '')."""
        rows = self._read(
            "SELECT t.id FROM tables t LEFT JOIN owners o ON o.table_id = t.id "
            f"WHERE t.finished = 0 AND (o.table_id IS NULL OR (o.lease_until < {NOW} "
            "AND o.node <> '')) ORDER BY t.created LIMIT ?",
            (limit,),
        )
        return [str(r[0]) for r in rows]

    def release(self, table_ids: list[str], idle: bool = False) -> None:
        """Hand tables over now (draining): their leases end, and another node takes them; with
        `idle`, no node takes them until someone visits (an archived table)."""
        with self._write() as db:
            for table_id in sorted(table_ids):
                db.run("UPDATE owners SET lease_until = 0" + (", node = ''" if idle else "") +
                       " WHERE table_id = ? AND node = ?", (table_id, self.node))  # fmt: skip
                self.epochs.pop(table_id, None)

    def _check_owner(self, db: Tx, table_id: str) -> None:
        if self.node is None:
            return
        epoch = self.epochs.get(table_id)
        if epoch is None or not db.run(
            "SELECT 1 FROM owners WHERE table_id = ? AND node = ? AND epoch = ? FOR UPDATE",
            (table_id, self.node, epoch),
        ):
            raise NotOwner(f"table {table_id} is kept by another node now")

