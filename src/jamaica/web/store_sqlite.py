"""The SQLite back-end: one server per database file (the default, `sqlite:///FILE`).

SQLite in WAL mode with full fsync: a committed decision survives `kill -9`. Everything that can go
wrong with the file — not a database, in use by another server, a full or failing disk, deleted
or replaced under a running server — is a one-line `StoreError`.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .store import SQLStore, StoreError, one_line

# Columns added to `tables` before schema versions existed: a file from then lacks some of them.
_ADDED_COLUMNS = (
    ("started", "INTEGER NOT NULL DEFAULT 1"),
    ("creator", "TEXT"),
    ("rematch", "TEXT"),
)
_COLUMNS = (  # a file with other tables of these names is not ours
    "SELECT id, config, seats, seed, seconds_per_decision, created, finished FROM tables LIMIT 0",
    "SELECT table_id, seq, action, by, at FROM actions LIMIT 0",
)


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


class _SQLiteTx:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def run(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.db.execute(sql, params).fetchall()

    def run_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.db.executemany(sql, rows)


class SQLiteStore(SQLStore):
    """Opening takes the database's lock (`FILE.lock`), checks the file is a jamaica database at a
    schema this code knows (an empty file gets the schema, an older one is upgraded: one server
    owns the file), and refuses anything else with a StoreError. Every write is one transaction,
    committed only if the file opened at start is still the one at its path."""

    _TABLE_EXISTS = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"

    def __init__(self, path: str | Path, *, upgrade: bool = True) -> None:
        self.path = str(path)
        self.url = f"sqlite:///{self.path}"
        self._lock = threading.Lock()
        self._memory = self.path == ":memory:" or self.path.startswith("file:")
        self._file_lock = None if self._memory else _FileLock(self.path)
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as e:
            self._release()
            raise StoreError(f"cannot open the database {self.path}: {one_line(e)}") from None
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._identity = None if self._memory else self._stat()
            self.check_schema(upgrade=upgrade)
        except (sqlite3.Error, OSError, StoreError) as e:
            self._db.close()
            self._release()
            why = one_line(e).removeprefix("cannot write to the database: ")
            why = why.removeprefix("cannot read the database: ")
            if "no such column" in why:
                why = f"it is not a jamaica database ({why})"
            raise StoreError(f"cannot open the database {self.path}: {why}") from None

    @staticmethod
    def from_url(url: str, *, upgrade: bool = True) -> SQLiteStore:
        prefix = "sqlite:///"
        if not url.startswith(prefix):
            raise StoreError(f"--db must look like sqlite:///FILE, not {url!r}")
        return SQLiteStore(url[len(prefix) :] or ":memory:", upgrade=upgrade)

    def _adopt(self) -> None:
        """A file from before schema versions: checked to be jamaica's, its missing columns
        added; then it is version 1 (migration 1 is that schema)."""
        with self._write() as db:
            for query in _COLUMNS:
                db.run(query)
            have = {row[1] for row in db.run("PRAGMA table_info(tables)")}
            for column, kind in _ADDED_COLUMNS:
                if column not in have:
                    db.run(f"ALTER TABLE tables ADD COLUMN {column} {kind}")
            db.run("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            db.run("INSERT INTO schema_version (version) VALUES (1)")

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

    @contextmanager
    def _write(self) -> Iterator[_SQLiteTx]:
        with self._lock:
            db = self._db
            try:
                db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as e:
                raise StoreError(f"cannot write to the database: {one_line(e)}") from None
            try:
                yield _SQLiteTx(db)
                self._check_file()
                db.execute("COMMIT")
            except BaseException as e:
                try:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # the transaction is gone already (SQLite rolled it back itself)
                if isinstance(e, sqlite3.Error):
                    raise StoreError(f"cannot write to the database: {one_line(e)}") from None
                raise

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.Error as e:
                raise StoreError(f"cannot read the database: {one_line(e)}") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()
            self._release()
