"""Replays: the public view of a table's game at any step, computed off the event loop.

A replay is public information only (`State.view(None)`, the public events). Working one out
replays the game's decisions, so it never runs on the event loop — nor in a thread of the
server's process, where its Python work would hold the interpreter's lock and slow every table
down (measured: a bystander's p99 went from 22 ms to 168 ms under four flooding clients). One
worker *process* does it, from the nearest checkpoint (a copy of the game it keeps every
CHECKPOINT steps), so a request costs at most CHECKPOINT applies plus the view and the log up to
that step. Answers are cached per table and step in the server; at most WAITING requests wait for
the worker (then the server says it is busy), each within DEADLINE seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..i18n.events import record
from ..rules import Config, State, new_game
from ..rules.view import can_see
from .orphans import exit_with_parent, stop_pool

CHECKPOINT = 64  # steps between two kept copies of a game
CACHED = 128  # answers kept (table, step, names): each up to about 100 kB
TABLES_KEPT = 16  # games whose checkpoints the worker keeps (a game's: a few MB at most)
WAITING = 16  # requests waiting for the worker, at most
DEADLINE = 10.0  # seconds a request may wait for its answer

_Key = tuple[str, int, tuple[str, ...], str]  # table, step, the seats' names, the language


class Busy(Exception):
    """Too many replays are being worked out: try again in a moment."""


class Replays:
    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._answers: OrderedDict[_Key, bytes] = OrderedDict()
        self.waiting = 0
        self.computed = 0  # answers worked out (not from the cache)
        self.applied = 0  # decisions applied to work them out

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            spawn = multiprocessing.get_context("spawn")  # no fork of a threaded server
            self._pool = ProcessPoolExecutor(1, mp_context=spawn, initializer=_lower_priority)
        return self._pool

    async def step(
        self, table_id: str, config: Config, names: Sequence[str], history: Sequence[int],
        step: int, lang: str = "en",
    ) -> bytes:  # fmt: skip
        """The view and public log at `step` as JSON (`"view": …, "events": […]`, without the
        braces; the events in `lang`); Busy if too many wait already, TimeoutError past the
        deadline."""
        key = (table_id, step, tuple(names), lang)
        known = self._answers.get(key)
        if known is not None:
            self._answers.move_to_end(key)
            return known
        if self.waiting >= WAITING:
            raise Busy("the server is working out other replays: try again in a moment")
        self.waiting += 1
        try:
            pool = self._executor()
            job = asyncio.get_running_loop().run_in_executor(
                pool, _work, key, config.to_dict(), tuple(history[:step])
            )
            try:
                answer, applied = await asyncio.wait_for(job, DEADLINE)
            except BrokenProcessPool:  # the worker died: the next request starts a new one
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
                raise Busy("the replay worker stopped: try again in a moment") from None
        finally:
            self.waiting -= 1
        self.computed += 1
        self.applied += applied
        self._answers[key] = answer
        if len(self._answers) > CACHED:
            self._answers.popitem(last=False)
        return answer

    def close(self) -> None:
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None


# --- in the worker process --------------------------------------------------------------------
def _lower_priority() -> None:
    """The worker yields the CPU to the server's event loop, and ends with the server."""
    exit_with_parent()
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


_GAMES: OrderedDict[str, list[State]] = OrderedDict()  # table -> its checkpoints


def _work(key: _Key, config: dict[str, Any], history: tuple[int, ...]) -> tuple[bytes, int]:
    """The answer for `key`, and how many decisions were applied to work it out."""
    table_id, step, names, lang = key
    marks = _GAMES.get(table_id)
    if marks is None:
        marks = _GAMES[table_id] = [new_game(Config.from_dict(config))]
        if len(_GAMES) > TABLES_KEPT:
            _GAMES.popitem(last=False)
    _GAMES.move_to_end(table_id)
    start = min(step // CHECKPOINT, len(marks) - 1)
    s = marks[start].clone()
    for i in range(start * CHECKPOINT, step):
        s.apply(history[i])
        if (i + 1) % CHECKPOINT == 0 and (i + 1) // CHECKPOINT == len(marks):
            marks.append(s.clone())
    events = [record(e, s.n, names, lang) for e in s.events or () if can_see(e[0], None)]
    body = json.dumps({"view": s.view(None), "events": events}, separators=(",", ":"))
    return body[1:-1].encode(), step - start * CHECKPOINT


def response(step: int, steps: int, names: list[str], part: bytes, over: bool = True) -> bytes:
    """The answer of `GET /api/tables/{id}/replay`: where, how far the game has gone, whether
    it is over (its analysis opens then), and the view and log at `step` (`part`)."""
    head = json.dumps({"step": step, "steps": steps, "names": names, "over": over},
                      separators=(",", ":"))  # fmt: skip
    return head[:-1].encode() + b"," + part + b"}"
