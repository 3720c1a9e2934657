"""Real PostgreSQL and Redis servers on loopback, for the tests and `jamaica bench-cluster`:
Debian's `postgresql` and `redis-server`, started on free ports in temporary directories and
stopped afterwards (never mocks).

`initdb` refuses to run as root, so as root (CI) the cluster is created and run by the `postgres`
user; as anyone else, by that user. Without the programs, starting one raises `Missing` (the
tests turn it into a skip, or a failure when JAMAICA_REQUIRE_SERVICES is set).
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path


class Missing(RuntimeError):
    """A program the service needs is not installed (the message names it)."""


_handed_out = itertools.count()  # ports this process has taken from JAMAICA_PORTS


def free_port() -> int:
    """A free loopback port for a server a tool starts (a node, PostgreSQL, Redis): the kernel's
    choice (`bind(0)`), or with `JAMAICA_PORTS=FIRST-LAST` one from that range, never the same
    twice in one process. The test suite gives each of its workers a range of its own below the
    kernel's ephemeral ports, so that a server restarted on its port never finds it taken by
    another worker's server, as a `bind(0)` port can be in the gap."""
    span = os.environ.get("JAMAICA_PORTS", "")
    if not span:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return int(s.getsockname()[1])
    first, _, last = span.partition("-")
    if not (first.isdigit() and last.isdigit() and 1024 <= int(first) <= int(last) < 65536):
        raise ValueError(f"JAMAICA_PORTS must be FIRST-LAST, two ports from 1024 up: {span!r}")
    low, size = int(first), int(last) - int(first) + 1
    start = os.getpid() * 7919 % size  # a process started by another begins elsewhere
    for _ in range(size):
        port = low + (start + next(_handed_out)) % size
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue  # in use: the next one
            return port
    raise RuntimeError(f"no free port in JAMAICA_PORTS={span}")


def _pg_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _wait_port(port: int, proc: subprocess.Popen[bytes], what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not start listening on {port}")


@dataclass
class Postgres:
    """One PostgreSQL cluster; `url(db)` is a database's URL (`database()` creates a new one).
    `start()` again after `stop()` brings the same cluster back on the same port."""

    port: int
    folder: Path
    as_user: list[str]
    proc: subprocess.Popen[bytes] | None = None
    made: int = field(default=0)

    def start(self) -> Postgres:
        initdb, postgres = _pg_bin("initdb"), _pg_bin("postgres")
        if not (initdb and postgres):
            raise Missing("PostgreSQL (initdb, postgres)")
        data = self.folder / "data"
        if not data.exists():
            subprocess.run([*self.as_user, initdb, "-D", str(data), "-U", "jamaica", "-A",
                            "trust", "-E", "UTF8", "--no-sync"],
                           check=True, capture_output=True)  # fmt: skip
        self.proc = subprocess.Popen(
            [*self.as_user, postgres, "-D", str(data), "-p", str(self.port),
             "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={self.folder}",
             "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "max_connections=200"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        _wait_port(self.port, self.proc, "postgres")
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        import psycopg

        deadline = time.monotonic() + 30
        while True:
            try:
                with psycopg.connect(self.url("postgres"), connect_timeout=2):
                    return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def url(self, database: str) -> str:
        return f"postgresql://jamaica@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new empty database; its URL."""
        import psycopg

        self.made += 1
        name = f"t{self.made}_{os.getpid()}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self, fast: bool = False) -> None:
        """SIGTERM ("smart": waits for its clients to leave), then SIGQUIT after 10 s; with
        `fast`, SIGINT: connected clients are cut off and the server stops at once. The signal
        goes to the postmaster itself (`postmaster.pid`): `runuser` would not pass it on."""
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            pid = int((self.folder / "data" / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            pid = self.proc.pid
        for sig in (signal.SIGINT if fast else signal.SIGTERM, signal.SIGQUIT):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
            try:
                self.proc.wait(10)
                return
            except subprocess.TimeoutExpired:
                continue
        self.proc.kill()
        self.proc.wait()

    def close(self) -> None:
        """Stop it for good and delete its folder (a cluster is some 40 MB)."""
        self.stop(fast=True)
        shutil.rmtree(self.folder, ignore_errors=True)


def start_postgres() -> Postgres:
    """A new cluster in a temporary directory; `Missing` without PostgreSQL's programs."""
    if _pg_bin("initdb") is None or _pg_bin("postgres") is None:
        raise Missing("PostgreSQL (initdb, postgres)")
    folder = Path(tempfile.mkdtemp(prefix="jamaica-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: the cluster belongs to the postgres user
        shutil.chown(folder, "postgres", "postgres")
        os.chmod(folder, 0o700)
        as_user = ["runuser", "-u", "postgres", "--"]
    return Postgres(free_port(), folder, as_user).start()


@dataclass
class Redis:
    """One Redis server, nothing saved; `start()` again after `stop()`: back on the same port."""

    port: int
    folder: Path
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        server = shutil.which("redis-server")
        if server is None:
            raise Missing("Redis (redis-server)")
        self.proc = subprocess.Popen(
            [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        _wait_port(self.port, self.proc, "redis-server")
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)

    def close(self) -> None:
        """Stop it for good and delete its folder."""
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def start_redis(port: int | None = None) -> Redis:
    """A new server on `port` (default: a free one); `Missing` without `redis-server`."""
    if shutil.which("redis-server") is None:
        raise Missing("Redis (redis-server)")
    return Redis(port or free_port(), Path(tempfile.mkdtemp(prefix="jamaica-redis-"))).start()
