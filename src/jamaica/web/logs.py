"""The server's log cannot be flooded by its clients: every kind of log line (a logger and a
message template) may be written at most `BUDGET` times a minute; the rest are counted, and one
line sums them up when the minute is over ("… and 2,548 more like it in the last 60 s"). A
client's mistake that the server handles (a frame that is not UTF-8, a request that is not HTTP)
is one line at most, without a traceback.

Installed on the loggers the server and uvicorn write to (`install`), before uvicorn starts.
"""

from __future__ import annotations

import copy
import logging
import time
from typing import Any

BUDGET = 10  # lines of one kind a minute
WINDOW = 60.0  # seconds
LOGGERS = ("uvicorn.error", "uvicorn.asgi", "jamaica.web", "asyncio")
# Lines about a client's mistake that the server answered (closed, or told it): no traceback.
CLIENT_MISTAKES = (
    "Invalid UTF-8 sequence received from client.",
    "Invalid HTTP request received.",
    "Unsupported upgrade request.",
)
# Lines about what the server answered itself: not written at all. uvicorn (its websockets-sansio
# protocol) says this after every WebSocket handshake refused with an HTTP answer (429: the
# address's HTTP budget, `security.HttpBudget`), which does complete it; the server's own
# handler never returns without accepting or closing.
OUR_REFUSALS = ("ASGI callable returned without completing handshake.",)


class Budget(logging.Filter):
    """At most `budget` records of each (logger, template) per `window` seconds."""

    def __init__(self, budget: int = BUDGET, window: float = WINDOW) -> None:
        super().__init__()
        self.budget = budget
        self.window = window
        self.start = time.monotonic()
        self.counts: dict[tuple[str, str], int] = {}
        self.dropped: dict[tuple[str, str], int] = {}
        self._summing = False

    def filter(self, record: logging.LogRecord) -> bool:
        if self._summing:
            return True
        now = time.monotonic()
        if now - self.start >= self.window:
            self._sum_up(now)
        template = str(record.msg)
        if template in OUR_REFUSALS:
            return False
        if template in CLIENT_MISTAKES:
            record.exc_info = None  # handled: the traceback says nothing new
            record.exc_text = None
        kind = (record.name, template)
        n = self.counts.get(kind, 0) + 1
        self.counts[kind] = n
        if n > self.budget:
            self.dropped[kind] = self.dropped.get(kind, 0) + 1
            return False
        return True

    def _sum_up(self, now: float) -> None:
        """One line per kind that went over its budget in the window that ended."""
        dropped, self.dropped, self.counts = self.dropped, {}, {}
        seconds = now - self.start
        self.start = now
        self._summing = True
        try:
            for (name, template), n in dropped.items():
                logging.getLogger(name).warning(
                    "… and %s more like %r in the last %.0f s (at most %d a minute are written)",
                    f"{n:,}", template[:80], seconds, self.budget,
                )  # fmt: skip
        finally:
            self._summing = False

    def flush(self) -> None:
        """Sum up what was dropped so far (at shutdown, or in a test)."""
        self._sum_up(time.monotonic())


def install(budget: Budget | None = None) -> Budget:
    """Put the budget on the server's loggers (once: installing again replaces it)."""
    budget = Budget() if budget is None else budget
    for name in LOGGERS:
        logger = logging.getLogger(name)
        for old in [f for f in logger.filters if isinstance(f, Budget)]:
            logger.removeFilter(old)
        logger.addFilter(budget)
    return budget


FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"  # a line an operator can put in order


def timestamped(uvicorn_config: dict[str, Any]) -> dict[str, Any]:
    """The server's own loggers (`jamaica`, `asyncio`) to stderr with the time of each line, and
    uvicorn's logging configuration (`uvicorn_config`: its default) with the time too. Before,
    a line reached stderr through Python's last-resort handler, without a time: the lines of a
    plain log file could not be put in order ("Redis is out of reach…", "node c keeps table…")."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(FORMAT))
    for name in ("jamaica", "asyncio"):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.setLevel(logging.WARNING)  # as before: warnings and errors, never a client's
        logger.propagate = False
    config = copy.deepcopy(uvicorn_config)
    for formatter in config.get("formatters", {}).values():
        if "fmt" in formatter:
            formatter["fmt"] = "%(asctime)s " + formatter["fmt"]
    return config
