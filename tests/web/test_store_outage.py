"""Issue 23: PostgreSQL restarted under a running store (a real server). While it is away a write
is refused quickly with a one-line StoreUnavailable (nothing is acknowledged, nothing half
written); group commit refuses a whole batch at once instead of retrying each table; once the
server is back, writes succeed again within a few seconds, by themselves."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from jamaica import Config
from jamaica.web.committer import Committer
from jamaica.web.store import ActionRow, StoreUnavailable, TableRecord
from jamaica.web.store_pg import CONNECT_SECONDS, PostgresStore

from ..services import Postgres, start_postgres


@pytest.fixture
def own_postgres() -> Iterator[Postgres]:
    pg = start_postgres()  # its own: this test stops it
    yield pg
    pg.close()


async def test_an_outage_refuses_writes_quickly_and_writes_resume_by_themselves(
    own_postgres: Postgres,
) -> None:
    store = PostgresStore(own_postgres.database(), upgrade=True)
    for t in ("t1", "t2", "t3"):
        store.create_table(TableRecord(t, Config(2).to_dict(), [], 0, None, time.time()))
    store.append("t1", ActionRow(0, 140, "chance"))
    own_postgres.stop(fast=True)

    began = time.monotonic()
    with pytest.raises(StoreUnavailable) as info:
        store.append("t1", ActionRow(1, 3, "player"))
    assert "\n" not in str(info.value)
    assert time.monotonic() - began < CONNECT_SECONDS + 1.5

    committer = Committer(store)  # three tables at once: refused together, not one by one
    began = time.monotonic()
    results = await asyncio.gather(
        *(committer.commit(t, [ActionRow(1 if t == "t1" else 0, 3, "player")], False)
          for t in ("t1", "t2", "t3")),
        return_exceptions=True,
    )  # fmt: skip
    assert all(isinstance(r, StoreUnavailable) for r in results), results
    assert time.monotonic() - began < CONNECT_SECONDS + 1.5

    own_postgres.start()
    back = time.monotonic()
    while True:
        try:
            store.append("t1", ActionRow(1, 3, "player"))
            break
        except StoreUnavailable:
            assert time.monotonic() - back < 8, "writes did not resume"
            await asyncio.sleep(0.1)
    resumed = time.monotonic() - back
    assert [r.seq for r in store.actions("t1")] == [0, 1]  # nothing from the outage
    assert store.actions("t2") == [] and store.actions("t3") == []
    assert resumed < 5, resumed
    store.close()
