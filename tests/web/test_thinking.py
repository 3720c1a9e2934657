"""Issue 21, item 5: slow valid bots must not starve every table. Four anonymous tables of
`ismcts:seconds=10` once pushed every other table's bot decisions from 12 ms to 18–30 s: the bot
pool served decisions first come, first served. Now a cheap decision never waits behind a search,
the tables take turns, an anonymous table's search is capped, and the queue wait is a figure."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jamaica.bots import parse_spec
from jamaica.rules import CHANCE, Action, Config, State, new_game
from jamaica.web import tables as tables_module
from jamaica.web.store_sqlite import SQLiteStore
from jamaica.web.tables import LiveTable
from jamaica.web.thinking import (
    ANONYMOUS_SECONDS,
    InProcess,
    InThread,
    Lane,
    Scheduler,
    WorkerDied,
    bot_answer,
    capped,
    describe,
    estimate,
)

from .server import Server, hello, send, until

SLOW = "ismcts:seconds=10"


def _question(players: int = 2) -> State:
    """A question a search bot thinks about: the first one (the dice order or a card)."""
    s = new_game(Config(players))
    while s.current_player() == CHANCE:
        s.apply(s.chance_outcomes()[0][0])
    assert s.decision_kind() in ("dice_order", "card") and len(s.legal) > 1
    return s


def _fake_lanes(decide: Callable[[str, State, int], Action], workers: int = 1) -> Scheduler:
    return Scheduler(Lane("quick", workers, lambda: InThread(decide), "threads"),
                     Lane("slow", workers, lambda: InThread(decide), "threads"))  # fmt: skip


async def _until(pred: Callable[[], bool], seconds: float = 5) -> None:
    end = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < end, "waited in vain"
        await asyncio.sleep(0.005)


# --- the audit's finding, inside the server -----------------------------------------------------
async def test_a_cheap_decision_does_not_wait_behind_four_slow_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two workers, four anonymous tables searching (a fake search that holds its worker until
    released), and a fifth table's random bot: it answers while all four still search. The old
    pool queued it behind them."""
    monkeypatch.setenv("JAMAICA_BOT_THREADS", "2")
    monkeypatch.setenv("JAMAICA_BOT_PROCESSES", "0")  # searches in threads: the fake applies
    monkeypatch.setattr(tables_module, "_POOL", None)
    release = threading.Event()
    asked: list[str] = []

    def fake(spec: str, state: State, seat: int) -> Action:
        asked.append(spec)
        if spec.startswith("ismcts"):
            release.wait(10)
        return state.legal[0]

    monkeypatch.setattr(tables_module, "_decide", fake)
    store = SQLiteStore(tmp_path / "j.db")
    tables = [LiveTable.create(store, Config(2), [("A", None), ("B", None)])[0] for _ in range(5)]
    s = _question()
    who = s.current_player()
    slow = [asyncio.create_task(t._think(SLOW, s.clone(), who)) for t in tables[:4]]
    try:
        await _until(lambda: len(asked) == 2)  # both workers search
        a = await asyncio.wait_for(tables[4]._think("random", s.clone(), who), 2)
        assert a in s.legal and not any(t.done() for t in slow)
    finally:
        release.set()
        await asyncio.gather(*slow)
        tables_module.bot_pool().close()
        for t in tables:
            t.close()
    assert sorted(asked) == [f"ismcts:seconds={ANONYMOUS_SECONDS}"] * 4 + ["random"]  # capped


async def test_a_table_a_player_created_keeps_its_bots_full_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JAMAICA_BOT_PROCESSES", "0")
    monkeypatch.setattr(tables_module, "_POOL", None)
    asked: list[str] = []

    def fake(spec: str, state: State, seat: int) -> Action:
        asked.append(spec)
        return state.legal[0]

    monkeypatch.setattr(tables_module, "_decide", fake)
    store = SQLiteStore(tmp_path / "j.db")
    table, _ = LiveTable.create(store, Config(2), [("A", None), ("B", None)])
    table.record.creator = "a player"
    s = _question()
    try:
        await table._think(SLOW, s, s.current_player())
    finally:
        tables_module.bot_pool().close()
        table.close()
    assert asked == [SLOW]


# --- which lane, and the anonymous cap ----------------------------------------------------------
@pytest.mark.parametrize(
    ("spec", "quick"),
    [("random", True), ("easy", True), ("medium", True), ("greedy", True), ("learned", True),
     ("greedy:samples=64:knowledge=expert", True), ("rules:knowledge=expert", True),
     ("ismcts:iterations=16", True), ("hard", False), ("ismcts", False),
     ("ismcts:seconds=0.5", False), (SLOW, False), ("no such bot", True)],
)  # fmt: skip
def test_searches_go_to_the_slow_lane_and_everything_else_to_the_quick_one(
    spec: str, quick: bool
) -> None:
    sched = _fake_lanes(bot_answer)
    assert (sched.lane(spec, _question()) is sched.quick) is quick


def test_a_question_with_nothing_to_think_about_is_quick_for_any_bot() -> None:
    s, seen = _question(), 0
    while seen < 2:
        s.apply(s.chance_outcomes()[0][0] if s.current_player() == CHANCE else s.legal[-1])
        if s.current_player() != CHANCE and s.decision_kind() in ("load", "sabre"):
            assert estimate(SLOW, s) == 0.0
            seen += 1


@pytest.mark.parametrize(
    ("spec", "cut"),
    [(SLOW, "ismcts:seconds=1.0"),
     ("ismcts:seconds=0.5", "ismcts:seconds=0.5"),
     ("ismcts:iterations=20000", "ismcts:iterations=500"),
     ("ismcts:iterations=20000:heads_up=20000", "ismcts:iterations=500:heads_up=1000"),
     ("ismcts:rollout_rounds=5", "ismcts:rollout_rounds=5:iterations=166"),
     ("ismcts:rollout_rounds=0:iterations=900", "ismcts:rollout_rounds=0:iterations=900"),
     ("master", "master:iterations=500:heads_up=1000"),
     ("master:heads_up=20000", "master:iterations=500:heads_up=1000"),
     ("master:heads_up=600:iterations=300", "master:heads_up=600:iterations=300"),
     ("hard", "hard"), ("ismcts", "ismcts"), ("greedy:samples=64", "greedy:samples=64"),
     ("random", "random"), ("no such bot", "no such bot")],
)  # fmt: skip
def test_an_anonymous_tables_search_is_capped_to_about_a_second(spec: str, cut: str) -> None:
    assert capped(spec) == cut
    if cut != "no such bot":
        parse_spec(cut)  # still a valid bot
        assert estimate(cut, _question(4)) <= ANONYMOUS_SECONDS


# --- turns ------------------------------------------------------------------------------------
async def test_tables_take_turns_in_a_lane() -> None:
    """One worker, busy; table A asks three times, B twice, C once: A, B, C, A, B, A."""
    release = threading.Event()
    order: list[str] = []

    def fake(spec: str, state: State, seat: int) -> Action:
        order.append(spec)
        if spec == "Z":
            release.wait(5)
        return state.legal[0]

    sched = _fake_lanes(fake)
    s = _question()
    first = asyncio.create_task(sched.decide("z", "Z", s, 0))
    await _until(lambda: order == ["Z"])
    asks = [("a", "A1"), ("a", "A2"), ("a", "A3"), ("b", "B1"), ("b", "B2"), ("c", "C1")]
    rest = [asyncio.create_task(sched.decide(t, spec, s, 0)) for t, spec in asks]
    await asyncio.sleep(0)  # all asked
    release.set()
    await asyncio.gather(first, *rest)
    sched.close()
    assert order == ["Z", "A1", "B1", "C1", "A2", "B2", "A3"]


async def test_a_table_has_one_decision_in_flight_per_lane() -> None:
    release = threading.Event()
    order: list[str] = []

    def fake(spec: str, state: State, seat: int) -> Action:
        order.append(spec)
        if spec == "A1":
            release.wait(5)
        return state.legal[0]

    sched = _fake_lanes(fake, workers=2)
    s = _question()
    a1 = asyncio.create_task(sched.decide("a", "A1", s, 0))
    a2 = asyncio.create_task(sched.decide("a", "A2", s, 0))
    await sched.decide("b", "B1", s, 0)  # the other worker serves B, not A's second decision
    await asyncio.sleep(0.05)
    assert sorted(order) == ["A1", "B1"] and sched.quick.stats()["queued"] == 1
    release.set()
    await asyncio.gather(a1, a2)
    sched.close()
    assert order[-1] == "A2"


async def test_a_table_that_gives_up_withdraws_its_waiting_decision() -> None:
    release = threading.Event()
    order: list[str] = []

    def fake(spec: str, state: State, seat: int) -> Action:
        order.append(spec)
        release.wait(5)
        return state.legal[0]

    sched = _fake_lanes(fake)
    s = _question()
    busy = asyncio.create_task(sched.decide("z", "Z", s, 0))
    await _until(lambda: order == ["Z"])
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(sched.decide("a", "A1", s, 0), 0.05)
    release.set()
    await busy
    assert sched.quick.stats()["withdrawn"] == 1
    await sched.decide("b", "B1", s, 0)
    sched.close()
    assert order == ["Z", "B1"]


# --- the figures --------------------------------------------------------------------------------
async def test_the_queue_wait_and_thinking_time_are_reported_per_lane() -> None:
    release = threading.Event()

    def fake(spec: str, state: State, seat: int) -> Action:
        if spec == "Z":
            release.wait(5)
        return state.legal[0]

    sched = _fake_lanes(fake)
    s = _question()
    busy = asyncio.create_task(sched.decide("z", "Z", s, 0))
    waiting = asyncio.create_task(sched.decide("a", "A", s, 0))
    await _until(lambda: sched.quick.stats()["queued"] == 1)
    await asyncio.sleep(0.05)
    release.set()
    await asyncio.gather(busy, waiting)
    await sched.decide("t", SLOW, s, 0, anonymous=True)
    stats = sched.stats()
    sched.close()
    quick, slow = stats["quick"], stats["slow"]
    assert quick["decisions"] == 2 and slow["decisions"] == 1 and stats["capped"] == 1
    assert quick["wait_ms"]["max"] >= 50 and quick["think_ms"]["max"] >= 50
    assert quick["wait_ms"]["p50"] <= quick["wait_ms"]["p99"] <= quick["wait_ms"]["max"]
    assert {"workers", "in", "queued", "thinking", "failed", "withdrawn", "abandoned"} <= set(slow)
    text = describe(stats)
    assert "quick lane (1 threads): 2 decisions, queue wait p50" in text and "slow lane" in text


# --- processes ----------------------------------------------------------------------------------
def _bot_processes(besides: frozenset[int] = frozenset()) -> list[Any]:
    children = multiprocessing.active_children()
    return [p for p in children if p.name == "jamaica-bot" and p.pid not in besides]


async def test_a_search_process_killed_or_given_up_on_fails_only_its_decision() -> None:
    """A search thinks in a process: the table gives up (its deadline) and the process is
    killed; a process that dies fails its decision at once; a fresh one serves the next."""
    sched = Scheduler(Lane("quick", 1, lambda: InThread(bot_answer), "threads"),
                      Lane("slow", 1, InProcess, "processes"))  # fmt: skip
    s = _question()
    who = s.current_player()
    others = frozenset(p.pid for p in _bot_processes())  # the server's own, if any
    try:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(sched.decide("t1", SLOW, s, who), 0.5)
        await _until(lambda: sched.slow.stats()["thinking"] == 0)  # killed, not 10 s later
        ask = asyncio.create_task(sched.decide("t2", SLOW, s, who))
        await _until(
            lambda: len(_bot_processes(others)) == 1 and sched.slow.stats()["thinking"] == 1
        )
        os.kill(_bot_processes(others)[0].pid, signal.SIGKILL)
        with pytest.raises(WorkerDied):
            await asyncio.wait_for(ask, 5)
        a = await asyncio.wait_for(sched.decide("t3", "ismcts:iterations=200", s, who), 10)
        assert a in s.legal
    finally:
        sched.close()
    slow = sched.stats()["slow"]
    assert (slow["decisions"], slow["failed"], slow["abandoned"]) == (1, 1, 1)


# --- a real server ------------------------------------------------------------------------------
def test_a_player_against_greedy_is_answered_at_once_beside_four_slow_tables(
    tmp_path: Path,
) -> None:
    """The audit's scenario over HTTP and WebSockets (the old server: 5 s at the median)."""
    srv = Server(tmp_path / "j.db", ("--tables-per-minute", "20")).start()
    try:
        for _ in range(4):
            srv.table([("A", SLOW), ("B", SLOW)])
        time.sleep(1)  # their searches have begun
        t = srv.table([("me", None), ("bot", "greedy")])
        with srv.ws(t["id"]) as me:
            hello(me, 0, t["seats"][0]["token"])

            def asked(m: dict[str, Any], after: int = -1) -> bool:
                q = m["op"] == "update" and m["question"] is not None
                return q and not m["question"]["early"] and m["turn"] > after

            m = until(me, asked)
            for _ in range(8):
                turn, sent = m["turn"], time.monotonic()
                send(me, op="act", action=m["question"]["options"][-1]["action"], turn=turn)
                m = until(me, lambda x, t=turn: asked(x, t))
                assert time.monotonic() - sent < 2.0
    finally:
        srv.stop()


def test_a_master_spec_with_its_own_budget_is_estimated_by_that_budget() -> None:
    s = _question(2)
    assert estimate("master:heads_up=20000", s) > estimate("master", s) > 0.0
