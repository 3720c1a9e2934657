"""Post-game analysis on the server (issue 28): `POST /api/tables/{id}/analysis`.

A player who held seat P of a finished game asks master to judge their decisions
(`jamaica.analysis`). The answer shows P's hand at each of their questions, so only P may have it:
the request proves the seat with the seat's token (`{"seat", "token"}` in the JSON body, as the
table's link carries them in its fragment — never in a query string) or with the player's key
(the `X-Player-Key` header) of the player who holds the seat. Anyone else gets 403; a game still
running 409.

The work (tens of seconds of master's search) never runs on the event loop nor in the server's
process: one niced worker *process* (spawn, like `replays.py`) does one game at a time, at most
WAITING games wait for it, at most PER_ADDRESS of them asked from one address, and a game's
analysis stops at DEADLINE seconds. A request refused for want of room (503, "busy, try again")
takes a place in a line (at most LINE places, PER_ADDRESS an address; a place not asked for again
within LINE_SECONDS is given up): room that frees goes to the line in order, not to whoever asks
first — an attacker asking four times a second cannot starve a page that asks every 30 s.

The first request starts the job and answers 202 with its progress (`done` of `total` questions,
read from a small shared array the worker writes); the page asks again until the answer is 200.
A result is stored with its table (`analysis_store`: the table's database, SQLite or PostgreSQL,
one row per seat, keyed by the analysis's version and budget and by the game) before the first
200 that carries it: a restart, a deploy or another node serves it from there without searching
again. The last KEPT results are also kept in memory (an LRU in front of the store), with their
words in every language (rendered in the worker, from the language-neutral analysis). Reading and
writing the store runs in threads, never on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import time
from collections import Counter, OrderedDict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..i18n import LANGUAGES
from ..rules import Config
from . import analysis_store
from .analysis_store import Kept
from .language import http_error, lang_of
from .limits import client_address
from .lobby import KEY_HEADER, moved
from .orphans import exit_with_parent, stop_pool
from .protocol import Hello, ProtocolError
from .security import TooLarge, not_json, read_body
from .store import Store, StoreError

if TYPE_CHECKING:
    from multiprocessing.sharedctypes import Synchronized

    from ..analysis.core import GameAnalysis
    from .players import Players
    from .registry import Tables
    from .tables import LiveTable

log = logging.getLogger("jamaica.web")
WAITING = 16  # games in the worker's queue, the one it works on included (then 503)
PER_ADDRESS = 2  # of them from one address (friends at one router each get theirs); places in line
LINE = 256  # requests refused for want of room, waiting for it in order
LINE_SECONDS = 90.0  # a place in line not asked for again within this is given up (pages: 30 s)
BUSY_SECONDS = 30  # Retry-After of a refusal
OWN_SECONDS = 10  # … when this address's own analyses come first
KEPT = 64  # analyses kept (table, seat): each a few tens of kB in two languages
DEADLINE = 240.0  # seconds a game's analysis may take in the worker
MAX_BODY = 1024  # bytes: a seat number and a token
MAX_ID = 64  # characters of a table id (the server's are 12)
POLL = 2  # seconds the page waits before asking again (Retry-After of a 202)
SEED = 0  # the analysis's seed: fixed, so the same game gives the same analysis

_Key = tuple[str, int]  # table, seat


class Busy(Exception):
    """No room for this analysis now: the queue is full ("full": `ahead` requests are before it in
    line), or this address has its share of it ("crowded")."""

    def __init__(self, reason: str, ahead: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.ahead = ahead


@dataclass(frozen=True)
class Ready:
    """An analysis as the reader gets it: when master's search was made, and its JSON."""

    at: float
    body: bytes


@dataclass(frozen=True)
class Game:
    """What an analysis judges: the game's settings, names and decisions, and the steps a bot or
    the clock answered for the seat (not judged)."""

    config: dict[str, Any]
    names: tuple[str, ...]
    history: tuple[int, ...]
    skip: tuple[int, ...]


@dataclass
class Job:
    number: int
    game: Game
    address: str | None = None  # who asked for it (None: not counted, e.g. a test)
    known: Kept | None = None  # a stored analysis whose words are to be said again
    error: ProtocolError | None = None  # why it stopped (too long, the worker died), if it has
    task: asyncio.Task[None] | None = None
    result: Kept | None = None  # worked out, not stored yet (the store failed: stored next time)


class Analyses:
    """The worker, its queue, the store the analyses are kept in, and the last ones in memory."""

    def __init__(self, iterations: int | None = None, store: Store | None = None) -> None:
        if iterations is None and os.environ.get("JAMAICA_ANALYSIS_ITERATIONS", "").isdigit():
            iterations = max(1, int(os.environ["JAMAICA_ANALYSIS_ITERATIONS"][:6]))  # tests
        self.iterations = iterations  # master's per question (None: the analysis's default)
        most = os.environ.get("JAMAICA_ANALYSIS_WAITING", "")
        self.most = max(1, int(most[:4])) if most.isdigit() else WAITING  # the queue's bound
        self.store = store  # where analyses are kept with their tables (None: in memory only)
        self._pool: ProcessPoolExecutor | None = None
        self._board: Synchronized[int] | None = None  # the running job's number, done, total
        self._done: OrderedDict[_Key, Kept] = OrderedDict()
        self._jobs: dict[_Key, Job] = {}
        self._line: OrderedDict[_Key, tuple[str | None, float]] = OrderedDict()  # address, asked
        self._numbers = 0
        self.computed = 0  # analyses worked out by master's search (not from memory or store)
        self.said = 0  # stored analyses whose words were said again (new catalogs)
        self.recalled = 0  # analyses read from the store
        self.refused = 0  # requests refused for want of room (503)

    @property
    def waiting(self) -> int:
        return sum(j.error is None for j in self._jobs.values())

    def in_line(self) -> int:
        return len(self._line)

    def stats(self) -> dict[str, int]:
        """For the operator (`/api/status`, `/metrics`): counts only."""
        return {"waiting": self.waiting, "in_line": self.in_line(), "computed": self.computed,
                "recalled": self.recalled, "said": self.said, "refused": self.refused}

    def _room_for(self, key: _Key, address: str | None) -> None:
        """Raise Busy unless a new job for `key` may join the queue now: its address has less
        than its share, there is room, and nobody refused before it is still in line for it."""
        now = time.monotonic()
        for k, (_, asked) in list(self._line.items()):  # at most LINE
            if now - asked > LINE_SECONDS:
                del self._line[k]
        jobs = [j for j in self._jobs.values() if j.error is None]
        share = Counter(j.address for j in jobs if j.address is not None)
        crowded = {a for a, n in share.items() if n >= PER_ADDRESS}  # they cannot start now
        if key in self._line:
            self._line[key] = (address, now)  # asked again: its place stays
        if address in crowded:
            self.refused += 1
            raise Busy("crowded")
        room = self.most - len(jobs)
        ahead = 0
        for k, (a, _) in self._line.items():  # those before it that could start now
            if k == key:
                break
            ahead += a not in crowded
        if ahead < room:
            self._line.pop(key, None)
            return
        self.refused += 1
        if key not in self._line and len(self._line) < LINE and (address is None or sum(
                a == address for a, _ in self._line.values()) < PER_ADDRESS):  # fmt: skip
            self._line[key] = (address, now)
        raise Busy("full", ahead)

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

    def ahead(self, table_id: str, seat: int) -> int:
        """How many games the worker does before this seat's (0 once it works on it)."""
        job = self._jobs.get((table_id, seat))
        if job is None or self.progress(job)[1]:
            return 0
        return sum(j.error is None and j.result is None and j.number < job.number
                   for j in self._jobs.values())  # fmt: skip

    def started(self, table_id: str, seat: int) -> bool:
        """Whether the analysis of this seat is in memory or being worked out."""
        return (table_id, seat) in self._done or (table_id, seat) in self._jobs

    def key(self, table_id: str, seat: int, game: Game) -> analysis_store.Key:
        """The store's keys of this seat's analysis as this code makes it (blocking: it reads the
        code's files once, and digests the game)."""
        from ..analysis.core import DEFAULT_ITERATIONS  # master: loaded where it is needed

        return analysis_store.key_of(self.iterations or DEFAULT_ITERATIONS, SEED, game.config,
                                     game.history, game.skip, game.names)  # fmt: skip

    def recall(self, table_id: str, seat: int, game: Game) -> Kept | None:
        """The stored analysis of this seat if this code would make the same (blocking: call it
        in a thread), its words empty if they are to be said again; StoreError if the store
        cannot be read."""
        if self.store is None:
            return None
        found = analysis_store.recall(self.store, table_id, seat, self.key(table_id, seat, game))
        if found is not None:
            self.recalled += 1
        return found

    def answer(
        self, table_id: str, seat: int, config: Config, names: Sequence[str],
        history: Sequence[int], lang: str, skip: Sequence[int] = (), stored: Kept | None = None,
        address: str | None = None,
    ) -> Ready | tuple[int, int]:  # fmt: skip
        """The analysis of `seat` in `lang` — when its search was made and its JSON — if it is
        ready, else the job's progress (done, total), starting it if it is not running (`skip`:
        the steps a bot or the clock answered for the seat, not judged; `stored`: what
        `recall` found — served as it is, or only said again if its words are empty; `address`:
        who asks, for its share of the queue); Busy if there is no room for it now, the
        ProtocolError that stopped it if it did (the next request starts it again)."""
        key = (table_id, seat)
        if stored is not None and stored.said and key not in self._done:
            self._remember(key, stored)
        known = self._done.get(key)
        if known is not None:
            self._done.move_to_end(key)
            return Ready(known.at, known.said[lang if lang in known.said else "en"])
        job = self._jobs.get(key)
        if job is not None and job.error is not None:
            error, job.error = job.error, None
            if job.result is None:
                del self._jobs[key]
            else:  # worked out, not stored: the next request finds it stored (or told why not)
                job.task = asyncio.get_running_loop().create_task(self._run(key, job))
            raise error
        if job is not None:
            return self.progress(job)
        self._room_for(key, address)
        self._numbers += 1
        game = Game(config.to_dict(), tuple(names), tuple(history), tuple(skip))
        job = self._jobs[key] = Job(self._numbers, game, address, stored)
        job.task = asyncio.get_running_loop().create_task(self._run(key, job))
        return 0, 0

    def _remember(self, key: _Key, kept: Kept) -> None:
        self._done[key] = kept
        self._done.move_to_end(key)
        while len(self._done) > KEPT:
            self._done.popitem(last=False)

    async def _run(self, key: _Key, job: Job) -> None:
        """Work the analysis out (or say a stored one again), store it, then answer it."""
        if job.result is None:
            job.result = await self._work_out(key, job)
            if job.result is None:
                return
        if self.store is not None:
            try:
                size = await asyncio.to_thread(self._save, key, job.game, job.result)
            except StoreError as e:  # the next request tries again, without searching again
                log.warning("the analysis of table %s, seat %s could not be stored: %s", *key, e)
                job.error = ProtocolError("failed", "this table is unavailable")
                return
            if not size:
                log.warning("the analysis of table %s, seat %s is over %d bytes: kept in memory "
                            "only", *key, analysis_store.MAX_STORED)  # fmt: skip
        self._remember(key, replace(job.result, analysis={}))  # memory keeps only the words
        self._jobs.pop(key, None)

    def _save(self, key: _Key, game: Game, kept: Kept) -> int:
        assert self.store is not None
        return analysis_store.save(self.store, *key, self.key(*key, game), kept)

    async def _work_out(self, key: _Key, job: Job) -> Kept | None:
        """The worker's analysis (or a stored one's words said again); None if it failed (the
        job says why)."""
        pool = self._executor()
        g, known = job.game, job.known
        try:
            work = asyncio.get_running_loop().run_in_executor(
                pool, _work, job.number, g.config, g.history, key[1], g.names, self.iterations,
                g.skip, None if known is None else known.analysis,
            )  # fmt: skip
            neutral, said = await work
        except BrokenProcessPool:  # the worker died: the next job starts a new one
            self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            job.error = ProtocolError(
                "failed", "the analysis worker stopped: try again in a moment"
            )
            return None
        except TimeoutError:
            job.error = ProtocolError("failed", "the analysis took too long: try again later")
            return None
        except Exception:  # a bug must not take the server down: say so, log it
            log.exception("the analysis of table %s, seat %s failed", *key)
            job.error = ProtocolError("failed", "the analysis failed: try again later")
            return None
        if known is None:
            self.computed += 1
            return Kept(time.time(), neutral, said)
        self.said += 1
        return Kept(known.at, neutral, said)

    def close(self) -> None:
        for job in self._jobs.values():
            if job.task is not None:
                job.task.cancel()
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None
        self._board = None  # its lock's semaphore is released with it


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
    last = len(table.record.seats) - 1
    if seat is not None and not 0 <= seat <= last:
        raise ProtocolError("bad_request", "this link names a seat the table does not have "
                            "({seats} seats, counted from 0): open the replay from your table's "
                            "link", seats=last + 1)  # fmt: skip
    player = await players.by_key(request.headers.get(KEY_HEADER))
    refused: ProtocolError | None = None
    if seat is not None and token:
        try:
            found = table.check_seat(Hello(seat, token[:64]), player)
        except ProtocolError as e:
            refused = e  # a stale or mistyped link: the player's key may still prove the seat
        else:
            if found is not None:
                return found
    if player is not None:
        held = table.seat_of(player)
        if held is not None and (seat is None or seat == held):
            return held
    if refused is not None:
        raise ProtocolError("forbidden", refused.message, **refused.values)
    raise ProtocolError(
        "forbidden", "only the player who held a seat can see its analysis: open the replay "
        "from your table's link, or with your player key")  # fmt: skip


def endpoint(tables: Tables, players: Players, analyses: Analyses) -> Any:
    """`POST /api/tables/{table_id}/analysis`: 200 with the analysis, 202 with its progress
    (ask again after Retry-After), or an error in the reader's language. The analyses are kept
    in the tables' store."""
    if analyses.store is None:
        analyses.store = tables.store
    analysis_store.fingerprint(analysis_store.SEARCH_CODE)  # read the code's files once, now
    analysis_store.fingerprint(analysis_store.WORDS_CODE)

    async def analysis(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        if len(table_id) > MAX_ID:
            return http_error(request, 404, "no such table")
        if table_id in tables.broken:
            return http_error(request, 503, "this table is unavailable")
        if not_json(request):
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
        stored: Kept | None = None
        if not analyses.started(table.id, seat):  # in neither memory nor the worker
            config = table.session.config
            names, history = tuple(table.names), tuple(state.history)

            def load() -> tuple[list[int], Kept | None]:
                """The answers a bot or the clock gave for the seat, and its stored analysis."""
                rows = tables.store.actions(table.id)
                steps = [r.seq for r in rows if r.by in ("bot", "timeout")]
                game = Game(config.to_dict(), names, history, tuple(steps))
                return steps, analyses.recall(table.id, seat, game)

            try:
                skip, stored = await asyncio.to_thread(load)
            except StoreError:
                return http_error(request, 503, "this table is unavailable")
        try:
            found = analyses.answer(table.id, seat, table.session.config, table.names,
                                    state.history, lang_of(request), skip, stored,
                                    client_address(request.client))  # fmt: skip
        except Busy as e:
            if e.reason == "crowded":  # this address's own come first: they end sooner
                return http_error(request, 503, "other analyses asked from your address are "
                                  "being made: this one can start when one is done, ask again in "
                                  "{seconds} s", headers={"Retry-After": str(OWN_SECONDS)},
                                  reason=e.reason, seconds=OWN_SECONDS)  # fmt: skip
            return http_error(request, 503, "master is analysing other games: ask again in "
                              "{seconds} s (those refused before you go first)",
                              headers={"Retry-After": str(BUSY_SECONDS)}, reason=e.reason,
                              seconds=BUSY_SECONDS)  # fmt: skip
        except ProtocolError as e:  # it stopped: the next request starts it again
            return http_error(request, 503, e, headers={"Retry-After": "5"})
        if isinstance(found, tuple):
            done, total = found
            return JSONResponse({"status": "analysing", "seat": seat, "done": done,
                                 "total": total, "ahead": analyses.ahead(table.id, seat)},
                                status_code=202, headers={"Retry-After": str(POLL)})  # fmt: skip
        head = json.dumps({"status": "done", "seat": seat, "names": table.names,
                           "analysed_at": round(found.at, 3)})  # fmt: skip
        return Response(head[:-1].encode() + b',"analysis":' + found.body + b"}",
                        media_type="application/json")  # fmt: skip

    return analysis


# --- in the worker process ----------------------------------------------------------------------
_BOARD: Any = None


def _start_worker(board: Any) -> None:
    """The worker yields the CPU to the server's event loop, reports on `board`, and ends with
    the server."""
    global _BOARD
    _BOARD = board
    exit_with_parent()
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


def _work(
    number: int, config: dict[str, Any], history: tuple[int, ...], seat: int,
    names: tuple[str, ...], iterations: int | None, skip: tuple[int, ...] = (),
    known: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], dict[str, bytes]]:  # fmt: skip
    """The analysis of `seat` (language-neutral) and its words in every language (JSON);
    TimeoutError past DEADLINE. `known`: an analysis made before, only to be said again."""
    from ..analysis.core import DEFAULT_ITERATIONS, GameAnalysis, analyse_game

    cfg = Config.from_dict(config)
    if known is not None:
        a = GameAnalysis.from_dict(known)
        return a.to_dict(), _said(a, cfg, history, names)
    start = time.monotonic()

    def report(done: int, total: int) -> None:
        if _BOARD is not None:
            with _BOARD.get_lock():
                _BOARD[:] = [number, done, total]
        if time.monotonic() - start > DEADLINE:
            raise TimeoutError

    a = analyse_game(cfg, history, seat, iterations=iterations or DEFAULT_ITERATIONS, seed=SEED,
                     progress=report, skip=frozenset(skip))  # fmt: skip
    return a.to_dict(), _said(a, cfg, history, names)


def _said(
    a: GameAnalysis, cfg: Config, history: tuple[int, ...], names: tuple[str, ...]
) -> dict[str, bytes]:
    """The analysis in every language, as the page gets it (JSON)."""
    from ..analysis.words import render

    return {lang: json.dumps(render(a, cfg, history, names, lang), ensure_ascii=False,
                             separators=(",", ":")).encode()
            for lang in LANGUAGES}  # fmt: skip
