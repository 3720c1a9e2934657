"""`jamaica bench-cluster`: the failures of issue 23 done to a real service on this machine —
PostgreSQL, Redis and `jamaica serve --node` processes on loopback (`fleet.py`) — while simulated
people play over WebSockets, each measured as its players see it:

1. **Takeover.** The node keeping the most live tables is killed with SIGKILL, `kills` times;
   every other time it is restarted at once (as a supervisor would), else only once its players
   are back (a machine lost). Figures: answers acknowledged and lost, games whose players saw
   something the stored decisions do not give, the time until every player of the dead node is
   playing again, and until every unfinished table is kept by a node again (some tables wait for
   players who are away: nobody reconnects to them).
2. **Split brain.** A node is paused (SIGSTOP) past its lease with its players' answers queued,
   then resumed: the decisions it stores (none may be), and its players sent to the new owner.
3. **Redis down** for `redis_seconds` in the middle of 10 games: the games that stop (none may),
   and the time the lobby takes to list every node's tables again once Redis is back.
4. **PostgreSQL restart** (down `pg_seconds`): answers refused with `not_stored` meanwhile, none
   acknowledged and lost, and the time the games take to go on by themselves once it is back.
"""

from __future__ import annotations

import asyncio
import os
import platform
import shutil
import signal
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .fleet import Crowd, Player, Service, check, listed, pauses, poll, until
from .services import Postgres, _pg_bin, start_postgres, start_redis

THINK = (0.3, 1.0)  # seconds a simulated person thinks before each answer
STALL = 5.0  # a game that shows no new turn for this long has stopped
TABLES_AWAY = 1  # tables per node whose players are away (nobody reconnects to them)


@dataclass
class Options:
    kills: int = 20
    lease: float = 10.0
    redis_seconds: float = 30.0
    pg_seconds: float = 15.0
    tables: int = 12
    nodes: int = 3
    seed: int = 1

    @staticmethod
    def quick() -> Options:
        return Options(kills=4, lease=3.0, redis_seconds=5.0, pg_seconds=4.0, tables=6)


@dataclass
class Report:
    rows: list[tuple[str, str, str]] = field(default_factory=list)  # (scenario, figure, value)
    numbers: dict[str, float] = field(default_factory=dict)  # the invariants, for the tests
    problems: list[str] = field(default_factory=list)

    def add(self, scenario: str, figure: str, value: str, **numbers: float) -> None:
        self.rows.append((scenario, figure, value))
        self.numbers.update(numbers)


def _spread(xs: list[float]) -> str:
    if not xs:
        return "none measured"
    return f"p50 {statistics.median(xs):.1f} s, max {max(xs):.1f} s ({len(xs)})"


def _checked(report: Report, scenario: str, service: Service, crowd: Crowd, key: str) -> None:
    c = check(service, crowd.players)
    report.problems += c.problems
    report.add(scenario, "acknowledged answers lost", f"{c.lost} of {c.acknowledged}",
               **{f"{key}_lost": c.lost, f"{key}_acknowledged": c.acknowledged})  # fmt: skip
    report.add(scenario, "games diverged (replay ≠ what players saw)",
               f"{c.diverged} of {c.games} ({c.views} views compared)",
               **{f"{key}_diverged": c.diverged})  # fmt: skip
    errors = [e for p in crowd.players for e in p.errors]
    if errors:
        report.problems.append(f"{scenario}: players were told {sorted(set(errors))}")


async def _refill(service: Service, crowd: Crowd, tables: int) -> None:
    """New games for those that ended, on the nodes in turn: `tables` are played at all times."""
    playing = {p.table for p in crowd.players if not p.over}
    for k in range(tables - len(playing)):
        running = [n for n in service.nodes if n.running]
        crowd.add(await asyncio.to_thread(service.table, running[k % len(running)], 2))


async def _kill(service: Service, crowd: Crowd, at_once: bool, o: Options, report: Report,
                k: int) -> tuple[list[float], float | None]:  # fmt: skip
    """Kill the node keeping the most tables: each of its players' time until it is playing
    again, and the time until every unfinished table is kept by a node again."""
    owners = await asyncio.to_thread(service.owners)
    victim = max((n for n in service.nodes if n.running),
                 key=lambda n: sum(v == n.name for v in owners.values()))  # fmt: skip
    gone = [p for p in crowd.players if not p.over and owners.get(p.table) == victim.name]
    killed = time.monotonic()
    victim.kill()
    restart = asyncio.ensure_future(asyncio.to_thread(service.start, victim)) if at_once else None

    def back(p: Player) -> bool:
        return p.over or any(t > killed for t in p.back)

    if not await until(lambda: all(back(p) for p in gone), o.lease + 60):
        lost = [p.table for p in gone if not back(p)]
        report.problems.append(f"kill {k + 1}: players of {lost} never came back")
    times = [min(t for t in p.back if t > killed) - killed
             for p in gone if p.back and p.back[-1] > killed]  # fmt: skip
    if restart is None:
        await asyncio.to_thread(service.start, victim)
    else:
        await restart
    if await poll(lambda: len(set(service.held())) == 1, o.lease + 30) is None:
        live, stored = await asyncio.to_thread(service.held)
        report.problems.append(f"kill {k + 1} (node {victim.name}): {stored - live} of {stored} "
                               "unfinished tables kept by no node")  # fmt: skip
        return times, None
    return times, time.monotonic() - killed


async def takeover(pg: Postgres, folder: Path, o: Options, report: Report) -> None:
    redis = start_redis()
    service = Service(pg, folder / "takeover", o.nodes, o.lease, redis)
    crowd = Crowd(service, THINK, o.seed)
    each: list[float] = []
    worst: dict[bool, list[float]] = {True: [], False: []}  # restarted at once: every player
    held: list[float] = []
    try:
        for node in service.nodes:
            for _ in range(TABLES_AWAY):
                service.table(node, 1)  # its player never comes: the table waits, kept
        for k in range(o.kills):
            await _refill(service, crowd, o.tables)
            await asyncio.sleep(2.0)
            times, again = await _kill(service, crowd, k % 2 == 0, o, report, k)
            each += times
            worst[k % 2 == 0] += [max(times)] if times else []
            held += [] if again is None else [again]
        await asyncio.sleep(2.0)
    finally:
        await crowd.close()
    try:
        report.add(f"takeover ({o.kills} × kill -9)", "every player of the node playing again "
                   "(restarted at once)", _spread(worst[True]))  # fmt: skip
        report.add("", "  … (the node left down meanwhile: taken over)", _spread(worst[False]))
        report.add("", "  … each player, both kinds", _spread(each))
        report.add("", "every unfinished table kept by a node again", _spread(held),
                   takeover_unheld=o.kills - len(held))  # fmt: skip
        _checked(report, "", service, crowd, "takeover")
    finally:
        service.close()
        redis.close()


async def split_brain(pg: Postgres, folder: Path, o: Options, report: Report) -> None:
    """Three tables of node a, each waiting for its player's answer; a is paused until b has
    taken them over, the answers are sent (queued at a), and a is resumed."""
    import json

    import websockets

    service = Service(pg, folder / "split", 2, o.lease, None)
    a, b = service.nodes
    players = [service.table(a, 1)[0] for _ in range(3)]
    sockets: list[Any] = []
    try:
        asked: list[dict[str, Any]] = []
        for p in players:
            ws = await websockets.connect(f"ws://127.0.0.1:{a.port}/ws/{p.table}",
                                          ping_interval=None, max_size=2**22)  # fmt: skip
            sockets.append(ws)
            await ws.send(json.dumps({"op": "hello", "v": 1, "seat": 0, "token": p.token}))
            asked.append(await _next(ws, lambda m: m["op"] == "update" and m["question"]
                                     and not m["question"]["early"]))  # fmt: skip
        before = {p.table: service.actions(p.table) for p in players}
        a.send(signal.SIGSTOP)
        stopped = time.monotonic()
        ids = {p.table for p in players}
        taken = await poll(lambda: all(service.owners().get(t) == "b" for t in ids),
                            o.lease + 20)  # fmt: skip
        for ws, m in zip(sockets, asked, strict=True):
            act = {"op": "act", "v": 1, "turn": m["turn"],
                   "action": m["question"]["options"][0]["action"]}  # fmt: skip
            await ws.send(json.dumps(act))
        await asyncio.sleep(0.5)
        a.send(signal.SIGCONT)
        resumed = time.monotonic()
        moved, refused, when = 0, 0, []
        for ws in sockets:
            try:
                m = await _next(ws, lambda m: m["op"] in ("moved", "error"), 20)
                if m["op"] == "error" and m["code"] == "not_stored":
                    refused += 1
                    m = await _next(ws, lambda m: m["op"] == "moved", 20)
                moved += m["op"] == "moved" and m["to"] == b.url
                when.append(time.monotonic() - resumed)
            except (TimeoutError, websockets.WebSocketException):
                pass
        await asyncio.sleep(1.0)
        after = {p.table: service.actions(p.table) for p in players}
        stale = sum(len(after[t]) - len(before[t]) for t in ids)
        stale += sum(after[t][: len(before[t])] != before[t] for t in ids)
        on = 0
        for p, m in zip(players, asked, strict=True):  # the game goes on at the new owner
            async with websockets.connect(f"ws://127.0.0.1:{b.port}/ws/{p.table}",
                                          ping_interval=None, max_size=2**22) as ws:  # fmt: skip
                await ws.send(json.dumps({"op": "hello", "v": 1, "seat": 0, "token": p.token}))
                q = await _next(ws, lambda m: m["op"] == "update" and m["question"] is not None)
                act = {"op": "act", "v": 1, "turn": q["turn"],
                       "action": q["question"]["options"][0]["action"]}  # fmt: skip
                await ws.send(json.dumps(act))
                await _next(ws, _after(q["turn"]))
                on += q["turn"] == m["turn"]
    finally:
        for ws in sockets:
            await ws.close()
        service.close()
    if taken is None:
        report.problems.append("split brain: node b did not take the paused node's tables over")
    report.add("split brain (SIGSTOP past the lease)", "decisions stored by the stale owner",
               f"{stale} (3 answers queued while it was paused {resumed - stopped:.1f} s; "
               f"{refused} refused not_stored)", split_stale=stale)  # fmt: skip
    report.add("", "its players moved to the new owner",
               f"{moved} of 3, within {max(when, default=float('nan')):.1f} s of its waking",
               split_moved=moved)  # fmt: skip
    report.add("", "their games go on there at the same question", f"{on} of 3", split_on=on)


def _after(turn: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["op"] == "update" and m["turn"] > turn


async def _next(ws: Any, test: Callable[[dict[str, Any]], Any], seconds: float = 30) -> Any:
    import json

    end = time.monotonic() + seconds
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, end - time.monotonic())))
        if test(m):
            return m


async def redis_down(pg: Postgres, folder: Path, o: Options, report: Report) -> None:
    name = f"Redis down {o.redis_seconds:g} s"
    redis = start_redis()
    service = Service(pg, folder / "redis", 2, o.lease, redis)
    crowd = Crowd(service, THINK, o.seed + 1)
    try:
        await _refill(service, crowd, 10)
        first = await poll(lambda: listed(service, crowd), 20)
        await asyncio.sleep(3.0)
        down = time.monotonic()
        redis.stop()
        await asyncio.sleep(o.redis_seconds)
        await asyncio.to_thread(redis.start)
        up = time.monotonic()
        back = await poll(lambda: listed(service, crowd), 60)
        await asyncio.sleep(2.0)
    finally:
        await crowd.close()
    try:
        pause = pauses(crowd, down, up)
        stopped = sum(x > STALL for x in pause.values())
        report.add(name, "games stopped", f"{stopped} of {len(pause)} (longest pause of a game "
                   f"{max(pause.values(), default=0):.1f} s)", redis_stopped=stopped)  # fmt: skip
        if first is None:
            report.problems.append("Redis: the lobby never listed every game before the outage")
        report.add("", "lobby lists every node's games again, after Redis is back",
                   "never (60 s)" if back is None else f"{back:.1f} s",
                   redis_lobby=back if back is not None else -1.0)  # fmt: skip
        _checked(report, "", service, crowd, "redis")
    finally:
        service.close()
        redis.close()


async def pg_restart(pg: Postgres, folder: Path, o: Options, report: Report) -> None:
    name = f"PostgreSQL restart ({o.pg_seconds:g} s down)"
    service = Service(pg, folder / "pg", 2, o.lease, None)
    crowd = Crowd(service, THINK, o.seed + 2)
    try:
        await _refill(service, crowd, 6)
        await asyncio.sleep(3.0)
        down = time.monotonic()
        await asyncio.to_thread(pg.stop, True)
        await asyncio.sleep(o.pg_seconds)
        await asyncio.to_thread(pg.start)
        up = time.monotonic()
        games = {p.table for p in crowd.players if not p.over}
        turns = {p.table: p.turn for p in crowd.players}

        def going(table: str) -> bool:
            return any(p.over or p.turn > turns[table] for p in crowd.players if p.table == table)

        await until(lambda: all(going(t) for t in games), 60)
        resumed = [min([t for p in crowd.players if p.table == table for t, _ in p.turns
                        if t > up], default=time.monotonic()) - up
                   for table in games if going(table)]  # fmt: skip
        await asyncio.sleep(2.0)
    finally:
        await crowd.close()
    try:
        refusals = [t for p in crowd.players for t in p.refused if t >= down]
        sent = sum(down <= t <= up for p in crowd.players for t in p.sent)
        held = [b - a for p in crowd.players for a, b in p.waited if down <= a <= up]
        last = max(refusals, default=up) - up
        report.add(name, "answers sent while it was down", f"{sent}: {len(held)} held and "
                   f"acknowledged once it was back (the longest after {max(held, default=0):.1f}"
                   " s), the others refused", pg_sent=sent)  # fmt: skip
        report.add("", "answers refused with not_stored (given again 1 s later)",
                   f"{len(refusals)}, the last {last:.1f} s after it was back",
                   pg_refused=len(refusals))  # fmt: skip
        report.add("", "games going on by themselves after it is back",
                   f"{len(resumed)} of {len(games)}: {_spread(resumed)}",
                   pg_stuck=len(games) - len(resumed))  # fmt: skip
        _checked(report, "", service, crowd, "pg")
    finally:
        service.close()


def machine() -> str:
    cpu = ""
    with open("/proc/cpuinfo", errors="replace") if os.path.exists("/proc/cpuinfo") else \
            open(os.devnull) as f:  # fmt: skip
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    versions = []
    for program in (_pg_bin("postgres"), shutil.which("redis-server")):
        if program:
            out = subprocess.run([program, "--version"], capture_output=True, text=True).stdout
            versions.append(" ".join(out.split()[:3]))
    return (f"{os.cpu_count()} cores{f' ({cpu})' if cpu else ''}, {platform.system()}, "
            f"Python {platform.python_version()}; {'; '.join(versions)}")  # fmt: skip


async def _all(o: Options, report: Report, out: Callable[[str], None]) -> None:
    pg = start_postgres()
    folder = Path(tempfile.mkdtemp(prefix="jamaica-chaos-"))
    try:
        for scenario in (takeover, split_brain, redis_down, pg_restart):
            out(f"  … {scenario.__name__.replace('_', ' ')}")
            await scenario(pg, folder, o, report)
    finally:
        pg.close()
        if report.problems:
            report.problems.append(f"the nodes' logs are kept in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


def bench_cluster(o: Options, out: Callable[[str], None] = print) -> Report:
    """Every scenario in turn (each on a new database, with its own nodes and Redis); the
    report's table is `table(report, o)`. `services.Missing` without PostgreSQL or Redis."""
    report = Report()
    asyncio.run(_all(o, report, out))
    return report


def table(report: Report, o: Options) -> str:
    head = (f"jamaica bench-cluster: {o.nodes} nodes (lease {o.lease:g} s) on one PostgreSQL and "
            f"one Redis, {o.tables} games of 2 simulated people (thinking {THINK[0]:g}–"
            f"{THINK[1]:g} s) and a greedy bot\nmachine: {machine()}")  # fmt: skip
    wide = max(len(f) for _, f, _ in report.rows)
    lines = [head, ""]
    for scenario, figure, value in report.rows:
        if scenario:
            lines.append(scenario)
        lines.append(f"  {figure:<{wide}}  {value}")
    if report.problems:
        lines += ["", "PROBLEMS:", *(f"  - {p}" for p in report.problems)]
    return "\n".join(lines)
