"""`jamaica bench-scaleout`: how many tables a service holds at answer→question p99 ≤ 100 ms with
one node and with two, on one PostgreSQL (real processes on this machine: the nodes, the database
and the clients share its cores).

The tables are made on the nodes in turn (as a proxy's round robin would) and each client plays on
the node that keeps its table; clients answer at once, as `bench-server` does. For each node count
the table count steps up until the median p99 of `repeat` runs passes the limit; the figure is the
largest count that kept it.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from .bench import Game, Measured, _free_port, _loop_run, _percentiles, _post, _seat
from .services import Postgres, start_postgres

STEPS = (10, 15, 20, 25, 30, 40, 50, 60, 80, 100, 130, 160, 200)


@dataclass
class Point:
    nodes: int
    tables: int
    p99s: list[float]
    rates: list[float]
    refused: int = 0

    @property
    def p99(self) -> float:
        return statistics.median(self.p99s)


def _node(port: int, url: str, name: str, tables: int, log: Path) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "jamaica", "serve", "--port", str(port), "--db", url,
           "--node", name, "--advertise", f"http://127.0.0.1:{port}",
           "--connections-per-address", str(2 * tables + 16),
           "--messages-per-second", "100000", "--message-burst", "100000",
           "--tables-per-minute", str(tables + 1), "--max-tables", str(tables + 1),
           "--tables-per-address", str(tables + 1), "--http-burst", str(100 * tables + 1000),
           "--http-per-second", "100000"]  # fmt: skip
    with log.open("ab") as out:
        return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)


def _up(port: int) -> None:
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1).read()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the node on {port} did not start")


@dataclass
class Once:
    """One run: answer→question p99 (ms), answers a second, and answers refused `not_stored`
    (given again by the clients; the nodes' logs say why)."""

    p99: float
    rate: float
    refused: int


async def _play(placed: list[tuple[int, Game]], seed: int, stats: dict[str, int]) -> Measured:
    rng = random.Random(seed)
    start = time.perf_counter()
    await asyncio.gather(*(_seat(port, g, s, random.Random(rng.random()), stats)
                           for port, g in placed for s in range(2)))  # fmt: skip
    return Measured(stats["decisions"], time.perf_counter() - start, None, 0.0)


def run_once(pg: Postgres, nodes: int, tables: int, seed: int, logs: Path) -> Once:
    """One run on a fresh database; each node's output is appended to `logs`/nN.log."""
    url = pg.database()
    subprocess.run([sys.executable, "-m", "jamaica", "db", "upgrade", "--db", url], check=True,
                   capture_output=True)  # fmt: skip
    ports = [_free_port() for _ in range(nodes)]
    procs = [_node(p, url, f"n{i}", tables, logs / f"n{i}.log") for i, p in enumerate(ports)]
    stats = {"decisions": 0, "told": 0}
    try:
        for p in ports:
            _up(p)
        body = {"players": 2, "seats": [{"name": "A", "bot": None}, {"name": "B", "bot": None}]}
        placed = []
        for i in range(tables):
            port = ports[i % nodes]
            d = _post(f"http://127.0.0.1:{port}/api/tables", body)
            placed.append((port, Game(d["id"], [s["token"] for s in d["seats"]])))
        m = _loop_run(_play(placed, seed, stats))
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    if not all(g.over for _, g in placed):
        raise RuntimeError("a game did not reach its end")
    _, p99 = _percentiles([x for _, g in placed for x in g.latencies])
    return Once(p99, m.decisions / m.seconds, stats.get("refused", 0))


def capacity(
    pg: Postgres, nodes: int, limit: float, repeat: int, seed: int, logs: Path
) -> list[Point]:
    """Step the table count up until the median p99 passes `limit` ms."""
    points = []
    for tables in STEPS:
        runs = [run_once(pg, nodes, tables, seed + k, logs) for k in range(repeat)]
        point = Point(nodes, tables, [r.p99 for r in runs], [r.rate for r in runs],
                      sum(r.refused for r in runs))  # fmt: skip
        points.append(point)
        if point.p99 > limit:
            break
    return points


def held(points: list[Point], limit: float) -> int:
    return max((p.tables for p in points if p.p99 <= limit), default=0)


def bench_scaleout(limit: float = 100.0, repeat: int = 3, seed: int = 1) -> str:
    logs = Path(tempfile.mkdtemp(prefix="jamaica-scaleout-"))
    pg = start_postgres()
    try:
        curves = {n: capacity(pg, n, limit, repeat, seed, logs) for n in (1, 2)}
    finally:
        pg.close()
    lines = [f"jamaica bench-scaleout: tables held at answer→question p99 ≤ {limit:g} ms (median "
             f"of {repeat} runs), instant clients, one PostgreSQL; "
             f"{os.cpu_count()} cores"]  # fmt: skip
    for n, points in curves.items():
        lines.append(f"{n} node{'s' if n > 1 else ''}: {held(points, limit)} tables")
        for p in points:
            lines.append(f"  {p.tables:4d} tables: p99 {p.p99:7.1f} ms  "
                         f"({', '.join(f'{x:.0f}' for x in p.p99s)}), "
                         f"{statistics.median(p.rates):.0f} answers/s"
                         + (f", {p.refused} refused not_stored" if p.refused else ""))  # fmt: skip
    one, two = held(curves[1], limit), held(curves[2], limit)
    lines.append(f"two nodes / one: {two / one:.2f}×" if one else "one node held no tables")
    lines.append(f"the nodes' logs: {logs}")
    return "\n".join(lines)
