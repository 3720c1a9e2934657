"""Worker processes that do not outlive their server.

A process pool's worker (spawned, as the replay and analysis pools are) holds both ends of its
job queue, so it never sees end-of-file when the server is killed (SIGKILL, the OOM killer, a
crashed node): it would wait for work forever, holding its memory. `exit_with_parent`, called in
the worker's initializer, watches the parent and ends the worker once it is gone (the worker is
then a child of init or a subreaper, so its parent's pid changes).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Final

CHECK_SECONDS: Final = 1.0  # how often a worker looks for its parent


def exit_with_parent(every: float = CHECK_SECONDS) -> None:
    """End this process (at once, without cleanup: it holds no state of its own) once the
    process that started it has died."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once, its workers too (a search in progress is not waited for: the server
    stops in about a second whatever its worker does), and wait for the pool's own thread."""
    workers = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        with contextlib.suppress(Exception):
            worker.terminate()
    for worker in workers:
        with contextlib.suppress(Exception):
            worker.join(2.0)
    with contextlib.suppress(Exception):
        pool.shutdown(wait=True)
