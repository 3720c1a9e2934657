"""A real `jamaica serve` in a subprocess on a free loopback port, and clients for it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from jamaica.web.services import free_port


class Server:
    """`args`: more `jamaica serve` options (limits). With `log_file`, the server's stderr goes
    to a file beside the database (read it with `log()` while the server runs: a flood of log
    lines can never block it on a full pipe); else to `proc.stderr`, a pipe."""

    def __init__(
        self, db: Path, args: tuple[str, ...] = (), log_file: bool = False, db_url: str = "",
        files: int | None = None,
    ) -> None:  # fmt: skip
        self.files = files  # the process's open-file limit (soft and hard), as `ulimit -n`
        self.db = db
        self.db_url = db_url or f"sqlite:///{db}"  # or a PostgreSQL database (several nodes)
        self.args = args
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.stderr = db.with_name(db.name + ".log") if log_file else None

    def _limit_files(self) -> None:
        import resource

        assert self.files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.files, self.files))

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        cmd = [sys.executable, "-m", "jamaica", "serve", "--port", str(self.port),
               "--db", self.db_url, *self.args]  # fmt: skip
        limit = None if self.files is None else self._limit_files
        if self.stderr is None:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                         preexec_fn=limit)  # fmt: skip
        else:
            with open(self.stderr, "ab") as err:
                self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err,
                                             preexec_fn=limit)  # fmt: skip
        end = time.monotonic() + 20
        while time.monotonic() < end:
            try:
                urllib.request.urlopen(self.url + "/api/tables", timeout=1).read()
                return self
            except (urllib.error.URLError, ConnectionError, OSError):
                if self.proc.poll() is not None:
                    if self.stderr is None and self.proc.stderr is not None:
                        raise RuntimeError(self.proc.stderr.read().decode()) from None
                    raise RuntimeError(self.log()) from None
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def log(self) -> str:
        """What the server wrote to stderr so far (with `log_file`)."""
        assert self.stderr is not None, "start the server with log_file=True"
        return self.stderr.read_text(errors="replace") if self.stderr.exists() else ""

    def rss_kb(self) -> int:
        """The server process's resident memory (VmRSS), in kB."""
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS")

    def kill(self) -> None:
        """SIGKILL: no chance to clean up."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def post(self, path: str, body: Any, key: str | None = None) -> tuple[int, Any]:
        """POST JSON (as the player with `key`, if given): (status, answer)."""
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers = {"content-type": "application/json"}
        if key is not None:
            headers["x-player-key"] = key
        req = urllib.request.Request(self.url + path, data=data, method="POST", headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def get(self, path: str, key: str | None = None) -> Any:
        headers = {} if key is None else {"x-player-key": key}
        req = urllib.request.Request(self.url + path, headers=headers)
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def player(self, name: str) -> dict[str, Any]:
        """A new player: {id, name, key}."""
        status, d = self.post("/api/players", {"name": name})
        assert status == 201, d
        return dict(d)

    def table(self, seats: list[tuple[str, str | None]], **options: Any) -> dict[str, Any]:
        body = {"players": len(seats), "seats": [{"name": n, "bot": b} for n, b in seats]}
        status, d = self.post("/api/tables", {**body, **options})
        assert status == 201, d
        return dict(d)

    def ws(self, table_id: str) -> ClientConnection:
        # No keepalive pings from the test's side, as from a browser (which never sends them):
        # twice in five full runs of the suite (never alone), a client's ping went unanswered
        # for 20 s and the client closed the connection mid-game. The server pings its clients.
        return connect(f"ws://127.0.0.1:{self.port}/ws/{table_id}", open_timeout=10,
                       ping_interval=None)  # fmt: skip


def send(ws: ClientConnection, **msg: Any) -> None:
    ws.send(json.dumps({"v": 1, **msg}))


def recv(ws: ClientConnection, timeout: float = 20) -> dict[str, Any]:
    return dict(json.loads(ws.recv(timeout=timeout)))


SOCIAL = ("seats", "chat", "rematch")  # who sits where, chat: not answers to a message


def recv_reply(ws: ClientConnection, timeout: float = 20) -> dict[str, Any]:
    """The next message that is not about who sits where or chat."""
    end = time.monotonic() + timeout
    while True:
        m = recv(ws, max(0.001, end - time.monotonic()))
        if m["op"] not in SOCIAL:
            return m


def until(ws: ClientConnection, pred: Any, timeout: float = 60) -> dict[str, Any]:
    """Read messages until one satisfies `pred`."""
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError("the awaited message never came")
        m = recv(ws, left)
        if pred(m):
            return m


def hello(
    ws: ClientConnection, seat: int | None = None, token: str | None = None,
    lang: str | None = None,
) -> dict[str, Any]:  # fmt: skip
    if lang is None:
        send(ws, op="hello", seat=seat, token=token)
    else:
        send(ws, op="hello", seat=seat, token=token, lang=lang)
    welcome = recv(ws)
    assert welcome["op"] == "welcome", welcome
    return welcome


def first_question(
    conns: list[ClientConnection], timeout: float = 60
) -> tuple[int, dict[str, Any]]:
    """Poll several seats until one of them is asked a question by the engine (not a card
    offered early, while another seat is asked for its card)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for i, ws in enumerate(conns):
            try:
                m = recv(ws, 0.02)
            except TimeoutError:
                continue
            if m["op"] == "update" and m["question"] is not None and not m["question"]["early"]:
                return i, m
    raise AssertionError("nobody was asked anything")


def updates(ws: ClientConnection, seconds: float) -> list[dict[str, Any]]:
    """Every update a connection receives in the next `seconds`."""
    got: list[dict[str, Any]] = []
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            m = recv(ws, left)
        except TimeoutError:
            break
        if m["op"] == "update":
            got.append(m)
    return got
