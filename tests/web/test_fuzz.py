"""Thousands of malformed or illegal messages over a real socket: an error answers each one,
nothing changes, and the server stays up."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jamaica.rules.actions import ACTION_NAMES

from .server import Server, hello, recv, send, until

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


def test_fuzz_messages_change_nothing(server: Server) -> None:
    t = server.table([("Ann", None), ("Bob", None)])
    with server.ws(t["id"]) as a, server.ws(t["id"]) as b:
        hello(a, 0, t["seats"][0]["token"])
        hello(b, 1, t["seats"][1]["token"])
        # wait until one seat is asked; the other one fuzzes
        first = until(
            a, lambda m: m["op"] == "update" and m["view"]["pending"]["player"] is not None
        )
        asked = first["view"]["pending"]["player"]
        fuzzer = b if asked == 0 else a
        before: dict[str, Any] | None = None
        while True:  # drain the fuzzer's queue: it is up to date
            try:
                m = recv(fuzzer, 0.5)
            except TimeoutError:
                break
            before = m if m["op"] == "update" else None
        replies: list[str] = []

        @settings(max_examples=2000, suppress_health_check=list(HealthCheck), deadline=None)
        @given(raw=messages)
        def one(raw: str) -> None:
            fuzzer.send(raw)
            reply: dict[str, Any] = recv(fuzzer, 10)
            assert reply["op"] in ("error", "pong"), reply
            replies.append(reply["op"])

        one()
        assert replies.count("error") > 1500
        send(fuzzer, op="ping")
        assert recv(fuzzer)["op"] == "pong"  # still up
        steps = server.get(f"/api/tables/{t['id']}/replay")["steps"]
        assert steps == first["turn"]  # nothing changed
        assert before is None or before["turn"] == steps
