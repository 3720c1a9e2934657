"""A whole service on this machine for `jamaica bench-cluster` (`chaos.py`): PostgreSQL, Redis and
`jamaica serve --node` processes on loopback; simulated people playing over WebSockets as a
browser does; and the check of what they saw against what PostgreSQL kept.

A `Player` thinks a little before each answer, follows `moved`, and when its connection is lost
goes back through the front door (any node, as a proxy would send it). It records every view it
was shown (by turn) and every answer acknowledged — the next update had a higher turn — so that
`check` can replay each table's stored decisions and find any answer lost or any view that the
stored game does not give.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..rules import Action, Config, new_game
from .services import Postgres, Redis, free_port

NOW = "extract(epoch FROM clock_timestamp())"


def _get(url: str, timeout: float = 5) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.loads(r.read())


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"content-type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(req, timeout=30) as r:
        return dict(json.loads(r.read()))


@dataclass
class Node:
    """One `jamaica serve --node NAME` process, restartable on the same port."""

    name: str
    folder: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, db: str, lease: float, redis: str | None) -> Node:
        cmd = [sys.executable, "-m", "jamaica", "serve", "--port", str(self.port), "--db", db,
               "--node", self.name, "--advertise", self.url, "--lease", str(lease),
               "--connections-per-address", "10000", "--messages-per-second", "10000",
               "--message-burst", "10000", "--tables-per-minute", "10000",
               "--tables-per-address", "10000", "--max-tables", "10000",
               "--http-per-second", "100000", "--http-burst", "100000",
               *(["--redis", redis] if redis else [])]  # fmt: skip
        with open(self.folder / f"{self.name}.log", "ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log)
        end = time.monotonic() + 30
        while True:
            try:
                _get(self.url + "/api/status", 1)
                return self
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > end:
                    raise RuntimeError(f"node {self.name} did not start: see its log, "
                                       f"{self.folder / self.name}.log") from None  # fmt: skip
                time.sleep(0.1)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def send(self, sig: int) -> None:
        if self.running:
            assert self.proc is not None
            os.kill(self.proc.pid, sig)

    def kill(self) -> None:
        if self.proc is not None and self.running:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        self.send(signal.SIGCONT)
        if self.proc is not None and self.running:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class Service:
    """A database of its own on `pg`, `nodes` nodes (a, b, c…) and, with `redis`, Redis."""

    def __init__(self, pg: Postgres, folder: Path, nodes: int, lease: float,
                 redis: Redis | None) -> None:  # fmt: skip
        self.pg, self.redis, self.lease = pg, redis, lease
        folder.mkdir(parents=True, exist_ok=True)
        self.db = pg.database()
        subprocess.run([sys.executable, "-m", "jamaica", "db", "upgrade", "--db", self.db],
                       check=True, capture_output=True)  # fmt: skip
        self.nodes = [Node(chr(ord("a") + k), folder) for k in range(nodes)]
        for node in self.nodes:
            self.start(node)

    def start(self, node: Node) -> None:
        node.start(self.db, self.lease, self.redis.url if self.redis else None)

    def front(self) -> str:
        """The front door: any node (a proxy without health checks: maybe a dead one)."""
        return random.choice(self.nodes).url

    def sql(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(self.db, connect_timeout=5, autocommit=True) as db:
            return list(db.execute(query, tuple(params)).fetchall())

    def owners(self) -> dict[str, str]:
        """Table -> the node holding a live lease on it."""
        rows = self.sql(f"SELECT table_id, node FROM owners WHERE lease_until >= {NOW}")
        return {str(t): str(n) for t, n in rows}

    def actions(self, table_id: str) -> list[tuple[int, int, str]]:
        rows = self.sql("SELECT seq, action, by FROM actions WHERE table_id = %s ORDER BY seq",
                        (table_id,))  # fmt: skip
        return [(int(q), int(a), str(b)) for q, a, b in rows]

    def held(self) -> tuple[int, int]:
        """(unfinished tables live on the nodes, summed; unfinished tables in the database)."""
        live = sum(_get(n.url + "/api/status")["tables"]["unfinished"]
                   for n in self.nodes if n.running)  # fmt: skip
        return live, int(self.sql("SELECT count(*) FROM tables WHERE finished = 0")[0][0])

    def table(self, node: Node, humans: int, bots: Sequence[str] = ("greedy",)) -> list[Player]:
        """A new table made on `node` (so kept there): its human seats' players, not started."""
        seats = [{"name": f"P{k + 1}", "bot": None} for k in range(humans)]
        seats += [{"name": f"Bot{k + 1}", "bot": b} for k, b in enumerate(bots)]
        made = post(node.url + "/api/tables", {"players": len(seats), "seats": seats})
        return [Player(made["id"], k, made["seats"][k]["token"], node.url)
                for k in range(humans)]  # fmt: skip

    def close(self) -> None:
        for node in self.nodes:
            node.stop()


def digest(view: Any) -> str:
    return hashlib.sha1(json.dumps(view, sort_keys=True).encode()).hexdigest()[:16]


@dataclass
class Player:
    """One seat played by a simulated person (see the module's doc)."""

    table: str
    seat: int
    token: str
    address: str  # where it connects next
    views: dict[int, set[str]] = field(default_factory=dict)  # turn -> digests of views seen
    acked: dict[int, int] = field(default_factory=dict)  # turn -> the action acknowledged
    pending: tuple[int, int] | None = None  # (turn, action) sent, not acknowledged yet
    back: list[float] = field(default_factory=list)  # the first update of each connection
    turns: list[tuple[float, int]] = field(default_factory=list)  # (when, turn) at each change
    refused: list[float] = field(default_factory=list)  # when an answer was `not_stored`
    sent: list[float] = field(default_factory=list)  # when each answer was sent
    waited: list[tuple[float, float]] = field(default_factory=list)  # (sent, acknowledged)
    moved: list[tuple[float, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # error codes not expected
    over: bool = False

    @property
    def turn(self) -> int:
        return self.turns[-1][1] if self.turns else -1

    async def play(self, think: tuple[float, float], rng: random.Random, front: Callable[[], str],
                   stop: asyncio.Event) -> None:  # fmt: skip
        """Play until the game is over or `stop` is set, reconnecting as a browser's page does."""
        import websockets

        while not self.over and not stop.is_set():
            url = "ws" + self.address.removeprefix("http") + f"/ws/{self.table}"
            try:
                async with websockets.connect(url, open_timeout=5, ping_interval=None,
                                              max_size=2**22) as ws:  # fmt: skip
                    hello = {"op": "hello", "v": 1, "seat": self.seat, "token": self.token}
                    # a node that does not keep the table says `moved` and closes at once,
                    # without waiting for the hello: that word is still read if the hello is not
                    with contextlib.suppress(websockets.ConnectionClosed):
                        await ws.send(json.dumps(hello))
                    to = await self._session(ws, think, rng, stop)
                    if to is not None:
                        self.address = to or front()
                        continue
            except (OSError, TimeoutError, websockets.WebSocketException):
                pass
            self.address = front()  # lost without `moved`: back through the front door
            await asyncio.sleep(0.2)

    async def _session(self, ws: Any, think: tuple[float, float], rng: random.Random,
                       stop: asyncio.Event) -> str | None:  # fmt: skip
        """One connection: where to go next ('': the front door), or None when it ends."""
        loop = asyncio.get_running_loop()
        first = True
        question: tuple[int, str] | None = None
        due: float | None = None
        answered = -1  # the turn answered on this connection (an answer lost with the last
        # connection is given again, as a person would on the page shown again)
        while not stop.is_set():
            wait = 0.5 if due is None else min(0.5, max(0.0, due - loop.time()))
            try:
                m = json.loads(await asyncio.wait_for(ws.recv(), wait))
            except TimeoutError:
                if due is not None and question is not None and loop.time() >= due:
                    turn, text = question
                    self.pending, due, answered = (turn, int(Action.parse(text))), None, turn
                    self.sent.append(time.monotonic())
                    await ws.send(json.dumps({"op": "act", "v": 1, "action": text, "turn": turn}))
                continue
            now = time.monotonic()
            if m["op"] == "moved":
                self.moved.append((now, m["to"]))
                return str(m["to"])
            if m["op"] == "error":
                if m["code"] == "not_stored":  # a person tries again in a moment
                    self.refused.append(now)
                    self.pending, due = None, loop.time() + 1.0
                elif m["code"] in ("stale", "not_your_turn", "chosen"):
                    self.pending = None
                elif m["code"] != "moved":
                    self.errors.append(m["code"])
                continue
            if m["op"] != "update":
                continue
            if first:
                self.back.append(now)
                first = False
            turn = m["turn"]
            if turn != self.turn:
                self.turns.append((now, turn))
            self.views.setdefault(turn, set()).add(digest(m["view"]))
            if self.pending is not None and turn > self.pending[0]:
                self.acked[self.pending[0]] = self.pending[1]
                self.waited.append((self.sent[-1], now))
                self.pending = None
            if m["view"]["game_over"]:
                self.over = True
                return None
            q = m["question"]
            if q is None or q["early"]:
                question, due = None, None
            elif (question is None or question[0] != turn) and answered != turn:
                question = (turn, rng.choice(q["options"])["action"])
                due = loop.time() + rng.uniform(*think)
        return None


@dataclass
class Checked:
    acknowledged: int = 0  # answers acknowledged to the players
    lost: int = 0  # of those, not in the database as sent
    games: int = 0
    diverged: int = 0  # games where a player saw a view the stored decisions do not give
    views: int = 0  # (turn, view) pairs compared
    problems: list[str] = field(default_factory=list)


def check(service: Service, players: Sequence[Player]) -> Checked:
    """Replay every table's stored decisions: each acknowledged answer must be stored as sent,
    and every view a player was shown must be the replay's view for that seat at that turn."""
    out = Checked()
    by_table: dict[str, list[Player]] = {}
    for p in players:
        by_table.setdefault(p.table, []).append(p)
    for table_id, seated in by_table.items():
        config = service.sql("SELECT config FROM tables WHERE id = %s", (table_id,))[0][0]
        rows = service.actions(table_id)
        out.games += 1
        for p in seated:
            for turn, action in p.acked.items():
                out.acknowledged += 1
                if turn >= len(rows) or rows[turn][1:] != (action, "player"):
                    out.lost += 1
                    out.problems.append(f"table {table_id}: the answer at turn {turn} is lost")
        wanted = {t for p in seated for t in p.views}
        state = new_game(Config.from_dict(json.loads(config)))
        bad = [t for t in wanted if t > len(rows)]
        for turn in range(len(rows) + 1):
            if turn in wanted:
                for p in seated:
                    seen = p.views.get(turn, set())
                    out.views += len(seen)
                    if seen and seen != {digest(json.loads(json.dumps(state.view(p.seat))))}:
                        bad.append(turn)
            if turn < len(rows):
                state.apply(rows[turn][1])
        if bad:
            out.diverged += 1
            out.problems.append(f"table {table_id}: views at turns {sorted(set(bad))[:5]} are "
                                "not the stored game's")  # fmt: skip
    return out


async def until(test: Callable[[], bool], seconds: float, every: float = 0.1) -> bool:
    """Wait (playing on) until `test()` holds, at most `seconds`: whether it did."""
    end = time.monotonic() + seconds
    while not test():
        if time.monotonic() > end:
            return False
        await asyncio.sleep(every)
    return True


class Crowd:
    """Players playing in this event loop, each in its own task."""

    def __init__(self, service: Service, think: tuple[float, float], seed: int) -> None:
        self.service, self.think, self.rng = service, think, random.Random(seed)
        self.players: list[Player] = []
        self.stop = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []

    def add(self, players: list[Player]) -> None:
        for p in players:
            self.players.append(p)
            rng = random.Random(self.rng.random())
            self.tasks.append(asyncio.ensure_future(
                p.play(self.think, rng, self.service.front, self.stop)))  # fmt: skip

    async def close(self) -> None:
        self.stop.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*self.tasks, return_exceptions=True), 5)
        for t in self.tasks:
            t.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for t in self.tasks:
            if not t.cancelled() and t.exception() is not None:
                raise RuntimeError(f"a simulated player failed: {t.exception()!r}")


async def poll(test: Callable[[], bool], seconds: float) -> float | None:
    """Seconds until the blocking `test()` (run in a thread) holds; None if it never did."""
    start = time.monotonic()
    while True:
        try:
            if await asyncio.to_thread(test):
                return time.monotonic() - start
        except OSError:
            pass
        if time.monotonic() - start > seconds:
            return None
        await asyncio.sleep(0.2)


def pauses(crowd: Crowd, start: float, end: float) -> dict[str, float]:
    """Each game's longest time without a new turn between `start` and `end` (until it ended)."""
    changes: dict[str, list[float]] = {}
    for p in crowd.players:
        times = changes.setdefault(p.table, [])
        times += [t for t, _ in p.turns if start <= t <= end]
        if p.over and p.turns and p.turns[-1][0] < start:
            changes.pop(p.table)  # over before: not a game of the window
    out = {}
    for table, times in changes.items():
        over = any(p.over for p in crowd.players if p.table == table)
        marks = sorted([start, *times, *([] if over and times else [end])])
        out[table] = max(y - x for x, y in itertools.pairwise(marks)) if marks[1:] \
            else end - start  # fmt: skip
    return out


def listed(service: Service, crowd: Crowd) -> bool:
    """Every node lists every game in play, and none says it is degraded."""
    ids = {p.table for p in crowd.players if not p.over}
    for node in service.nodes:
        if _get(node.url + "/health")["degraded"]:
            return False
        if not ids <= {x["id"] for x in _get(node.url + "/api/tables")}:
            return False
    return True
