"""`jamaica bench-server`: N concurrent games over real WebSockets on loopback.

A `jamaica serve` runs in its own process with a fresh SQLite file; every table has two human
seats played by client-side bots that answer each question at once with a random option. The
figure is the time from a client's answer to the next question of that game, as clients see it.

With `--spectators N`, the same games are played twice: once as above, and once with N more
sockets (in a process of their own, reading everything as a browser would) watching the first
table; both runs' latencies are printed, the watched table's players' on their own line.

With `--bot SPEC`, the second seat of every table is the server's bot of that spec (the client
plays the first): the latency then includes the bot's decision, and the bots' queue wait in the
server's scheduler (`thinking.py`, read from `/api/status` once the games are over) is printed.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .thinking import describe


@dataclass
class Game:
    id: str
    tokens: list[str]
    sent_at: float | None = None
    sent_turn: int = -1
    over: bool = False
    latencies: list[float] = field(default_factory=list)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"content-type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(req, timeout=30) as r:
        return dict(json.loads(r.read()))


async def _seat(
    port: int, game: Game, seat: int, rng: random.Random, stats: dict[str, int]
) -> None:
    import websockets

    url = f"ws://127.0.0.1:{port}/ws/{game.id}"
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"op": "hello", "v": 1, "seat": seat, "token": game.tokens[seat]}))
        async for raw in ws:
            m = json.loads(raw)
            if m["op"] != "update":
                continue
            if m["view"]["game_over"]:
                game.over = True
                return
            q = m["question"]
            if q is None:
                continue
            now = time.perf_counter()
            if game.sent_at is not None and m["turn"] > game.sent_turn:
                game.latencies.append(now - game.sent_at)
                game.sent_at = None
            action = rng.choice(q["options"])["action"]
            game.sent_at, game.sent_turn = time.perf_counter(), m["turn"]
            stats["decisions"] += 1
            await ws.send(json.dumps({"op": "act", "v": 1, "action": action, "turn": m["turn"]}))


async def _watch(port: int, table_id: str, n: int, ready: Any) -> None:
    import websockets

    async def one(k: int) -> None:
        url = f"ws://127.0.0.1:{port}/ws/{table_id}"
        async with websockets.connect(url, max_size=2**22) as ws:
            await ws.send(json.dumps({"op": "hello", "v": 1, "seat": None}))
            connected.append(k)
            if len(connected) == n:
                ready.set()
            async for raw in ws:
                if '"game_over":true' in raw:
                    return

    connected: list[int] = []
    await asyncio.gather(*(one(k) for k in range(n)))


def _spectators(port: int, table_id: str, n: int, ready: Any) -> None:
    """A process of N spectators on one table, reading every message until the game is over."""
    asyncio.run(_watch(port, table_id, n, ready))


async def _run(port: int, games: list[Game], seed: int, seats: int = 2) -> dict[str, int]:
    stats = {"decisions": 0}
    rng = random.Random(seed)
    tasks = [_seat(port, g, s, random.Random(rng.random()), stats)
             for g in games for s in range(seats)]  # fmt: skip
    await asyncio.gather(*tasks)
    return stats


def _percentiles(lat: list[float]) -> tuple[float, float]:
    lat = sorted(lat)
    if not lat:
        return float("nan"), float("nan")
    return statistics.median(lat) * 1000, lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000


@dataclass
class Run:
    games: list[Game]
    seconds: float
    decisions: int
    bots: str | None = None  # the server's bots' queue wait, if it tells it


def _bots_wait(base: str) -> str:
    """The bots' queue wait, per lane, as the server reports it (`/api/status`, `bots`)."""
    try:
        with urllib.request.urlopen(base + "/api/status", timeout=10) as r:
            status = json.loads(r.read())
        return describe(status["bots"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        return f"the server does not report its bots' queue wait ({e})"


def _serve(port: int, db: Path, games: int, spectators: int) -> subprocess.Popen[bytes]:
    """The server, with its limits opened up for one client machine playing every seat."""
    cmd = [sys.executable, "-m", "jamaica", "serve", "--port", str(port), "--db", f"sqlite:///{db}",
           "--connections-per-address", str(2 * games + spectators + 16),
           "--messages-per-second", "100000", "--message-burst", "100000",
           "--tables-per-minute", str(games + 1), "--max-tables", str(games + 1),
           "--tables-per-address", str(games + 1), "--http-burst", str(100 * games + 1000),
           "--http-per-second", "100000"]  # fmt: skip
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _bench_once(games: int, seed: int, spectators: int, bot: str | None = None) -> Run:
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = _serve(port, Path(tmp) / "bench.db", games, spectators)
        watchers = None
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(200):
                try:
                    urllib.request.urlopen(base + "/api/tables", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.1)
            table = {
                "players": 2,
                "seats": [{"name": "A", "bot": None}, {"name": "B", "bot": bot}],
            }
            made = [_post(base + "/api/tables", table) for _ in range(games)]
            plays = [Game(d["id"], [s["token"] for s in d["seats"]]) for d in made]
            if spectators:
                ctx = multiprocessing.get_context("spawn")
                ready = ctx.Event()
                watchers = ctx.Process(
                    target=_spectators, args=(port, plays[0].id, spectators, ready), daemon=True
                )
                watchers.start()
                if not ready.wait(120):
                    raise RuntimeError("the spectators could not all connect")
            t = time.perf_counter()
            stats = asyncio.run(_run(port, plays, seed, 2 if bot is None else 1))
            seconds = time.perf_counter() - t
            bots = None if bot is None else _bots_wait(base)
            if watchers is not None:
                watchers.join(60)
        finally:
            if watchers is not None and watchers.is_alive():
                watchers.terminate()
            proc.terminate()
            proc.wait(10)
    return Run(plays, seconds, stats["decisions"], bots)


def _lines(run: Run, title: str) -> list[str]:
    p50, p99 = _percentiles([x for g in run.games for x in g.latencies])
    w50, w99 = _percentiles(run.games[0].latencies)
    n = sum(len(g.latencies) for g in run.games)
    bots = [] if run.bots is None else [f"  bots: {x}" for x in run.bots.splitlines()]
    return [
        title,
        f"  games finished     {sum(g.over for g in run.games)}",
        f"  wall time          {run.seconds:.1f} s",
        f"  decisions/s        {run.decisions / run.seconds:.0f}   (client answers, all games)",
        f"  answer → next question: p50 {p50:.1f} ms, p99 {p99:.1f} ms ({n} samples)",
        f"  the first table's players: p50 {w50:.1f} ms, p99 {w99:.1f} ms "
        f"({len(run.games[0].latencies)} samples)",
        *bots,
    ]


def bench_server(
    games: int = 100, seed: int = 1, spectators: int = 0, bot: str | None = None
) -> str:
    seat = "" if bot is None else f"; seat B: its {bot} bot"
    head = f"{games} concurrent 2-player games over WebSockets on loopback (server: one process"
    head += f"{seat}):"
    base = _bench_once(games, seed, 0, bot)
    if not spectators:
        return "\n".join([head, *_lines(base, "")[1:]])
    watched = _bench_once(games, seed, spectators, bot)
    _, p99 = _percentiles(base.games[0].latencies)
    _, q99 = _percentiles(watched.games[0].latencies)
    return "\n".join([
        head,
        *_lines(base, "no spectators:"),
        *_lines(watched, f"{spectators} spectators watching the first table:"),
        f"the first table's players' p99 with {spectators} spectators: {q99 / p99:.2f}× "
        "the p99 with none",
    ])  # fmt: skip
