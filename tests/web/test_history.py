"""Finished tables are read from the database, never rebuilt at start (`web/history.py`): their
lobby lines are stored, worked out once for tables stored without one, and a player's history
and record come from the results (the same on every node)."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from jamaica import CHANCE, Config, new_game
from jamaica.web import history
from jamaica.web.players import key_hash
from jamaica.web.registry import FINISHED_LISTED, Tables
from jamaica.web.results import outcome_of
from jamaica.web.store import ActionRow, PlayerRecord, SQLStore, TableRecord
from jamaica.web.store_sqlite import SQLiteStore
from jamaica.web.tables import LiveTable

from .server import Server


def _finish(store: SQLStore, table_id: str, seed: int, *, results: bool = True,
            created: float | None = None) -> None:  # fmt: skip
    """A finished 2-player game between Ann (seat 0) and a bot, stored as a live table stores
    it (with its results, unless `results` is False: as before results were kept)."""
    config, rng = Config(2), random.Random(seed)
    s = new_game(config)
    while not s.is_terminal():
        s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal))
    seats = [{"kind": "player", "name": "Ann", "bot": None, "token_hash": None, "player": "ann"},
             {"kind": "bot", "name": "Bo", "bot": "greedy", "token_hash": None, "player": None}]
    at = time.time() if created is None else created
    store.create_table(TableRecord(table_id, config.to_dict(), seats, seed, None, at))
    rows = [ActionRow(i, int(a), "player") for i, a in enumerate(s.history)]
    outcome = outcome_of(s, seats, rated=False)
    store.append_batch([(table_id, rows, True)], outcomes={table_id: outcome} if results else None)


@pytest.fixture
def store(tmp_path: Path) -> SQLiteStore:
    s = SQLiteStore(tmp_path / "j.db")
    s.create_player(PlayerRecord("ann", "Ann", key_hash("a" * 43), time.time()))
    return s


def _never(*args: Any, **kwargs: Any) -> LiveTable:
    raise AssertionError("a finished table was rebuilt")


def test_a_line_missing_is_worked_out_once_and_stored(store: SQLiteStore) -> None:
    """A table stored without its line (an older release, or a server stopped before its sweep)
    is replayed once when listed; its line is then read, never rebuilt again."""
    _finish(store, "old", 3)
    assert store.read("SELECT summary FROM tables WHERE id = 'old'")[0][0] is None
    first = history.newest(store, 10)
    assert [x["id"] for x in first] == ["old"] and first[0]["status"] == "finished"
    assert first[0]["archived"] is True and len(first[0]["result"]) == 3  # two ships, the Ghost
    assert store.read("SELECT summary FROM tables WHERE id = 'old'")[0][0] is not None
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(LiveTable, "restore", _never)
        assert history.newest(store, 10) == first


def test_results_missing_are_written_once_so_the_game_is_in_its_players_history(
    store: SQLiteStore,
) -> None:
    _finish(store, "before", 4, results=False)
    assert history.mine(store, "ann")[0] == []
    assert history.backfill(store) == 1
    listed, record = history.mine(store, "ann")
    assert [(x["id"], x["seat"]) for x in listed] == [("before", 0)] and record.games == 1
    assert history.backfill(store) == 0  # once


def test_a_player_s_newest_are_listed_and_every_game_counts(store: SQLiteStore) -> None:
    now = time.time()
    for i in range(history.MINE + 5):
        _finish(store, f"g{i:03d}", i, created=now + i)
    listed, record = history.mine(store, "ann")
    assert len(listed) == history.MINE and record.games == history.MINE + 5
    rows = store.read("SELECT score, won, place FROM results WHERE player_id = 'ann'")
    assert record.wins == sum(1 for _, won, _ in rows if won == 1)
    assert record.mean_score == round(sum(r[0] for r in rows) / len(rows), 1)
    assert listed[0]["id"] == f"g{history.MINE + 4:03d}"  # newest first


def test_a_restart_reads_no_finished_game_and_lists_the_newest(store: SQLiteStore) -> None:
    now = time.time()
    for i in range(FINISHED_LISTED + 3):
        _finish(store, f"g{i:03d}", i, created=now + i)
    history.newest(store, FINISHED_LISTED + 3)  # their lines, stored
    tables = Tables(store)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(LiveTable, "restore", _never)
        tables.restore_all()
    assert tables.live == {} and len(tables.archived) == FINISHED_LISTED
    assert tables.finished_stored == FINISHED_LISTED + 3
    listed = [x["id"] for x in tables.summaries() if x["status"] == "finished"]
    assert listed == [f"g{i:03d}" for i in range(FINISHED_LISTED + 2, 2, -1)]


async def test_an_older_finished_table_opens_when_visited(store: SQLiteStore) -> None:
    """Out of the lobby's index (older than its newest), a finished table is still found,
    rebuilt from the store; an id no table has is not, and odd ids never reach the database."""
    now = time.time()
    for i in range(FINISHED_LISTED + 1):
        _finish(store, f"g{i:03d}", i, created=now + i)
    tables = Tables(store)
    tables.restore_all()
    assert "g000" not in tables.archived
    table = await tables.get("g000")
    assert table is not None and table.session.state.is_terminal()
    table.close()
    assert await tables.get("nope") is None
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store, "table", _never)
        assert await tables.get("x" * 65) is None and await tables.get("../etc") is None


def test_api_me_lists_finished_tables_from_the_database(tmp_path: Path) -> None:
    """A restarted server lists a player's finished games and record without rebuilding any."""
    db = tmp_path / "jamaica.db"
    store = SQLiteStore(db)
    store.create_player(PlayerRecord("ann", "Ann", key_hash("a" * 43), time.time()))
    for i in range(3):
        _finish(store, f"g{i}", i, created=time.time() + i)
    store.close()
    server = Server(db).start()
    try:
        me = server.get("/api/me", "a" * 43)
        assert [t["id"] for t in me["tables"]] == ["g2", "g1", "g0"]
        assert all(t["status"] == "finished" and t["seat"] == 0 for t in me["tables"])
        assert me["stats"]["games"] == 3
        assert server.get("/api/status")["tables"]["archived"] == 3
    finally:
        server.stop()


async def test_a_finished_table_that_cannot_be_rebuilt_is_set_aside_once(
    store: SQLiteStore,
) -> None:
    """A visit to a finished game whose stored decisions are spoilt: no table, one log line, and
    the table is listed as unavailable, not rebuilt again at every visit."""
    _finish(store, "bad", 3)
    with store.write() as db:
        db.run("UPDATE actions SET action = 9999 WHERE table_id = 'bad' AND seq = 5")
    tables = Tables(store)
    assert await tables.get("bad") is None and "bad" in tables.broken
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store, "table", _never)
        assert await tables.get("bad") is None  # set aside: the store is not asked again


def test_a_spoilt_line_is_worked_out_again(store: SQLiteStore) -> None:
    _finish(store, "done", 3)
    with store.write() as db:
        db.run("UPDATE tables SET summary = '{not json' WHERE id = 'done'")
    assert [x["id"] for x in history.newest(store, 5)] == ["done"]
    assert store.read("SELECT summary FROM tables WHERE id = 'done'")[0][0].startswith('{"id"')
