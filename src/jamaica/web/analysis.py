"""Post-game analysis on the server (issue 28): `POST /api/tables/{id}/analysis`.

A player who held seat P of a finished game asks master to judge their decisions
(`jamaica.analysis`). The answer shows P's hand at each of their questions, so only P may have it:
the request proves the seat with the seat's token (`{"seat", "token"}` in the JSON body, as the
table's link carries them in its fragment — never in a query string) or with the player's key
(the `X-Player-Key` header) of the player who holds the seat. Anyone else gets 403; a game still
running 409.

The work (tens of seconds of master's search) never runs on the event loop nor in the server's
process: one niced worker *process* (spawn, like `replays.py`) does one game at a time, at most
WAITING games wait for it (then 503, "busy, try again"), and a game's analysis stops at DEADLINE
seconds. The first request starts the job and answers 202 with its progress (`done` of `total`
questions, read from a small shared array the worker writes); the page asks again until the
answer is 200. Results are kept per (table, seat) in memory, the last KEPT games (an LRU), with
their words in every language (rendered in the worker, from the language-neutral analysis): the
same game and seat always give the same analysis (the seed is fixed), so a restart costs only the
work again. The store has no place for them yet: they are not persisted with the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..i18n import LANGUAGES
from ..rules import Config
from .language import http_error, lang_of
from .lobby import KEY_HEADER, moved
from .protocol import Hello, ProtocolError
from .security import TooLarge, read_body
from .store import StoreError

if TYPE_CHECKING:
    from multiprocessing.sharedctypes import Synchronized

    from .players import Players
    from .registry import Tables
    from .tables import LiveTable

log = logging.getLogger("jamaica.web")
WAITING = 4  # games queued for the worker, the one it works on included
KEPT = 64  # analyses kept (table, seat): each a few tens of kB in two languages
DEADLINE = 240.0  # seconds a game's analysis may take in the worker
MAX_BODY = 1024  # bytes: a seat number and a token
MAX_ID = 64  # characters of a table id (the server's are 12)
POLL = 2  # seconds the page waits before asking again (Retry-After of a 202)
SEED = 0  # the analysis's seed: fixed, so the same game gives the same analysis

_Key = tuple[str, int]  # table, seat


class Busy(Exception):
    """Too many analyses wait for the worker already."""


@dataclass
class Job:
    number: int
    error: ProtocolError | None = None  # why it stopped (too long, the worker died), if it has
    task: asyncio.Task[None] | None = None


class Analyses:
    """The worker, its queue and the kept analyses."""

    def __init__(self, iterations: int | None = None) -> None:
        if iterations is None and os.environ.get("JAMAICA_ANALYSIS_ITERATIONS", "").isdigit():
            iterations = max(1, int(os.environ["JAMAICA_ANALYSIS_ITERATIONS"][:6]))  # tests
        self.iterations = iterations  # master's per question (None: the analysis's default)
        self._pool: ProcessPoolExecutor | None = None
        self._board: Synchronized[int] | None = None  # the running job's number, done, total
        self._done: OrderedDict[_Key, dict[str, bytes]] = OrderedDict()
        self._jobs: dict[_Key, Job] = {}
        self._numbers = 0
        self.computed = 0  # analyses worked out (not from the cache)

    @property
    def waiting(self) -> int:
        return sum(j.error is None for j in self._jobs.values())

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            spawn = multiprocessing.get_context("spawn")  # no fork of a threaded server
            self._board = spawn.Array("q", 3)  # type: ignore[assignment]
            self._pool = ProcessPoolExecutor(1, mp_context=spawn, initializer=_start_worker,
                                             initargs=(self._board,))  # fmt: skip
        return self._pool

    def progress(self, job: Job) -> tuple[int, int]:
        """(done, total) of a job: (0, 0) while it waits its turn."""
        board = self._board
        if board is None:
            return 0, 0
        with board.get_lock():
            number, done, total = board[:]  # type: ignore[index]
        return (done, total) if number == job.number else (0, 0)

    def started(self, table_id: str, seat: int) -> bool:
        """Whether the analysis of this seat is known or being worked out."""
        return (table_id, seat) in self._done or (table_id, seat) in self._jobs

    def answer(
        self, table_id: str, seat: int, config: Config, names: Sequence[str],
        history: Sequence[int], lang: str, skip: Sequence[int] = (),
    ) -> bytes | tuple[int, int]:  # fmt: skip
        """The analysis of `seat` in `lang` (JSON) if it is ready, else the job's progress (done,
        total), starting it if it is not running (`skip`: the steps a bot or the clock answered
        for the seat, not judged); Busy if too many wait, the ProtocolError that
        stopped it if it did (the next request starts it again)."""
        key = (table_id, seat)
        known = self._done.get(key)
        if known is not None:
            self._done.move_to_end(key)
            return known[lang if lang in known else "en"]
        job = self._jobs.get(key)
        if job is not None and job.error is not None:
            del self._jobs[key]
            raise job.error
        if job is not None:
            return self.progress(job)
        if self.waiting >= WAITING:
            raise Busy()
        self._numbers += 1
        job = self._jobs[key] = Job(self._numbers)
        job.task = asyncio.get_running_loop().create_task(
            self._run(key, job, config.to_dict(), tuple(names), tuple(history), tuple(skip))
        )
        return 0, 0

    async def _run(
        self, key: _Key, job: Job, config: dict[str, Any], names: tuple[str, ...],
        history: tuple[int, ...], skip: tuple[int, ...],
    ) -> None:  # fmt: skip
        pool = self._executor()
        try:
            work = asyncio.get_running_loop().run_in_executor(
                pool, _work, job.number, config, history, key[1], names, self.iterations, skip
            )
            answers = await work
        except BrokenProcessPool:  # the worker died: the next job starts a new one
            self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            job.error = ProtocolError(
                "failed", "the analysis worker stopped: try again in a moment"
            )
            return
        except TimeoutError:
            job.error = ProtocolError("failed", "the analysis took too long: try again later")
            return
        except Exception:  # a bug must not take the server down: say so, log it
            log.exception("the analysis of table %s, seat %s failed", *key)
            job.error = ProtocolError("failed", "the analysis failed: try again later")
            return
        self.computed += 1
        self._done[key] = answers
        if len(self._done) > KEPT:
            self._done.popitem(last=False)
        self._jobs.pop(key, None)

    def close(self) -> None:
        for job in self._jobs.values():
            if job.task is not None:
                job.task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


# --- the request --------------------------------------------------------------------------------
async def proven_seat(request: Request, table: LiveTable, players: Players) -> int:
    """The seat the request proves it held: by its token (the JSON body's `seat` and `token`) or
    by the player's key (the player who holds a seat). ProtocolError("forbidden", …) otherwise."""
    raw = await read_body(request, MAX_BODY)
    d = json.loads(raw) if raw.strip() else {}
    if not isinstance(d, dict):
        raise ProtocolError("bad_request", "send a JSON object")
    seat, token = d.get("seat"), d.get("token")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise ProtocolError("bad_request", "the seat is a number")
    if token is not None and not isinstance(token, str):
        raise ProtocolError("bad_request", "the token is a string")
    player = await players.by_key(request.headers.get(KEY_HEADER))
    if seat is not None and token:
        try:
            found = table.check_seat(Hello(seat, token[:64]), player)
        except ProtocolError as e:
            raise ProtocolError("forbidden", e.message, **e.values) from None
        if found is not None:
            return found
    if player is not None:
        held = table.seat_of(player)
        if held is not None and (seat is None or seat == held):
            return held
    raise ProtocolError(
        "forbidden", "only the player who held a seat can see its analysis: open the replay "
        "from your table's link, or with your player key")  # fmt: skip


def endpoint(tables: Tables, players: Players, analyses: Analyses) -> Any:
    """`POST /api/tables/{table_id}/analysis`: 200 with the analysis, 202 with its progress
    (ask again after Retry-After), or an error in the reader's language."""

    async def analysis(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        if len(table_id) > MAX_ID:
            return http_error(request, 404, "no such table")
        if table_id in tables.broken:
            return http_error(request, 503, "this table is unavailable")
        if request.headers.get("content-type", "").split(";")[0].strip().lower() not in (
            "application/json",
            "",
        ):
            return http_error(request, 415, "send the seat as JSON (Content-Type: "
                              "application/json)")  # fmt: skip
        table = await tables.find(table_id)
        if isinstance(table, str):  # several nodes: another one keeps it
            return moved(request, table)
        if table is None:
            return http_error(request, 404, "no such table")
        try:
            seat = await proven_seat(request, table, players)
        except TooLarge as e:
            return http_error(request, 413, e, headers={"Connection": "close"})
        except ProtocolError as e:
            return http_error(request, 403 if e.code == "forbidden" else 400, e)
        except RecursionError:
            return http_error(request, 400, "the JSON is nested too deeply")
        except (ValueError, TypeError) as e:  # JSONDecodeError and UnicodeDecodeError too
            return http_error(request, 400, e)
        state = table.session.state
        if not state.is_terminal():
            return http_error(request, 409, "the game is still running: its analysis opens "
                              "when it is over")  # fmt: skip
        skip: list[int] = []
        if not analyses.started(table.id, seat):  # the answers a bot or the clock gave for them
            try:
                rows = await asyncio.to_thread(tables.store.actions, table.id)
            except StoreError:
                return http_error(request, 503, "this table is unavailable")
            skip = [r.seq for r in rows if r.by in ("bot", "timeout")]
        try:
            found = analyses.answer(table.id, seat, table.session.config, table.names,
                                    state.history, lang_of(request), skip)  # fmt: skip
        except Busy:
            return http_error(request, 503, "master is analysing other games: try again in a "
                              "minute", headers={"Retry-After": "30"})  # fmt: skip
        except ProtocolError as e:  # it stopped: the next request starts it again
            return http_error(request, 503, e, headers={"Retry-After": "5"})
        if isinstance(found, tuple):
            done, total = found
            return JSONResponse({"status": "analysing", "seat": seat, "done": done,
                                 "total": total}, status_code=202,
                                headers={"Retry-After": str(POLL)})  # fmt: skip
        head = json.dumps({"status": "done", "seat": seat, "names": table.names})
        return Response(head[:-1].encode() + b',"analysis":' + found + b"}",
                        media_type="application/json")  # fmt: skip

    return analysis


# --- in the worker process ----------------------------------------------------------------------
_BOARD: Any = None


def _start_worker(board: Any) -> None:
    """The worker yields the CPU to the server's event loop, and reports on `board`."""
    global _BOARD
    _BOARD = board
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


def _work(
    number: int, config: dict[str, Any], history: tuple[int, ...], seat: int,
    names: tuple[str, ...], iterations: int | None, skip: tuple[int, ...] = (),
) -> dict[str, bytes]:  # fmt: skip
    """The analysis of `seat`, in every language (JSON); TimeoutError past DEADLINE."""
    from ..analysis.core import DEFAULT_ITERATIONS, analyse_game
    from ..analysis.words import render

    cfg = Config.from_dict(config)
    start = time.monotonic()

    def report(done: int, total: int) -> None:
        if _BOARD is not None:
            with _BOARD.get_lock():
                _BOARD[:] = [number, done, total]
        if time.monotonic() - start > DEADLINE:
            raise TimeoutError

    a = analyse_game(cfg, history, seat, iterations=iterations or DEFAULT_ITERATIONS, seed=SEED,
                     progress=report, skip=frozenset(skip))  # fmt: skip
    return {lang: json.dumps(render(a, cfg, history, names, lang), ensure_ascii=False,
                             separators=(",", ":")).encode()
            for lang in LANGUAGES}  # fmt: skip
