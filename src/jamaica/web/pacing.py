"""At most once every so often: the pace of a table's messages that show how things are now.

A `Pace` runs its function at once if it has not run for `every` seconds, else once when that
time is up; the requests in between are folded into that one run (it shows the present, so it
shows them too). Used for a table's seats messages and its spectators' updates.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class Pace:
    __slots__ = ("every", "fn", "last", "timer")

    def __init__(self, every: float, fn: Callable[[], None]) -> None:
        self.every = every
        self.fn = fn
        self.last = float("-inf")  # loop time of the last run
        self.timer: asyncio.TimerHandle | None = None

    def request(self) -> None:
        """Run now, or once when `every` seconds have passed since the last run."""
        if self.timer is not None:
            return  # a run is coming, and will show this change too
        loop = asyncio.get_running_loop()
        wait = self.last + self.every - loop.time()
        if wait > 0:
            self.timer = loop.call_later(wait, self._run)
        else:
            self._run()

    def flush(self) -> None:
        """If a run is waiting, run it now."""
        if self.timer is not None:
            self.timer.cancel()
            self._run()

    def cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _run(self) -> None:
        self.timer = None
        self.last = asyncio.get_running_loop().time()
        self.fn()
