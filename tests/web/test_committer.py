"""Group commit (a real SQLite store): many tables' decisions share one transaction, and one
table's bad rows never fail another's."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from jamaica import Config
from jamaica.web.committer import Committer
from jamaica.web.store import ActionRow, StoreError, TableRecord
from jamaica.web.store_sqlite import SQLiteStore


def _tables(store: SQLiteStore, n: int) -> list[str]:
    ids = [f"t{i}" for i in range(n)]
    for table_id in ids:
        store.create_table(TableRecord(table_id, Config(2).to_dict(), [], 0, None, time.time()))
    return ids


async def test_concurrent_commits_share_transactions_and_all_are_stored(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "j.db")
    ids = _tables(store, 20)
    batches: list[int] = []
    real = store.append_batch

    def counting(batch: list[tuple[str, list[ActionRow], bool]],
                 deadlines: dict[str, float | None] | None = None,
                 outcomes: dict[str, Any] | None = None) -> None:  # fmt: skip
        batches.append(len(batch))
        real(batch, deadlines, outcomes)

    store.append_batch = counting  # type: ignore[method-assign]
    c = Committer(store)
    await asyncio.gather(*(c.commit(t, [ActionRow(0, 140, "chance")], False) for t in ids))
    assert all(len(store.actions(t)) == 1 for t in ids)
    assert sum(batches) == 20 and len(batches) < 20  # some shared a transaction


async def test_one_tables_bad_rows_do_not_fail_the_others(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "j.db")
    good, bad = _tables(store, 2)
    store.append_many(bad, [ActionRow(0, 140, "chance")])
    c = Committer(store)
    ok = c.commit(good, [ActionRow(0, 140, "chance")], True)
    clash = c.commit(bad, [ActionRow(0, 141, "chance")], False)  # seq 0 is taken
    results = await asyncio.gather(ok, clash, return_exceptions=True)
    assert results[0] is None and isinstance(results[1], StoreError)
    assert len(store.actions(good)) == 1 and store.table(good).finished  # type: ignore[union-attr]
    with pytest.raises(StoreError):
        await c.commit(bad, [ActionRow(0, 141, "chance")], False)
