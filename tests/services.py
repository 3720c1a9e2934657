"""Real PostgreSQL and Redis servers for the tests, never mocks: Debian's `postgresql` and
`redis-server`, started on free loopback ports in temporary directories and stopped afterwards.

`initdb` refuses to run as root, so as root (CI) the cluster is created and run by the `postgres`
user; as anyone else, by that user. Without the programs the tests that need them skip on a
developer's machine, and fail when JAMAICA_REQUIRE_SERVICES is set (CI, `.ci/run`).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _missing(what: str) -> None:
    if os.environ.get("JAMAICA_REQUIRE_SERVICES"):
        pytest.fail(f"{what} is required (JAMAICA_REQUIRE_SERVICES is set) but not installed")
    pytest.skip(f"{what} is not installed")


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
    """One PostgreSQL cluster; `url(db)` is a fresh database's URL (`database()` creates one)."""

    port: int
    folder: Path
    as_user: list[str]
    proc: subprocess.Popen[bytes] | None = None
    made: int = field(default=0)

    def start(self) -> Postgres:
        initdb, postgres = _pg_bin("initdb"), _pg_bin("postgres")
        assert initdb and postgres
        data = self.folder / "data"
        subprocess.run([*self.as_user, initdb, "-D", str(data), "-U", "jamaica", "-A", "trust",
                        "-E", "UTF8", "--no-sync"], check=True, capture_output=True)  # fmt: skip
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

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()  # SIGTERM: "smart" shutdown; then fast
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_postgres() -> Postgres:
    if _pg_bin("initdb") is None or _pg_bin("postgres") is None:
        _missing("PostgreSQL (initdb, postgres)")
    folder = Path(tempfile.mkdtemp(prefix="jamaica-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: the cluster belongs to the postgres user
        shutil.chown(folder, "postgres", "postgres")
        os.chmod(folder, 0o700)
        as_user = ["runuser", "-u", "postgres", "--"]
    return Postgres(free_port(), folder, as_user).start()


@dataclass
class Redis:
    port: int
    folder: Path
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        server = shutil.which("redis-server")
        assert server
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


def start_redis(port: int | None = None) -> Redis:
    if shutil.which("redis-server") is None:
        _missing("Redis (redis-server)")
    return Redis(port or free_port(), Path(tempfile.mkdtemp(prefix="jamaica-redis-"))).start()
