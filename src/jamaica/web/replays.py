"""Replays: the public view of a table's game at any step, computed off the event loop.

A replay is public information only (`State.view(None)`, the public events). Working one out
replays the game's decisions, so it never runs on the event loop: one worker thread does it, from
the nearest checkpoint (a copy of the game kept every CHECKPOINT steps), so a request costs at
most CHECKPOINT applies plus the view and the log up to that step. Answers are cached per table
and step; at most WAITING requests wait for the worker (then the server says it is busy), each
within DEADLINE seconds.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from ..rules import Config, State, new_game

CHECKPOINT = 64  # steps between two kept copies of a game
CACHED = 512  # answers kept (table, step)
TABLES_KEPT = 64  # games whose checkpoints are kept
WAITING = 16  # requests waiting for the worker, at most
DEADLINE = 10.0  # seconds a request may wait for its answer


_Key = tuple[str, int, tuple[str, ...]]  # table, step, the seats' names


class Busy(Exception):
    """Too many replays are being worked out: try again in a moment."""


class Replays:
    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="jamaica-replay")
        self._answers: OrderedDict[_Key, bytes] = OrderedDict()
        self._games: OrderedDict[str, list[State]] = OrderedDict()  # table -> checkpoints
        self._lock = threading.Lock()  # the worker's checkpoints and answers
        self.waiting = 0
        self.computed = 0  # answers worked out (not from the cache)
        self.applied = 0  # decisions applied to work them out

    async def step(
        self, table_id: str, config: Config, names: Sequence[str], history: Sequence[int],
        step: int,
    ) -> bytes:  # fmt: skip
        """The view and public log at `step` as JSON (`"view": …, "events": […]`, without the
        braces); Busy if too many wait already, TimeoutError past the deadline."""
        key = (table_id, step, tuple(names))
        with self._lock:
            known = self._answers.get(key)
            if known is not None:
                self._answers.move_to_end(key)
                return known
        if self.waiting >= WAITING:
            raise Busy("the server is working out other replays: try again in a moment")
        self.waiting += 1
        try:
            job = asyncio.get_running_loop().run_in_executor(
                self._pool, self._work, key, config, tuple(history[:step])
            )
            return await asyncio.wait_for(job, DEADLINE)
        finally:
            self.waiting -= 1

    def _work(self, key: _Key, config: Config, history: tuple[int, ...]) -> bytes:
        table_id, step, names = key
        with self._lock:
            known = self._answers.get(key)
            if known is not None:
                return known
            marks = self._games.get(table_id)
            if marks is None:
                marks = self._games[table_id] = [new_game(config)]
                if len(self._games) > TABLES_KEPT:
                    self._games.popitem(last=False)
            self._games.move_to_end(table_id)
            start = min(step // CHECKPOINT, len(marks) - 1)
            s = marks[start].clone()
        for i in range(start * CHECKPOINT, step):
            s.apply(history[i])
            self.applied += 1
            if (i + 1) % CHECKPOINT == 0 and (i + 1) // CHECKPOINT == len(marks):
                with self._lock:
                    marks.append(s.clone())
        events = [e["text"] for e in s.events_for(None, names)]
        body = json.dumps({"view": s.view(None), "events": events}, separators=(",", ":"))
        answer = body[1:-1].encode()
        with self._lock:
            self.computed += 1
            self._answers[key] = answer
            if len(self._answers) > CACHED:
                self._answers.popitem(last=False)
        return answer

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def response(step: int, steps: int, names: list[str], part: bytes) -> bytes:
    head = json.dumps({"step": step, "steps": steps, "names": names}, separators=(",", ":"))
    return head[:-1].encode() + b"," + part + b"}"
