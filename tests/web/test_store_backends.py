"""The store's contract, run against both back-ends: a SQLite file and a real PostgreSQL server
(tests/services.py). The same records come back, a failed write leaves nothing, chat stays
bounded, a bad row names its table, the schema is versioned and a server refuses one it does not
know, group commit works, and `jamaica db copy` moves a whole history across and replays it."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from jamaica import Config, State
from jamaica.web import dbcommands, history
from jamaica.web.committer import Committer
from jamaica.web.results import outcome_of
from jamaica.web.schema import LATEST, migrations
from jamaica.web.storage import open_store
from jamaica.web.store import ActionRow, ChatRow, PlayerRecord, SQLStore, StoreError, TableRecord

SEATS = [{"name": "A", "bot": "greedy", "token_hash": None},
         {"name": "B", "bot": None, "token_hash": "x" * 64, "player": "p1"}]  # fmt: skip


@pytest.fixture
def store(url: str) -> Iterator[SQLStore]:
    s = open_store(url)
    yield s
    s.close()


def _record(table_id: str = "t1", created: float | None = None) -> TableRecord:
    return TableRecord(table_id, Config(2).to_dict(), [dict(s) for s in SEATS], 0, 15.0,
                       time.time() if created is None else created, creator="p1")  # fmt: skip


def _rows(start: int, n: int) -> list[ActionRow]:
    return [ActionRow(start + i, 7, "player") for i in range(n)]


def test_records_come_back_as_they_were_stored(store: SQLStore) -> None:
    store.create_table(_record("b", 2.0))
    store.create_table(_record("a", 1.0))
    assert store.table_ids() == ["a", "b"]  # oldest first
    assert store.table("a") == _record("a", 1.0)
    changed = _record("a", 1.0)
    changed.seats[0]["name"], changed.started, changed.rematch = "Zoé", False, "b"
    store.update_table(changed)
    assert store.table("a") == changed and store.tables()[0] == changed
    assert store.table("nosuch") is None


def test_decisions_append_in_order_and_finish_in_the_same_transaction(store: SQLStore) -> None:
    store.create_table(_record("t1"))
    store.create_table(_record("t2"))
    store.append("t1", ActionRow(0, 140, "chance"))
    store.append_many("t1", [ActionRow(1, 3, "player"), ActionRow(2, 4, "timeout")])
    store.append_batch([("t1", [ActionRow(3, 5, "bot")], True), ("t2", _rows(0, 2), False)])
    assert store.actions("t1") == [ActionRow(0, 140, "chance"), ActionRow(1, 3, "player"),
                                   ActionRow(2, 4, "timeout"), ActionRow(3, 5, "bot")]  # fmt: skip
    assert store.table("t1").finished and not store.table("t2").finished  # type: ignore[union-attr]


def test_a_failed_write_leaves_nothing(store: SQLStore) -> None:
    store.create_table(_record())
    store.append_many("t1", _rows(0, 2))
    with pytest.raises(StoreError) as info:
        store.append_many("t1", _rows(2, 3) + _rows(1, 1))  # the last row clashes
    assert "\n" not in str(info.value)
    assert [r.seq for r in store.actions("t1")] == [0, 1]
    with pytest.raises(StoreError):  # a whole batch, too: one clash and nothing of it is kept
        store.append_batch([("t1", _rows(2, 1), True), ("t1", _rows(0, 1), False)])
    assert [r.seq for r in store.actions("t1")] == [0, 1]
    assert not store.table("t1").finished  # type: ignore[union-attr]
    with pytest.raises(StoreError):
        store.create_table(_record())  # the same id twice


def test_early_choices_are_replaced_not_added(store: SQLStore) -> None:
    store.create_table(_record())
    store.save_early("t1", 3, 0, 5)
    store.save_early("t1", 3, 0, 6)
    store.save_early("t1", 3, 1, 7)
    store.save_early("t1", 4, 0, 8)
    assert store.early_choices("t1", 3) == {0: 6, 1: 7}


def test_players_are_found_by_key_and_keys_are_unique(store: SQLStore) -> None:
    store.create_player(PlayerRecord("p1", "Anne", "h" * 64, 1.0))
    store.rename_player("p1", "Anne Bonny")
    assert store.player_by_key("h" * 64) == PlayerRecord("p1", "Anne Bonny", "h" * 64, 1.0)
    assert store.player_by_key("nope") is None
    with pytest.raises(StoreError):
        store.create_player(PlayerRecord("p2", "Mary", "h" * 64, 2.0))


def test_chat_keeps_the_newest_lines_of_each_kind(store: SQLStore) -> None:
    store.create_table(_record())
    for seq in range(10):
        seat = None if seq % 2 else 0
        store.add_chat("t1", ChatRow(seq, float(seq), seat, "x", f"line {seq}"), keep=3)
    lines = store.chat("t1", 100)
    assert [r.seq for r in lines] == [4, 5, 6, 7, 8, 9]  # seats: 4 6 8, spectators: 5 7 9
    assert [r.seq for r in store.chat("t1", 2)] == [8, 9]
    assert lines[-1] == ChatRow(9, 9.0, None, "x", "line 9")


def test_a_bad_row_is_a_value_error_naming_its_table(store: SQLStore) -> None:
    store.create_table(_record("good"))
    with store.write() as db:  # rows written by something else than this server
        for table_id, config in (("badjson", "{not json"), ("notobject", "[1, 2]")):
            db.run("INSERT INTO tables (id, config, seats, seed, created, finished, started) "
                   "VALUES (?, ?, ?, 0, 1.0, 0, 1)",
                   (table_id, config, json.dumps(SEATS)))  # fmt: skip
        db.run("INSERT INTO actions (table_id, seq, action, by, at) VALUES (?, 0, 3, 'alien', 0)",
               ("good",))  # fmt: skip
    for table_id in ("badjson", "notobject"):
        with pytest.raises(ValueError, match=f"^table {table_id}: bad stored settings") as info:
            store.table(table_id)
        assert not isinstance(info.value, StoreError)
    with pytest.raises(ValueError, match=r"^table good: bad stored decision"):
        store.actions("good")
    assert store.table("good") == _record("good", store.table("good").created)  # type: ignore[union-attr]


# --- the schema's version -------------------------------------------------------------------------
def test_a_new_database_gets_the_latest_schema_and_upgrading_again_does_nothing(url: str) -> None:
    store = open_store(url)
    assert store.schema_version() == LATEST == len(migrations())
    assert store.upgrade() == []
    store.close()
    assert f"at schema version {LATEST}" in dbcommands.upgrade(url)


def test_a_server_refuses_a_schema_it_does_not_know(url: str) -> None:
    store = open_store(url)
    with store.write() as db:
        db.run("UPDATE schema_version SET version = ?", (LATEST + 1,))
    store.close()
    with pytest.raises(StoreError, match=rf"schema is version {LATEST + 1}, newer than this"):
        open_store(url)


def test_an_older_schema_is_upgraded_by_jamaica_db_upgrade(url: str) -> None:
    """Migration 1 only, as a database made before migrations 2 to 6: PostgreSQL (shared by nodes)
    refuses to start on it until `jamaica db upgrade`; a SQLite file is upgraded on opening."""
    store = open_store(url)
    store.create_table(_record())
    with store.write() as db:
        db.run("DROP INDEX tables_finished")  # migration 6
        db.run("ALTER TABLE tables DROP COLUMN summary")
        db.run("ALTER TABLE results DROP COLUMN won")  # migration 5
        db.run("DROP TABLE analyses")  # migration 4
        db.run("DROP TABLE results")  # migration 3
        db.run("DROP TABLE ratings")
        for column in ("rated", "rating_low", "rating_high"):
            db.run(f"ALTER TABLE tables DROP COLUMN {column}")
        db.run("DROP TABLE owners")  # migration 2
        db.run("DROP TABLE nodes")
        db.run("DROP INDEX tables_unfinished")
        db.run("ALTER TABLE tables DROP COLUMN deadline")
        db.run("UPDATE schema_version SET version = 1")
    store.close()
    if url.startswith("postgresql"):
        with pytest.raises(StoreError, match="run `jamaica db upgrade --db URL` first"):
            open_store(url)
        assert f"at schema version {LATEST}" in dbcommands.upgrade(url)
    store = open_store(url)
    assert store.schema_version() == LATEST and store.table("t1") == _record(
        "t1", store.table("t1").created  # type: ignore[union-attr]
    )
    store.close()


# --- group commit ---------------------------------------------------------------------------------
async def test_concurrent_commits_are_all_stored_and_a_bad_one_fails_alone(store: SQLStore) -> None:
    ids = [f"t{i}" for i in range(20)]
    for table_id in ids:
        store.create_table(_record(table_id))
    store.append_many("t0", [ActionRow(0, 140, "chance")])
    c = Committer(store)
    results = await asyncio.gather(
        *(c.commit(t, [ActionRow(0, 141, "chance")], t == "t1") for t in ids),
        return_exceptions=True,
    )
    assert isinstance(results[0], StoreError) and all(r is None for r in results[1:])
    assert all(store.actions(t)[0].action == 141 for t in ids[1:])
    assert store.actions("t0") == [ActionRow(0, 140, "chance")]
    assert store.table("t1").finished  # type: ignore[union-attr]


# --- jamaica db copy ------------------------------------------------------------------------------
def _history(store: SQLStore, games: int) -> None:
    """Random games stored as a server stores them: chance outcomes and decisions as rows."""
    rng = random.Random(5)
    for g in range(games):
        table_id = f"g{g}"
        ghost = g % 3 == 0 or None
        config = Config(2 + g % 4, edition=("2021", "classic")[g % 2], ghost_ship=ghost)
        seats = [dict(SEATS[0])] * config.players
        store.create_table(TableRecord(table_id, config.to_dict(), seats, 0, None, float(g)))
        state = State(config, log=False)
        rows: list[ActionRow] = []
        while not state.is_terminal() and len(rows) < 150 + 40 * g:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                action, by = rng.choices(actions, probs)[0], "chance"
            else:
                action, by = rng.choice(state.legal_actions()), "player"
            rows.append(ActionRow(len(rows), int(action), by))
            state.apply(action)
        store.append_many(table_id, rows, finish=state.is_terminal())
        store.save_early(table_id, state.rnd, 0, 3)
        store.add_chat(table_id, ChatRow(0, 1.0, 0, "A", "ahoy"))
    store.create_player(PlayerRecord("p1", "Anne", "h" * 64, 1.0))


def test_db_copy_moves_a_whole_history_to_postgresql_and_replays_it(
    tmp_path: Path, pg_url: str
) -> None:
    source_url = f"sqlite:///{tmp_path / 'old.db'}"
    source = open_store(source_url)
    _history(source, 6)
    state, rng = State(Config(2), log=False), random.Random(4)  # a finished game, results kept
    while not state.is_terminal():
        state.apply(rng.choice([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                               else state.legal_actions()))  # fmt: skip
    seats = [dict(SEATS[0]), dict(SEATS[1])]
    source.create_table(TableRecord("done", Config(2).to_dict(), seats, 0, None, 9.0))
    source.append_batch([("done", [ActionRow(i, int(a), "player")
                                   for i, a in enumerate(state.history)], True)],
                        outcomes={"done": outcome_of(state, seats, rated=False)})  # fmt: skip
    assert history.newest(source, 1)[0]["id"] == "done"  # its lobby line, worked out and kept
    counts = {n: source.count(n) for n in ("tables", "actions", "players", "chat")}
    source.close()
    said = dbcommands.copy(source_url, pg_url)
    assert said.startswith(f"copied {counts['tables']} tables, 1 players, {counts['actions']}")
    with pytest.raises(StoreError, match="not empty"):
        dbcommands.copy(source_url, pg_url)
    source, target = open_store(source_url), open_store(pg_url)
    try:
        assert dbcommands.verify(source, target) == []
        assert {n: target.count(n) for n in counts} == counts
        kept = "SELECT table_id, seat, place, score, won FROM results ORDER BY table_id, seat"
        assert source.rows(kept) and target.rows(kept) == source.rows(kept)  # who won, too
        line = "SELECT summary FROM tables WHERE id = 'done'"  # the lobby line, not worked out
        assert target.rows(line)[0][0] is not None and target.rows(line) == source.rows(line)
        for table_id in source.table_ids():
            assert target.actions(table_id) == source.actions(table_id)
            assert target.early_choices(table_id, 0) == source.early_choices(table_id, 0)
        with pytest.raises(StoreError, match="in use by another jamaica server"):
            dbcommands.copy(source_url, pg_url)  # a running server's file: stop it first
        with target.write() as db:  # one decision changed: the replay tells
            db.run("UPDATE actions SET action = ? WHERE table_id = 'g3' AND seq = ?",
                   (source.actions("g3")[-1].action, len(source.actions("g3")) - 2))  # fmt: skip
        problems = dbcommands.verify(source, target)
        assert problems and problems[0].startswith("table g3: ")
    finally:
        source.close()
        target.close()
