"""Issue 10, items 5, 8 and 9, over a real server process: requests and frames are capped before
they are read, a client's mistake is answered (never a traceback in the log), browsers are told
what the pages may do and cross-site requests are refused, seat tokens stay out of URLs, and an
unknown table is answered once, clearly."""

from __future__ import annotations

import json
import socket
import sqlite3
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from jamaica.web.limits import Limits
from jamaica.web.sockets import counted_as

from .server import Server, hello, recv, send

HUGE = 400_000_000  # bytes


@pytest.fixture
def logged(tmp_path: Path) -> Iterator[Server]:
    """A server whose stderr can be read while it runs."""
    srv = Server(tmp_path / "jamaica.db", log_file=True).start()
    try:
        yield srv
    finally:
        srv.stop()


def _tables(server: Server) -> int:
    with sqlite3.connect(server.db) as db:
        return int(db.execute("SELECT COUNT(*) FROM tables").fetchone()[0])


def _raw_post(server: Server, head: str, body_chunk: bytes, chunked: bool) -> tuple[bytes, int]:
    """Send a request's head, then stream up to HUGE bytes of body until the server answers and
    hangs up; the server's answer and how many body bytes got out."""
    s = socket.create_connection(("127.0.0.1", server.port))
    s.settimeout(10)
    s.sendall(head.encode())
    sent = 0
    try:
        while sent < HUGE:
            s.sendall(b"%x\r\n%b\r\n" % (len(body_chunk), body_chunk) if chunked else body_chunk)
            sent += len(body_chunk)
    except OSError:  # the server closed the connection: it will not read the rest
        pass
    answer = b""
    try:
        while chunk := s.recv(65536):
            answer += chunk
    except OSError:
        pass
    s.close()
    return answer, sent


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_a_400_MB_request_is_refused_without_being_read(logged: Server, chunked: bool) -> None:
    before = logged.rss_kb()
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {HUGE}"
    head = (f"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"{framing}\r\n\r\n")  # fmt: skip
    answer, sent = _raw_post(logged, head, b"[" * 65536, chunked)
    after = logged.rss_kb()
    print(f"\n400 MB POST ({'chunked' if chunked else 'Content-Length'}): refused after "
          f"{sent / 1e6:.1f} MB left the client; server RSS {before / 1024:.1f} → "
          f"{after / 1024:.1f} MB")  # fmt: skip
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"at most 16384 bytes" in answer
    assert sent < 64_000_000  # only what the socket buffers took: the server stopped reading
    assert after - before < 10 * 1024  # kB
    assert _tables(logged) == 0
    assert "Traceback" not in logged.log()


def test_binary_frames_are_answered_with_a_protocol_error(logged: Server) -> None:
    t = logged.table([("Ann", None), ("Bob", None)])
    with logged.ws(t["id"]) as ws:
        for _ in range(50):
            ws.send(b'{"op": "ping", "v": 1}')
            m = recv(ws)
            assert m["op"] == "error" and m["code"] == "binary", m
        send(ws, op="ping")
        assert recv(ws)["op"] == "pong"  # still up
    time.sleep(0.2)
    assert logged.log() == ""  # not one line, let alone a traceback, for a client's mistake


def test_deeply_nested_json_is_a_clear_error_on_the_socket_and_over_http(logged: Server) -> None:
    t = logged.table([("Ann", None), ("Bob", None)])
    with logged.ws(t["id"]) as ws:
        for deep in ("[" * 4000, "[" * 2000 + "]" * 2000, '[{"":' * 550 + "1" + "}]" * 550):
            ws.send(deep)
            m = recv(ws)
            assert m["op"] == "error" and m["code"] == "bad_json", m
        ws.send('{"op": "act", "v": 1, "action": "' + "x" * 6000 + '"}')
        assert recv(ws)["code"] == "too_big"
        send(ws, op="ping")
        assert recv(ws)["op"] == "pong"
    status, d = logged.post("/api/tables", ("[" * 16_000).encode())
    assert status == 400 and "nested too deeply" in d["error"]
    status, d = logged.post("/api/tables", b"\xff\xfe not utf-8")
    assert status == 400 and d["error"]
    status, d = logged.post("/api/tables", b"x" * 20_000)
    assert status == 413 and "at most" in d["error"]
    time.sleep(0.2)
    assert "Traceback" not in logged.log() and " 500" not in logged.log()


def test_a_frame_over_the_socket_cap_closes_that_socket_only(logged: Server) -> None:
    t = logged.table([("Ann", None), ("Bob", None)])
    with logged.ws(t["id"]) as ws:
        with pytest.raises(ConnectionClosed) as closed:  # the server may close mid-send
            ws.send("x" * 100_000)
            recv(ws, 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # too big
    with logged.ws(t["id"]) as ws:
        send(ws, op="ping")
        assert recv(ws)["op"] == "pong"
    assert "Traceback" not in logged.log()


# --- item 8: the browser's side --------------------------------------------------------------


def _ws(server: Server, table_id: str, origin: str | None) -> Any:
    headers = {} if origin is None else {"Origin": origin}
    return connect(f"ws://127.0.0.1:{server.port}/ws/{table_id}", additional_headers=headers,
                   open_timeout=10)  # fmt: skip


def test_websockets_from_another_site_are_refused(server: Server) -> None:
    t = server.table([("Ann", None), ("Bob", None)])
    for origin in ("https://evil.example", "null", f"http://127.0.0.1:{server.port}.evil.example"):
        with pytest.raises(InvalidStatus) as refused:
            _ws(server, t["id"], origin)
        assert refused.value.response.status_code == 403
    for origin in (f"http://127.0.0.1:{server.port}", None):  # the page's own, or no browser
        with _ws(server, t["id"], origin) as ws:
            hello(ws)


def test_allowed_origins_are_configurable(tmp_path: Path) -> None:
    srv = Server(tmp_path / "j.db", ("--allow-origin", "https://jamaica.example")).start()
    try:
        t = srv.table([("Ann", None), ("Bob", None)])
        with _ws(srv, t["id"], "https://jamaica.example") as ws:
            hello(ws)
        with pytest.raises(InvalidStatus):
            _ws(srv, t["id"], "https://evil.example")
    finally:
        srv.stop()


def test_a_cross_site_form_post_cannot_create_a_table(server: Server) -> None:
    body = json.dumps({"players": 2, "seats": [{"name": "A", "bot": None}] * 2}).encode()
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None):
        req = urllib.request.Request(server.url + "/api/tables", data=body, method="POST")
        req.add_header("Content-Type", kind or "")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(req, timeout=10)
        assert refused.value.code == 415
        assert "application/json" in json.loads(refused.value.read())["error"]
    assert server.get("/api/tables") == []
    status, _ = server.post("/api/tables", body)  # application/json
    assert status == 201


def test_every_response_carries_the_security_headers(server: Server) -> None:
    t = server.table([("Ann", None), ("Bob", None)])
    pages = ["/", f"/table/{t['id']}", f"/replay/{t['id']}", "/table/nope", "/nope"]
    files = ["/api/tables", "/api/board", "/static/table.js", "/static/style.css", "/static/x.js"]
    for path in pages + files:
        try:
            r = urllib.request.urlopen(server.url + path, timeout=10)
        except urllib.error.HTTPError as e:
            r = e
        csp = r.headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
        assert "unsafe-inline" not in csp
        assert r.headers["Referrer-Policy"] == "no-referrer", path
        assert r.headers["X-Content-Type-Options"] == "nosniff", path


def test_seat_links_keep_the_token_in_the_fragment(server: Server) -> None:
    t = server.table([("Ann", None), ("Bot", "greedy")])
    url, token = t["seats"][0]["url"], t["seats"][0]["token"]
    assert url.endswith(f"/table/{t['id']}#seat=0&token={token}")
    assert "?" not in url  # a fragment never reaches a server, a log or a Referer


def test_the_page_takes_its_seat_from_the_fragment_and_keeps_no_token_in_the_url(
    server: Server,
    browser: Any,
) -> None:
    t = server.table([("Ann", None), ("Bot", "greedy")])
    token = t["seats"][0]["token"]
    page = browser.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(t["seats"][0]["url"])
    page.wait_for_selector("#whoami:has-text('Ann')")
    page.wait_for_selector("#question:not([hidden]) #options button")
    assert token not in page.evaluate("location.search")
    # the old links, with the token in the query, still work, and the token leaves the address
    # (another table: the first browser to open a seat's link claims the seat)
    t = server.table([("Ann", None), ("Bot", "greedy")])
    token = t["seats"][0]["token"]
    old = browser.new_page()
    old.goto(f"{server.url}/table/{t['id']}?seat=0&token={token}")
    old.wait_for_selector("#whoami:has-text('Ann')")
    assert token not in old.evaluate("location.search")
    assert old.evaluate("location.pathname") == f"/table/{t['id']}"
    assert not [p for p in problems if "Content Security Policy" in p], problems
    old.close()
    page.close()


def test_an_unknown_table_is_a_404_page_and_a_socket_error(server: Server) -> None:
    for path in ("/table/nope", "/replay/nope"):
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(server.url + path, timeout=10)
        assert missing.value.code == 404
        page = missing.value.read().decode()
        assert "There is no such table" in page and "<script" not in page
    with server.ws("nope") as ws:
        m = recv(ws)
        assert m["op"] == "error" and m["code"] == "no_table"
        with pytest.raises(ConnectionClosed) as closed:
            recv(ws, 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404


def test_the_page_does_not_retry_a_table_that_is_not_there(
    server: Server,
    tmp_path: Path,
    browser: Any,
) -> None:
    """A table vanishes under an open page (the server comes back with other records): the page
    says so once and stops reconnecting."""
    t = server.table([("Ann", None), ("Bob", None)])
    page = browser.new_page()
    page.goto(t["spectator_url"])
    page.wait_for_selector("#board svg")
    server.kill()
    page.wait_for_selector("#status:has-text('reconnecting')")
    other = Server(tmp_path / "other.db")
    other.port = server.port
    other.start()
    try:
        page.wait_for_selector("#status:has-text('no such')")
        sockets: list[Any] = []
        page.on("websocket", lambda w: sockets.append(w))
        page.wait_for_timeout(3000)
        assert sockets == []  # no more tries
        lines = page.locator("#log p").all_inner_texts()
        assert sum("no such table" in x for x in lines) == 1
    finally:
        other.stop()
        page.close()


def test_handshakes_over_the_budget_are_refused_without_a_log_line(tmp_path: Path) -> None:
    """A WebSocket handshake over the address's HTTP budget is answered 429 before it opens,
    and — as the manual says of every refusal but a full server — writes no log line (uvicorn
    wrote "ERROR: ASGI callable returned without completing handshake." for each)."""
    srv = Server(tmp_path / "jamaica.db", ("--http-burst", "10", "--http-per-second", "0.1"),
                 log_file=True).start()  # fmt: skip
    try:
        refused = 0
        for _ in range(6):
            try:
                with connect(srv.url.replace("http", "ws") + "/ws/nosuchtable", open_timeout=10):
                    pass
            except InvalidStatus as e:
                assert e.response.status_code == 429
                refused += 1
        assert refused >= 3
        time.sleep(0.3)
        assert srv.log() == ""
    finally:
        srv.stop()


def _closed_by_server(s: socket.socket, within: float) -> bool:
    """Whether the server closes `s` within `within` seconds (its end: EOF or a reset)."""
    s.settimeout(within)
    try:
        return s.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


def test_silent_and_slow_connections_cannot_take_every_open_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plain TCP connections that send nothing, or their headers a line at a time, held a
    socket each for ever: 1,100 of them from one address under `ulimit -n 1024` left the server
    answering nothing, `/health` included (a review). Now one address holds at most twice
    `--connections-per-address` connections at once (the rest are closed at once), and a
    connection without a request's headers within JAMAICA_HEADER_SECONDS is closed."""
    monkeypatch.setenv("JAMAICA_HEADER_SECONDS", "1")
    srv = Server(tmp_path / "jamaica.db", log_file=True, files=300).start()
    attacker = ("127.0.0.2", 0)  # another loopback address than the operator's checks
    socks: list[socket.socket] = []
    try:
        for _ in range(200):
            socks.append(socket.create_connection(("127.0.0.1", srv.port), 5, attacker))
        shut = [s for s in socks if _closed_by_server(s, 0.05)]
        assert len(socks) - len(shut) <= 64 < len(socks) - 100, len(shut)
        with urllib.request.urlopen(srv.url + "/health", timeout=5) as r:  # another address
            assert r.status == 200
        slow = socket.create_connection(("127.0.0.1", srv.port), 5)
        slow.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n")
        start = time.monotonic()
        while time.monotonic() - start < 3 and not _closed_by_server(slow, 0.2):
            slow.sendall(b"X-Slow: 1\r\n")  # a line at a time, never the end of the headers
        assert time.monotonic() - start < 2.5, "a slow sender kept its socket"
        left = [s for s in socks if s not in shut]
        assert all(_closed_by_server(s, 2.0) for s in left)  # silent: closed after 1 s
        with urllib.request.urlopen(srv.url + "/api/tables", timeout=5) as r:
            assert r.status == 200
        assert "Traceback" not in srv.log()
    finally:
        for s in socks:
            s.close()
        srv.stop()


def test_silent_connections_are_counted_by_subscriber_not_by_ipv6_address() -> None:
    """The cap on connections before a request is per peer as every per-address limit is: an
    IPv6 subscriber's whole /64 is one peer (else the 2^64 addresses it is given would each get
    the cap); a trusted proxy and a Unix socket are not capped."""
    key = counted_as(Limits(trusted_proxies=("10.0.0.0/8",)))
    assert key("2001:db8:1:2::1") == key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert key("2001:db8:1:3::1") != key("2001:db8:1:2::1")
    assert key("fe80::1%eth0") == "fe80::/64"
    assert key("192.0.2.7") == "192.0.2.7" != key("192.0.2.8")
    assert key("10.1.2.3") is None and key("") is None  # the proxy; a Unix socket (no address)
    assert counted_as(Limits(trusted_proxies=("*",)))("192.0.2.7") is None
