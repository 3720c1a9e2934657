"""`jamaica bench-server`: N concurrent games over real WebSockets on loopback.

A `jamaica serve` runs in its own process with a fresh SQLite file; every table has two human
seats played by client-side bots that answer each question at once with a random option. The
figure is the time from a client's answer to the next question of that game, as clients see it.
"""

from __future__ import annotations

import asyncio
import json
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


async def _run(port: int, games: list[Game], seed: int) -> dict[str, int]:
    stats = {"decisions": 0}
    rng = random.Random(seed)
    tasks = [_seat(port, g, s, random.Random(rng.random()), stats) for g in games for s in (0, 1)]
    await asyncio.gather(*tasks)
    return stats


def bench_server(games: int = 100, seed: int = 1) -> str:
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        cmd = [sys.executable, "-m", "jamaica", "serve", "--port", str(port),
               "--db", f"sqlite:///{db}"]  # fmt: skip
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
                "seats": [{"name": "A", "bot": None}, {"name": "B", "bot": None}],
            }
            made = [_post(base + "/api/tables", table) for _ in range(games)]
            plays = [Game(d["id"], [s["token"] for s in d["seats"]]) for d in made]
            t = time.perf_counter()
            stats = asyncio.run(_run(port, plays, seed))
            seconds = time.perf_counter() - t
        finally:
            proc.terminate()
            proc.wait(10)
    lat = sorted(x for g in plays for x in g.latencies)
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000
    finished = sum(g.over for g in plays)
    return "\n".join([
        f"{games} concurrent 2-player games over WebSockets on loopback (server: one process):",
        f"  games finished     {finished}",
        f"  wall time          {seconds:.1f} s",
        f"  decisions/s        {stats['decisions'] / seconds:.0f}   (client answers, all games)",
        f"  answer → next question: p50 {p50:.1f} ms, p99 {p99:.1f} ms ({len(lat)} samples)",
    ])  # fmt: skip
