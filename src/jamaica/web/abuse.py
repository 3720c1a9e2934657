"""`jamaica bench-abuse`: attacks on a real `jamaica serve`, each measured by what it changes for
a bystander.

The server runs in its own process behind a "proxy" (it trusts 127.0.0.1's X-Forwarded-For), so
every attacker, spectator and the bystander has an address of its own, as on the internet. The
bystander plays one game against the server's greedy bot, answering each question at once, and
records the time from each answer to its next question. Each attack runs in a process of its own
at the lowest CPU priority while the bystander plays (on a small machine the attacker stands in
for other machines: what is measured is what the server spends on the attack, not what the
attacker spends making it); the bystander's p99 under attack is compared with its p99 just
before (same run), and the outcome is checked: the seated player was never disconnected, and
the log did not grow with the attack.

Attacks (issue 21): `names` (tables whose seats share a 24-character name), `join_burst` (70
spectators join and leave at once, again and again), `spectators` (250 spectators on the
bystander's own table), `slow_bots` (four anonymous tables of `ismcts:seconds=10`), `bad_utf8`
(text frames that are not UTF-8), `chat` (a spectator flooding the chat through reconnects),
`http` (renames as fast as one address can send them), `replays` (four connections asking for
replays of random steps), `tables` (one address creating tables as fast as it may).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .services import free_port

BYSTANDER = "10.0.0.1"


def http(
    base: str, path: str, body: Any = None, address: str = "10.9.9.9", key: str | None = None,
    timeout: float = 30,
) -> tuple[int, Any]:  # fmt: skip
    """A request from `address` (through the trusted proxy): (status, JSON answer)."""
    headers = {"x-forwarded-for": address, "content-type": "application/json"}
    if key is not None:
        headers["x-player-key"] = key
    data = body if body is None or isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers=headers,
                                 method="GET" if data is None else "POST")  # fmt: skip
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


@contextlib.contextmanager
def server(tmp: Path, *args: str) -> Iterator[tuple[str, Path]]:
    """A `jamaica serve` trusting 127.0.0.1 as its proxy: (base URL, its log file)."""
    port = free_port()
    log = tmp / "server.log"
    db = f"sqlite:///{tmp / 'abuse.db'}"
    cmd = [sys.executable, "-m", "jamaica", "serve", "--port", str(port), "--db", db,
           "--trust-proxy", "127.0.0.1", *args]  # fmt: skip
    with open(log, "ab") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(base + "/api/board", timeout=1).read()
                break
            if proc.poll() is not None:
                raise RuntimeError(log.read_text())
            time.sleep(0.1)
        yield base, log
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


# --- the bystander ----------------------------------------------------------------------------
@dataclass
class Bystander:
    """Plays games against the server's greedy bot, in a thread: answer → next question times."""

    base: str
    latencies: list[float] = field(default_factory=list)
    disconnects: int = 0
    errors: list[str] = field(default_factory=list)
    table: str | None = None
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> Bystander:
        self._thread = threading.Thread(target=self._play, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(30)

    def measure(self, answers: int, timeout: float = 120) -> list[float]:
        """The next `answers` latencies (seconds)."""
        start = len(self.latencies)
        end = time.monotonic() + timeout
        while len(self.latencies) < start + answers and time.monotonic() < end:
            time.sleep(0.02)
        return self.latencies[start : start + answers]

    def _play(self) -> None:
        from websockets.exceptions import ConnectionClosed
        from websockets.sync.client import connect

        rng = random.Random(7)
        games = 0
        while not self._stop.is_set():
            games += 1  # a game from another address each time: the per-address caps are not
            address = f"{BYSTANDER[:-1]}{games % 250}"  # what the bystander measures
            status, made = http(self.base, "/api/tables", {"players": 2, "seats": [
                {"name": "Bystander", "bot": None}, {"name": "Bot", "bot": "greedy"}]},
                address=address)  # fmt: skip
            if status != 201:
                self.errors.append(f"the bystander could not create a table: {status} {made}")
                time.sleep(1)
                continue
            self.table = made["id"]
            url = _ws_url(self.base, made["id"])
            try:
                with connect(url, additional_headers={"x-forwarded-for": address},
                             ping_interval=None, max_size=2**22) as ws:  # fmt: skip
                    ws.send(json.dumps({"op": "hello", "v": 1, "seat": 0,
                                        "token": made["seats"][0]["token"]}))  # fmt: skip
                    sent: float | None = None
                    while not self._stop.is_set():
                        try:
                            m = json.loads(ws.recv(timeout=0.5))
                        except TimeoutError:
                            continue
                        if m["op"] != "update":
                            continue
                        if m["view"]["game_over"]:
                            break
                        q = m["question"]
                        if q is None or q.get("early"):
                            continue
                        if sent is not None:
                            self.latencies.append(time.perf_counter() - sent)
                        sent = time.perf_counter()
                        ws.send(json.dumps({"op": "act", "v": 1, "turn": m["turn"],
                                            "action": rng.choice(q["options"])["action"]}))
            except (ConnectionClosed, OSError):
                self.disconnects += 1


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def p99(values: list[float]) -> float:
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, int(0.99 * len(v)))]


# --- the attacks (each in a process of its own) ---------------------------------------------------
def _ws_url(base: str, table: str) -> str:
    return base.replace("http", "ws") + f"/ws/{table}"


def attack_names(base: str, table: str, size: int, stop: Any) -> None:
    """Tables whose seats share the longest name; a player sitting down with it again."""
    for i in range(size):
        name = "A" * 24
        http(base, "/api/tables", {"players": 3, "seats": [
            {"name": name, "bot": None}, {"name": name, "bot": None},
            {"name": name, "bot": "random"}]}, address=f"10.2.{i // 250}.{i % 250}")  # fmt: skip
        if stop.is_set():
            return


async def _spectate(base: str, table: str, address: str, hold: float, stop: Any = None) -> None:
    import websockets

    async with websockets.connect(_ws_url(base, table), max_size=2**22, ping_interval=None,
                                  additional_headers={"x-forwarded-for": address}) as ws:
        await ws.send(json.dumps({"op": "hello", "v": 1, "seat": None}))
        end = time.monotonic() + hold
        while time.monotonic() < end and not (stop is not None and stop.is_set()):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ws.recv(), max(0.01, min(1.0, end - time.monotonic())))


def attack_join_burst(base: str, table: str, size: int, stop: Any) -> None:
    """`size` spectators join the bystander's table at once, stay a second, leave at once."""

    async def run() -> None:
        while not stop.is_set():
            await asyncio.gather(*(_spectate(base, table, f"10.3.{k // 250}.{k % 250}", 1.0)
                                   for k in range(size)), return_exceptions=True)  # fmt: skip

    asyncio.run(run())


def attack_spectators(base: str, table: str, size: int, stop: Any) -> None:
    """`size` spectators join the bystander's table, gradually, and read everything."""

    async def run() -> None:
        async def one(k: int) -> None:
            await asyncio.sleep(k * 0.01)
            while not stop.is_set():  # each stays (and comes back if it is sent away)
                with contextlib.suppress(Exception):
                    await _spectate(base, table, f"10.4.{k // 250}.{k % 250}", 3600, stop)

        await asyncio.gather(*(one(k) for k in range(size)))

    asyncio.run(run())


def attack_slow_bots(base: str, table: str, size: int, stop: Any) -> None:
    """Anonymous tables where two ismcts:seconds=10 bots play each other."""
    for i in range(size):
        http(base, "/api/tables", {"players": 2, "seats": [
            {"name": "S", "bot": "ismcts:seconds=10"}, {"name": "T", "bot": "ismcts:seconds=10"}]},
            address=f"10.5.0.{i}")  # fmt: skip
    stop.wait()


def attack_bad_utf8(base: str, table: str, size: int, stop: Any) -> None:
    """Text frames that are not UTF-8, `size` of them, each on a new connection."""
    from websockets.sync.client import connect

    for i in range(size):
        if stop.is_set():
            return
        with contextlib.suppress(Exception), connect(
            _ws_url(base, table), additional_headers={"x-forwarded-for": f"10.6.0.{i % 8}"},
            ping_interval=None,
        ) as ws:  # fmt: skip
            ws.send(b"\xff\xfe{", text=True)
            ws.recv(timeout=2)


def attack_chat(base: str, table: str, size: int, stop: Any) -> None:
    """One anonymous spectator sends `size` chat lines, reconnecting after every refusal."""
    from websockets.sync.client import connect

    sent = 0
    while sent < size and not stop.is_set():
        with contextlib.suppress(Exception), connect(
            _ws_url(base, table), additional_headers={"x-forwarded-for": "10.7.0.1"},
            ping_interval=None,
        ) as ws:  # fmt: skip
            ws.send(json.dumps({"op": "hello", "v": 1, "seat": None}))
            while sent < size:
                ws.send(json.dumps({"op": "chat", "v": 1, "text": f"spam {sent}"}))
                sent += 1
                reply = json.loads(ws.recv(timeout=2))
                while reply["op"] not in ("error", "chat"):
                    reply = json.loads(ws.recv(timeout=2))
                if reply["op"] == "error":
                    break  # refused: reconnect (a new connection)


def attack_http(base: str, table: str, size: int, stop: Any) -> None:
    """One address renames its player as fast as it can, `size` times."""
    _, me = http(base, "/api/players", {"name": "Flood"}, address="10.8.0.1")
    for i in range(size):
        if stop.is_set():
            return
        http(base, "/api/me", {"name": f"Flood {i}"}, address="10.8.0.1", key=me.get("key"))


def attack_replays(base: str, table: str, size: int, stop: Any) -> None:
    """Four connections ask for replays of random steps of the bystander's table."""

    def one(k: int) -> None:
        rng = random.Random(k)
        for _ in range(size):
            if stop.is_set():
                return
            http(base, f"/api/tables/{table}/replay?step={rng.randrange(2000)}",
                 address=f"10.10.0.{k}")  # fmt: skip

    threads = [threading.Thread(target=one, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def attack_tables(base: str, table: str, size: int, stop: Any) -> None:
    """One address creates tables as fast as it may."""
    for _ in range(size):
        if stop.is_set():
            return
        http(base, "/api/tables", {"players": 2, "seats": [
            {"name": "a", "bot": None}, {"name": "b", "bot": None}]}, address="10.11.0.1")


ATTACKS: dict[str, tuple[Callable[[str, str, int, Any], None], int, int]] = {
    # name: (attack, size in CI, size with JAMAICA_SOAK=1)
    "names": (attack_names, 20, 200),
    "join_burst": (attack_join_burst, 70, 70),
    "spectators": (attack_spectators, 100, 250),
    "slow_bots": (attack_slow_bots, 4, 4),
    "bad_utf8": (attack_bad_utf8, 300, 2500),
    "chat": (attack_chat, 200, 6000),
    "http": (attack_http, 300, 3000),
    "replays": (attack_replays, 30, 300),
    "tables": (attack_tables, 40, 200),
}


@dataclass
class Outcome:
    name: str
    quiet: float  # the bystander's p99 before, seconds
    attacked: float  # its p99 under attack
    quiet50: float  # the medians
    attacked50: float
    answers: int
    disconnects: int
    log_lines: int  # lines the server logged during the attack

    def line(self) -> str:
        ratio = self.attacked / self.quiet if self.quiet else float("nan")
        return (f"{self.name:<11} {self.quiet50 * 1000:5.1f} {self.attacked50 * 1000:5.1f}  "
                f"{self.quiet * 1000:6.1f} {self.attacked * 1000:6.1f} {ratio:5.2f}x "
                f"{self.answers:7d} {self.disconnects:5d} {self.log_lines:5d}")


HEAD = ("            --- p50 ---  ---- p99 (ms) ----\n"
        "attack      quiet  under quiet  under ratio answers drops  logs\n" + "-" * 66)


def _attack(name: str, base: str, table: str, size: int, stop: Any) -> None:
    # At the lowest CPU priority: the attacker stands in for other machines, so what is
    # measured is what the server spends on the attack, not what the attacker spends on it.
    with contextlib.suppress(OSError, AttributeError):
        os.nice(19)
    ATTACKS[name][0](base, table, size, stop)


def run_attack(base: str, log: Path, by: Bystander, name: str, size: int,
               answers: int) -> Outcome:  # fmt: skip
    """The bystander's p99 over `answers` answers quiet, then over as many under attack."""
    calm = by.measure(answers)
    before_log = len(log.read_text(errors="replace").splitlines())
    drops = by.disconnects
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    proc = ctx.Process(target=_attack, args=(name, base, by.table or "", size, stop))
    proc.start()
    time.sleep(0.5)  # the attack is under way
    attacked = by.measure(answers)
    stop.set()
    proc.join(60)
    if proc.is_alive():
        proc.kill()
    new = log.read_text(errors="replace").splitlines()[before_log:]
    if os.environ.get("JAMAICA_ABUSE_LOG"):
        print(f"--- {name}: the server's log", *new[:40], sep="\n")
    lines = len(new)
    return Outcome(name, p99(calm), p99(attacked), median(calm), median(attacked), len(attacked),
                   by.disconnects - drops, lines)  # fmt: skip


def bench_abuse(names: list[str] | None = None, answers: int = 60, soak: bool = False) -> str:
    """Every attack (or those named) on one server, with one bystander: a table of figures."""
    out = [HEAD]
    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp)) as (base, log):
        by = Bystander(base).start()
        try:
            by.measure(10)  # warm up
            for name in names or list(ATTACKS):
                _, small, full = ATTACKS[name]
                size = full if soak else small
                out.append(run_attack(base, log, by, name, size, answers).line())
        finally:
            by.stop()
    out.append(f"(machine: {os.cpu_count()} cores; the server, the bystander and each attack "
               "in processes of their own)")  # fmt: skip
    return "\n".join(out)
