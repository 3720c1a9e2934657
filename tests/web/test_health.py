"""Monitoring over a real server: /health (liveness), /ready (readiness: the database answers,
the tables are restored) and /metrics (Prometheus text, counting what was played)."""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
import urllib.error
import urllib.request
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from jamaica.web import health
from jamaica.web.health import BUCKETS, Monitor, count_takeover, install, monitor_of
from jamaica.web.store_sqlite import SQLiteStore

from .server import Server, hello, send, until


def fetch(srv: Server, path: str) -> tuple[int, Message, bytes]:
    """(status, headers (their names in any case), body) of a GET, whatever the status."""
    try:
        with urllib.request.urlopen(srv.url + path, timeout=10) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def samples(srv: Server) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of /metrics, parsed by prometheus_client: (name, labels) -> value."""
    status, headers, body = fetch(srv, "/metrics")
    assert status == 200 and headers["Content-Type"].startswith("text/plain; version=0.0.4")
    out = {}
    for family in text_string_to_metric_families(body.decode()):
        for s in family.samples:
            out[s.name, tuple(sorted(s.labels.items()))] = s.value
    return out


def _question(m: dict[str, Any]) -> bool:
    return m["op"] == "update" and (m["question"] is not None or m["view"]["game_over"])


def test_health_and_ready_answer_once_started(server: Server) -> None:
    status, headers, body = fetch(server, "/health")
    assert status == 200 and headers["Content-Type"] == "application/json"
    assert json.loads(body) == {"status": "ok", "degraded": {}}
    status, _, body = fetch(server, "/ready")
    assert status == 200 and json.loads(body) == {"status": "ready"}
    status, headers, _ = fetch(server, "/health")  # the security headers, as on every response
    assert "default-src 'self'" in headers["Content-Security-Policy"]


@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_ready_is_503_when_the_database_is_unusable(tmp_path: Path, how: str) -> None:
    db = tmp_path / "jamaica.db"
    srv = Server(db).start()
    try:
        assert fetch(srv, "/ready")[0] == 200
        if how == "removed":
            db.unlink()
        else:  # another file at the path (a restored backup put in place under the server)
            shutil.copy(db, tmp_path / "other.db")
            (tmp_path / "other.db").replace(db)
        end = time.monotonic() + 10  # the answer of the database is reused for a second
        while True:
            status, headers, body = fetch(srv, "/ready")
            if status == 503 or time.monotonic() > end:
                break
            time.sleep(0.2)
        assert status == 503, body
        answer = json.loads(body)
        assert answer["status"] == "unready" and headers["Retry-After"] == "1"
        assert f"has been {how}" in answer["reasons"]["database"], answer
        status, _, body = fetch(srv, "/health")  # alive all the same: not to be restarted
        assert status == 200 and json.loads(body)["status"] == "ok"
    finally:
        srv.stop()


def test_metrics_count_what_was_played(server: Server) -> None:
    before = samples(server)
    for name in ("process_cpu_seconds_total", "process_resident_memory_bytes"):
        assert (name, ()) in before  # what prometheus_client gives for free
    assert any(name == "python_info" for name, _ in before)
    assert before["jamaica_tables_live", ()] == 0
    assert before["jamaica_websocket_connections", ()] == 0
    for by in ("player", "bot", "chance", "timeout"):
        assert before["jamaica_decisions_total", (("by", by),)] == 0
    for kind in ("gained", "lost"):
        assert before["jamaica_takeovers_total", (("kind", kind),)] == 0
    assert before["jamaica_answer_seconds_count", ()] == 0
    assert before["jamaica_storage_failures_total", ()] == 0

    t = server.table([("Ann", None), ("Bot", "greedy")])
    acts = 0
    with server.ws(t["id"]) as me:
        hello(me, 0, t["seats"][0]["token"])
        m = until(me, _question)
        while acts < 8 and not m["view"]["game_over"]:
            turn = m["turn"]
            send(me, op="act", action=m["question"]["options"][0]["action"], turn=turn)
            acts += 1
            ack = until(me, lambda x, t=turn: x["op"] == "update" and x["turn"] > t)
            m = ack if _question(ack) else until(me, _question)
        # The table waits for Ann now: every decision so far is stored and counted.
        after = samples(server)
        assert after["jamaica_websocket_connections", ()] == 1
    assert after["jamaica_tables_live", ()] == 1
    db = sqlite3.connect(f"file:{server.db}?mode=ro", uri=True)
    stored = dict(db.execute("SELECT by, count(*) FROM actions GROUP BY by").fetchall())
    db.close()
    assert stored["player"] == acts and sum(stored.values()) == m["turn"]
    for by in ("player", "bot", "chance", "timeout"):
        assert after["jamaica_decisions_total", (("by", by),)] == stored.get(by, 0), by

    # One answer observed per act message, from its arrival to its update queued.
    assert after["jamaica_answer_seconds_count", ()] == acts
    assert 0 < after["jamaica_answer_seconds_sum", ()] < acts * 10
    bounds = [*(str(b) for b in BUCKETS), "+Inf"]
    counts = [after["jamaica_answer_seconds_bucket", (("le", b),)] for b in bounds]
    assert counts == sorted(counts) and counts[-1] == acts
    # Every commit of the table timed: Ann's, and the bot's and the dice's (several a commit).
    commits = after["jamaica_store_commit_seconds_count", ()]
    assert acts <= commits <= m["turn"]
    assert after["jamaica_storage_failures_total", ()] == 0


def test_monitoring_is_read_like_any_read_within_the_http_budget(tmp_path: Path) -> None:
    """Exempt from nothing: each request costs 1 of its address's budget, so a scrape every few
    seconds never comes near it (40/s, 400 at once by default); only a budget made tiny on
    purpose refuses one."""
    srv = Server(tmp_path / "jamaica.db", ("--http-per-second", "0.1", "--http-burst", "10"))
    srv.start()
    try:
        got = [fetch(srv, "/metrics")[0] for _ in range(12)]
        assert 200 in got and got[-1] == 429
    finally:
        srv.stop()


def test_each_app_has_its_own_registry(tmp_path: Path) -> None:
    """Two apps in one process: each store reaches its own monitor; nothing is global."""
    a, b = SQLiteStore(tmp_path / "a.db"), SQLiteStore(tmp_path / "b.db")
    try:
        ma, mb = install(a, Monitor()), install(b, Monitor())
        assert monitor_of(a) is ma and monitor_of(b) is mb and health.current() is mb
        count_takeover("gained", store=a)
        count_takeover("lost")  # the current (last installed) app's
        assert ma.registry.get_sample_value("jamaica_takeovers_total", {"kind": "gained"}) == 1
        assert ma.registry.get_sample_value("jamaica_takeovers_total", {"kind": "lost"}) == 0
        assert mb.registry.get_sample_value("jamaica_takeovers_total", {"kind": "lost"}) == 1
        ma.degrade("redis", "connection refused")
        assert ma.degraded == {"redis": "connection refused"} and not mb.degraded
        assert ma.registry.get_sample_value("jamaica_degraded", {"component": "redis"}) == 1
        ma.recover("redis")
        assert ma.registry.get_sample_value("jamaica_degraded", {"component": "redis"}) == 0
    finally:
        a.close()
        b.close()
