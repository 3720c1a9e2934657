"""Where tables and their decisions are kept: one small interface, SQLite by default.

Every decision is an appended row, committed before the server acknowledges it; a table is
rebuilt after a restart by replaying its rows (the engine is deterministic).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol


@dataclass
class TableRecord:
    id: str
    config: dict[str, Any]
    seats: list[dict[str, Any]]  # name, bot (None for a human), token_hash
    seed: int
    seconds_per_decision: float | None
    created: float
    finished: bool = False


@dataclass
class ActionRow:
    seq: int
    action: int
    by: str  # "player", "bot", "chance" or "timeout"


class Store(Protocol):
    def create_table(self, table: TableRecord) -> None: ...
    def tables(self) -> list[TableRecord]: ...
    def table(self, table_id: str) -> TableRecord | None: ...
    def actions(self, table_id: str) -> list[ActionRow]: ...
    def append(self, table_id: str, row: ActionRow) -> None: ...
    def append_many(self, table_id: str, rows: list[ActionRow]) -> None: ...
    def finish(self, table_id: str) -> None: ...
    def close(self) -> None: ...


SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    seats TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seconds_per_decision REAL,
    created REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    action INTEGER NOT NULL,
    by TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
);
"""


class SQLiteStore:
    """SQLite in WAL mode with full fsync: a committed decision survives `kill -9`."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    @staticmethod
    def from_url(url: str) -> SQLiteStore:
        prefix = "sqlite:///"
        if not url.startswith(prefix):
            raise ValueError(f"--db must look like sqlite:///FILE, not {url!r}")
        return SQLiteStore(url[len(prefix) :] or ":memory:")

    def create_table(self, table: TableRecord) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?)",
                (table.id, json.dumps(table.config), json.dumps(table.seats), table.seed,
                 table.seconds_per_decision, table.created, int(table.finished)),
            )  # fmt: skip

    def _record(self, row: tuple[Any, ...]) -> TableRecord:
        return TableRecord(row[0], json.loads(row[1]), json.loads(row[2]), row[3], row[4], row[5],
                           bool(row[6]))  # fmt: skip

    def tables(self) -> list[TableRecord]:
        with self._lock:
            rows = self._db.execute("SELECT * FROM tables ORDER BY created").fetchall()
        return [self._record(r) for r in rows]

    def table(self, table_id: str) -> TableRecord | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else self._record(row)

    def actions(self, table_id: str) -> list[ActionRow]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, action, by FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
            ).fetchall()
        return [ActionRow(*r) for r in rows]

    def append(self, table_id: str, row: ActionRow) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                (table_id, row.seq, row.action, row.by, time.time()),
            )

    def append_many(self, table_id: str, rows: list[ActionRow]) -> None:
        """Several decisions in one transaction (one sync to disk)."""
        now = time.time()
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(
                    "INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                    [(table_id, r.seq, r.action, r.by, now) for r in rows],
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def finish(self, table_id: str) -> None:
        with self._lock:
            self._db.execute("UPDATE tables SET finished = 1 WHERE id = ?", (table_id,))

    def close(self) -> None:
        with self._lock:
            self._db.close()
