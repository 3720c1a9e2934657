"""Issue 10, item 6: every client's share of the server is capped, and the caps are configurable
(`jamaica serve` options, JAMAICA_* variables) — over a real server process."""

from __future__ import annotations

import contextlib
import http.client
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from jamaica.web.limits import FILES_KEPT, Flood, Limits, PerMinute, TokenBucket
from jamaica.web.security import origin_allowed

from .server import Server, hello, recv, recv_reply, send

TWO = [("Ann", None), ("Bob", None)]


def _post(server: Server, forwarded_for: str | None = None) -> tuple[int, Any, Any]:
    body = {"players": 2, "seats": [{"name": n, "bot": b} for n, b in TWO]}
    req = urllib.request.Request(server.url + "/api/tables", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})  # fmt: skip
    if forwarded_for is not None:
        req.add_header("X-Forwarded-For", forwarded_for)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read()), r.headers
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read()), e.headers


def _closed_with(ws: Any) -> int:
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            recv(ws, 5)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


@pytest.fixture
def limited(tmp_path: Path, request: pytest.FixtureRequest) -> Any:
    srv = Server(tmp_path / "jamaica.db", tuple(request.param), log_file=True).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.mark.parametrize("limited", [["--connections-per-address", "3"]], indirect=True)
def test_connections_per_address_are_capped(limited: Server) -> None:
    t = limited.table(TWO)
    with contextlib.ExitStack() as stack:
        conns = [stack.enter_context(limited.ws(t["id"])) for _ in range(3)]
        for ws in conns:
            hello(ws)
        with limited.ws(t["id"]) as fourth:
            m = recv(fourth)
            assert m["op"] == "error" and m["code"] == "too_many_connections", m
            assert _closed_with(fourth) == 1008
        conns[0].close()
        time.sleep(0.3)
        with limited.ws(t["id"]) as again:  # one left: room for one more
            hello(again)
    assert "Traceback" not in limited.log()


@pytest.mark.parametrize(
    "limited", [["--messages-per-second", "5", "--message-burst", "10"]], indirect=True
)
def test_a_connection_over_its_rate_is_told_and_a_flood_is_closed(limited: Server) -> None:
    t = limited.table(TWO)
    with limited.ws(t["id"]) as ws:
        for _ in range(10):  # the burst
            send(ws, op="ping")
            assert recv(ws)["op"] == "pong"
        send(ws, op="ping")
        m = recv(ws)
        assert m["op"] == "error" and m["code"] == "rate_limited" and "5 messages" in m["message"]
        time.sleep(0.5)  # 2.5 tokens back
        send(ws, op="ping")
        assert recv(ws)["op"] == "pong"
    with limited.ws(t["id"]) as flooder:
        codes = []
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(1000):
                send(flooder, op="ping")
                codes.append(recv_op(flooder))
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert codes.count("pong") == 10 and "rate_limited" in codes
        assert codes[-1] == "flooding" and len(codes) < 40  # closed after a burst's worth
    assert "Traceback" not in limited.log()


def recv_op(ws: Any) -> str:
    m = recv(ws)
    return str(m["code"] if m["op"] == "error" else m["op"])


@pytest.mark.parametrize(
    "limited", [["--messages-per-second", "2", "--message-burst", "3"]], indirect=True
)
def test_accepted_answers_are_never_rate_limited(limited: Server) -> None:
    """A bot client answering at once plays far faster than the rate: the game paces it."""
    t = limited.table([("Ann", None), ("Bot", "greedy")])
    with limited.ws(t["id"]) as me:
        hello(me, 0, t["seats"][0]["token"])
        began, answers = time.monotonic(), 0
        while answers < 40:
            m = recv_reply(me)
            assert m["op"] == "update", m  # never an error
            if m["view"]["game_over"]:
                break
            if m["question"]:
                action = m["question"]["options"][0]["action"]
                send(me, op="act", action=action, turn=m["turn"])
                answers += 1
        assert answers / (time.monotonic() - began) > 2 * 2


@pytest.mark.parametrize("limited", [["--tables-per-minute", "3"]], indirect=True)
def test_tables_per_address_per_minute_are_capped(limited: Server) -> None:
    for _ in range(3):
        assert _post(limited)[0] == 201
    status, d, headers = _post(limited)
    assert status == 429 and "at most 3 new tables a minute" in d["error"]
    assert 1 <= int(headers["Retry-After"]) <= 60
    assert len(limited.get("/api/tables")) == 3


@pytest.mark.parametrize("limited", [["--max-tables", "2"]], indirect=True)
def test_live_tables_in_total_are_capped(limited: Server) -> None:
    assert _post(limited)[0] == 201 and _post(limited)[0] == 201
    status, d, headers = _post(limited)
    assert status == 503 and "2 unfinished tables" in d["error"] and headers["Retry-After"]


def test_forwarded_for_counts_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    plain = Server(tmp_path / "a.db", ("--tables-per-minute", "1")).start()
    try:  # by default anyone could claim any address: the header is ignored
        assert _post(plain, "203.0.113.1")[0] == 201
        assert _post(plain, "203.0.113.2")[0] == 429
    finally:
        plain.stop()
    proxied = Server(tmp_path / "b.db", ("--tables-per-minute", "1", "--trust-proxy", "127.0.0.1"))
    proxied.start()
    try:  # behind a trusted proxy, each client is known by the address it forwards
        assert _post(proxied, "203.0.113.1")[0] == 201
        assert _post(proxied, "203.0.113.2")[0] == 201
        assert _post(proxied, "203.0.113.1")[0] == 429
        assert _post(proxied, "198.51.100.7, 203.0.113.2")[0] == 429  # the proxy's own entry
    finally:
        proxied.stop()


def test_limits_come_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAMAICA_MAX_TABLES", "1")
    srv = Server(tmp_path / "a.db").start()
    try:
        assert _post(srv)[0] == 201
        assert _post(srv)[0] == 503
    finally:
        srv.stop()
    monkeypatch.setenv("JAMAICA_MAX_TABLES", "many")
    out = subprocess.run([sys.executable, "-m", "jamaica", "serve", "--db",
                          f"sqlite:///{tmp_path / 'b.db'}"], capture_output=True, text=True,
                         timeout=30)  # fmt: skip
    assert out.returncode == 2 and "JAMAICA_MAX_TABLES must be a number" in out.stderr
    assert "Traceback" not in out.stderr


# --- the pieces --------------------------------------------------------------------------------


def test_options_win_over_the_environment_which_wins_over_the_defaults() -> None:
    env = {"JAMAICA_MAX_TABLES": "7", "JAMAICA_TRUSTED_PROXIES": "10.0.0.1, 10.0.0.2"}
    assert Limits.from_env({}) == Limits()
    limits = Limits.from_env(env, max_tables=None, tables_per_minute=4)
    assert (limits.max_tables, limits.tables_per_minute) == (7, 4)
    assert limits.trusted_proxies == ("10.0.0.1", "10.0.0.2")
    assert Limits.from_env(env, trusted_proxies=["10.0.0.9,10.0.0.8"]).trusted_proxies == (
        "10.0.0.9",
        "10.0.0.8",
    )
    for bad in ({"JAMAICA_MAX_TABLES": "0"}, {"JAMAICA_MESSAGES_PER_SECOND": "nan"}):
        with pytest.raises(ValueError):
            Limits.from_env(bad)


def test_a_token_bucket_allows_a_burst_then_its_rate() -> None:
    bucket = TokenBucket(rate=2, burst=3, now=0)
    assert [bucket.take(0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(0.5) and not bucket.take(0.5)
    flood = Flood(Limits(messages_per_second=10, message_burst=5), now=0)
    answers = [flood.allow(0) for _ in range(20)]
    assert answers[:5] == [True] * 5 and answers[5:10] == [False] * 5 and answers[10] is None
    fast = Flood(Limits(messages_per_second=1, message_burst=2), now=0)
    for _ in range(100):  # accepted answers give their tokens back
        assert fast.allow(0)
        fast.refund()


def test_tables_per_minute_is_a_sliding_window() -> None:
    window = PerMinute(2)
    for now in (0, 1):
        assert window.wait("a", now) is None
        window.add("a", now)
    assert window.wait("a", 30) == 30 and window.wait("b", 30) is None
    assert window.wait("a", 60.5) is None


@pytest.mark.parametrize(
    ("origin", "host", "allowed", "ok"),
    [
        (None, "example.org", (), True),
        ("https://example.org", "example.org", (), True),
        ("http://example.org:8000", "example.org:8000", (), True),
        ("https://example.org:443", "example.org", (), True),
        ("https://evil.example", "example.org", (), False),
        ("https://example.org.evil.example", "example.org", (), False),
        ("null", "example.org", (), False),
        ("https://play.example.org", "127.0.0.1:8000", ("https://play.example.org",), True),
        ("https://anything.example", "example.org", ("*",), True),
    ],
)
def test_origins(origin: str | None, host: str, allowed: tuple[str, ...], ok: bool) -> None:
    headers = {"host": host} | ({} if origin is None else {"origin": origin})
    assert origin_allowed(headers, allowed) is ok


def test_a_full_server_refuses_new_sockets_and_still_answers_its_operator(tmp_path: Path) -> None:
    """Under `ulimit -n 300` the server holds at most 300 − FILES_KEPT WebSockets (a review held
    1,003 sockets under `ulimit -n 1024`: every new player, /health and /metrics got no answer,
    and the log said nothing): the next is told `server_full` and closed with 1013, /health and
    /api/status still answer and say so, and a socket closed makes room again."""
    room = ("--connections-per-address", "1000", "--http-burst", "5000")  # one address: the test
    srv = Server(tmp_path / "jamaica.db", room, log_file=True, files=300).start()
    try:
        status = srv.get("/api/status")
        cap = status["max_connections"]
        assert cap == 300 - FILES_KEPT
        t = srv.table(TWO)
        with contextlib.ExitStack() as stack:
            conns = [stack.enter_context(srv.ws(t["id"])) for _ in range(cap)]
            hello(conns[-1], 0, t["seats"][0]["token"])  # a player's (a spectator's: crowded)
            with srv.ws(t["id"]) as over:
                m = recv(over)
                assert m["op"] == "error" and m["code"] == "server_full", m
                assert _closed_with(over) == 1013
            with urllib.request.urlopen(srv.url + "/health", timeout=10) as r:
                assert r.status == 200
            status = srv.get("/api/status")
            assert status["connections"] == cap and status["refused"]["server_full"] == 1
            conns[0].close()
            time.sleep(0.3)
            with srv.ws(t["id"]) as again:  # room for one
                hello(again)
        assert "the server is full" in srv.log() and "Traceback" not in srv.log()
    finally:
        srv.stop()


def test_every_write_takes_json_only(tmp_path: Path) -> None:
    """The manual says the API takes JSON only: a cross-site form can send a form's types and
    text/plain without the browser asking first. Every POST refuses them with 415 and changes
    nothing (a review created players with text/plain, form and multipart bodies from a foreign
    origin); JSON, or no body and no type, is taken."""
    srv = Server(tmp_path / "jamaica.db").start()
    try:
        player = srv.player("Ann")
        t = srv.table(TWO)
        paths = ["/api/players", "/api/me", f"/api/tables/{t['id']}/sit",
                 f"/api/tables/{t['id']}/start", f"/api/tables/{t['id']}/decline",
                 f"/api/tables/{t['id']}/rematch", f"/api/tables/{t['id']}/claim",
                 "/api/play-now", "/api/tables", f"/api/tables/{t['id']}/analysis"]  # fmt: skip
        kinds = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; b=x"]
        for path in paths:
            for kind in kinds:
                req = urllib.request.Request(
                    srv.url + path, data=b'{"name": "Eve"}', method="POST",
                    headers={"Content-Type": kind, "X-Player-Key": player["key"],
                             "Origin": "https://evil.example"})  # fmt: skip
                with pytest.raises(urllib.error.HTTPError) as refused:
                    urllib.request.urlopen(req, timeout=10)
                assert refused.value.code == 415, (path, kind, refused.value.code)
                assert "JSON" in json.loads(refused.value.read())["error"]
        conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
        conn.putrequest("POST", "/api/players", skip_accept_encoding=True)  # a body, no type
        conn.putheader("Content-Length", "15")
        conn.endheaders(b'{"name": "Eve"}')
        answer = conn.getresponse()
        assert answer.status == 415, answer.status
        conn.close()
        assert srv.get("/api/me", key=player["key"])["name"] == "Ann"  # nothing changed
    finally:
        srv.stop()


@pytest.mark.parametrize("limited", [["--tables-per-minute", "2"]], indirect=True)
def test_play_now_counts_against_the_tables_a_minute(limited: Server) -> None:
    """Every way to make a table goes through the same caps: play-now made 36 rated tables in a
    second from one address, and a rematch chain 181 a minute, neither counted (a review)."""
    ann, ben = limited.player("Ann"), limited.player("Ben")
    status, first = limited.post("/api/play-now", {"edition": "2021", "players": 2}, ann["key"])
    assert (status, first["created"]) == (201, True)
    status, second = limited.post("/api/play-now", {"edition": "classic", "players": 3},
                                  ben["key"])  # fmt: skip
    assert (status, second["created"]) == (201, True)  # no table of that kind: a new one
    status, third = limited.post("/api/play-now", {"edition": "classic", "players": 4},
                                 ann["key"])  # fmt: skip
    assert status == 429 and "new tables a minute" in third["error"], third
    status, refused, _ = _post(limited)  # the plain way is over the cap as well
    assert status == 429, refused


@pytest.mark.parametrize("limited", [["--max-connections", "10"]], indirect=True)
def test_the_last_tenth_of_a_full_server_is_kept_for_players(limited: Server) -> None:
    """A crowd of spectators filled a node to its cap and a player could not come back to their
    seat (a review). Spectators may fill it to 90%; the rest is the players'."""
    t = limited.table(TWO)
    with contextlib.ExitStack() as stack:
        for _ in range(9):
            hello(stack.enter_context(limited.ws(t["id"])))  # nine spectators: welcome
        late = stack.enter_context(limited.ws(t["id"]))
        send(late, op="hello", seat=None)
        m = recv_reply(late)
        while m["op"] != "error":
            m = recv_reply(late)
        assert m["code"] == "server_full", m
        assert _closed_with(late) == 1013
        time.sleep(0.3)
        player = stack.enter_context(limited.ws(t["id"]))
        hello(player, 0, t["seats"][0]["token"])  # the tenth socket: a player's, welcome
        with limited.ws(t["id"]) as eleventh:  # over the cap: nobody
            assert recv(eleventh)["code"] == "server_full"
    assert limited.get("/api/status")["refused"]["server_full"] == 2
