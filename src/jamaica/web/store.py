"""Where tables and their decisions are kept: one small interface, SQLite by default.

Every decision is an appended row, committed before the server acknowledges it; a table is
rebuilt after a restart by replaying its rows (the engine is deterministic).

Everything that can go wrong with the storage itself — a file that is not a database, a database
another server is using, a full or failing disk, the file deleted or replaced under a running
server — is a `StoreError` (a ValueError) with a one-line message, never a raw sqlite3 error, and
a write that fails is rolled back whole: a row is either committed or not there at all. A stored
row that makes no sense (bad JSON, wrong types) is a ValueError naming its table.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

BY_KINDS = ("player", "bot", "chance", "timeout")


class StoreError(ValueError):
    """The storage failed or cannot be used; the message is one line for the operator."""


@dataclass
class TableRecord:
    id: str
    config: dict[str, Any]
    seats: list[dict[str, Any]]  # name, bot (None for a human), token_hash
    seed: int
    seconds_per_decision: float | None
    created: float
    finished: bool = False
    started: bool = True  # False while open seats wait for players
    creator: str | None = None  # the player who made it (may start it early)
    rematch: str | None = None  # the rematch table, once someone asked for one


@dataclass
class PlayerRecord:
    id: str
    name: str
    key_hash: str
    created: float


@dataclass
class ChatRow:
    seq: int
    at: float
    seat: int | None  # None: a spectator
    name: str
    text: str


@dataclass
class ActionRow:
    seq: int
    action: int
    by: str  # "player", "bot", "chance" or "timeout"


class Store(Protocol):
    def create_table(self, table: TableRecord) -> None: ...
    def table_ids(self) -> list[str]: ...
    def tables(self) -> list[TableRecord]: ...
    def table(self, table_id: str) -> TableRecord | None: ...
    def actions(self, table_id: str) -> list[ActionRow]: ...
    def append(self, table_id: str, row: ActionRow) -> None: ...
    def append_many(
        self, table_id: str, rows: list[ActionRow], *, finish: bool = False
    ) -> None: ...
    def append_batch(self, batch: list[tuple[str, list[ActionRow], bool]]) -> None: ...
    def save_early(self, table_id: str, round_: int, seat: int, action: int) -> None: ...
    def early_choices(self, table_id: str, round_: int) -> dict[int, int]: ...
    def finish(self, table_id: str) -> None: ...
    def update_table(self, table: TableRecord) -> None: ...
    def create_player(self, player: PlayerRecord) -> None: ...
    def player_by_key(self, key_hash: str) -> PlayerRecord | None: ...
    def rename_player(self, player_id: str, name: str) -> None: ...
    def add_chat(self, table_id: str, row: ChatRow, keep: int | None = None) -> None: ...
    def chat(self, table_id: str, limit: int) -> list[ChatRow]: ...
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
CREATE TABLE IF NOT EXISTS early_choices (
    table_id TEXT NOT NULL REFERENCES tables(id),
    round INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action INTEGER NOT NULL,
    PRIMARY KEY (table_id, round, seat)
);
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
"""
# Columns added to `tables` since the first version: added to an older database when it opens.
_ADDED_COLUMNS = (
    ("started", "INTEGER NOT NULL DEFAULT 1"),
    ("creator", "TEXT"),
    ("rematch", "TEXT"),
)
_TABLE_COLUMNS = (
    "id, config, seats, seed, seconds_per_decision, created, finished, started, creator, rematch"
)
_COLUMNS = (
    "SELECT id, config, seats, seed, seconds_per_decision, created, finished FROM tables LIMIT 0",
    "SELECT table_id, seq, action, by, at FROM actions LIMIT 0",
)


def _one_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


class _FileLock:
    """An exclusive lock for as long as the store is open: one server per database file. It is
    taken on the database file itself (whatever path, symlink or hard link names it) and on
    `REAL_PATH.lock` beside it, which also holds the owner's pid for the error message (and is
    the lock older servers take). The kernel drops both when the process ends, even by
    `kill -9`. (flock, not fcntl: SQLite's own POSIX locks on the file are not disturbed.)"""

    def __init__(self, db_path: str) -> None:
        real = os.path.realpath(db_path)
        self.path = real + ".lock"
        self._fds: list[int] = []
        if sys.platform == "win32":  # no flock; one server per file is up to the operator
            return
        try:
            for path in (self.path, real):
                self._take(path, db_path)
        except BaseException:
            self.release()
            raise
        os.ftruncate(self._fds[0], 0)
        os.pwrite(self._fds[0], f"{os.getpid()}\n".encode(), 0)

    def _take(self, path: str, db_path: str) -> None:
        import fcntl

        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise StoreError(
                f"cannot open the database {db_path}: cannot open {path}: {e.strerror}"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            owner = "unknown"
            with contextlib.suppress(OSError), open(self.path, "rb") as f:
                owner = f.read(32).decode("ascii", "replace").strip() or owner
            raise StoreError(
                f"the database {db_path} is in use by another jamaica server (pid {owner})"
            ) from None
        self._fds.append(fd)

    def release(self) -> None:
        """Drop the locks (after the database is closed: closing a descriptor of the database
        file drops every POSIX lock this process holds on it)."""
        for fd in self._fds:
            os.close(fd)  # closing the descriptor drops the lock
        self._fds = []


class SQLiteStore:
    """SQLite in WAL mode with full fsync: a committed decision survives `kill -9`.

    Opening takes the database's lock (`FILE.lock`) and checks the file is a jamaica database;
    either failure is a StoreError. Every write is one transaction, committed only if the file
    opened at start is still the one at its path."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._memory = self.path == ":memory:" or self.path.startswith("file:")
        self._file_lock = None if self._memory else _FileLock(self.path)
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as e:
            self._release()
            raise StoreError(f"cannot open the database {self.path}: {_one_line(e)}") from None
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
            for query in _COLUMNS:  # a file with other tables of these names is not ours
                self._db.execute(query)
            have = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
            for column, kind in _ADDED_COLUMNS:
                if column not in have:
                    self._db.execute(f"ALTER TABLE tables ADD COLUMN {column} {kind}")
            self._identity = None if self._memory else self._stat()
        except (sqlite3.Error, OSError) as e:
            self._db.close()
            self._release()
            why = _one_line(e)
            if isinstance(e, sqlite3.OperationalError) and "no such column" in why:
                why = f"it is not a jamaica database ({why})"
            raise StoreError(f"cannot open the database {self.path}: {why}") from None

    @staticmethod
    def from_url(url: str) -> SQLiteStore:
        prefix = "sqlite:///"
        if not url.startswith(prefix):
            raise StoreError(f"--db must look like sqlite:///FILE, not {url!r}")
        return SQLiteStore(url[len(prefix) :] or ":memory:")

    def _release(self) -> None:
        if self._file_lock is not None:
            self._file_lock.release()
            self._file_lock = None

    def _stat(self) -> tuple[int, int]:
        st = os.stat(self.path)
        return st.st_dev, st.st_ino

    def _check_file(self) -> None:
        """The file opened at start must still be at its path: a commit into a deleted or
        replaced file would be acknowledged and then lost at the next start."""
        if self._identity is None:
            return
        try:
            identity = self._stat()
        except FileNotFoundError:
            raise StoreError(f"the database file {self.path} has been removed") from None
        except OSError as e:
            raise StoreError(f"cannot check the database file {self.path}: {e.strerror}") from None
        if identity != self._identity:
            raise StoreError(f"the database file {self.path} has been replaced by another file")

    # --- writes: one transaction each, rolled back whole on any failure --------------------------
    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            db = self._db
            try:
                db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as e:
                raise StoreError(f"cannot write to the database: {_one_line(e)}") from None
            try:
                yield db
                self._check_file()
                db.execute("COMMIT")
            except BaseException as e:
                try:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # the transaction is gone already (SQLite rolled it back itself)
                if isinstance(e, sqlite3.Error):
                    raise StoreError(f"cannot write to the database: {_one_line(e)}") from None
                raise

    def create_table(self, table: TableRecord) -> None:
        with self._write() as db:
            db.execute(
                f"INSERT INTO tables ({_TABLE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table.id, json.dumps(table.config), json.dumps(table.seats), table.seed,
                 table.seconds_per_decision, table.created, int(table.finished),
                 int(table.started), table.creator, table.rematch),
            )  # fmt: skip

    def update_table(self, table: TableRecord) -> None:
        """A table's seats (taken, replaced), whether it has started, and its rematch."""
        with self._write() as db:
            db.execute(
                "UPDATE tables SET seats = ?, started = ?, rematch = ? WHERE id = ?",
                (json.dumps(table.seats), int(table.started), table.rematch, table.id),
            )

    def create_player(self, player: PlayerRecord) -> None:
        with self._write() as db:
            db.execute(
                "INSERT INTO players VALUES (?, ?, ?, ?)",
                (player.id, player.name, player.key_hash, player.created),
            )

    def rename_player(self, player_id: str, name: str) -> None:
        with self._write() as db:
            db.execute("UPDATE players SET name = ? WHERE id = ?", (name, player_id))

    def player_by_key(self, key_hash: str) -> PlayerRecord | None:
        row = self._read(
            lambda db: db.execute(
                "SELECT id, name, key_hash, created FROM players WHERE key_hash = ?", (key_hash,)
            ).fetchone()
        )
        if row is None:
            return None
        return PlayerRecord(str(row[0]), str(row[1]), str(row[2]), float(row[3]))

    def add_chat(self, table_id: str, row: ChatRow, keep: int | None = None) -> None:
        """Store a chat line; with `keep`, only the newest `keep` lines of its kind (players'
        lines, spectators' lines) stay: a table's chat is bounded and never full."""
        with self._write() as db:
            db.execute(
                "INSERT INTO chat VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, row.seq, row.at, row.seat, row.name, row.text),
            )
            if keep is not None:
                kind = "seat IS NULL" if row.seat is None else "seat IS NOT NULL"
                db.execute(
                    f"DELETE FROM chat WHERE table_id = ? AND {kind} AND seq <= ("
                    f"SELECT seq FROM chat WHERE table_id = ? AND {kind} "
                    "ORDER BY seq DESC LIMIT 1 OFFSET ?)",
                    (table_id, table_id, keep),
                )

    def chat(self, table_id: str, limit: int) -> list[ChatRow]:
        """The table's last `limit` chat messages, oldest first."""
        rows = self._read(
            lambda db: db.execute(
                "SELECT seq, at, seat, name, text FROM chat WHERE table_id = ? "
                "ORDER BY seq DESC LIMIT ?",
                (table_id, limit),
            ).fetchall()
        )
        return [ChatRow(int(q), float(a), None if st is None else int(st), str(n), str(t))
                for q, a, st, n, t in reversed(rows)]  # fmt: skip

    def append(self, table_id: str, row: ActionRow) -> None:
        self.append_many(table_id, [row])

    def append_many(self, table_id: str, rows: list[ActionRow], *, finish: bool = False) -> None:
        """Several decisions in one transaction (one sync to disk); with `finish`, the table is
        marked finished in the same transaction."""
        now = time.time()
        with self._write() as db:
            db.executemany(
                "INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                [(table_id, r.seq, r.action, r.by, now) for r in rows],
            )
            if finish:
                db.execute("UPDATE tables SET finished = 1 WHERE id = ?", (table_id,))

    def save_early(self, table_id: str, round_: int, seat: int, action: int) -> None:
        """A card chosen before the engine asks for it (simultaneous choice), kept until then."""
        with self._write() as db:
            db.execute(
                "INSERT OR REPLACE INTO early_choices VALUES (?, ?, ?, ?)",
                (table_id, round_, seat, action),
            )

    def early_choices(self, table_id: str, round_: int) -> dict[int, int]:
        """The cards chosen early in that round: seat -> action id."""
        rows = self._read(
            lambda db: db.execute(
                "SELECT seat, action FROM early_choices WHERE table_id = ? AND round = ?",
                (table_id, round_),
            ).fetchall()
        )
        return {int(seat): int(action) for seat, action in rows}

    def append_batch(self, batch: list[tuple[str, list[ActionRow], bool]]) -> None:
        """Several tables' decisions (table id, rows, finished) in one transaction: one sync to
        disk for all of them (group commit). All or nothing."""
        now = time.time()
        with self._write() as db:
            for table_id, rows, finish in batch:
                db.executemany(
                    "INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                    [(table_id, r.seq, r.action, r.by, now) for r in rows],
                )
                if finish:
                    db.execute("UPDATE tables SET finished = 1 WHERE id = ?", (table_id,))

    def finish(self, table_id: str) -> None:
        with self._write() as db:
            db.execute("UPDATE tables SET finished = 1 WHERE id = ?", (table_id,))

    # --- reads ------------------------------------------------------------------------------------
    def _read(self, query: Callable[[sqlite3.Connection], T]) -> T:
        with self._lock:
            try:
                return query(self._db)
            except sqlite3.Error as e:
                raise StoreError(f"cannot read the database: {_one_line(e)}") from None

    def table_ids(self) -> list[str]:
        """Every table's id, oldest first; read each with `table` (one bad row spoils only its
        own table)."""
        rows = self._read(
            lambda db: db.execute("SELECT id FROM tables ORDER BY created").fetchall()
        )
        return [str(r[0]) for r in rows]

    def tables(self) -> list[TableRecord]:
        rows = self._read(
            lambda db: db.execute(
                f"SELECT {_TABLE_COLUMNS} FROM tables ORDER BY created"
            ).fetchall()
        )
        return [_record(r) for r in rows]

    def table(self, table_id: str) -> TableRecord | None:
        """The table, None if there is none; a ValueError naming the table if its row is bad."""
        row = self._read(
            lambda db: db.execute(
                f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
        )
        return None if row is None else _record(row)

    def actions(self, table_id: str) -> list[ActionRow]:
        """The table's decisions in order; a ValueError naming the table for a bad row."""
        rows = self._read(
            lambda db: db.execute(
                "SELECT seq, action, by FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
            ).fetchall()
        )
        out = []
        for seq, action, by in rows:
            if type(seq) is not int or type(action) is not int or by not in BY_KINDS:
                raise ValueError(
                    f"table {table_id}: bad stored decision (seq {seq!r}, action {action!r},"
                    f" by {by!r})"
                )
            out.append(ActionRow(seq, action, by))
        return out

    def close(self) -> None:
        with self._lock:
            self._db.close()
            self._release()


def _record(row: tuple[Any, ...]) -> TableRecord:
    """A table's row as a record; a ValueError naming the table if the row makes no sense."""
    table_id, config_text, seats_text, seed, limit, created, finished, started = row[:8]
    creator, rematch = row[8:10]

    def bad(what: str) -> ValueError:
        return ValueError(f"table {table_id}: bad stored {what}")

    try:
        config = json.loads(config_text)
        seats = json.loads(seats_text)
    except (TypeError, ValueError, RecursionError) as e:
        raise bad(f"settings ({_one_line(e)})") from None
    if not isinstance(config, dict):
        raise bad("settings (not an object)")
    if not isinstance(seats, list) or not all(
        isinstance(s, dict)
        and isinstance(s.get("name"), str)
        and isinstance(s.get("bot"), str | None)
        and isinstance(s.get("token_hash"), str | None)
        and isinstance(s.get("player"), str | None)
        for s in seats
    ):
        raise bad("seats")
    if type(seed) is not int:
        raise bad(f"seed {seed!r}")
    if limit is not None and (
        not isinstance(limit, int | float) or not math.isfinite(limit) or limit <= 0
    ):
        raise bad(f"time limit {limit!r}")
    if not isinstance(created, int | float) or type(finished) is not int:
        raise bad("creation time or state")
    if type(started) is not int or not isinstance(creator, str | None):
        raise bad("start or creator")
    if not isinstance(rematch, str | None):
        raise bad("rematch")
    return TableRecord(str(table_id), config, seats, seed, limit, float(created), bool(finished),
                       bool(started), creator, rematch)  # fmt: skip


def open_store(url: str) -> Store:
    """The store for `--db URL` (`sqlite:///FILE`); a StoreError with a one-line message if it
    cannot be used (bad URL, not a database, in use by another server, unreadable)."""
    return SQLiteStore.from_url(url)
