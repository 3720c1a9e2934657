"""Issue 23, ownership in PostgreSQL (a real server): each live table has one owner node with a
lease on the database's clock; a node that lost a table can no longer store its decisions
(fencing: its epoch is checked in the writing transaction); leases that run out make tables
orphans another node takes; an idle table handed back waits for a visit."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from jamaica import Config
from jamaica.web.store import ActionRow, NotOwner, TableRecord
from jamaica.web.store_pg import PostgresStore

LEASE = 0.4


def _record(table_id: str) -> TableRecord:
    return TableRecord(table_id, Config(2).to_dict(), [], 0, None, time.time())


@pytest.fixture
def nodes(pg_url: str) -> Iterator[tuple[PostgresStore, PostgresStore]]:
    a, b = PostgresStore(pg_url, upgrade=True), PostgresStore(pg_url)
    a.join_cluster("a", "http://a", LEASE)
    b.join_cluster("b", "http://b", LEASE)
    yield a, b
    a.close()
    b.close()


def test_a_stale_owner_stores_nothing_once_another_node_took_the_table(
    nodes: tuple[PostgresStore, PostgresStore],
) -> None:
    a, b = nodes
    a.create_table(_record("t1"))  # created, and owned, in one transaction
    a.append("t1", ActionRow(0, 140, "chance"))
    assert b.claim("t1") is None and b.owner("t1") == ("a", "http://a")
    assert b.orphans(10) == []
    time.sleep(LEASE + 0.2)  # node a stops renewing (paused, or dead)
    assert b.orphans(10) == ["t1"] and b.owner("t1") is None
    assert b.claim("t1") == 2
    with pytest.raises(NotOwner, match="kept by another node"):
        a.append("t1", ActionRow(1, 3, "player"))
    with pytest.raises(NotOwner):
        a.save_early("t1", 1, 0, 3)
    assert a.renew() == set()  # a learns it lost the table
    b.append("t1", ActionRow(1, 4, "player"))
    assert b.actions("t1") == [ActionRow(0, 140, "chance"), ActionRow(1, 4, "player")]
    assert b.renew() == {"t1"} and a.owner("t1") == ("b", "http://b")


def test_a_renewed_lease_keeps_the_table_and_a_handed_over_one_is_taken_at_once(
    nodes: tuple[PostgresStore, PostgresStore],
) -> None:
    a, b = nodes
    a.create_table(_record("t1"))
    a.create_table(_record("t2"))
    for _ in range(4):
        time.sleep(LEASE / 3)
        assert a.renew() == {"t1", "t2"}
    assert b.claim("t1") is None and b.orphans(10) == []
    a.release(["t1"])  # draining: handed over now
    a.release(["t2"], idle=True)  # archived: nobody takes it until it is visited
    assert b.orphans(10) == ["t1"]
    assert b.claim("t1") == 2 and b.claim("t2") == 2
    assert a.renew() == set()


def test_a_single_server_on_postgresql_is_not_fenced(pg_url: str) -> None:
    store = PostgresStore(pg_url, upgrade=True)
    store.create_table(_record("t1"))
    store.append("t1", ActionRow(0, 140, "chance"))
    assert len(store.actions("t1")) == 1
    store.close()


def test_a_node_restarted_under_its_name_renews_none_of_the_dead_process_s_leases(
    nodes: tuple[PostgresStore, PostgresStore], pg_url: str
) -> None:
    """Killed with SIGKILL and restarted at once (a supervisor), node a must not keep renewing
    the leases its dead process held: it has none of those tables, so no node would keep them."""
    a, b = nodes
    a.create_table(_record("t1"))
    again = PostgresStore(pg_url)  # the new process of node a; the old one is dead
    again.join_cluster("a", "http://a", LEASE)
    for _ in range(4):
        time.sleep(LEASE / 3)
        assert again.renew() == set()
    assert b.orphans(10) == ["t1"]  # the lease ran out: any node takes it, a too
    assert again.claim("t1") == 2 and again.renew() == {"t1"}
    again.close()


async def test_a_table_made_during_a_renewal_is_neither_lost_nor_released(pg_url: str) -> None:
    """Found by bench-scaleout: a table claimed (made) while the node renewed its leases, and not
    yet in the node's list, was taken for lost (its clients told to go elsewhere) or for idle
    (released). Only tables held before the renewal asked are judged now."""
    from jamaica.web.cluster import Cluster
    from jamaica.web.registry import Tables

    store = PostgresStore(pg_url, upgrade=True)
    cluster = Cluster(store, "a", "http://a", LEASE)
    tables = Tables(store)
    store.create_table(_record("t1"))  # claimed; the registry does not list it yet
    await cluster.renew(tables)
    assert store.owner("t1") == ("a", "http://a")  # not released as idle
    assert store.renew() == {"t1"}
    store.close()


def _blocked(url: str, timeout: float = 5.0) -> None:
    """Wait until some session of the database waits for a row lock."""
    import psycopg

    end = time.monotonic() + timeout
    with psycopg.connect(url, autocommit=True) as conn:
        while time.monotonic() < end:
            if conn.execute("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                            ).fetchall():  # fmt: skip
                return
            time.sleep(0.02)
    raise AssertionError("nobody waited for a lock")


@pytest.mark.parametrize("work", ["renew", "batch"])
def test_a_node_locks_its_tables_in_one_order(
    nodes: tuple[PostgresStore, PostgresStore], pg_url: str, work: str
) -> None:
    """Found by bench-scaleout (two nodes, 50 tables): PostgreSQL reported 'deadlock detected'
    and answers were refused `not_stored`. A group commit locked its tables' ownership rows in
    the order the answers came, the lease renewal in the order it found them: each held a row
    the other waited for. Both now lock in the tables' order; here another transaction holds
    the first table's row while the node's work starts, then takes the second's."""
    import threading

    import psycopg

    a, _ = nodes
    for t in ("t2", "t1"):  # stored in this order: an unordered scan meets t2 first
        a.create_table(_record(t))
    failed: list[BaseException] = []

    def node_work() -> None:
        try:
            if work == "renew":
                assert a.renew() == {"t1", "t2"}
            else:
                a.append_batch([("t2", [ActionRow(0, 140, "chance")], False),
                                ("t1", [ActionRow(0, 140, "chance")], False)])  # fmt: skip
        except BaseException as e:
            failed.append(e)

    with psycopg.connect(pg_url) as other:
        other.execute("SELECT 1 FROM owners WHERE table_id = 't1' FOR UPDATE")
        worker = threading.Thread(target=node_work)
        worker.start()
        _blocked(pg_url)
        other.execute("SELECT 1 FROM owners WHERE table_id = 't2' FOR UPDATE")
        other.commit()
    worker.join(10)
    assert failed == []
