"""A pool worker of the server (replays, analysis) ends when the server is killed: it must not
wait for work forever, holding its memory (found as dozens of idle workers after killed servers)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

# A "server": a spawned pool with the replays' initializer; it prints its worker's pid, then dies
# by SIGKILL, as a node does when it crashes.
PARENT = """
import os, signal, sys
from concurrent.futures import ProcessPoolExecutor
import multiprocessing
from jamaica.web.{module} import {initializer} as init

def args():
    return {args}

if __name__ == "__main__":
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=init, initargs=args())
    print(pool.submit(os.getpid).result(), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.parametrize(("module", "initializer", "args"), [
    ("replays", "_lower_priority", "()"),
    ("analysis", "_start_worker", "(None,)"),
])  # fmt: skip
def test_the_worker_ends_when_its_server_is_killed(
    module: str, initializer: str, args: str
) -> None:
    # (An orphaned worker also keeps the "server's" stdout open: without the fix, `run` times out.)
    code = PARENT.format(module=module, initializer=initializer, args=args)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == -9, r.stderr
    worker = int(r.stdout.split()[0])
    deadline = time.monotonic() + 10
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = _alive(worker)
    if alive:
        os.kill(worker, 9)
    assert not alive, "the worker outlived its killed server"


def test_a_server_stopped_by_sigterm_exits_cleanly_after_its_pools(tmp_path: Path) -> None:
    """SIGTERM (a deploy, systemd): the server stops, its replay and analysis pools with it, and
    exits 0 with nothing left behind. uvicorn raised SIGTERM again once it had stopped, so the
    process died by the signal before Python's exit handlers ran, and every stop printed
    "resource_tracker: There appear to be 6 leaked semaphore objects" to the operator's log."""
    from .analysis_games import TOKEN, store_game
    from .server import Server
    from .test_analysis import wait_done

    store_game(tmp_path / "jamaica.db", "done", rounds=2)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JAMAICA_ANALYSIS_ITERATIONS", "8")
        s = Server(tmp_path / "jamaica.db", log_file=True).start()
    wait_done(s, "done", {"seat": 0, "token": TOKEN})  # the analysis pool runs
    assert s.get("/api/tables/done/replay?step=3")["step"] == 3  # and the replays' pool
    assert s.proc is not None
    s.proc.terminate()
    assert s.proc.wait(15) == 0
    log = s.log()
    assert "leaked" not in log and "Traceback" not in log, log
