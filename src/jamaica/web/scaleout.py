"""`jamaica bench-scaleout`: how many tables a service holds at answer→question p99 ≤ 100 ms with
one node and with two, on one PostgreSQL (real processes on this machine: the nodes, the database
and the clients share its cores).

The tables are made on the nodes in turn (as a proxy's round robin would) and each client plays on
the node that keeps its table. Clients answer at once (as `bench-server` does: the figure is then
the machine's throughput) or, with `paced`, think 1–3 s before each answer as people do (the
figure is then how many people's games the service keeps quick). At each table count the runs of
one node and of two alternate (`repeat` of each), so that other work on the machine weighs on
both alike; the count steps up until both medians pass the limit. A node count's figure is the
largest count it kept.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from .bench import Game, Pacing, _loop_run, _percentiles, _post, _run
from .services import Postgres, free_port, start_postgres

STEPS = (10, 15, 20, 25, 30, 40, 50, 60, 80, 100, 130, 160, 200)
PACED_STEPS = (200, 300, 400, 500, 600, 700, 800, 1000, 1200, 1400, 1700, 2000)


@dataclass
class Once:
    """One run: answer→question p99 (ms), answers a second, the nodes' CPU ms per answer, and
    answers refused `not_stored` (given again by the clients; the nodes' logs say why)."""

    p99: float
    rate: float
    cpu_ms: float = float("nan")
    refused: int = 0


@dataclass
class Point:
    nodes: int
    tables: int
    runs: list[Once] = field(default_factory=list)

    @property
    def p99(self) -> float:
        return statistics.median(r.p99 for r in self.runs)

    def line(self) -> str:
        rate = statistics.median(r.rate for r in self.runs)
        cpu = statistics.median(r.cpu_ms for r in self.runs)
        refused = sum(r.refused for r in self.runs)
        return (f"  {self.nodes} node{'s' if self.nodes > 1 else ' '} {self.tables:5d} tables: "
                f"p99 {self.p99:7.1f} ms ({', '.join(f'{r.p99:.0f}' for r in self.runs)}), "
                f"{rate:.0f} answers/s, nodes' CPU {cpu:.2f} ms per answer"
                + (f", {refused} refused not_stored" if refused else ""))  # fmt: skip


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


def run_once(
    pg: Postgres, nodes: int, tables: int, seed: int, logs: Path, pacing: Pacing | None = None
) -> Once:
    """One run on a fresh database; each node's output is appended to `logs`/nN.log."""
    url = pg.database()
    subprocess.run([sys.executable, "-m", "jamaica", "db", "upgrade", "--db", url], check=True,
                   capture_output=True)  # fmt: skip
    ports = [free_port() for _ in range(nodes)]
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
        m = _loop_run(_run(placed, [p.pid for p in procs], seed, 2, pacing, stats))
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    if pacing is None and not all(g.over for _, g in placed):
        raise RuntimeError("a game did not reach its end")
    _, p99 = _percentiles([x for _, g in placed for x in g.latencies])
    cpu = float("nan") if m.server_cpu is None else 1000 * m.server_cpu / max(1, m.decisions)
    return Once(p99, m.decisions / m.seconds, cpu, stats.get("refused", 0))


def capacity(
    pg: Postgres, limit: float, repeat: int, seed: int, logs: Path, pacing: Pacing | None = None,
    steps: tuple[int, ...] | None = None, report: bool = True,
) -> dict[int, list[Point]]:  # fmt: skip
    """Step the table count up, one node's runs and two nodes' alternating, until both medians
    pass `limit` ms."""
    curves: dict[int, list[Point]] = {1: [], 2: []}
    for tables in steps or (PACED_STEPS if pacing else STEPS):
        going = [n for n in curves if not curves[n] or curves[n][-1].p99 <= limit]
        if not going:
            break
        points = {n: Point(n, tables) for n in going}
        for k in range(repeat):
            for n in going:
                points[n].runs.append(run_once(pg, n, tables, seed + k, logs, pacing))
        for n, point in points.items():
            curves[n].append(point)
            if report:
                print(point.line(), flush=True)
    return curves


def held(points: list[Point], limit: float) -> int:
    return max((p.tables for p in points if p.p99 <= limit), default=0)


def bench_scaleout(
    limit: float = 100.0, repeat: int = 3, seed: int = 1, pacing: Pacing | None = None,
    steps: tuple[int, ...] | None = None,
) -> str:  # fmt: skip
    logs = Path(tempfile.mkdtemp(prefix="jamaica-scaleout-"))
    clients = ("clients think 1–3 s before each answer" if pacing else
               "clients answer at once")  # fmt: skip
    print(f"jamaica bench-scaleout: tables held at answer→question p99 ≤ {limit:g} ms (median of "
          f"{repeat} runs), {clients}, one PostgreSQL; {os.cpu_count()} cores; one node's runs "
          "and two nodes' alternate", flush=True)  # fmt: skip
    pg = start_postgres()
    try:
        curves = capacity(pg, limit, repeat, seed, logs, pacing, steps)
    finally:
        pg.close()
    one, two = held(curves[1], limit), held(curves[2], limit)
    lines = [f"1 node: {one} tables", f"2 nodes: {two} tables",
             f"two nodes / one: {two / one:.2f}×" if one else "one node held no tables",
             f"the nodes' logs: {logs}"]  # fmt: skip
    return "\n".join(lines)
