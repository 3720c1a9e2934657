"""Monitoring: `/health` (liveness), `/ready` (readiness) and `/metrics` (Prometheus text).

Each app has its own `Monitor`, with its own `CollectorRegistry` (never the process-wide default
one: several apps in one test process do not clash). `create_app` makes it and installs it for
its store; the parts of the server that hold the store but not the app (a table, the group
commit, the cluster code) reach it with `monitor_of(store)`, as they reach the store's committer.

Every endpoint is cheap and bounded: no work per table or per client, no label a client can
choose (the labels are the four kinds of decision, the kinds of takeover, and the components
this code names), so the output of `/metrics` has a fixed size. `/ready` asks the database at
most once a second (later probes are given that answer), one query at a time, in a thread, and
waits for it at most `READY_TIMEOUT` seconds.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable, Iterable
from typing import Any, Final, Literal

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .store import BY_KINDS, ActionRow, SQLStore, Store, one_line

READY_TIMEOUT = 2.0  # seconds /ready waits for the database's answer
READY_EVERY = 1.0  # seconds an answer of the database is reused by later probes
# 1 ms to 10 s, about three buckets a decade (and +Inf).
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
TakeoverKind = Literal["gained", "lost"]
TAKEOVER_KINDS: tuple[TakeoverKind, ...] = ("gained", "lost")


def ping(store: Store) -> None:
    """One trivial query; raises (a StoreError) unless the database answers it. A back-end's own
    `ping()` if it has one; else, for a SQLite file, first that the file opened at start is still
    the one at its path (a read into a deleted or replaced file would still answer: only writes
    check it), then the one-row schema version."""
    own = getattr(store, "ping", None)
    if callable(own):
        own()
        return
    check_file = getattr(store, "_check_file", None)  # store_sqlite.SQLiteStore
    if callable(check_file):
        check_file()
    if isinstance(store, SQLStore):
        store.rows("SELECT version FROM schema_version")
    else:  # another Store: a lookup by primary key
        store.table("")


class _Analyses(Collector):
    """`jamaica_analyses_waiting` (the worker's queue), `jamaica_analyses_in_line` (requests
    refused for want of room, waiting in order) and `jamaica_analyses_total{how}`: worked out by
    master, recalled from the store, said again in new words, refused (503)."""

    def __init__(self, stats: Callable[[], dict[str, int]]) -> None:
        self.stats = stats

    def collect(self) -> Iterable[Metric]:
        d = self.stats()
        yield GaugeMetricFamily("jamaica_analyses_waiting",
                                "Post-game analyses in the worker's queue", d["waiting"])
        yield GaugeMetricFamily("jamaica_analyses_in_line",
                                "Analysis requests refused for want of room, waiting in order",
                                d["in_line"])  # fmt: skip
        total = CounterMetricFamily("jamaica_analyses", "Post-game analyses, by how they were "
                                    "answered", labels=["how"])  # fmt: skip
        for how in ("computed", "recalled", "said", "refused"):
            total.add_metric([how], d[how])
        yield total


# Why the server refused something to protect itself (the labels of `jamaica_refused`, fixed: a
# client can choose none): an address over its HTTP budget, its new tables a minute or its
# unfinished tables, the server at its table cap, a body over 16 KB, an address at its connection
# cap, a connection over its message rate (told, or closed for flooding), a message over 4 KB, a
# connection that said no hello in time, a page of another origin.
REFUSALS: Final = ("http_budget", "new_tables", "tables_per_address", "max_tables",
                   "body_too_large", "connections", "rate_limited", "flooding", "too_big",
                   "no_hello", "origin", "server_full")  # fmt: skip


class Monitor:
    """One app's figures (a registry of its own) and its health: the components it works
    without but degraded (`degrade`), and what keeps it from being ready (`hold`)."""

    def __init__(self) -> None:
        self.registry = r = CollectorRegistry(auto_describe=True)
        ProcessCollector(registry=r)  # process_*: CPU, memory, open files, start time
        PlatformCollector(registry=r)  # python_info
        GCCollector(registry=r)  # python_gc_*
        self.tables_live = Gauge(
            "jamaica_tables_live", "Tables in this server's memory (playing, waiting, finished)",
            registry=r,
        )  # fmt: skip
        self.connections = Gauge(
            "jamaica_websocket_connections", "Open WebSocket connections (within their caps)",
            registry=r,
        )  # fmt: skip
        self.decisions = Counter(
            "jamaica_decisions", "Decisions stored, by who made them", ["by"], registry=r
        )
        self._by = {by: self.decisions.labels(by) for by in BY_KINDS}  # all four from the start
        self.answer_seconds = Histogram(
            "jamaica_answer_seconds",
            "From a player's act message arriving to its decision stored and the update queued",
            buckets=BUCKETS, registry=r,
        )  # fmt: skip
        self.commit_seconds = Histogram(
            "jamaica_store_commit_seconds",
            "From a table handing its decisions to the group commit to their being stored "
            "(or refused)",
            buckets=BUCKETS, registry=r,
        )  # fmt: skip
        self.storage_failures = Counter(
            "jamaica_storage_failures", "A table's decisions the store refused (not acknowledged)",
            registry=r,
        )  # fmt: skip
        self.takeovers = Counter(
            "jamaica_takeovers",
            "Tables this node took over from another (gained), or another node took from it "
            "(lost)",
            ["kind"], registry=r,
        )  # fmt: skip
        for kind in TAKEOVER_KINDS:
            self.takeovers.labels(kind)
        self.refused = Counter(
            "jamaica_refused",
            "Requests, connections and messages refused to protect the server, by why",
            ["why"], registry=r,
        )  # fmt: skip
        self.refusals = dict.fromkeys(REFUSALS, 0)  # the same counts, for /api/status
        for why in REFUSALS:
            self.refused.labels(why)
        self.degraded_gauge = Gauge(
            "jamaica_degraded", "1 while a shared component is failing (the server goes on)",
            ["component"], registry=r,
        )  # fmt: skip
        self.degraded: dict[str, str] = {}  # component -> why (in /health)
        self.unready: dict[str, str] = {"tables": "the tables are not restored yet"}
        self._ping: asyncio.Future[None] | None = None
        self._pinged: tuple[float, str | None] | None = None  # (when, why it failed / None)

    # --- hooks ------------------------------------------------------------------------------------
    def count_tables(self, live: Callable[[], int]) -> None:
        """The live-tables gauge reads `live()` at each scrape (it must be O(1))."""
        self.tables_live.set_function(live)

    def count_analyses(self, stats: Callable[[], dict[str, int]]) -> None:
        """The post-game analyses' queue and counts, read from `stats()` at each scrape."""
        self.registry.register(_Analyses(stats))

    def stored(self, rows: Iterable[ActionRow]) -> None:
        """Decisions stored (a table's rows, once committed). Never raises: it is called after
        the commit, before the table applies what it stored."""
        for row in rows:
            child = self._by.get(row.by)
            if child is not None:
                child.inc()

    def answered(self, arrived: float) -> None:
        """A player's answer stored and the update queued; `arrived`: `time.perf_counter()` when
        its message arrived."""
        self.answer_seconds.observe(time.perf_counter() - arrived)

    def restored(self) -> None:
        """The tables were restored at start: ready (unless something else holds it)."""
        self.ready_again("tables")

    def hold(self, key: str, reason: str) -> None:
        """Not ready (503 on /ready) until `ready_again(key)`, e.g. while draining."""
        self.unready[key] = reason

    def ready_again(self, key: str) -> None:
        self.unready.pop(key, None)

    def degrade(self, component: str, reason: str) -> None:
        """A shared component (e.g. `redis`) fails; the server goes on without it. `component`
        is a name from the code, never from a client (it is a label)."""
        self.degraded[component] = reason
        self.degraded_gauge.labels(component).set(1)

    def recover(self, component: str) -> None:
        if self.degraded.pop(component, None) is not None:
            self.degraded_gauge.labels(component).set(0)

    # --- the endpoints ----------------------------------------------------------------------------
    async def database(self, store: Store) -> str | None:
        """Why the database is not usable now (None: it answered), asked at most once every
        READY_EVERY seconds, one query at a time, waited for at most READY_TIMEOUT seconds."""
        known = self._pinged
        if known is not None and time.monotonic() - known[0] < READY_EVERY:
            return known[1]
        if self._ping is None or self._ping.done():
            self._ping = asyncio.ensure_future(asyncio.to_thread(ping, store))
            self._ping.add_done_callback(_retrieve)  # a late failure is not "never retrieved"
        why: str | None = None
        try:
            await asyncio.wait_for(asyncio.shield(self._ping), READY_TIMEOUT)
        except TimeoutError:
            why = f"the database did not answer within {READY_TIMEOUT:g} s"
        except Exception as e:
            why = one_line(e)
        self._pinged = (time.monotonic(), why)
        return why

    def routes(self, store: Store) -> list[Route]:
        async def health(request: Request) -> Response:
            """Liveness: the process answers (always 200); which shared components fail."""
            return JSONResponse({"status": "ok", "degraded": dict(self.degraded)})

        async def ready(request: Request) -> Response:
            """Readiness: 200 when the database answers and the tables are restored (and the
            node is not handing its tables over). A shared component that fails (Redis) does not
            make a node unready — games go on without it — but is said here too."""
            reasons = dict(self.unready)
            why = await self.database(store)
            if why is not None:
                reasons["database"] = why
            if reasons:
                return JSONResponse({"status": "unready", "reasons": reasons}, status_code=503,
                                    headers={"Retry-After": "1"})  # fmt: skip
            if self.degraded:
                return JSONResponse({"status": "ready", "degraded": dict(self.degraded)})
            return JSONResponse({"status": "ready"})

        async def metrics(request: Request) -> Response:
            """The text format Prometheus asks for (OpenMetrics if its Accept says so)."""
            encode, kind = choose_encoder(request.headers.get("accept", ""))
            return Response(encode(self.registry), headers={"Content-Type": kind})

        return [Route("/health", health), Route("/ready", ready), Route("/metrics", metrics)]


def _retrieve(f: asyncio.Future[Any]) -> None:
    if not f.cancelled():
        f.exception()


_MONITORS: weakref.WeakKeyDictionary[object, Monitor] = weakref.WeakKeyDictionary()
_current: Monitor | None = None
_spare: Monitor | None = None


def install(store: Store, monitor: Monitor) -> Monitor:
    """Make `monitor` the one that `monitor_of(store)` (and `current()`) gives."""
    global _current
    _MONITORS[store] = monitor
    _current = monitor
    return monitor


def current() -> Monitor:
    """The monitor installed last (a server process has one app); a spare one if none was."""
    global _current
    if _current is None:
        _current = Monitor()
    return _current


def monitor_of(store: Store) -> Monitor:
    """The monitor of the app that serves `store`; for a store no app serves (a table tested
    alone), a spare one that no app reports."""
    global _spare
    m = _MONITORS.get(store)
    if m is None:
        if _spare is None:
            _spare = Monitor()
        m = _spare
    return m


def count_refused(why: str) -> None:
    """Something refused, for `/metrics` and `/api/status` (`why`: one of `REFUSALS`)."""
    m = current()
    m.refused.labels(why).inc()
    m.refusals[why] += 1


def count_takeover(kind: TakeoverKind = "gained", store: Store | None = None) -> None:
    """A table taken over by this node (`gained`) or from it (`lost`)."""
    m = current() if store is None else monitor_of(store)
    m.takeovers.labels(kind).inc()
