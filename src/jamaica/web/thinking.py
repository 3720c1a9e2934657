"""Where the bots of every table think: a fair scheduler in two lanes.

A table asks for one bot decision at a time (`LiveTable._play_auto` awaits each). The scheduler
estimates what the decision costs from the bot's spec and the question (`estimate`), and sends it
to one of two lanes, each with a bounded number of workers:

- the **quick lane** (threads, `JAMAICA_BOT_THREADS`, default the number of cores, at most 8):
  decisions estimated at `QUICK_LIMIT` or less — `random`, `easy`, `medium`, `greedy`, `learned`,
  `deep`, and any question a search bot answers without searching (one legal answer, or a small
  question it answers by rules of thumb). A cheap decision never waits behind an expensive one.
- the **slow lane** (processes, `JAMAICA_BOT_PROCESSES`, default one fewer than the cores, at
  least 1 — a core stays free for the server's event loop — at a lower priority; 0: threads):
  searches (`hard`, `master`, `ismcts`). Bots are pure Python: two threads searching took the GIL
  from the event loop (a 5 ms timer fired 5 ms late at the median, 27 ms at p99, 58 ms at worst;
  with the same searches in two processes 0.2, 4 and 8 ms), and threads search on one core between
  them.
  A state crosses to a process pickled (about 1.2 kB, 0.1 ms). A process that dies fails only
  its own decision, at once (the table's fallback bot answers), and a fresh process takes its
  place; one still thinking when its table gave up (`BOT_DEADLINE`) is killed.

In each lane every table has a queue, and the tables take turns (round robin): a free worker
serves the first table in line that has no decision being thought in this lane, and a table
that still has decisions waiting goes to the back of the line. So with T tables using a lane of
N workers, a decision waits for at most ⌊(T − 1) / N⌋ decisions of other tables, whatever they
cost: at most ⌊(T − 1) / N⌋ × D, where D is the longest decision the lane lets run — about
`QUICK_LIMIT` in the quick lane; in the slow lane `ANONYMOUS_SECONDS` (about 1 s) while only
anonymous tables search, else the budget a player chose, and never more than the deadline after
which the table gives up and its process is killed.

**Anonymous tables** (created without a player) still play the bot they asked for, with a
capped budget (`capped`): an `ismcts` bot thinks at most `ANONYMOUS_SECONDS` = 1 s
(`seconds=10` becomes `seconds=1.0`), or at most as many iterations as take about that long:
1000 / (1 + rollout_rounds) (heads-up: twice as many, a two-player iteration costing about
half) — 500 with the default rollout, so `hard` (300, heads-up 600) plays in full. Other bots
are cheap already (`greedy:samples=64`, the dearest, about 60 ms at worst). A table a player
created keeps its full budget and still takes its turn with the others.

`stats()` reports, per lane, the decisions, the queue wait and the thinking time (p50 and p99
of the last `WINDOW` decisions, and the worst since the start).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import multiprocessing
import os
import secrets
import signal
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnProcess
from typing import Any, Final, Protocol

from ..bots import LEVEL_SPECS, GreedyBot, ISMCTSBot, make_bot, parse_spec
from ..bots.greedy import LOOKAHEAD_KINDS
from ..rules import Action, State

QUICK_LIMIT: Final = 0.1  # seconds: a decision estimated to cost no more goes to the quick lane
ANONYMOUS_SECONDS: Final = 1.0  # the most an anonymous table's bot thinks per decision
# Upper estimates, measured on one core of a 2-core machine (4 players; heads-up about half):
ITERATION_SECONDS: Final = 0.001  # an ismcts iteration, per rollout round plus one
SAMPLE_SECONDS: Final = 0.001  # a greedy sample
WINDOW: Final = 1000  # decisions the percentiles of `stats()` are taken over

Decide = Callable[[str, State, int], Action]


def bot_answer(spec: str, state: State, seat: int) -> Action:
    """A bot's answer on a copy of the game, with fresh secret randomness."""
    return make_bot(spec, secrets.randbits(128)).act(state, seat)


# --- what a decision costs ----------------------------------------------------------------------
def _default(cls: type, option: str) -> Any:
    return inspect.signature(cls).parameters[option].default


def _parse(spec: str) -> tuple[str, dict[str, Any]]:
    name, options = parse_spec(spec)
    if name in LEVEL_SPECS and not options:  # a level; "master" may also carry its budget
        return parse_spec(LEVEL_SPECS[name])
    return name, options


def _master_defaults() -> dict[str, Any]:
    """The master bot's budget when its spec names none (`bots.master`)."""
    from ..bots.master import HEADS_UP, ITERATIONS

    return {"iterations": ITERATIONS, "heads_up": HEADS_UP}


def _iteration_seconds(options: dict[str, Any]) -> float:
    rounds = options.get("rollout_rounds", _default(ISMCTSBot, "rollout_rounds"))
    return float(ITERATION_SECONDS * (1 + rounds))


def estimate(spec: str, state: State) -> float:
    """About the most seconds the bot of `spec` thinks on `state`'s question (0 for an invalid
    spec: it fails at once)."""
    if len(state.legal) <= 1 or state.decision_kind() not in LOOKAHEAD_KINDS:
        return 0.0  # no question to think about: every bot answers at once
    try:
        name, options = _parse(spec)
    except ValueError:
        return 0.0
    if name == "greedy":
        return float(SAMPLE_SECONDS * options.get("samples", _default(GreedyBot, "samples")))
    if name not in ("ismcts", "master"):
        return 0.0
    if name == "master":
        options = {**_master_defaults(), **options}
    if "seconds" in options:
        return float(options["seconds"])
    iterations = options.get("iterations", _default(ISMCTSBot, "iterations"))
    if state.n == 2 and "heads_up" in options:
        iterations = options["heads_up"] / 2  # a heads-up iteration costs about half
    return float(iterations * _iteration_seconds(options))


def capped(spec: str) -> str:
    """The spec an anonymous table's bot plays with: `spec` with its search budget cut to about
    `ANONYMOUS_SECONDS` a decision (`spec` itself if it is within, or invalid)."""
    try:
        name, options = _parse(spec)
    except ValueError:
        return spec
    if name not in ("ismcts", "master"):
        return spec
    if name == "master":
        options = {**_master_defaults(), **options}
    cut = dict(options)
    if "seconds" in options:
        cut["seconds"] = min(options["seconds"], ANONYMOUS_SECONDS)
    else:
        most = max(1, int(ANONYMOUS_SECONDS / _iteration_seconds(options)))
        if options.get("iterations", _default(ISMCTSBot, "iterations")) > most:
            cut["iterations"] = most
        if options.get("heads_up", 0) > 2 * most:
            cut["heads_up"] = 2 * most
    if cut == options:
        return spec
    return ":".join([name, *(f"{key}={value}" for key, value in cut.items())])


# --- workers ------------------------------------------------------------------------------------
class Runner(Protocol):
    """What a lane's worker thinks with: a thread's own function, or a process."""

    def __call__(self, spec: str, state: State, seat: int) -> Action: ...

    def abort(self) -> None:
        """Stop the decision in progress, if it can be stopped (called under the lane's lock)."""

    def close(self) -> None: ...


class InThread:
    """Thinks in the worker thread itself. It cannot be stopped: a decision runs its budget."""

    def __init__(self, decide: Decide) -> None:
        self.decide = decide

    def __call__(self, spec: str, state: State, seat: int) -> Action:
        return self.decide(spec, state, seat)

    def abort(self) -> None:
        pass

    def close(self) -> None:
        pass


class WorkerDied(RuntimeError):
    """The process a bot thought in ended before it answered (crashed, or was killed)."""


class BotFailed(RuntimeError):
    """The bot raised an error in its process (the message says which)."""


def _lower_priority() -> None:
    """A worker yields the CPU to the server's event loop (on a machine with fewer cores than
    busy workers, a search at full priority slowed every table's answers)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


def _serve(conn: Connection) -> None:
    """A worker process: answer one decision at a time until the server closes the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the server, which ends us
    _lower_priority()
    while True:
        try:
            spec, state, seat = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[bool, Any] = (True, bot_answer(spec, state, seat))
        except Exception as e:
            reply = (False, f"{type(e).__name__}: {e}")
        try:
            conn.send(reply)
        except OSError:
            return


class InProcess:
    """Thinks in a process of its own, started when first needed and again after it ended."""

    def __init__(self) -> None:
        self._ctx = multiprocessing.get_context("spawn")  # no fork of a threaded server
        self._proc: SpawnProcess | None = None
        self._conn: Connection | None = None
        self._doomed = False  # killed by `abort`: start afresh before the next decision

    def _start(self) -> None:
        self.close()
        self._doomed = False
        conn, child = self._ctx.Pipe()
        proc = self._ctx.Process(target=_serve, args=(child,), daemon=True, name="jamaica-bot")
        try:
            proc.start()
        except BaseException:
            conn.close()
            raise
        finally:
            child.close()
        self._proc, self._conn = proc, conn

    def __call__(self, spec: str, state: State, seat: int) -> Action:
        if self._conn is None or self._doomed or self._proc is None or not self._proc.is_alive():
            self._start()
        conn = self._conn
        if conn is None or self._doomed:  # stopped while the process started
            raise WorkerDied("the decision was stopped")
        try:
            conn.send((spec, state, seat))
            ok, value = conn.recv()
        except Exception as e:  # the pipe is closed (the process ended) or out of step
            proc = self._proc
            self.close()
            code = None if proc is None else proc.exitcode
            raise WorkerDied(f"the bot's process ended (exit code {code})") from e
        if not ok:
            raise BotFailed(value)
        assert isinstance(value, Action)
        return value

    def abort(self) -> None:
        self._doomed = True
        proc = self._proc
        if proc is not None:
            proc.kill()

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.is_alive():
                proc.kill()
            proc.join(5)


# --- lanes --------------------------------------------------------------------------------------
@dataclass(eq=False)
class Job:
    """One decision: asked by `table`, answered into `future` (on `loop`)."""

    table: str
    spec: str
    state: State
    seat: int
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Action]
    queued: float = field(default_factory=time.monotonic)
    started: float | None = None
    runner: Runner | None = None
    abandoned: bool = False  # the table gave up while it was being thought

    def settle(self, answer: Action | None, error: BaseException | None) -> None:
        """Hand the answer (or error) to the waiting table, from any thread."""

        def put() -> None:
            if self.future.done():
                return  # the table gave up waiting
            if answer is not None:
                self.future.set_result(answer)
            else:
                self.future.set_exception(error or RuntimeError("no answer"))

        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            self.loop.call_soon_threadsafe(put)


class _Figures:
    """The last `WINDOW` values, and the largest ever, in seconds."""

    def __init__(self) -> None:
        self.recent: deque[float] = deque(maxlen=WINDOW)
        self.most = 0.0

    def add(self, seconds: float) -> None:
        self.recent.append(seconds)
        self.most = max(self.most, seconds)

    def ms(self) -> dict[str, float]:
        xs = sorted(self.recent)
        if not xs:
            return {"p50": 0.0, "p99": 0.0, "max": 0.0}
        p50, p99 = xs[len(xs) // 2], xs[min(len(xs) - 1, int(0.99 * len(xs)))]
        return {"p50": round(p50 * 1000, 1), "p99": round(p99 * 1000, 1),
                "max": round(self.most * 1000, 1)}  # fmt: skip


class Lane:
    """`workers` threads, each thinking with its own runner, serving the tables in turn."""

    def __init__(self, name: str, workers: int, runner: Callable[[], Runner], kind: str) -> None:
        self.name = name
        self.kind = kind  # what a worker is: "threads" or "processes"
        self.workers = max(1, workers)
        self._runner = runner
        self._cond = threading.Condition()
        self._line: OrderedDict[str, deque[Job]] = OrderedDict()  # tables waiting, in turn
        self._busy: dict[str, Job] = {}  # table -> its decision being thought
        self._threads: list[threading.Thread] = []
        self._closed = False
        self._counts = {"decisions": 0, "failed": 0, "withdrawn": 0, "abandoned": 0}
        self._wait = _Figures()
        self._think = _Figures()

    def submit(self, job: Job) -> None:
        with self._cond:
            if self._closed:
                raise RuntimeError(f"the {self.name} lane is closed")
            self._line.setdefault(job.table, deque()).append(job)  # a new table: at the back
            while len(self._threads) < self.workers:  # all of them, at the first decision
                name = f"jamaica-bot-{self.name}-{len(self._threads)}"
                t = threading.Thread(target=self._work, daemon=True, name=name)
                self._threads.append(t)
                t.start()
            self._cond.notify()

    def cancel(self, job: Job) -> None:
        """The table gave up waiting: withdraw the job, or stop it if it is being thought."""
        with self._cond:
            waiting = self._line.get(job.table)
            if waiting is not None and job in waiting:
                waiting.remove(job)
                if not waiting:
                    del self._line[job.table]
                self._counts["withdrawn"] += 1
            elif self._busy.get(job.table) is job and job.runner is not None:
                self._counts["abandoned"] += 1
                job.abandoned = True
                job.runner.abort()

    def _next(self, runner: Runner) -> Job | None:
        with self._cond:
            while not self._closed:
                table = next((t for t in self._line if t not in self._busy), None)
                if table is None:
                    self._cond.wait()
                    continue
                waiting = self._line[table]
                job = waiting.popleft()
                if waiting:
                    self._line.move_to_end(table)
                else:
                    del self._line[table]
                job.started, job.runner = time.monotonic(), runner
                self._busy[table] = job
                self._wait.add(job.started - job.queued)
                return job
            return None

    def _work(self) -> None:
        runner = self._runner()
        try:
            while (job := self._next(runner)) is not None:
                answer: Action | None = None
                error: BaseException | None = None
                try:
                    answer = runner(job.spec, job.state, job.seat)
                except Exception as e:
                    error = e
                with self._cond:
                    del self._busy[job.table]
                    assert job.started is not None
                    self._think.add(time.monotonic() - job.started)
                    if error is None:
                        self._counts["decisions"] += 1
                    elif not job.abandoned:
                        self._counts["failed"] += 1
                    if job.table in self._line:
                        self._cond.notify()  # its next decision may go now
                job.settle(answer, error)
        finally:
            runner.close()

    def stats(self) -> dict[str, Any]:
        with self._cond:
            return {"workers": self.workers, "in": self.kind,
                    "queued": sum(len(q) for q in self._line.values()),
                    "thinking": len(self._busy), **self._counts,
                    "wait_ms": self._wait.ms(), "think_ms": self._think.ms()}  # fmt: skip

    def close(self) -> None:
        """Stop the workers: decisions waiting fail, one being thought in a process is killed."""
        with self._cond:
            self._closed = True
            waiting = [job for jobs in self._line.values() for job in jobs]
            self._line.clear()
            for job in self._busy.values():
                if job.runner is not None:
                    job.runner.abort()
            self._cond.notify_all()
        for job in waiting:
            job.settle(None, RuntimeError("the server is stopping"))


# --- the scheduler ------------------------------------------------------------------------------
class Scheduler:
    """Every table's bot decisions: the quick lane, the slow lane, and the anonymous cap."""

    def __init__(self, quick: Lane, slow: Lane) -> None:
        self.quick = quick
        self.slow = slow
        self.capped = 0  # decisions whose budget was cut for an anonymous table

    @classmethod
    def from_env(cls, decide: Decide = bot_answer) -> Scheduler:
        """Lanes sized by `JAMAICA_BOT_THREADS` (default: the number of cores, at most 8) and
        `JAMAICA_BOT_PROCESSES` (default: one fewer, at least 1: searches leave a core to the
        event loop); `decide` answers in the threads."""
        default = min(8, os.cpu_count() or 2)
        threads = int(os.environ.get("JAMAICA_BOT_THREADS", default))
        processes = int(os.environ.get("JAMAICA_BOT_PROCESSES", max(1, default - 1)))
        quick = Lane("quick", threads, lambda: InThread(decide), "threads")
        if processes > 0:
            return cls(quick, Lane("slow", processes, InProcess, "processes"))
        return cls(quick, Lane("slow", threads, lambda: InThread(decide), "threads"))

    def lane(self, spec: str, state: State) -> Lane:
        return self.quick if estimate(spec, state) <= QUICK_LIMIT else self.slow

    async def decide(
        self, table: str, spec: str, state: State, seat: int, *, anonymous: bool = False
    ) -> Action:
        """The answer of the bot of `spec` for `seat`, when `table`'s turn in its lane comes.
        Cancelled (the table gave up waiting), the decision is withdrawn or stopped."""
        if anonymous:
            cut = capped(spec)
            self.capped += cut != spec
            spec = cut
        lane = self.lane(spec, state)
        loop = asyncio.get_running_loop()
        job = Job(table, spec, state, seat, loop, loop.create_future())
        lane.submit(job)
        try:
            return await job.future
        except asyncio.CancelledError:
            lane.cancel(job)
            raise

    def stats(self) -> dict[str, Any]:
        """Per lane: workers, decisions queued and being thought, decisions answered and failed,
        withdrawn (the table gave up while queued) and abandoned (while thought), the queue wait
        and the thinking time (ms: p50, p99 of the last `WINDOW`, max ever); and how many
        decisions an anonymous table's cap cut short."""
        return {"capped": self.capped, "quick": self.quick.stats(), "slow": self.slow.stats()}

    def close(self) -> None:
        self.quick.close()
        self.slow.close()


def describe(stats: dict[str, Any]) -> str:
    """One line per lane, for a person: `stats()` (or its JSON) as text."""
    lines = []
    for name in ("quick", "slow"):
        lane = stats[name]
        w, t = lane["wait_ms"], lane["think_ms"]
        lines.append(
            f"{name} lane ({lane['workers']} {lane['in']}): {lane['decisions']} decisions, "
            f"queue wait p50 {w['p50']:.1f} ms, p99 {w['p99']:.1f} ms, max {w['max']:.1f} ms; "
            f"thinking p50 {t['p50']:.1f} ms, p99 {t['p99']:.1f} ms"
        )
    return "\n".join(lines)
