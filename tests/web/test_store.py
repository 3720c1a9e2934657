"""The store on a real SQLite file: every storage failure is a one-line StoreError, a failed write
leaves nothing behind, one server per database file, and a deleted database is noticed before
anything more is acknowledged."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jamaica import Config
from jamaica.web.storage import open_store
from jamaica.web.store import ActionRow, StoreError, TableRecord
from jamaica.web.store_sqlite import SQLiteStore

from .server import Server, free_port

SEATS = [{"name": "A", "bot": "greedy", "token_hash": None},
         {"name": "B", "bot": None, "token_hash": "x" * 64}]  # fmt: skip


def _record(table_id: str = "t1") -> TableRecord:
    return TableRecord(
        table_id, Config(2).to_dict(), [dict(s) for s in SEATS], 0, None, time.time()
    )


def _rows(start: int, n: int) -> list[ActionRow]:
    return [ActionRow(start + i, 7, "player") for i in range(n)]


def _one_line(e: BaseException) -> str:
    text = str(e)
    assert "\n" not in text and text.strip() == text and text, repr(text)
    return text


# --- opening --------------------------------------------------------------------------------------
def test_a_corrupt_file_is_a_one_line_store_error(tmp_path: Path) -> None:
    db = tmp_path / "jamaica.db"
    db.write_bytes(b"this is not a database, just some bytes " * 200)
    with pytest.raises(StoreError) as info:
        SQLiteStore(db)
    assert _one_line(info.value) == f"cannot open the database {db}: file is not a database"
    assert isinstance(info.value, ValueError)
    db.unlink()  # the failed open let go of the lock: once the file is fixed, it opens
    SQLiteStore(db).close()


def test_a_database_that_is_not_jamaicas_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "other.db"
    with sqlite3.connect(db) as raw:
        raw.execute("CREATE TABLE tables (name TEXT)")
    raw.close()
    with pytest.raises(StoreError, match="not a jamaica database"):
        SQLiteStore(db)


def test_a_missing_folder_or_a_bad_url_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot"):
        SQLiteStore(tmp_path / "no" / "such" / "folder" / "jamaica.db")
    with pytest.raises(StoreError, match=r"sqlite:///FILE or postgresql://"):
        open_store("mysql://somewhere")
    with pytest.raises(StoreError, match=r"^cannot open the database postgresql://somewhere: "
                       r".*resolve host"):  # fmt: skip
        open_store("postgresql://somewhere")
    store = open_store(f"sqlite:///{tmp_path / 'ok.db'}")
    store.create_table(_record())
    assert store.table_ids() == ["t1"]
    store.close()


# --- one server per file ------------------------------------------------------------------------
def test_a_second_store_on_the_same_file_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "jamaica.db"
    first = SQLiteStore(db)
    with pytest.raises(StoreError) as info:
        SQLiteStore(db)
    assert _one_line(info.value) == (
        f"the database {db} is in use by another jamaica server (pid {os.getpid()})"
    )
    first.create_table(_record())  # the first one goes on serving
    first.close()
    second = SQLiteStore(db)  # closed: free again
    assert second.table_ids() == ["t1"]
    second.close()


@pytest.mark.parametrize("link", ["symlink", "hardlink", "dotted"])
def test_a_second_store_through_another_path_to_the_same_file_is_refused(
    tmp_path: Path, link: str
) -> None:
    """Issue 21, item 9: a second server started through a symlink diverged from the first."""
    db = tmp_path / "jamaica.db"
    first = SQLiteStore(db)
    first.create_table(_record())
    (tmp_path / "sub").mkdir()
    other = tmp_path / "other.db"
    if link == "symlink":
        other.symlink_to(db)
    elif link == "hardlink":
        os.link(db, other)
    else:
        other = tmp_path / "sub" / ".." / "jamaica.db"
    in_use = r"in use by another jamaica server \(pid (\d+|unknown)\)"
    with pytest.raises(StoreError, match=in_use):
        SQLiteStore(other)
    first.append(_record().id, ActionRow(0, 0, "chance"))  # the first one goes on serving
    first.close()
    again = SQLiteStore(other)  # closed: free again, through any path
    assert again.table_ids() == ["t1"]
    again.close()


def test_the_lock_dies_with_a_killed_process(tmp_path: Path) -> None:
    db = tmp_path / "jamaica.db"
    code = (f"from jamaica.web.store_sqlite import SQLiteStore; s = SQLiteStore({str(db)!r}); "
            "print('open', flush=True); import time; time.sleep(60)")  # fmt: skip
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        with pytest.raises(
            StoreError, match=rf"in use by another jamaica server \(pid {holder.pid}\)"
        ):
            SQLiteStore(db)
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(10)
    SQLiteStore(db).close()  # kill -9 freed the lock


# --- durable writes -------------------------------------------------------------------------------
def test_a_deleted_database_acknowledges_nothing_more(tmp_path: Path) -> None:
    db = tmp_path / "jamaica.db"
    store = SQLiteStore(db)
    store.create_table(_record())
    store.append_many("t1", _rows(0, 5))
    db.unlink()  # e.g. `rm jamaica.db` while the server runs
    for write in (
        lambda: store.append("t1", ActionRow(5, 7, "bot")),
        lambda: store.append_many("t1", _rows(5, 3)),
        lambda: store.finish("t1"),
        lambda: store.create_table(_record("t2")),
    ):
        with pytest.raises(StoreError) as info:
            write()
        assert _one_line(info.value) == f"the database file {db} has been removed"
    store.close()
    # What a restart sees: no decision was acknowledged after the file went away.
    again = SQLiteStore(db)
    assert again.table_ids() == []
    again.close()


def test_a_replaced_database_acknowledges_nothing_more(tmp_path: Path) -> None:
    db = tmp_path / "jamaica.db"
    store = SQLiteStore(db)
    store.create_table(_record())
    other = tmp_path / "other.db"
    sqlite3.connect(other).close()
    other.replace(db)  # e.g. a backup restored over the live file
    with pytest.raises(StoreError, match="has been replaced"):
        store.append("t1", ActionRow(0, 7, "player"))
    store.close()


def test_a_full_disk_fails_the_write_whole_and_writes_resume_after(tmp_path: Path) -> None:
    db = tmp_path / "jamaica.db"
    store = SQLiteStore(db)
    store.create_table(_record())
    store.append_many("t1", _rows(0, 3))
    raw = store._db  # a full disk, as SQLite sees it: no page may be added
    pages = raw.execute("PRAGMA page_count").fetchone()[0]
    raw.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StoreError) as info:
        store.append_many("t1", [ActionRow(3 + i, 7, "x" * 500) for i in range(200)], finish=True)
    assert _one_line(info.value).startswith("cannot write to the database: ")
    assert "full" in str(info.value)
    assert not raw.in_transaction  # rolled back: no half transaction left open
    assert [r.seq for r in store.actions("t1")] == [0, 1, 2]
    record = store.table("t1")
    assert record is not None and not record.finished
    raw.execute("PRAGMA max_page_count = 1073741823")  # storage works again
    store.append_many("t1", _rows(3, 200), finish=True)
    store.close()
    again = SQLiteStore(db)
    assert len(again.actions("t1")) == 203
    record = again.table("t1")
    assert record is not None and record.finished
    again.close()


def test_a_read_only_database_fails_writes_cleanly(tmp_path: Path) -> None:
    db = tmp_path / "jamaica.db"
    store = SQLiteStore(db)
    store.create_table(_record())
    store._db.execute("PRAGMA query_only = ON")  # as if the disk were remounted read-only
    with pytest.raises(StoreError, match=r"cannot write to the database: .*readonly"):
        store.append("t1", ActionRow(0, 7, "player"))
    assert not store._db.in_transaction and store.actions("t1") == []
    store._db.execute("PRAGMA query_only = OFF")
    store.append("t1", ActionRow(0, 7, "player"))
    assert store.actions("t1") == [ActionRow(0, 7, "player")]
    store.close()


def test_a_repeated_decision_is_a_store_error_and_leaves_nothing(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "jamaica.db")
    store.create_table(_record())
    store.append_many("t1", _rows(0, 2))
    with pytest.raises(StoreError, match="UNIQUE"):
        store.append_many("t1", _rows(2, 3) + _rows(1, 1))  # the last row clashes
    assert [r.seq for r in store.actions("t1")] == [0, 1]
    with pytest.raises(StoreError):
        store.create_table(_record())  # the same id twice
    store.close()
    with pytest.raises(StoreError):
        store.append("t1", ActionRow(2, 7, "player"))  # closed


# --- reading tables back, one by one --------------------------------------------------------------
def test_a_bad_row_is_a_value_error_naming_its_table(tmp_path: Path) -> None:
    db = tmp_path / "jamaica.db"
    store = SQLiteStore(db)
    store.create_table(_record("good"))
    store.append_many("good", _rows(0, 2))
    bad_tables = {
        "badjson": ("{not json", json.dumps(SEATS)),
        "deepjson": ("[" * 100_000, json.dumps(SEATS)),
        "notobject": ("[1, 2]", json.dumps(SEATS)),
        "badseats": (json.dumps(Config(2).to_dict()), json.dumps([{"name": 3}])),
        "seatsjson": (json.dumps(Config(2).to_dict()), "[{"),
    }
    store.create_table(_record("badrow"))
    store.create_table(_record("badby"))
    raw = sqlite3.connect(db)  # rows written by something else than this server
    for table_id, (config, seats) in bad_tables.items():
        raw.execute("INSERT INTO tables (id, config, seats, seed, seconds_per_decision, created, "
                    "finished) VALUES (?, ?, ?, 0, NULL, ?, 0)",
                    (table_id, config, seats, time.time()))  # fmt: skip
    raw.execute("INSERT INTO actions VALUES ('badrow', 0, 'move north', 'player', 0)")
    raw.execute("INSERT INTO actions VALUES ('badby', 0, 3, 'alien', 0)")
    raw.commit()
    raw.close()

    ids = store.table_ids()
    assert ids[0] == "good" and set(ids) == {"good", *bad_tables, "badrow", "badby"}
    for table_id in bad_tables:
        with pytest.raises(ValueError) as info:
            store.table(table_id)
        assert not isinstance(info.value, StoreError)
        assert _one_line(info.value).startswith(f"table {table_id}: bad stored ")
    for table_id in ("badrow", "badby"):
        assert store.table(table_id) is not None
        with pytest.raises(ValueError, match=f"^table {table_id}: bad stored decision"):
            store.actions(table_id)
    good = store.table("good")  # the others are unharmed
    assert good is not None and good.seats == SEATS and good.config == Config(2).to_dict()
    assert store.actions("good") == _rows(0, 2)
    assert store.table("nosuch") is None
    store.close()


# --- the server, as a real process --------------------------------------------------------------
def _serve(db: Path) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "jamaica", "serve", "--port", str(free_port()),
           "--db", f"sqlite:///{db}"]  # fmt: skip
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


def test_a_second_server_on_the_same_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "jamaica.db"
    first = Server(db).start()
    try:
        out = _serve(db)
        assert out.returncode != 0
        assert "Traceback" not in out.stderr
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1, out.stderr
        assert f"the database {db} is in use by another jamaica server (pid " in lines[0]
        assert first.get("/api/tables") is not None  # the first server is unharmed
    finally:
        first.stop()


def test_a_server_on_a_corrupt_database_says_so_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "jamaica.db"
    db.write_bytes(b"\x00garbage" * 1000)
    out = _serve(db)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].endswith(f"cannot open the database {db}: file is not a database")
