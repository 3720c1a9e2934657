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

import json
import math
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from . import results
from .schema import LATEST, VERSION_TABLE, migrations
from .sqltx import Tx

if TYPE_CHECKING:
    from .results import Outcome

BY_KINDS = ("player", "bot", "chance", "timeout")


class Keep:
    """`deadline=KEEP`: leave the stored deadline as it is."""


KEEP = Keep()


class StoreError(ValueError):
    """The storage failed or cannot be used; the message is one line for the operator."""


class StoreUnavailable(StoreError):
    """The database cannot be reached now: every write fails alike until it is back (so there is
    no point retrying a batch's tables one by one)."""


class NotOwner(StoreError):
    """Another node has taken the table over: this node may no longer write its decisions."""


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
    deadline: float | None = None  # when the pending question's time runs out (epoch seconds)
    rated: bool = False  # its result moves its players' ratings (issue 25)
    rating_low: int | None = None  # only players whose shown rating is in this range may sit
    rating_high: int | None = None


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


@dataclass
class AnalysisRow:
    """One seat's post-game analysis kept with its table (`web/analysis_store.py`)."""

    version: str  # what the search depends on: version, budget, seed, the code's fingerprint
    words: str  # what its words depend on: the languages, the catalogs' fingerprint
    game: str  # a digest of what was judged
    at: float  # when the search was made (epoch seconds)
    body: bytes  # the analysis and its words, compressed


class Store(Protocol):
    def create_table(self, table: TableRecord) -> None: ...
    def table_ids(self) -> list[str]: ...
    def unfinished_ids(self) -> list[str]: ...
    def tables(self) -> list[TableRecord]: ...
    def table(self, table_id: str) -> TableRecord | None: ...
    def actions(self, table_id: str) -> list[ActionRow]: ...
    def append(self, table_id: str, row: ActionRow) -> None: ...
    def append_many(
        self, table_id: str, rows: list[ActionRow], *, finish: bool = False,
        deadline: float | Keep | None = KEEP, outcome: Outcome | None = None,
    ) -> None: ...  # fmt: skip
    def append_batch(
        self, batch: list[tuple[str, list[ActionRow], bool]],
        deadlines: dict[str, float | None] | None = None,
        outcomes: dict[str, Outcome] | None = None,
    ) -> None: ...  # fmt: skip
    def save_early(self, table_id: str, round_: int, seat: int, action: int) -> None: ...
    def early_choices(self, table_id: str, round_: int) -> dict[int, int]: ...
    def finish(self, table_id: str) -> None: ...
    def update_table(self, table: TableRecord) -> None: ...
    def create_player(self, player: PlayerRecord) -> None: ...
    def player_by_key(self, key_hash: str) -> PlayerRecord | None: ...
    def rename_player(self, player_id: str, name: str) -> None: ...
    def add_chat(self, table_id: str, row: ChatRow, keep: int | None = None) -> None: ...
    def chat(self, table_id: str, limit: int) -> list[ChatRow]: ...
    def save_analysis(self, table_id: str, seat: int, row: AnalysisRow) -> None: ...
    def analysis(self, table_id: str, seat: int) -> AnalysisRow | None: ...
    def save_summary(self, table_id: str, summary: str) -> None: ...
    def write(self) -> AbstractContextManager[Tx]: ...
    def read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...
    def close(self) -> None: ...


# What the two back-ends share: every query below is plain SQL both understand, with `?` marks
# (PostgreSQL's store turns them into `%s`).
_TABLE_COLUMNS = (
    "id, config, seats, seed, seconds_per_decision, created, finished, started, creator, rematch,"
    " deadline, rated, rating_low, rating_high"
)
_INSERT_ACTION = "INSERT INTO actions (table_id, seq, action, by, at) VALUES (?, ?, ?, ?, ?)"
_FINISH = "UPDATE tables SET finished = 1 WHERE id = ?"


def one_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def safe_url(url: str) -> str:
    """A database URL without its password, for messages and logs."""
    head, at, tail = url.rpartition("@")
    scheme, _, user = head.partition("//")
    if not at or ":" not in user:
        return url
    return f"{scheme}//{user.split(':', 1)[0]}:***@{tail}"


class SQLStore:
    """The store's operations in SQL; a back-end supplies `_write` (one transaction, committed
    whole or rolled back whole, every failure a StoreError) and `_read` (one query)."""

    def _write(self) -> AbstractContextManager[Tx]:
        raise NotImplementedError

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def _now(self) -> float:
        return time.time()

    def close(self) -> None:
        raise NotImplementedError

    _TABLE_EXISTS = ""  # a back-end's query: one row if the table named `?` exists
    _FOR_UPDATE = ""  # a back-end's clause locking the rows a query reads (SQLite: one writer)

    def _has_table(self, name: str) -> bool:
        return bool(self._read(self._TABLE_EXISTS, (name,)))

    def _lock_schema(self, db: Tx) -> None:
        """Keep two processes from migrating at once (where the back-end allows several)."""

    # --- the schema's version ---------------------------------------------------------------------
    def schema_version(self) -> int | None:
        """The database's schema version; None for a database without one."""
        if not self._has_table("schema_version"):
            return None
        rows = self._read("SELECT version FROM schema_version")
        if len(rows) != 1 or type(rows[0][0]) is not int:
            raise StoreError("the database's schema_version table is damaged")
        return int(rows[0][0])

    def upgrade(self) -> list[int]:
        """Apply every migration the database lacks, each in its own transaction; the versions
        applied (none if it is up to date)."""
        applied: list[int] = []
        while True:
            with self._write() as db:
                self._lock_schema(db)
                if not db.run(self._TABLE_EXISTS, ("schema_version",)):
                    db.run(VERSION_TABLE)
                    db.run("INSERT INTO schema_version (version) VALUES (0)")
                version = int(db.run("SELECT version FROM schema_version")[0][0])
                if version >= LATEST:
                    return applied
                step = migrations()[version]
                for statement in step.statements:
                    db.run(statement)
                db.run("UPDATE schema_version SET version = ?", (step.version,))
            applied.append(step.version)

    def check_schema(self, *, upgrade: bool) -> None:
        """Refuse a database at a schema this code does not know (newer, or not jamaica's); an
        empty database gets the schema; an older one is upgraded only if `upgrade`."""
        version = self.schema_version()
        if version is None:
            if self._has_table("tables"):
                self._adopt()
            self.upgrade()
            return
        if version > LATEST:
            raise StoreError(
                f"the database's schema is version {version}, newer than this jamaica knows "
                f"({LATEST}): run a newer jamaica"
            )
        if version < LATEST:
            if not upgrade:
                raise StoreError(
                    f"the database's schema is version {version}, this jamaica needs {LATEST}: "
                    "run `jamaica db upgrade --db URL` first"
                )
            self.upgrade()

    def _adopt(self) -> None:
        """A database from before schema versions: refused unless a back-end can adopt it."""
        raise StoreError("it has tables but no schema version: it is not a jamaica database")

    # --- writes -----------------------------------------------------------------------------------
    def create_table(self, table: TableRecord) -> None:
        with self._write() as db:
            db.run(
                f"INSERT INTO tables ({_TABLE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                "?, ?, ?)",
                (table.id, json.dumps(table.config), json.dumps(table.seats), table.seed,
                 table.seconds_per_decision, table.created, int(table.finished),
                 int(table.started), table.creator, table.rematch, table.deadline,
                 int(table.rated), table.rating_low, table.rating_high),
            )  # fmt: skip
            self._created(db, table.id)

    def _created(self, db: Tx, table_id: str) -> None:
        """A back-end shared by several nodes makes the new table this node's (same
        transaction: no other node can take it before it is owned)."""

    def update_table(self, table: TableRecord) -> None:
        """A table's seats (taken, replaced), whether it has started, and its rematch."""
        with self._write() as db:
            db.run(
                "UPDATE tables SET seats = ?, started = ?, rematch = ? WHERE id = ?",
                (json.dumps(table.seats), int(table.started), table.rematch, table.id),
            )

    def create_player(self, player: PlayerRecord) -> None:
        with self._write() as db:
            db.run(
                "INSERT INTO players (id, name, key_hash, created) VALUES (?, ?, ?, ?)",
                (player.id, player.name, player.key_hash, player.created),
            )

    def rename_player(self, player_id: str, name: str) -> None:
        with self._write() as db:
            db.run("UPDATE players SET name = ? WHERE id = ?", (name, player_id))

    def add_chat(self, table_id: str, row: ChatRow, keep: int | None = None) -> None:
        """Store a chat line; with `keep`, only the newest `keep` lines of its kind (players'
        lines, spectators' lines) stay: a table's chat is bounded and never full."""
        with self._write() as db:
            db.run(
                "INSERT INTO chat (table_id, seq, at, seat, name, text) VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, row.seq, row.at, row.seat, row.name, row.text),
            )
            if keep is not None:
                kind = "seat IS NULL" if row.seat is None else "seat IS NOT NULL"
                db.run(
                    f"DELETE FROM chat WHERE table_id = ? AND {kind} AND seq <= ("
                    f"SELECT seq FROM chat WHERE table_id = ? AND {kind} "
                    "ORDER BY seq DESC LIMIT 1 OFFSET ?)",
                    (table_id, table_id, keep),
                )

    def append(self, table_id: str, row: ActionRow) -> None:
        self.append_many(table_id, [row])

    def append_many(
        self, table_id: str, rows: list[ActionRow], *, finish: bool = False,
        deadline: float | Keep | None = KEEP, outcome: Outcome | None = None,
    ) -> None:  # fmt: skip
        """Several decisions in one transaction (one sync to disk); with `finish`, the table is
        marked finished in the same transaction (and its `outcome` stored: results, ratings);
        `deadline`: the next question's."""
        deadlines = {} if isinstance(deadline, Keep) else {table_id: deadline}
        self.append_batch([(table_id, rows, finish)], deadlines,
                          None if outcome is None else {table_id: outcome})  # fmt: skip

    def append_batch(
        self, batch: list[tuple[str, list[ActionRow], bool]],
        deadlines: dict[str, float | None] | None = None,
        outcomes: dict[str, Outcome] | None = None,
    ) -> None:  # fmt: skip
        """Several tables' decisions (table id, rows, finished) in one transaction: one sync to
        disk for all of them (group commit). All or nothing. `deadlines`: when the question
        that follows runs out of time, per table (None: not timed), stored with the rows so that
        another node that takes the table over keeps the clock. `outcomes`: the results of the
        tables that finish (`results.record`: places, scores, and ratings moved, once)."""
        now = self._now()
        # Rows are locked in the tables' order, as every transaction of several tables does: two
        # of them never each hold a row the other waits for (a deadlock, in PostgreSQL).
        with self._write() as db:
            for table_id, rows, finish in sorted(batch, key=lambda item: item[0]):
                self._check_owner(db, table_id)
                db.run_many(_INSERT_ACTION, [(table_id, r.seq, r.action, r.by, now) for r in rows])
                if finish:
                    db.run(_FINISH, (table_id,))
            for table_id, deadline in sorted((deadlines or {}).items()):
                db.run("UPDATE tables SET deadline = ? WHERE id = ?", (deadline, table_id))
            for table_id, outcome in sorted((outcomes or {}).items()):
                results.record(db, table_id, outcome, now, self._FOR_UPDATE)

    def _check_owner(self, db: Tx, table_id: str) -> None:
        """Fencing, for back-ends shared by several nodes: raise unless this node still owns the
        table (checked in the transaction that writes). One server per SQLite file: nothing."""

    def save_early(self, table_id: str, round_: int, seat: int, action: int) -> None:
        """A card chosen before the engine asks for it (simultaneous choice), kept until then."""
        with self._write() as db:
            self._check_owner(db, table_id)
            db.run(
                "INSERT INTO early_choices (table_id, round, seat, action) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (table_id, round, seat) DO UPDATE SET action = excluded.action",
                (table_id, round_, seat, action),
            )

    def finish(self, table_id: str) -> None:
        with self._write() as db:
            db.run(_FINISH, (table_id,))

    def save_summary(self, table_id: str, summary: str) -> None:
        """A finished table's lobby line (JSON), kept so that it is never rebuilt to be listed
        (`history.py`). Any node may write it: it is a pure function of the finished game."""
        with self._write() as db:
            db.run("UPDATE tables SET summary = ? WHERE id = ? AND finished = 1",
                   (summary, table_id))  # fmt: skip

    def save_analysis(self, table_id: str, seat: int, row: AnalysisRow) -> None:
        """A seat's post-game analysis, kept with its table: one row per seat, a newer one
        replaces it. Any node may write it (it is a pure function of the finished game)."""
        with self._write() as db:
            db.run(
                "INSERT INTO analyses (table_id, seat, version, words, game, at, body) VALUES "
                "(?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET version = "
                "excluded.version, words = excluded.words, game = excluded.game, at = excluded.at, "
                "body = excluded.body",
                (table_id, seat, row.version, row.words, row.game, row.at, row.body),
            )

    def write(self) -> AbstractContextManager[Tx]:
        """One transaction for bulk work (`jamaica db copy`)."""
        return self._write()

    # --- reads ------------------------------------------------------------------------------------
    def rows(self, sql: str) -> list[tuple[Any, ...]]:
        """A whole query's rows (`jamaica db copy`; the SQL is the program's, never a client's)."""
        return self._read(sql)

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """A query's rows (`standings`: the SQL is the program's; clients give only values)."""
        return self._read(sql, params)

    def count(self, table: str) -> int:
        return int(self._read(f"SELECT count(*) FROM {table}")[0][0])

    def player_by_key(self, key_hash: str) -> PlayerRecord | None:
        rows = self._read(
            "SELECT id, name, key_hash, created FROM players WHERE key_hash = ?", (key_hash,)
        )
        if not rows:
            return None
        row = rows[0]
        return PlayerRecord(str(row[0]), str(row[1]), str(row[2]), float(row[3]))

    def chat(self, table_id: str, limit: int) -> list[ChatRow]:
        """The table's last `limit` chat messages, oldest first."""
        rows = self._read(
            "SELECT seq, at, seat, name, text FROM chat WHERE table_id = ? "
            "ORDER BY seq DESC LIMIT ?",
            (table_id, limit),
        )
        return [ChatRow(int(q), float(a), None if st is None else int(st), str(n), str(t))
                for q, a, st, n, t in reversed(rows)]  # fmt: skip

    def analysis(self, table_id: str, seat: int) -> AnalysisRow | None:
        """The seat's kept analysis, None if there is none; a ValueError for a bad row."""
        rows = self._read(
            "SELECT version, words, game, at, body FROM analyses WHERE table_id = ? AND seat = ?",
            (table_id, seat),
        )
        if not rows:
            return None
        version, words, game, at, body = rows[0]
        if isinstance(body, memoryview):
            body = body.tobytes()
        if not (isinstance(version, str) and isinstance(words, str) and isinstance(game, str)
                and isinstance(at, int | float) and isinstance(body, bytes)):  # fmt: skip
            raise ValueError(f"table {table_id}: bad stored analysis of seat {seat}")
        return AnalysisRow(version, words, game, float(at), body)

    def early_choices(self, table_id: str, round_: int) -> dict[int, int]:
        """The cards chosen early in that round: seat -> action id."""
        rows = self._read(
            "SELECT seat, action FROM early_choices WHERE table_id = ? AND round = ?",
            (table_id, round_),
        )
        return {int(seat): int(action) for seat, action in rows}

    def table_ids(self) -> list[str]:
        """Every table's id, oldest first; read each with `table` (one bad row spoils only its
        own table)."""
        return [str(r[0]) for r in self._read("SELECT id FROM tables ORDER BY created, id")]

    def unfinished_ids(self) -> list[str]:
        """The unfinished tables' ids, oldest first (what a server rebuilds at start: the
        finished ones are listed from the database, `history.py`)."""
        return [str(r[0]) for r in self._read("SELECT id FROM tables WHERE finished = 0 "
                                               "ORDER BY created, id")]  # fmt: skip

    def tables(self) -> list[TableRecord]:
        rows = self._read(f"SELECT {_TABLE_COLUMNS} FROM tables ORDER BY created, id")
        return [_record(r) for r in rows]

    def table(self, table_id: str) -> TableRecord | None:
        """The table, None if there is none; a ValueError naming the table if its row is bad."""
        rows = self._read(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,))
        return _record(rows[0]) if rows else None

    def actions(self, table_id: str) -> list[ActionRow]:
        """The table's decisions in order; a ValueError naming the table for a bad row."""
        rows = self._read(
            "SELECT seq, action, by FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
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


def _record(row: tuple[Any, ...]) -> TableRecord:
    """A table's row as a record; a ValueError naming the table if the row makes no sense."""
    table_id, config_text, seats_text, seed, limit, created, finished, started = row[:8]
    creator, rematch, deadline, rated, low, high = row[8:14]

    def bad(what: str) -> ValueError:
        return ValueError(f"table {table_id}: bad stored {what}")

    try:
        config = json.loads(config_text)
        seats = json.loads(seats_text)
    except (TypeError, ValueError, RecursionError) as e:
        raise bad(f"settings ({one_line(e)})") from None
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
    if deadline is not None and (
        not isinstance(deadline, int | float) or not math.isfinite(deadline)
    ):
        raise bad(f"deadline {deadline!r}")
    if type(rated) is not int or not all(x is None or type(x) is int for x in (low, high)):
        raise bad("rating range")
    return TableRecord(str(table_id), config, seats, seed, limit, float(created), bool(finished),
                       bool(started), creator, rematch,
                       None if deadline is None else float(deadline), bool(rated), low,
                       high)  # fmt: skip
