"""Issue 21, items 3 and 4, inside one table (a real store, the real table, wires that read or
stall): a burst of joins, leaves, chat lines or changes can never fill a client's queue, so a
seated player is never disconnected by anyone else's doing; an update always shows the present
and carries every event since the last one sent; spectators share one encoding per change and
players are served first."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from jamaica import Config
from jamaica.web.outbox import CLOSE_TOO_SLOW, QUEUE_LIMIT, Outbox
from jamaica.web.protocol import Act, Hello
from jamaica.web.store_sqlite import SQLiteStore
from jamaica.web.tables import SPECTATORS_EVERY, LiveTable


class Wire:
    """A connection that records what it is sent; `stalled` ones never finish a send."""

    def __init__(self, stalled: bool = False) -> None:
        self.sent: list[dict[str, Any]] = []
        self.stalled = stalled
        self.closed: int | None = None
        self.gate = asyncio.Event()

    async def send_text(self, text: str) -> None:
        if self.stalled:
            await self.gate.wait()
        self.sent.append(json.loads(text))

    async def close(self, code: int) -> None:
        self.closed = code


async def _until(pred: Any, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < end, "never happened"
        await asyncio.sleep(0.01)


def _over(table: LiveTable) -> bool:
    return table.session.state.is_terminal()


def _outbox(wire: Wire) -> Outbox:
    # A long send timeout: these tests stall wires on purpose, and are about the queue's size.
    box = Outbox(wire, send_timeout=600)
    box.start()
    return box


async def test_slots_keep_one_message_each_however_many_come() -> None:
    wire = Wire(stalled=True)
    box = _outbox(wire)
    for i in range(10 * QUEUE_LIMIT):
        assert box.put_latest("seats", json.dumps({"op": "seats", "n": i}))
        assert box.put_latest("update", lambda i=i: json.dumps({"op": "update", "n": i}))
        assert box.put_merged("chat", [i], lambda items: json.dumps({"op": "chat", "n": items}))
    await asyncio.sleep(0.05)
    assert not box.closed and box.pending() <= 3  # one in the wire, one per slot waiting
    wire.gate.set()
    await _until(lambda: box.pending() == 0 and not box.busy)
    last = {m["op"]: m["n"] for m in wire.sent}
    assert last["seats"] == last["update"] == 10 * QUEUE_LIMIT - 1  # the newest replaced the rest
    lines = [n for m in wire.sent if m["op"] == "chat" for n in m["n"]]
    n = 10 * QUEUE_LIMIT  # chat lines are merged: the newest 100 (as a newcomer is sent)
    assert lines == list(range(n - 100, n))
    box.stop()


async def test_only_plain_messages_can_overflow_a_client_that_stops_reading() -> None:
    wire = Wire(stalled=True)
    box = _outbox(wire)
    for i in range(QUEUE_LIMIT):
        assert box.put({"op": "error", "n": i})
    assert not box.put({"op": "error"}) and box.closed  # truly not reading: disconnected
    await _until(lambda: wire.closed is not None)
    assert wire.closed == CLOSE_TOO_SLOW


async def _table(tmp_path: Path, seats: Any = None) -> tuple[LiveTable, list[str | None]]:
    store = SQLiteStore(tmp_path / "j.db")
    seats = seats or [("A", None), ("B", "greedy")]
    return LiveTable.create(store, Config(len(seats)), seats)


async def test_a_burst_of_spectators_never_disconnects_the_seated_player(tmp_path: Path) -> None:
    """Issue 21, item 3: 70 spectators joining at once closed the seated player (4008), and 70
    leaving closed them again."""
    table, tokens = await _table(tmp_path)
    player_wire = Wire(stalled=True)  # the player reads nothing while the burst comes
    player = await table.join(_outbox(player_wire), Hello(0, tokens[0]))
    watchers = []
    for _ in range(3):
        for _ in range(70):
            watchers.append(await table.join(_outbox(Wire(stalled=True)), Hello(None, None)))
        for w in watchers:
            table.leave(w)
            w.outbox.stop()
        watchers.clear()
        table._broadcast()
    await asyncio.sleep(0.3)  # past the seats messages' pause
    assert not player.outbox.closed and player.outbox.pending() <= 4
    player_wire.gate.set()
    await _until(lambda: player.outbox.pending() == 0)
    seats = [m for m in player_wire.sent if m["op"] == "seats"]
    assert 1 <= len(seats) <= 4 and seats[-1]["watchers"] == 0  # the present, not 420 messages
    table.close()


async def test_an_update_shows_the_present_and_every_event_since_the_last(tmp_path: Path) -> None:
    """Changes that come while a client's update waits are one update, with all their events:
    the log a seat reads is the whole log that seat may see, in order."""
    table, tokens = await _table(tmp_path, [("A", None), ("B", "greedy"), ("C", "greedy")])
    wire = Wire(stalled=True)
    client = await table.join(_outbox(wire), Hello(0, tokens[0]))
    table.kick()
    await _until(lambda: table.session.human_to_move() == 0)
    for _ in range(4):  # answer while the wire is stalled: the updates pile into one
        s = table.session.state
        await table.act(client, Act(str(s.legal[0]), len(s.history)))
        await _until(lambda: table.session.human_to_move() == 0 or _over(table))
    assert client.outbox.pending() <= 3
    wire.gate.set()
    await _until(lambda: client.outbox.pending() == 0 and not client.outbox.busy)
    updates = [m for m in wire.sent if m["op"] == "update"]
    assert updates[-1]["turn"] == len(table.session.state.history)  # the present
    read = [e["text"] for m in updates for e in m["events"]]
    s = table.session.state
    assert read == [e["text"] for e in s.events_for(0, table.names)]
    assert len(updates) < 4  # not one per change
    table.close()


async def test_spectators_share_one_encoding_per_change_and_players_go_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21, item 4: the public update is made once per change for every spectator."""
    table, tokens = await _table(tmp_path)
    order: list[int | None] = []
    made = {"public": 0}
    original = LiveTable.update_for

    def counting(self: LiveTable, client: Any) -> dict[str, Any]:
        order.append(client.seat)
        if client.seat is None:
            made["public"] += 1
        return original(self, client)

    monkeypatch.setattr(LiveTable, "update_for", counting)
    watchers = [await table.join(_outbox(Wire()), Hello(None, None)) for _ in range(100)]
    player = await table.join(_outbox(Wire()), Hello(0, tokens[0]))
    boxes = [c.outbox for c in [*watchers, player]]
    await _until(lambda: table.session.human_to_move() == 0)  # the table waits for the player
    await _until(lambda: all(b.pending() == 0 and not b.busy for b in boxes))
    order.clear()
    made["public"] = 0
    for _ in range(5):
        table._broadcast()
        await asyncio.sleep(SPECTATORS_EVERY + 0.05)
    assert made["public"] == 5  # once per change, not 100 times
    assert order[0] == 0  # the player's update is made (and sent) before the spectators'
    made["public"] = 0
    for _ in range(20):  # a fast game: the spectators see it at most every SPECTATORS_EVERY
        table._broadcast()
        await asyncio.sleep(0.01)
    await asyncio.sleep(SPECTATORS_EVERY + 0.05)
    assert 1 <= made["public"] <= 3
    assert all(w.outbox.pending() == 0 for w in watchers) and not player.outbox.closed
    table.close()


async def test_a_pace_runs_at_once_then_folds_what_comes_within_its_time() -> None:
    from jamaica.web.pacing import Pace

    runs: list[float] = []
    pace = Pace(0.1, lambda: runs.append(asyncio.get_running_loop().time()))
    pace.request()
    assert len(runs) == 1  # the first at once
    for _ in range(50):
        pace.request()  # folded into one run when the time is up
    await asyncio.sleep(0.15)
    assert len(runs) == 2 and runs[1] - runs[0] >= 0.09
    pace.request()
    pace.flush()  # a waiting run can be made now
    assert len(runs) == 3
    pace.request()
    pace.cancel()
    await asyncio.sleep(0.15)
    assert len(runs) == 3
