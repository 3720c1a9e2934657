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

With `--paced`, every client thinks as people do — a uniformly drawn 1 to 3 s (seeded) before each
answer — and the run lasts `--seconds` instead of until the games end (a paced game takes many
minutes). An answer to a card choice offered early (everyone chooses at once) is not a sample: the
game waits for the other player's thinking after it, not for the server.

With `--find-capacity`, the table count goes up from `--games` (×1.5 a step) until the median p99
of `--repeat` runs passes `--p99` ms, then is bisected to within 10 %: the last count that kept it
is the capacity of the node (the machine's, with these clients on it too).

Every run prints the server's CPU time per client answer (user + system, from /proc, Linux only).
`--server-commit REV` runs the server from an earlier commit's code (`git archive`, nothing in the
working tree changes), the clients from this one: before and after, measured the same way.
"""

from __future__ import annotations

import asyncio
import gc
import io
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .services import free_port
from .thinking import describe


@dataclass
class Game:
    id: str
    tokens: list[str]
    sent_at: float | None = None
    sent_turn: int = -1
    over: bool = False
    latencies: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class Pacing:
    """Clients that think `low` to `high` seconds (uniformly) before each answer, for `seconds`."""

    seconds: float = 60.0
    low: float = 1.0
    high: float = 3.0
    warmup: float = 3.0  # seconds after every client has its first update, before measuring


@dataclass
class Measured:
    """What one run measured: client answers, and the wall, server and client time they took."""

    decisions: int
    seconds: float
    server_cpu: float | None
    client_cpu: float


class _Clock:
    """The wall, servers' CPU and client CPU time since `start()`."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.start()

    def _servers(self) -> float | None:
        times = [_cpu_seconds(pid) for pid in self.pids]
        return None if None in times else sum(t for t in times if t is not None)

    def start(self) -> None:
        self.t, self.mine = time.perf_counter(), time.process_time()
        self.cpu = self._servers()

    def stop(self, decisions: int) -> Measured:
        cpu = self._servers()
        used = None if cpu is None or self.cpu is None else cpu - self.cpu
        return Measured(decisions, time.perf_counter() - self.t, used,
                        time.process_time() - self.mine)  # fmt: skip


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"content-type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(req, timeout=30) as r:
        return dict(json.loads(r.read()))


def _read(raw: str | bytes) -> dict[str, Any] | None:
    """An update the client must look at (a question, or the end) or an error, else None; the
    updates that ask nothing (the other seat's turn) are told apart by their text, unparsed: the
    clients share the machine with the server, and their work is not what is measured."""
    text = raw if isinstance(raw, str) else raw.decode()
    if '"question":null,' in text and '"game_over":true' not in text:
        return None
    m = json.loads(text)
    return m if m.get("op") in ("update", "error") else None


def _asked(m: dict[str, Any], game: Game, now: float) -> dict[str, Any] | None:
    """The question of an update that its seat must answer (None: nothing to answer). Notes the
    game's end, and the time since the game's last answer when this is a later turn."""
    if m["view"]["game_over"]:
        game.over = True
        return None
    q: dict[str, Any] | None = m["question"]
    if q is not None and game.sent_at is not None and m["turn"] > game.sent_turn:
        game.latencies.append(now - game.sent_at)
        game.sent_at = None
    return q


RESEND_SECONDS = 0.2  # a refused answer (`not_stored`) is given again after this, as the page does


def _refused(m: dict[str, Any], stats: dict[str, int]) -> bool:
    """Whether an error refused an answer that must be given again (the server could not store
    it: counted in `stats["refused"]`); other errors (an answer to a question gone meanwhile) are
    counted in `stats["errors"]` and need nothing."""
    key = "refused" if m.get("code") == "not_stored" else "errors"
    stats[key] = stats.get(key, 0) + 1
    return key == "refused"


async def _seat(
    port: int, game: Game, seat: int, rng: random.Random, stats: dict[str, int]
) -> None:
    import websockets

    url = f"ws://127.0.0.1:{port}/ws/{game.id}"
    last = ""
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"op": "hello", "v": 1, "seat": seat, "token": game.tokens[seat]}))
        async for raw in ws:
            now = time.perf_counter()
            m = _read(raw)
            if m is None:
                continue
            if m["op"] == "error":
                if _refused(m, stats) and last:
                    await asyncio.sleep(RESEND_SECONDS)
                    await ws.send(last)
                continue
            q = _asked(m, game, now)
            if game.over:
                return
            if q is None:
                continue
            action = rng.choice(q["options"])["action"]
            game.sent_at, game.sent_turn = time.perf_counter(), m["turn"]
            stats["decisions"] += 1
            last = json.dumps({"op": "act", "v": 1, "action": action, "turn": m["turn"]})
            await ws.send(last)


async def _paced_seat(
    port: int, game: Game, seat: int, rng: random.Random, stats: dict[str, int], pacing: Pacing
) -> None:
    """A seat played as a person would: each question is answered after `pacing.low` to
    `pacing.high` seconds of thought; a newer question (a later turn) replaces the one thought
    about. The latency is from an answer to the game's next question (to either seat)."""
    import websockets

    url = f"ws://127.0.0.1:{port}/ws/{game.id}"
    thinking: asyncio.Task[None] | None = None
    about: tuple[int, bool] | None = None  # (turn, early) of the question thought about
    told = False  # this seat has had a message (its first update follows the welcome)
    last = [""]  # the last answer sent

    async def answer(ws: Any, turn: int, early: bool, action: str, delay: float) -> None:
        await asyncio.sleep(delay)
        if not early:  # an early card choice: the game waits for the other player, not us
            game.sent_at, game.sent_turn = time.perf_counter(), turn
        stats["decisions"] += 1
        last[0] = json.dumps({"op": "act", "v": 1, "action": action, "turn": turn})
        await ws.send(last[0])

    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"op": "hello", "v": 1, "seat": seat, "token": game.tokens[seat]}))
        try:
            async for raw in ws:
                now = time.perf_counter()
                if not told:
                    told = True
                    stats["told"] += 1
                m = _read(raw)
                if m is None:
                    continue
                if m["op"] == "error":
                    if _refused(m, stats) and last[0]:
                        await asyncio.sleep(RESEND_SECONDS)
                        await ws.send(last[0])
                    continue
                q = _asked(m, game, now)
                if game.over:
                    return
                if q is None:
                    continue
                key = (m["turn"], bool(q["early"]))
                if key == about and thinking is not None:
                    continue  # the same question again (e.g. the other seat chose its card)
                if thinking is not None:
                    thinking.cancel()
                about = key
                action = rng.choice(q["options"])["action"]
                delay = rng.uniform(pacing.low, pacing.high)
                thinking = asyncio.ensure_future(answer(ws, m["turn"], key[1], action, delay))
        finally:
            if thinking is not None:
                thinking.cancel()


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


async def _run(
    placed: list[tuple[int, Game]], pids: list[int], seed: int, seats: int = 2,
    pacing: Pacing | None = None, stats: dict[str, int] | None = None,
) -> Measured:  # fmt: skip
    """Play every seat of each game on the server of its port (the servers' processes: `pids`);
    measure from the first answer to the last game's end (paced: from `pacing.warmup` seconds
    after every client has its first update, for `pacing.seconds`). `stats` counts the answers
    given, and those refused and given again."""
    stats = {"decisions": 0, "told": 0} if stats is None else stats
    games = [g for _, g in placed]
    rng = random.Random(seed)
    clock = _Clock(pids)
    if pacing is None:
        tasks = [_seat(port, g, s, random.Random(rng.random()), stats)
                 for port, g in placed for s in range(seats)]  # fmt: skip
        await asyncio.gather(*tasks)
        return clock.stop(stats["decisions"])
    clients = [asyncio.ensure_future(_paced_seat(port, g, s, random.Random(rng.random()), stats,
                                                 pacing))
               for port, g in placed for s in range(seats)]  # fmt: skip
    end = time.perf_counter() + 300
    while stats["told"] < len(clients) and time.perf_counter() < end:
        if any(c.done() for c in clients):
            break  # a client failed: said below
        await asyncio.sleep(0.1)
    await asyncio.sleep(pacing.warmup)
    for g in games:  # joining is not what is measured
        g.latencies.clear()
    stats["decisions"] = 0
    gc.collect()  # the clients' own collections would pause them (~0.1 s with thousands of
    gc.freeze()  # sockets), not the server: what is alive now is never looked at again
    clock.start()
    await asyncio.wait(clients, timeout=pacing.seconds)
    measured = clock.stop(stats["decisions"])
    gc.unfreeze()
    for c in clients:
        c.cancel()
    ended = await asyncio.gather(*clients, return_exceptions=True)
    for e in ended:  # a client that failed (not one stopped at the end) fails the run
        if isinstance(e, Exception):
            raise e
    return measured


def _loop_run(main: Coroutine[Any, Any, Measured]) -> Measured:
    """Run the clients on uvloop where it is installed (as the server runs): the clients' own
    work on this machine is taken from what the server could use."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


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
    cpu: float | None = None  # the server's CPU seconds (user + system) during the games
    client_cpu: float = 0.0  # the clients' (this process's) CPU seconds during the games

    def p99(self) -> float:
        return _percentiles([x for g in self.games for x in g.latencies])[1]

    def p50(self) -> float:
        return _percentiles([x for g in self.games for x in g.latencies])[0]

    def rate(self) -> float:
        return self.decisions / self.seconds

    def cpu_ms(self) -> float:
        """The server's CPU milliseconds per client answer."""
        if self.cpu is None or not self.decisions:
            return float("nan")
        return 1000 * self.cpu / self.decisions

    def client_ms(self) -> float:
        return 1000 * self.client_cpu / self.decisions if self.decisions else float("nan")


def _cpu_seconds(pid: int) -> float | None:
    """A process's CPU time so far, user + system (Linux: /proc; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _export(rev: str, into: Path) -> Path:
    """The `src` of commit `rev` unpacked into `into` (git archive: the working tree and the
    index are not touched); returns the folder to put on the server's PYTHONPATH."""
    here = Path(__file__).resolve().parent
    top = subprocess.run(["git", "-C", str(here), "rev-parse", "--show-toplevel"],
                         check=True, capture_output=True, text=True).stdout.strip()  # fmt: skip
    tar = subprocess.run(["git", "-C", top, "archive", "--format=tar", rev, "src"],
                         check=True, capture_output=True).stdout  # fmt: skip
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(into, filter="data")
    return into / "src"


def _bots_wait(base: str) -> str:
    """The bots' queue wait, per lane, as the server reports it (`/api/status`, `bots`)."""
    try:
        with urllib.request.urlopen(base + "/api/status", timeout=10) as r:
            status = json.loads(r.read())
        return describe(status["bots"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        return f"the server does not report its bots' queue wait ({e})"


def _serve(
    port: int, db: Path, games: int, spectators: int, src: Path | None = None
) -> subprocess.Popen[bytes]:
    """The server, with its limits opened up for one client machine playing every seat (the code
    of `src` if given, e.g. an earlier commit's)."""
    cmd = [sys.executable, "-m", "jamaica", "serve", "--port", str(port), "--db", f"sqlite:///{db}",
           "--connections-per-address", str(2 * games + spectators + 16),
           "--messages-per-second", "100000", "--message-burst", "100000",
           "--tables-per-minute", str(games + 1), "--max-tables", str(games + 1),
           "--tables-per-address", str(games + 1), "--http-burst", str(100 * games + 1000),
           "--http-per-second", "100000"]  # fmt: skip
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), *filter(None, [env.get("PYTHONPATH")])])
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)


def _bench_once(
    games: int, seed: int, spectators: int, bot: str | None = None,
    pacing: Pacing | None = None, src: Path | None = None,
) -> Run:  # fmt: skip
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = _serve(port, Path(tmp) / "bench.db", games, spectators, src)
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
            m = _loop_run(_run([(port, g) for g in plays], [proc.pid], seed,
                               2 if bot is None else 1, pacing))  # fmt: skip
            bots = None if bot is None else _bots_wait(base)
            if watchers is not None:
                watchers.join(60)
        finally:
            if watchers is not None and watchers.is_alive():
                watchers.terminate()
            proc.terminate()
            proc.wait(10)
    return Run(plays, m.seconds, m.decisions, bots, m.server_cpu, m.client_cpu)


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
        f"  CPU per answer     server {run.cpu_ms():.2f} ms, clients {run.client_ms():.2f} ms",
        f"  answer → next question: p50 {p50:.1f} ms, p99 {p99:.1f} ms ({n} samples)",
        f"  the first table's players: p50 {w50:.1f} ms, p99 {w99:.1f} ms "
        f"({len(run.games[0].latencies)} samples)",
        *bots,
    ]


def _head(games: int, bot: str | None, pacing: Pacing | None, rev: str | None) -> str:
    seat = "" if bot is None else f"; seat B: its {bot} bot"
    server = "one process" if rev is None else f"one process, the code of {rev}"
    head = f"{games} concurrent 2-player games over WebSockets on loopback (server: {server}{seat})"
    if pacing is not None:
        head += (f", clients thinking {pacing.low:g}–{pacing.high:g} s before each answer, for "
                 f"{pacing.seconds:g} s")  # fmt: skip
    return head + ":"


def bench_server(
    games: int = 100, seed: int = 1, spectators: int = 0, bot: str | None = None,
    pacing: Pacing | None = None, rev: str | None = None,
) -> str:  # fmt: skip
    head = _head(games, bot, pacing, rev)
    with tempfile.TemporaryDirectory() as tmp:
        src = None if rev is None else _export(rev, Path(tmp))
        base = _bench_once(games, seed, 0, bot, pacing, src)
        if not spectators:
            return "\n".join([head, *_lines(base, "")[1:]])
        watched = _bench_once(games, seed, spectators, bot, pacing, src)
    _, p99 = _percentiles(base.games[0].latencies)
    _, q99 = _percentiles(watched.games[0].latencies)
    return "\n".join([
        head,
        *_lines(base, "no spectators:"),
        *_lines(watched, f"{spectators} spectators watching the first table:"),
        f"the first table's players' p99 with {spectators} spectators: {q99 / p99:.2f}× "
        "the p99 with none",
    ])  # fmt: skip


@dataclass
class Step:
    games: int
    runs: list[Run]

    def _median(self, f: Callable[[Run], float]) -> float:
        return statistics.median(f(r) for r in self.runs)

    def p99(self) -> float:
        return self._median(Run.p99)

    def line(self) -> str:
        return (f"  {self.games:6d} {self._median(Run.rate):8.0f} {self._median(Run.p50):8.1f} "
                f"{self.p99():9.1f} {self._median(Run.cpu_ms):10.2f}   "
                f"p99 of each run: {', '.join(f'{r.p99():.0f}' for r in self.runs)}")  # fmt: skip


def find_capacity(
    start: int = 10, seed: int = 1, pacing: Pacing | None = None, rev: str | None = None,
    p99: float = 100.0, repeat: int = 3, most: int = 1000, out: Callable[[str], None] = print,
) -> str:  # fmt: skip
    """The most tables one node holds with the median (of `repeat` runs) answer→question p99 at
    most `p99` ms: up ×1.5 a step from `start` until it is passed, then bisected to within 10 %.
    Prints each step as it is measured (`out`); returns the summary."""
    out(_head(start, None, pacing, rev).replace(f"{start} concurrent", "Concurrent", 1))
    out(f"  {'tables':>6} {'dec/s':>8} {'p50 ms':>8} {'p99 ms':>9} {'CPU ms/ans':>10}   "
        f"(medians of {repeat} runs)")  # fmt: skip
    steps: dict[int, Step] = {}
    with tempfile.TemporaryDirectory() as tmp:
        src = None if rev is None else _export(rev, Path(tmp))

        def measure(n: int) -> bool:
            runs = [_bench_once(n, seed + k, 0, None, pacing, src) for k in range(repeat)]
            steps[n] = Step(n, runs)
            out(steps[n].line())
            return steps[n].p99() <= p99

        good, bad = 0, None
        n = start
        while n <= most:
            if not measure(n):
                bad = n
                break
            good, n = n, max(n + 1, round(n * 1.5))
        if bad is not None:
            low = good if good else 1
            while bad - low > max(1, low // 10):
                mid = (low + bad) // 2
                if mid in steps:
                    break
                if measure(mid):
                    low = good = mid
                else:
                    bad = mid
    if not good:
        return f"not even {start} tables kept p99 ≤ {p99:g} ms"
    best = steps[good]
    told = (f"capacity: {good} tables at p99 ≤ {p99:g} ms (median p99 {best.p99():.1f} ms, "
            f"{best._median(Run.rate):.0f} decisions/s, {best._median(Run.cpu_ms):.2f} ms of "
            "server CPU per answer)")  # fmt: skip
    if bad is None:
        told += f"; {most} tables is as far as it looks"
    return told
