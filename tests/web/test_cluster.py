"""Issue 23, several nodes (real `jamaica serve` processes on a real PostgreSQL): a client that
reaches the wrong node is sent to the owner; a node killed with SIGKILL has its tables taken over
by another within the lease and a few seconds, with every acknowledged decision and the same
game; a node paused past its lease (SIGSTOP) stores nothing when it wakes and sends its clients
to the new owner; SIGTERM hands a node's tables over."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from jamaica.web.storage import open_store

from ..services import Postgres
from .server import Server, hello, recv, send, until

LEASE = 2.0


def _node(tmp_path: Path, url: str, name: str) -> Server:
    server = Server(tmp_path / f"{name}.db", log_file=True, db_url=url)
    server.args = ("--node", name, "--advertise", server.url, "--lease", str(LEASE))
    return server.start()


@pytest.fixture
def cluster(tmp_path: Path, postgres: Postgres) -> Iterator[tuple[str, Server, Server]]:
    url = postgres.database()
    subprocess.run([sys.executable, "-m", "jamaica", "db", "upgrade", "--db", url], check=True,
                   capture_output=True)  # fmt: skip
    a = _node(tmp_path, url, "a")
    b = _node(tmp_path, url, "b")
    yield url, a, b
    for node in (a, b):
        if node.proc is not None and node.proc.poll() is None:
            os.kill(node.proc.pid, signal.SIGCONT)
        node.stop()


def _question(ws: Any) -> dict[str, Any]:
    return until(ws, lambda m: m["op"] == "update" and m["question"] is not None
                 and not m["question"]["early"])  # fmt: skip


def _answer(ws: Any, update: dict[str, Any]) -> dict[str, Any]:
    """Answer the question with its first choice; the next update that asks again."""
    send(ws, op="act", action=update["question"]["options"][0]["action"], turn=update["turn"])
    return until(ws, lambda m: m["op"] == "update" and m["turn"] > update["turn"]
                 and m["question"] is not None and not m["question"]["early"])  # fmt: skip


def _knock(ws: Any, token: str) -> dict[str, Any]:
    """Say hello to a node; its first word back. A node that does not keep the table says
    `moved` and closes as soon as the socket opens, without waiting for the hello (CI once saw
    the hello meet that closed socket), so the hello may find the door shut: the `moved` that
    came before the close is still read."""
    with contextlib.suppress(ConnectionClosed):
        send(ws, op="hello", seat=0, token=token)
    return recv(ws)


def _stored(url: str, table_id: str) -> int:
    store = open_store(url)
    try:
        return len(store.actions(table_id))
    finally:
        store.close()


def test_the_wrong_node_sends_the_client_to_the_owner(
    cluster: tuple[str, Server, Server],
) -> None:
    _, a, b = cluster
    made = a.table([("Anne", None), ("Bot", "greedy")])
    with b.ws(made["id"]) as ws:
        moved = _knock(ws, made["seats"][0]["token"])
        assert moved == {"op": "moved", "v": 1, "to": a.url}
    with b.ws(made["id"]) as ws:  # a slow client: the node has closed before its hello
        time.sleep(1.5)
        assert _knock(ws, made["seats"][0]["token"]) == moved
    with a.ws(made["id"]) as ws:
        assert hello(ws, 0, made["seats"][0]["token"])["seat"] == 0


def test_a_killed_node_s_tables_are_taken_over_with_every_acknowledged_decision(
    cluster: tuple[str, Server, Server],
) -> None:
    url, a, b = cluster
    made = a.table([("Anne", None), ("Bot", "greedy")], seconds_per_decision=300)
    with a.ws(made["id"]) as ws:
        hello(ws, 0, made["seats"][0]["token"])
        update = _question(ws)
        for _ in range(3):
            update = _answer(ws, update)
        seen_turn = update["turn"]
        deadline = update["question"]["deadline_at"]
    acknowledged = _stored(url, made["id"])
    a.kill()
    killed = time.monotonic()
    while True:  # the client comes back through the front door: node b
        with b.ws(made["id"]) as ws:
            first = _knock(ws, made["seats"][0]["token"])
            if first["op"] == "moved":  # a's lease has not run out yet
                assert time.monotonic() - killed < LEASE + 5
                time.sleep(0.2)
                continue
            assert first["op"] == "welcome"
            update = _question(ws)
            back = time.monotonic() - killed
            assert update["turn"] == seen_turn  # the same game, at the same question
            assert abs(update["question"]["deadline_at"] - deadline) < 1500  # and the same clock
            _answer(ws, update)
            break
    assert back < LEASE + 4, back
    assert _stored(url, made["id"]) > acknowledged
    assert "keeps table" in b.log()  # with its time: a plain log file's lines can be ordered
    assert re.search(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARNING jamaica.web: node b keeps "
                     r"table", b.log(), re.MULTILINE), b.log()[-2000:]  # fmt: skip
    metrics = urllib.request.urlopen(f"{b.url}/metrics", timeout=5).read().decode()
    assert 'jamaica_takeovers_total{kind="gained"} 1.0' in metrics


def test_a_paused_owner_stores_nothing_when_it_wakes_and_sends_its_clients_on(
    cluster: tuple[str, Server, Server],
) -> None:
    url, a, b = cluster
    made = a.table([("Anne", None), ("Bot", "greedy")])
    with a.ws(made["id"]) as ws:
        hello(ws, 0, made["seats"][0]["token"])
        update = _question(ws)
        before = _stored(url, made["id"])
        assert a.proc is not None
        os.kill(a.proc.pid, signal.SIGSTOP)
        time.sleep(LEASE + 2.5)  # a's lease runs out; b takes the table over
        assert "keeps table" in b.log()
        send(ws, op="act", action=update["question"]["options"][0]["action"], turn=update["turn"])
        os.kill(a.proc.pid, signal.SIGCONT)  # the stale owner wakes with an answer waiting
        said = until(ws, lambda m: m["op"] in ("moved", "error"), timeout=15)
        if said["op"] == "error":
            assert said["code"] == "not_stored", said
            said = until(ws, lambda m: m["op"] == "moved", timeout=15)
        assert said["to"] == b.url
    assert _stored(url, made["id"]) == before  # nothing from the stale owner
    with b.ws(made["id"]) as ws:  # the game goes on where it is kept now
        hello(ws, 0, made["seats"][0]["token"])
        assert _question(ws)["turn"] == update["turn"]


def test_sigterm_hands_the_tables_over(cluster: tuple[str, Server, Server]) -> None:
    _, a, b = cluster
    made = a.table([("Anne", None), ("Bot", "greedy")])
    with a.ws(made["id"]) as ws:
        hello(ws, 0, made["seats"][0]["token"])
        update = _question(ws)
        assert a.proc is not None
        stopping = time.monotonic()
        a.proc.terminate()
        until(ws, lambda m: m["op"] == "moved", timeout=10)
    while True:
        with b.ws(made["id"]) as ws:
            if _knock(ws, made["seats"][0]["token"])["op"] == "welcome":
                assert _question(ws)["turn"] == update["turn"]
                break
        assert time.monotonic() - stopping < 5, "the table was not handed over"
        time.sleep(0.2)
    assert time.monotonic() - stopping < 3  # not the lease: handed over at once
    assert a.proc.wait(20) in (0, -signal.SIGTERM)  # and the node stops (a deploy goes on)


def test_a_node_whose_database_is_gone_still_stops_on_sigterm(tmp_path: Path) -> None:
    """A deploy during a database outage: the node cannot hand its tables over (their leases
    run out instead, and another node takes them), but SIGTERM still stops it within seconds."""
    from jamaica.web.services import start_postgres

    pg = start_postgres()
    try:
        url = pg.database()
        a = _node(tmp_path, url, "a")
        made = a.table([("Anne", None), ("Bot", "greedy")])
        with a.ws(made["id"]) as ws:
            hello(ws, 0, made["seats"][0]["token"])
            _question(ws)
            pg.stop(fast=True)
            assert a.proc is not None
            stopping = time.monotonic()
            a.proc.terminate()
            assert a.proc.wait(20) in (0, -signal.SIGTERM)
        assert time.monotonic() - stopping < 10
        assert "could not hand its tables over" in a.log()
    finally:
        pg.close()


def test_every_node_lists_finished_games_after_a_restart(
    cluster: tuple[str, Server, Server],
) -> None:
    """Operator's review: after a node restarted, 19 of 57 finished games were in no node's
    lobby, and both players' /api/me said "tables": [] and 0 games on every node (finished
    tables were listed from memory, and a node of a cluster rebuilt none at start). They are
    read from the database now, whichever node finished them."""
    from jamaica.web.players import key_hash
    from jamaica.web.store import PlayerRecord

    from .test_history import _finish

    url, a, b = cluster
    store = open_store(url)
    try:
        store.create_player(PlayerRecord("ann", "Ann", key_hash("a" * 43), time.time()))
        for i in range(3):
            _finish(store, f"done{i}", i, created=time.time() + i)
    finally:
        store.close()
    a.stop()
    a.start()  # a restart, as a deploy does
    for node in (a, b):
        me = node.get("/api/me", "a" * 43)
        assert [t["id"] for t in me["tables"]] == ["done2", "done1", "done0"], node.url
        assert me["stats"]["games"] == 3
    listed = [t["id"] for t in a.get("/api/tables") if t["status"] == "finished"]
    assert listed == ["done2", "done1", "done0"]  # the restarted node's lobby, from the database
