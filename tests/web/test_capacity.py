"""Issue 23, the capacity of one node: what one change costs the server is counted, not timed.

One change makes each audience's update once, however many clients share that audience (a
player's tabs): the same text for all of them, made from that seat's own view. Each event of the
log is described once, whoever may read it. One answer copies the game once. The encoder gives
the standard library's values (and falls back to it for what orjson refuses), and a client that
stops reading is still closed after the send timeout.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from jamaica import Config
from jamaica.rules import State
from jamaica.rules.view import can_see
from jamaica.web import tables as tables_module
from jamaica.web.bench import Pacing, _read, bench_server
from jamaica.web.outbox import CLOSE_TOO_SLOW, Outbox, encode
from jamaica.web.protocol import Act, Hello
from jamaica.web.social import Client
from jamaica.web.store_sqlite import SQLiteStore
from jamaica.web.tables import LiveTable


class Wire:
    def __init__(self, stalled: bool = False) -> None:
        self.sent: list[str] = []
        self.stalled = stalled
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        if self.stalled:
            await asyncio.Event().wait()
        self.sent.append(text)

    async def close(self, code: int) -> None:
        self.closed = code

    def updates(self) -> list[str]:
        return [t for t in self.sent if json.loads(t)["op"] == "update"]


async def _until(pred: Any, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < end, "never happened"
        await asyncio.sleep(0.01)


async def _join(table: LiveTable, hello: Hello) -> tuple[Client, Wire]:
    wire = Wire()
    box = Outbox(wire)
    box.start()
    return await table.join(box, hello), wire


async def test_one_change_makes_each_audience_s_update_once_for_all_its_clients(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SQLiteStore(tmp_path / "t.db")
    table, tokens = LiveTable.create(store, Config(players=2), [("A", None), ("B", None)])
    made: Counter[int | None] = Counter()
    update_for = LiveTable.update_for

    def counting(self: LiveTable, client: Client) -> dict[str, Any]:
        made[client.seat] += 1
        return update_for(self, client)

    monkeypatch.setattr(LiveTable, "update_for", counting)
    tabs = {seat: [await _join(table, Hello(seat, tokens[seat])) for _ in range(4)]
            for seat in (0, 1)}  # fmt: skip
    everyone = [c for seat in tabs.values() for c in seat]
    await _until(lambda: table.session.human_to_move() is not None)  # the dice have been cast
    await _until(lambda: all(c.outbox.pending() == 0 and not c.outbox.busy for c, _ in everyone))
    s = table.session.state
    who = s.current_player()
    assert who in (0, 1)
    made.clear()
    before = {id(w): len(w.updates()) for _, w in everyone}

    await table.act(tabs[who][0][0], Act(str(s.legal[0]), len(s.history)))
    await _until(lambda: all(len(w.updates()) > before[id(w)] for _, w in everyone))
    await _until(lambda: all(c.outbox.pending() == 0 and not c.outbox.busy for c, _ in everyone))

    assert made == {0: 1, 1: 1}  # once per seat, not once per tab
    for seat in (0, 1):
        texts = {w.updates()[-1] for _, w in tabs[seat]}
        assert len(texts) == 1  # every tab of the seat has the same update
        (text,) = texts
        view = json.loads(text)["view"]
        assert view == json.loads(json.dumps(table.session.state.view(seat)))  # its own view
    table.close()


async def test_each_event_is_described_once_whoever_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SQLiteStore(tmp_path / "t.db")
    table, tokens = LiveTable.create(store, Config(players=2), [("A", None), ("B", None)])
    described: Counter[tuple[Any, ...]] = Counter()
    record = tables_module.record  # type: ignore[attr-defined]

    def counting(e: tuple[Any, ...], n: int, names: Any = None, lang: str = "en") -> Any:
        described[(e, lang)] += 1
        return record(e, n, names, lang)

    monkeypatch.setattr(tables_module, "record", counting)
    clients = [await _join(table, Hello(seat, tokens[seat])) for seat in (0, 1)]
    watchers = [await _join(table, Hello(None, None, lang=lang)) for lang in ("en", "en", "fr")]
    watchers.append(await _join(table, Hello(0, tokens[0], lang="fr")))  # seat 0 in French too
    await _until(lambda: table.session.human_to_move() is not None)
    for _ in range(40):  # some answers, seen by both seats and the spectators
        s = table.session.state
        who = s.current_player()
        if who not in (0, 1):
            break
        await table.act(clients[who][0], Act(str(s.legal[-1]), len(s.history)))
    everyone = [*clients, *watchers]
    await asyncio.sleep(tables_module.SPECTATORS_EVERY + 0.05)
    await _until(lambda: all(c.outbox.pending() == 0 and not c.outbox.busy for c, _ in everyone))
    events = table.session.state.events or []
    seen = [e for e in events if any(can_see(e[0], who) for who in (0, 1, None))]
    assert len(seen) > 20
    # two seats and spectators, in two languages: once each per language read
    french = [e for e in events if any(can_see(e[0], who) for who in (0, None))]
    assert sum(described.values()) == len(seen) + len(french)
    table.close()


async def test_one_answer_copies_the_game_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SQLiteStore(tmp_path / "t.db")
    table, tokens = LiveTable.create(store, Config(players=2), [("A", None), ("B", None)])
    clients = [await _join(table, Hello(seat, tokens[seat])) for seat in (0, 1)]
    copies = {"n": 0}
    clone = State.clone

    def counting(self: State, *, log: bool | None = None) -> State:
        if sys._getframe(1).f_code.co_filename == tables_module.__file__:  # not the hints'
            copies["n"] += 1
        return clone(self, log=log)

    await _until(lambda: table.session.human_to_move() is not None)
    monkeypatch.setattr(State, "clone", counting)
    answers = 0
    for _ in range(30):
        s = table.session.state
        who = s.current_player()
        if who not in (0, 1):
            break
        await table.act(clients[who][0], Act(str(s.legal[0]), len(s.history)))
        answers += 1
    assert answers and copies["n"] == answers  # checked on the game itself, applied to one copy
    table.close()


def test_the_encoder_gives_the_standard_library_s_values() -> None:
    messages: list[dict[str, Any]] = [
        {"op": "update", "v": 1, "text": "Choose your card — everyone at once", "n": [1, 2.5]},
        {"op": "chat", "v": 1, "lines": [{"text": "lone \ud800 surrogate", "seat": None}]},
        {"op": "x", "v": 1, "big": 2**70, "keys": {1: "a"}, "args": (1, 2)},
    ]
    for m in messages:
        assert json.loads(encode(m)) == json.loads(json.dumps(m))
        assert ": " not in encode(m) and ", " not in encode(m).replace(", everyone", "")


async def test_a_client_that_stops_reading_is_closed_after_the_send_timeout() -> None:
    wire = Wire(stalled=True)
    box = Outbox(wire, send_timeout=0.1)
    box.start()
    box.put_latest("update", '{"op":"update"}')
    await _until(lambda: wire.closed is not None, 5)
    assert wire.closed == CLOSE_TOO_SLOW and box.closed
    fast = Wire()
    box = Outbox(fast, send_timeout=0.1)
    box.start()
    for i in range(5):
        box.put({"op": "pong", "v": 1, "i": i})
        await asyncio.sleep(0.05)  # sends that finish in time never trip it
    await asyncio.sleep(0.2)
    assert fast.closed is None and not box.closed and len(fast.sent) == 5
    box.stop()


def test_the_bench_client_parses_only_what_it_acts_on() -> None:
    quiet = '{"op":"update","v":1,"turn":3,"view":{"game_over":false},"question":null,"x":1}'
    over = '{"op":"update","v":1,"turn":9,"view":{"game_over":true},"question":null,"x":1}'
    asked = '{"op":"update","v":1,"turn":3,"view":{"game_over":false},"question":{"k":1}}'
    assert _read(quiet) is None
    assert _read(over) is not None and _read(asked) is not None
    assert _read('{"op":"seats","v":1}') is None


def test_a_paced_run_measures_answers_after_its_warmup() -> None:
    out = bench_server(2, 1, pacing=Pacing(seconds=4, low=0.2, high=0.4, warmup=0.5))
    assert "clients thinking 0.2–0.4 s before each answer, for 4 s" in out
    rate = float(out.split("decisions/s")[1].split()[0])
    assert 2 <= rate <= 20  # 4 seats answering every 0.2-0.4 s: about 13 a second
    assert "server" in out and "p99" in out
