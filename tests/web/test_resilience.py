"""Issue 10: no client can hold up a table, a failing bot or a failing disk never stalls one
silently, and one bad table cannot stop the server (real sockets, a real server process)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import time
from pathlib import Path
from typing import Any

from jamaica import Config
from jamaica.web.store import ActionRow, TableRecord
from jamaica.web.store_sqlite import SQLiteStore
from jamaica.web.tables import token_hash

from .server import Server, hello, recv, send, until


def _question(m: dict[str, Any]) -> bool:
    return m["op"] == "update" and m["question"] is not None


def _question_or_end(m: dict[str, Any]) -> bool:
    return m["op"] == "update" and (m["question"] is not None or m["view"]["game_over"])


def _frame(text: str) -> bytes:
    """A masked client text frame."""
    data = text.encode()
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    assert len(data) < 126
    return bytes([0x81, 0x80 | len(data)]) + mask + body


def never_reading_client(port: int, table_id: str) -> socket.socket:
    """Says hello as a spectator, then only sends pings and never reads a byte."""
    sock = socket.socket()
    # A small window and small segments keep the server's socket buffers small too, so they
    # fill within one game, as they would over a slow link.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (f"GET /ws/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
         f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
         f"Origin: http://127.0.0.1:{port}\r\n\r\n").encode()
    )  # fmt: skip
    response = b""
    while b"\r\n\r\n" not in response:  # the handshake's answer is the last thing it reads
        response += sock.recv(1)
    assert response.startswith(b"HTTP/1.1 101"), response
    sock.sendall(_frame(json.dumps({"op": "hello", "v": 1, "seat": None})))
    return sock


def test_a_reader_that_never_reads_does_not_hold_up_the_table(server: Server) -> None:
    # Three bots: many updates each answer, enough to fill any socket buffer (megabytes).
    t = server.table([("Ann", None), ("B", "greedy"), ("C", "greedy"), ("D", "greedy")])
    attackers = [never_reading_client(server.port, t["id"]) for _ in range(3)]
    worst = 0.0
    try:
        with server.ws(t["id"]) as me:
            hello(me, 0, t["seats"][0]["token"])
            m = until(me, _question)
            for _ in range(1000):
                for sock in attackers:
                    with contextlib.suppress(OSError):  # keep talking; closed is fine too
                        sock.sendall(_frame('{"op":"ping","v":1}'))
                turn = m["turn"]
                began = time.monotonic()
                send(me, op="act", action=m["question"]["options"][0]["action"], turn=turn)
                ack = until(me, lambda x, t=turn: x["op"] == "update" and x["turn"] > t, 10)
                worst = max(worst, time.monotonic() - began)
                m = ack
                if ack["view"]["game_over"]:
                    break
                m = ack if ack["question"] else until(me, _question_or_end, 10)
                if m["view"]["game_over"]:
                    break
            assert m["view"]["game_over"]
    finally:
        for sock in attackers:
            sock.close()
    print(f"\nslowest answer with 3 never-reading spectators: {worst * 1000:.0f} ms")
    assert worst < 1.0


def _store_table(
    db: Path, table_id: str, config: Any, seats: list[dict[str, Any]], actions: list[int]
) -> None:
    store = SQLiteStore(db)
    store.create_table(TableRecord(table_id, config, seats, 0, None, time.time()))
    store.append_many(table_id, [ActionRow(i, a, "player") for i, a in enumerate(actions)])
    store.close()


def test_one_bad_table_does_not_stop_the_server(tmp_path: Path) -> None:
    db = tmp_path / "jamaica.db"
    good = [{"name": "A", "bot": "greedy", "token_hash": None},
            {"name": "B", "bot": "random", "token_hash": None}]  # fmt: skip
    _store_table(db, "good", Config(2).to_dict(), good, [])
    _store_table(db, "badconfig", {"players": 9}, good, [])
    _store_table(db, "badrow", Config(2).to_dict(), good, [205, 205, 205])
    # An older server accepted this bot: it never finished deciding.
    nan = [{"name": "A", "bot": "ismcts:seconds=nan", "token_hash": None},
           {"name": "B", "bot": "ismcts:rollout=banana", "token_hash": None}]  # fmt: skip
    _store_table(db, "oldbots", Config(2).to_dict(), nan, [])
    server = Server(db).start()
    try:
        listed = {t["id"]: t for t in server.get("/api/tables")}
        assert not listed["badconfig"].get("available", True)
        assert not listed["badrow"].get("available", True)
        for table_id in ("good", "oldbots"):
            with server.ws(table_id) as watcher:
                hello(watcher)
                until(watcher, lambda x: x["op"] == "update" and x["view"]["game_over"], 120)
        with server.ws("badrow") as ws:
            m = recv(ws)
            assert m["op"] == "error" and m["code"] == "unavailable"
    finally:
        server.stop()
    assert server.proc is not None
    log = server.proc.stderr.read().decode() if server.proc.stderr else ""
    assert "badconfig" in log and "badrow" in log and "Traceback" not in log


def test_seat_tokens_still_work_for_restored_tables(tmp_path: Path) -> None:
    db = tmp_path / "jamaica.db"
    seats = [{"name": "A", "bot": None, "token_hash": token_hash("secret-a")},
             {"name": "B", "bot": "greedy", "token_hash": None}]  # fmt: skip
    _store_table(db, "t", Config(2).to_dict(), seats, [])
    server = Server(db).start()
    try:
        with server.ws("t") as ws:
            hello(ws, 0, "secret-a")
            until(ws, _question, 20)
    finally:
        server.stop()
