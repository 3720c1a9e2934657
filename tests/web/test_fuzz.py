"""Thousands of malformed or illegal messages over real sockets: an error answers each one,
nothing changes, nothing is logged, memory stays put, and the server stays up (issue 10).

The soak's size: JAMAICA_FUZZ_MESSAGES (default 10,000, a few seconds; 200,000 with JAMAICA_SOAK=1);
its figures are printed (`pytest -s`)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from jamaica.rules.actions import ACTION_NAMES

from ..soak import soak
from .server import Server, hello, recv, recv_reply, send

SOAK = int(os.environ.get("JAMAICA_FUZZ_MESSAGES", soak(10_000, 200_000)))
FUZZ_EXAMPLES = soak(600, 2000)  # hypothesis's messages to one seat
# The fuzzers send as fast as the server answers: lift the per-connection rate (test_limits
# checks it), so that every message reaches the parser and the table.
UNLIMITED = ("--messages-per-second", "1000000", "--message-burst", "1000000")


@pytest.fixture
def fuzzed(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "jamaica.db", UNLIMITED, log_file=True).start()
    try:
        yield srv
    finally:
        srv.stop()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
ops = st.sampled_from(["hello", "act", "ping", "pong", "update", "", "ACT", "welcome"])
actions = st.sampled_from(ACTION_NAMES) | st.text(max_size=50)
messages = st.one_of(
    st.text(max_size=300),  # not JSON at all
    json_values.map(json.dumps),  # JSON, but not a message
    st.fixed_dictionaries({"op": ops, "v": st.integers(0, 3) | st.none()}, optional={
        "seat": json_values, "token": json_values, "action": json_values, "turn": json_values,
    }).map(json.dumps),
    st.fixed_dictionaries({"op": st.just("act"), "v": st.just(1), "action": actions,
                           "turn": st.none() | st.integers(-5, 10_000)}).map(json.dumps),
    st.fixed_dictionaries({"op": st.just("hello"), "v": st.just(1),
                           "seat": st.none() | st.integers(-3, 9),
                           "token": st.none() | st.text(max_size=70)}).map(json.dumps),
    st.integers(4097, 12_000).map(lambda n: json.dumps({"op": "act", "v": 1, "a": "x" * n})),
)  # fmt: skip


def _past_the_cards(a: Any, b: Any) -> tuple[int, list[int]]:
    """Answer card questions until a seat is asked something else; return that seat, and the
    turn of the last update each seat has read."""
    seen = [-1, -1]
    while True:
        for k, ws in enumerate((a, b)):
            try:
                m = recv(ws, 0.2)
            except TimeoutError:
                continue
            if m["op"] != "update":
                continue
            seen[k] = m["turn"]
            pending = m["view"]["pending"]
            if pending["player"] is not None and pending["kind"] not in ("card", ""):
                return int(pending["player"]), seen
            q = m["question"]
            if q is not None and q["kind"] == "card":
                send(ws, op="act", action=q["options"][0]["action"], turn=m["turn"])


@pytest.mark.soak
def test_fuzz_messages_change_nothing(fuzzed: Server) -> None:
    server = fuzzed
    t = server.table([("Ann", None), ("Bob", None)])
    with server.ws(t["id"]) as a, server.ws(t["id"]) as b:
        hello(a, 0, t["seats"][0]["token"])
        hello(b, 1, t["seats"][1]["token"])
        # wait until one seat is asked something other than its card (while cards are chosen,
        # both may answer: the choice is simultaneous); the other one fuzzes
        asked, seen = _past_the_cards(a, b)
        at = server.get(f"/api/tables/{t['id']}/replay")["steps"]
        fuzzer = b if asked == 0 else a
        _up_to(fuzzer, seen[1 - asked], at)  # the fuzzer is up to date
        replies: list[str] = []

        @settings(max_examples=FUZZ_EXAMPLES, suppress_health_check=list(HealthCheck),
                  deadline=None)  # fmt: skip
        @given(raw=messages)
        def one(raw: str) -> None:
            fuzzer.send(raw)
            reply: dict[str, Any] = recv_reply(fuzzer, 10)  # not who sits where
            assert reply["op"] in ("error", "pong"), reply
            replies.append(reply["op"])

        one()
        assert replies.count("error") > 0.75 * FUZZ_EXAMPLES
        send(fuzzer, op="ping")
        assert recv_reply(fuzzer)["op"] == "pong"  # still up
        steps = server.get(f"/api/tables/{t['id']}/replay")["steps"]
        assert steps == at  # nothing changed
        assert "Traceback" not in server.log()


# --- the soak: every kind of bad message, from every kind of connection ----------------------


def _garbage(rng: random.Random) -> str | bytes:
    """A message no connection may act on, whoever sends it."""
    kind = rng.randrange(11)
    if kind == 9:  # a chat line with no text, too long, or not text
        text = rng.choice([None, 5, [], "", " \n\t ", "\u0000", "x" * rng.randrange(301, 2000)])
        return json.dumps({"op": "chat", "v": 1, "text": text})
    if kind == 10:  # a player's key nobody has, or not a key
        key = rng.choice([5, [], "x" * 65, "", rng.randbytes(24).hex()[:43]])
        return json.dumps({"op": "hello", "v": 1, "key": key})
    if kind == 0:  # binary
        return rng.randbytes(rng.randrange(1, 200))
    if kind == 1:  # not JSON
        return "".join(rng.choice('{}[]":,x0 \u00e9\n') for _ in range(rng.randrange(1, 80)))
    if kind == 2:  # JSON, not an object
        return json.dumps(rng.choice([None, 1, -2.5, "act", [1, 2], [{"op": "act"}], True]))
    if kind == 3:  # deeply nested
        depth = rng.randrange(1100, 4000)
        return rng.choice(["[" * depth, "[" * (depth // 2) + "]" * (depth // 2)])
    if kind == 4:  # too big, but under the frame cap
        return json.dumps({"op": "act", "v": 1, "action": "x" * rng.randrange(4100, 15000)})
    if kind == 5:  # wrong version or op
        return json.dumps({"op": rng.choice(["act", "hello", "ping", "update", "", "ACT"]),
                           "v": rng.choice([0, 2, None, "1", 1.5])})  # fmt: skip
    if kind == 6:  # unknown op
        return json.dumps({"op": rng.choice(["update", "welcome", "pong", "", "x" * 50]), "v": 1})
    if kind == 7:  # a message with wrong field types
        return json.dumps({"op": "act", "v": 1, "action": rng.choice([None, 5, [], "", "x" * 41]),
                           "turn": rng.choice([None, "7", 1.5, True, [], {}])})  # fmt: skip
    return json.dumps({"op": "hello", "v": 1, "seat": rng.choice(["0", 1.5, True, [], {}]),
                       "token": rng.choice([5, [], "x" * 65])})  # fmt: skip


def _act(rng: random.Random, turn: int | None, action: str | None = None) -> str:
    if action is None:
        action = rng.choice(ACTION_NAMES) if rng.random() < 0.8 else rng.choice(["move", "fly 3"])
    return json.dumps({"op": "act", "v": 1, "action": action, "turn": turn})


@pytest.mark.soak
def test_a_soak_of_bad_messages_crashes_nothing_changes_nothing_logs_nothing(
    fuzzed: Server,
) -> None:
    server, rng = fuzzed, random.Random(10)
    t = server.table([("Ann", None), ("Bob", None)])
    tokens = [s["token"] for s in t["seats"]]
    with contextlib.ExitStack() as stack:
        seats = [stack.enter_context(server.ws(t["id"])) for _ in range(2)]
        for k, ws in enumerate(seats):
            hello(ws, k, tokens[k])
        asked, seen = _past_the_cards(seats[0], seats[1])  # cards are chosen by both at once
        turn = server.get(f"/api/tables/{t['id']}/replay")["steps"]
        for ws, last in zip(seats, seen, strict=True):  # from now on, an update is a change
            _up_to(ws, last, turn)
        spectator = stack.enter_context(server.ws(t["id"]))
        hello(spectator)
        assert recv_reply(spectator)["turn"] == turn  # its first update
        stranger = stack.enter_context(server.ws(t["id"]))  # never seated
        stored = _stored(server.db, t["id"])

        def wrong_hello() -> str:
            seat = rng.choice([0, 1, -1, 2, 99])
            token = rng.choice([None, "", tokens[1 - seat] if seat in (0, 1) else tokens[0],
                                rng.randbytes(24).hex()[:40]])  # fmt: skip
            return json.dumps({"op": "hello", "v": 1, "seat": seat, "token": token})

        # (connection, what it may send, the error codes that answer it)
        senders: list[tuple[ClientConnection, Callable[[], str | bytes]]] = [
            (seats[asked], lambda: _act(rng, rng.choice([turn - 1, turn + 1, 0, -5, 10**9]))),
            # a card, never an answer to the question the soak starts on (not a card's: "move
            # 49" was, where the Ghost Ship could go 1 back from Port Royal, and was played)
            (seats[asked], lambda: _act(rng, turn, "play fwd-fwd")),
            (seats[1 - asked], lambda: _act(rng, rng.choice([turn, None]))),
            (spectator, lambda: _act(rng, rng.choice([turn, None]))),
            *((ws, wrong_hello) for ws in (*seats, spectator)),  # seated already
            (stranger, lambda: _act(rng, turn)),
            (stranger, wrong_hello),
        ]
        codes: Counter[str] = Counter()
        sent = 0
        rss = [server.rss_kb()]
        start = time.perf_counter()
        while sent < SOAK:
            batch = []
            for _ in range(min(32, SOAK - sent)):  # pipelined, under the outbox's 64
                if rng.random() < 0.5:
                    ws, make = rng.choice(senders)
                else:
                    ws, make = rng.choice([*seats, spectator, stranger]), lambda: _garbage(rng)
                message = make()
                ws.send(message)
                batch.append((ws, message))
            for ws, message in batch:
                try:
                    m = _answer(ws, turn)
                except TimeoutError:
                    raise AssertionError(f"no answer to {str(message)[:300]!r}") from None
                assert m["op"] == "error" and m["code"] != "internal", m
                codes[m["code"]] += 1
            sent += len(batch)
            if len(rss) == 1 and sent >= 1000:
                rss.append(server.rss_kb())  # after warming up
        seconds = time.perf_counter() - start
        # frames over the socket's cap: that socket is closed (1009), the server stays up
        for _ in range(20):
            # the server may close it while the frame is still being sent
            with server.ws(t["id"]) as big, pytest.raises(ConnectionClosed):
                big.send("x" * rng.randrange(70_000, 1_000_000))
                recv(big, 10)
        rss.append(server.rss_kb())
        for ws in (*seats, spectator, stranger):
            send(ws, op="ping")
            assert recv_reply(ws)["op"] == "pong"  # every connection still up
        assert _stored(server.db, t["id"]) == stored  # not one decision more
        assert server.get(f"/api/tables/{t['id']}/replay")["steps"] == turn
    log = server.log()
    print(f"\nfuzz soak: {sent} bad messages over 4 sockets (and 20 frames over the cap) in "
          f"{seconds:.1f} s — 0 crashes, 0 state changes, {log.count('Traceback')} tracebacks, "
          f"{len(log.splitlines())} log lines; server RSS {rss[0] / 1024:.1f} MB at start, "
          f"{rss[1] / 1024:.1f} MB warmed up, {rss[2] / 1024:.1f} MB after")  # fmt: skip
    print("  answers:", ", ".join(f"{c} {n}" for c, n in codes.most_common()))
    assert server.proc is not None and server.proc.poll() is None
    assert "Traceback" not in log and log == "", log[-2000:]
    assert rss[2] - rss[1] < 10 * 1024  # kB: bounded
    for code in ("binary", "bad_json", "too_big", "bad_version", "bad_op", "bad_message",
                 "stale", "illegal", "not_your_turn", "not_seated", "no_hello", "bad_token",
                 "bad_seat", "already", "chat_empty", "chat_long", "bad_key"):  # fmt: skip
        assert codes[code] > 0, code


def _up_to(ws: ClientConnection, seen: int, turn: int) -> None:
    """Read a seat's messages up to the answer to a ping, and up to its update of `turn`, the
    present, unless it has read that already (`seen`). The pong comes after the answers to
    everything the seat sent before; each update is made as it leaves, so a seat's last one
    shows the present. Neither depends on how fast a loaded machine delivers: a pause of 0.3 s
    was once taken for the end, and an earlier turn's update, still on its way, was then read
    as a change."""
    send(ws, op="ping")
    ponged = False
    while not ponged or seen != turn:
        m = recv(ws, 20)
        ponged = ponged or m["op"] == "pong"
        if m["op"] == "update":
            assert m["turn"] <= turn, m
            seen = m["turn"]


def _answer(ws: ClientConnection, turn: int) -> dict[str, Any]:
    """The answer to a message: the next reply that is not a late copy of the present (an update
    of the turn the soak started at, which a loaded machine can deliver after the drain above;
    any change of the game would carry a later turn, and fails)."""
    while True:
        m = recv_reply(ws, 20)
        if m["op"] != "update" or m["turn"] != turn:
            return m


def _stored(db: Path, table_id: str) -> list[tuple[int, int, str]]:
    with contextlib.closing(sqlite3.connect(db)) as c:
        rows = c.execute("SELECT seq, action, by FROM actions WHERE table_id = ? ORDER BY seq",
                         (table_id,)).fetchall()  # fmt: skip
    return [tuple(r) for r in rows]
