"""`jamaica serve`: the game server (Starlette on uvicorn) — lobby, tables, WebSockets, replays."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import html
import json
import logging
import os
import signal
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..rules import Config
from . import analysis, language, logs, rated
from .health import Monitor, count_refused, install
from .language import http_error, lang_of
from .layout import board_layout
from .limits import (
    Connections,
    Flood,
    Limits,
    Sockets,
    client_address,
    open_files_room,
)
from .lobby import KEY_HEADER, Lobby, moved
from .outbox import Outbox, spawn
from .players import Player, Players
from .profiles import Profiles
from .protocol import (
    MAX_MESSAGE,
    Act,
    Back,
    Chat,
    Hello,
    Ping,
    ProtocolError,
    error,
    parse,
    refusal,
)
from .registry import Tables
from .replays import Busy, Replays
from .replays import response as replay_response
from .security import HttpBudget, SecurityHeaders, TooLarge, origin_allowed, read_body
from .social import Client
from .sockets import guarded
from .storage import open_store, safe_url
from .store import Store, StoreError
from .tables import LiveTable, bot_pool, close_bot_pool

if TYPE_CHECKING:
    from .cluster import Cluster
    from .shared import Shared

log = logging.getLogger("jamaica.web")
STATIC = resources.files("jamaica.web") / "static"
CLOSE_POLICY = 1008  # the WebSocket close code for a client over its limits
CLOSE_NO_TABLE = 4404
CLOSE_UNAVAILABLE = 4503
LIST_BUSY = 20  # lobby lists asked for in a second, beyond which readers share one…
LIST_FRESH = 0.5  # …for this many seconds
CLOSE_TRY_AGAIN = 1013  # the node is full: "try again later"
CLOSE_MOVED = 4307  # after a `moved` message: reconnect where it says (cluster.CLOSE_MOVED)
NO_TABLE_PAGE = "There is no such table. Check the link, or start a new table in the lobby."
UNAVAILABLE_PAGE = (
    "This table is unavailable: the server could not rebuild it from its records. "
    "The other tables play on."
)


class SocketWire:
    """A Starlette WebSocket as an outbox's wire."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws

    async def send_text(self, text: str) -> None:
        await self.ws.send_text(text)

    async def close(self, code: int) -> None:
        await self.ws.close(code=code)


async def gone(request: Request, exc: Exception) -> Response:
    """A client that hung up in the middle of its request's body: nobody reads an answer, and
    it is no error of the server's (logged, it was a traceback a client could repeat at will)."""
    return Response(status_code=400)


def create_app(
    store: Store,
    limits: Limits | None = None,
    cluster: Cluster | None = None,
    shared: Shared | None = None,
    quiet_gc: bool = False,
) -> Starlette:
    """The server; with `cluster`, one node of several sharing a PostgreSQL database, and with
    `shared`, their lobby and limits shared through Redis; `quiet_gc` tunes the garbage
    collector of the process once the server has started (for `serve`'s own process)."""
    tables = Tables(store)
    if cluster is not None:
        tables.locator = lambda table_id: cluster.locate(tables, table_id)
    limits = Limits() if limits is None else limits
    connections = Connections(limits.connections_per_address)
    sockets = Sockets(limits.max_connections)
    players = Players(store)
    lobby = Lobby(tables, players, limits, shared)
    replays = Replays()
    analyses = analysis.Analyses()  # post-game analysis: a worker process, a bounded queue
    profiles = Profiles(store, STATIC, limits.ladder_games)
    joining = asyncio.Semaphore(1)
    accepting = asyncio.Semaphore(1)
    monitor = install(store, Monitor())  # /health, /ready, /metrics: this app's own registry
    monitor.count_tables(lambda: len(tables.live))
    monitor.count_analyses(analyses.stats)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        budget = logs.install()  # here: after uvicorn has set its logging up
        loop = asyncio.get_running_loop()
        if cluster is None:
            tables.restore_all()
            tables.start()
        else:  # a node takes its tables as they are claimed, and hands them over on SIGTERM
            await asyncio.to_thread(tables.load_finished)  # the lobby's newest finished
            keeping = loop.create_task(cluster.run(tables))
            _drain_on_sigterm(loop, cluster, tables)
        if shared is not None:  # the lobby and the limits of every node (Redis)
            tables.elsewhere = shared
            shared.report = lambda why: (monitor.degrade("redis", why) if why
                                         else monitor.recover("redis"))  # fmt: skip
            sharing = loop.create_task(shared.run(tables.shared_lines))
        monitor.restored()  # ready (/ready) once the tables are restored
        if quiet_gc:  # the server's own process (`serve`), not a test's
            _quiet_collector()
        every = os.environ.get("JAMAICA_SWEEP_EVERY", "")  # seconds between idle tables' sweeps
        sweeper = loop.create_task(tables.sweep(float(every) if every.isdigit() else 60.0))
        yield
        sweeper.cancel()
        await tables.save_summaries()  # the finished tables' lines archived since the sweep
        if cluster is not None:
            keeping.cancel()
            if not cluster.draining:
                await cluster.drain(tables)
        if shared is not None:
            sharing.cancel()
            await shared.close()
        for t in tables.live.values():
            t.close()
        budget.flush()
        replays.close()
        analyses.close()
        close_bot_pool()

    def page(name: str) -> Any:
        async def endpoint(request: Request) -> Response:
            return FileResponse(str(STATIC / name), media_type="text/html")

        return endpoint

    def table_page(name: str) -> Any:
        """A table's page, or — once, clearly — a page saying there is no such table."""

        async def endpoint(request: Request) -> Response:
            table_id = request.path_params["table_id"]
            if table_id in tables.broken:
                return missing_page(503, UNAVAILABLE_PAGE)
            if cluster is not None:  # kept by any node: the page's socket finds which
                if await asyncio.to_thread(store.table, table_id) is None:
                    return missing_page(404, NO_TABLE_PAGE)
            elif await tables.get(table_id) is None:
                return missing_page(404, NO_TABLE_PAGE)
            return FileResponse(str(STATIC / name), media_type="text/html")

        return endpoint

    listed: list[Any] = [-1.0, -1, b""]  # when, after how many new tables, the list's JSON
    asked = deque[float]()  # when the list was asked for, in the last second

    async def list_tables(request: Request) -> Response:
        """The lobby's list, as it is now — but in a burst of readers (more than LIST_BUSY a
        second), one list for all of them within LIST_FRESH seconds, or until a new table: it is
        the dearest read (about 5 ms for hundreds of tables), and a review's 113 a second from
        many addresses slowed another table's answers fifty-fold."""
        now = time.monotonic()
        asked.append(now)
        while asked[0] < now - 1.0:
            asked.popleft()
        busy = len(asked) > LIST_BUSY
        if not busy or now - listed[0] > LIST_FRESH or listed[1] != tables.made:
            body = json.dumps(tables.summaries(), ensure_ascii=False, separators=(",", ":"))
            listed[:] = [now, tables.made, body.encode()]
        return Response(listed[2], media_type="application/json")

    async def create_table(request: Request) -> Response:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":  # a cross-site form can't send this without asking
            return http_error(request, 415, "send the table as JSON (Content-Type: "
                                            "application/json)")  # fmt: skip
        refused = await lobby.refuse_new_table(request)
        if refused is not None:
            return refused
        try:
            body = await read_body(request, limits.max_body)
        except TooLarge as e:
            count_refused("body_too_large")
            return http_error(request, 413, e, headers={"Connection": "close"})
        try:
            d = json.loads(body)
            if not isinstance(d, dict):
                raise ProtocolError("bad_request", "send a JSON object")
            seats = d.get("seats")
            if not isinstance(seats, list) or not all(isinstance(x, dict) for x in seats):
                raise ProtocolError("bad_request", "seats must be a list of {name, bot}")
            n = d.get("players", len(seats))
            config = Config(players=n, edition=d.get("edition", "2021"),
                            ghost_ship=d.get("ghost_ship"))  # fmt: skip
            specs: list[tuple[str, str | None] | dict[str, Any]] = []
            for x in seats:
                name, bot = x.get("name", ""), x.get("bot")
                if not isinstance(name, str) or (bot is not None and not isinstance(bot, str)):
                    raise ProtocolError(
                        "bad_request", "a seat's name and bot must be strings (bot null: human)"
                    )
                kind = x.get("kind")
                if kind is None:
                    specs.append((name, bot))
                elif kind in ("me", "open", "invite", "bot"):
                    specs.append({"kind": kind, "name": name, "bot": bot})
                else:
                    raise ProtocolError("bad_request", "a seat's kind is me, open, invite or bot")
            limit = d.get("seconds_per_decision")
            if limit is not None and (
                not isinstance(limit, int | float) or isinstance(limit, bool)
            ):
                raise ProtocolError("bad_request", "seconds_per_decision must be a number or null")
            creator = await players.by_key(request.headers.get(KEY_HEADER))
            is_rated, span = await _rated_settings(store, d, config, specs, limit, creator)
            table, tokens = await asyncio.to_thread(
                LiveTable.create, store, config, specs, limit, creator, is_rated, span
            )
        except StoreError as e:
            return http_error(request, 503, "the server could not store the table: {why}",
                              headers={"Retry-After": "10"}, why=e)  # fmt: skip
        except RecursionError:
            return http_error(request, 400, "the JSON is nested too deeply")
        except (ValueError, TypeError) as e:  # JSONDecodeError and UnicodeDecodeError too
            return http_error(request, 400, e)
        lobby.made(request, table)
        await rated.refresh(table)
        table.kick()
        base = str(request.base_url).rstrip("/")
        links = [  # the token in the fragment: never sent to a server, never in a Referer
            {"seat": i, "name": table.names[i], "bot": table.record.seats[i]["bot"],
             "kind": table.record.seats[i]["kind"],
             "url": None if tok is None else f"{base}/table/{table.id}#seat={i}&token={tok}",
             "token": tok}
            for i, tok in enumerate(tokens)
        ]  # fmt: skip
        return JSONResponse(
            {"id": table.id, "seats": links, "spectator_url": f"{base}/table/{table.id}"},
            status_code=201,
        )

    async def replay_step(request: Request) -> Response:
        """The public view of a game at step N (any game: only public information), worked out
        off the event loop and cached (`replays.Replays`)."""
        table_id = request.path_params["table_id"]
        if table_id in tables.broken:
            return http_error(request, 503, "this table is unavailable")
        table = await tables.find(table_id)
        if isinstance(table, str):  # several nodes: another one keeps it
            return moved(request, table)
        if table is None:
            return http_error(request, 404, "no such table")
        history = table.session.state.history
        try:
            step = int(request.query_params.get("step", str(len(history)))[:12])
        except ValueError:
            return http_error(request, 400, "step must be an integer")
        step = max(0, min(step, len(history)))
        try:
            part = await replays.step(table.id, table.session.config, table.names, history, step,
                                      lang_of(request))  # fmt: skip
        except (Busy, TimeoutError):
            return http_error(request, 503, "the server is busy with other replays: try again "
                              "in a moment", headers={"Retry-After": "2"})  # fmt: skip
        body = replay_response(step, len(history), table.names, part,
                               table.session.state.is_terminal())  # fmt: skip
        return Response(body, media_type="application/json")

    started = time.time()

    async def status(request: Request) -> Response:
        """How the server is doing, for its operator: tables, connections, the bots' queues and
        the replays (counts only: nothing about any player)."""
        live = tables.live.values()
        return JSONResponse({
            "uptime": round(time.time() - started),
            "tables": {"live": len(tables.live),
                       "unfinished": sum(not t.record.finished for t in live),
                       "archived": len(tables.paused_order) + tables.finished_stored,
                       "unavailable": len(tables.broken)},
            "connections": sockets.open,  # this node's WebSockets (with Redis too)
            "max_connections": sockets.cap,
            "watchers": sum(t.watchers() for t in live),
            "bots": bot_pool().stats(),
            "replays": {"waiting": replays.waiting, "computed": replays.computed,
                        "applied": replays.applied},
            "analyses": analyses.stats(),
            "refused": dict(monitor.refusals),  # by why: `health.REFUSALS`
        })  # fmt: skip

    async def board(request: Request) -> Response:
        return JSONResponse(board_layout())

    async def socket(ws: WebSocket) -> None:
        if not origin_allowed(ws.headers, limits.allowed_origins):
            count_refused("origin")
            await ws.close(CLOSE_POLICY)  # before accepting: the handshake is refused (403)
            return
        address = client_address(ws.client)
        async with accepting:  # as joining: one handshake at a time, after what waits
            await asyncio.sleep(0)
        await ws.accept()
        lang = lang_of(ws)  # the words it is sent (a hello may ask for others)
        outbox = Outbox(SocketWire(ws))  # every message to this client goes through it
        outbox.start()
        if not sockets.acquire():  # the node's cap, below its open-file limit
            log.warning("the server is full: %d WebSockets open (max-connections); new ones "
                        "are refused", sockets.cap)  # fmt: skip
            await full(ws, outbox, lang)
            return
        try:
            await counted_socket(ws, outbox, address, lang)
        finally:
            sockets.release()

    async def counted_socket(ws: WebSocket, outbox: Outbox, address: str, lang: str) -> None:
        """A socket within the node's cap: within its address's too, then played."""
        limit = limits.connections_per_address
        counted = None if shared is None else await shared.acquire(address, limit)
        if counted is False or (counted is None and not connections.acquire(address)):
            count_refused("connections")
            await refuse(ws, outbox, CLOSE_POLICY, "too_many_connections",
                         "at most {most} connections from one address", lang,
                         most=limit)  # fmt: skip
            return
        monitor.connections.inc()
        try:
            await play(ws, outbox, ws.path_params["table_id"], address, lang)
        finally:
            if counted and shared is not None:  # counted by every node, in Redis
                await shared.release(address)
            else:
                connections.release(address)
            monitor.connections.dec()

    async def full(ws: WebSocket, outbox: Outbox, lang: str) -> None:
        """The node is at its cap (or past 90%, for a spectator): said, then closed."""
        count_refused("server_full")
        await refuse(ws, outbox, CLOSE_TRY_AGAIN, "server_full",
                     "the server is full: try again in a minute", lang)  # fmt: skip

    async def refuse(
        ws: WebSocket, outbox: Outbox, code: int, reason: str, message: str, lang: str = "en",
        **values: Any,
    ) -> None:  # fmt: skip
        """Say why (`message`: English, a catalog message id, said in `lang`), then close (and
        wait for the close to leave: the handler ends after)."""
        outbox.put(error(reason, message, lang, **values))
        await outbox.drain()
        outbox.stop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(code), 1.0)

    async def play(ws: WebSocket, outbox: Outbox, table_id: str, address: str, lang: str) -> None:
        """One connection's messages, each answered: a table's answer, or an error (in the
        connection's language: `lang`, or what its hello asked for)."""
        if table_id in tables.broken:
            await refuse(ws, outbox, CLOSE_UNAVAILABLE, "unavailable",
                         "this table is unavailable: the server could not rebuild it",
                         lang)  # fmt: skip
            return
        found = await tables.find(table_id)
        if found is None:
            await refuse(ws, outbox, CLOSE_NO_TABLE, "no_table", "there is no such table", lang)
            return
        if not isinstance(found, LiveTable):  # another node keeps it: reconnect there
            outbox.put({"op": "moved", "v": 1, "to": found})
            await refuse(ws, outbox, CLOSE_MOVED, "moved", "this table is kept by another node",
                         lang)  # fmt: skip
            return
        table = found
        client: Client | None = None
        flood = Flood(limits)
        try:
            while not outbox.closed:
                try:  # a connection that never says hello is closed: it holds a socket for naught
                    wait = None if client is not None else limits.hello_seconds
                    frame = await asyncio.wait_for(ws.receive(), wait)
                except TimeoutError:
                    count_refused("no_hello")
                    await refuse(ws, outbox, CLOSE_POLICY, "no_hello",
                                 "no hello within {seconds} s: this connection is closed", lang,
                                 seconds=limits.hello_seconds)  # fmt: skip
                    break
                arrived = time.perf_counter()
                if frame["type"] == "websocket.disconnect":
                    break
                allowed = flood.allow()
                if allowed is None:
                    count_refused("flooding")
                    await refuse(ws, outbox, CLOSE_POLICY, "flooding",
                                 "too many messages: this connection is closed", lang)  # fmt: skip
                    break
                if not allowed:
                    count_refused("rate_limited")
                    outbox.put(error("rate_limited", "too many messages: at most {most} messages "
                                     "a second", lang, most=f"{limits.messages_per_second:g}"))
                    continue
                try:
                    text = frame.get("text")
                    if text is None:
                        raise ProtocolError("binary", "messages are text: JSON objects")
                    msg = parse(text)
                    if isinstance(msg, Hello):
                        if client is not None:
                            raise ProtocolError("already", "this connection has a seat already")
                        lang = msg.lang or lang
                        player = None if msg.key is None else await players.by_key(msg.key)
                        async with joining:  # one at a time, after what is already waiting:
                            await asyncio.sleep(0)  # a burst of joins never holds up a game
                        # (not holding the gate: a table busy with its disk holds up only itself)
                        client = await table.join(outbox, msg, player, address, lang)
                        if client.seat is None and sockets.crowded():  # the rest is players'
                            await full(ws, outbox, lang)
                            break
                    elif isinstance(msg, Act):
                        if client is None:
                            raise ProtocolError("no_hello", "say hello first")
                        await table.act(client, msg)
                        monitor.answered(arrived)
                        flood.refund()  # an accepted answer: the game paces those
                    elif isinstance(msg, Chat):
                        if client is None:
                            raise ProtocolError("no_hello", "say hello first")
                        await table.say(client, msg.text)
                    elif isinstance(msg, Back):
                        if client is None:
                            raise ProtocolError("no_hello", "say hello first")
                        await table.back(client)
                    elif isinstance(msg, Ping):
                        outbox.put({"op": "pong", "v": 1})
                except ProtocolError as e:
                    if e.code == "too_big":
                        count_refused("too_big")
                    outbox.put(refusal(e, lang))
                except (WebSocketDisconnect, RuntimeError):
                    raise
                except Exception:  # a bug must not take the table down: say so, log it
                    log.exception("error while handling a message on table %s", table.id)
                    outbox.put(error("internal", "the server failed on that message", lang))
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # the socket went away mid-send
            pass
        finally:
            outbox.stop()
            if client is not None:
                table.leave(client)

    analyse = analysis.endpoint(tables, players, analyses)
    routes = [
        Route("/", page("index.html")),
        Route("/table/{table_id}", table_page("table.html")),
        Route("/replay/{table_id}", table_page("replay.html")),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}/replay", replay_step),
        Route("/api/tables/{table_id}/analysis", analyse, methods=["POST"]),
        *lobby.routes(),
        *profiles.routes(),
        *language.routes(),
        Route("/api/board", board),
        Route("/api/status", status),
        *monitor.routes(store),
        WebSocketRoute("/ws/{table_id}", socket),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={ClientDisconnect: gone})  # fmt: skip
    app.state.tables = tables
    app.state.analyses = analyses
    app.state.monitor = monitor
    app.add_middleware(HttpBudget, per_second=limits.http_per_second, burst=limits.http_burst)
    app.add_middleware(SecurityHeaders)
    return app


GC_OLDEST = 100  # collections of the middle generation between two full ones (Python: 10)


def _stopped(signum: int, frame: object) -> None:
    """SIGTERM once the server has stopped: end the process normally (exit status 0)."""
    raise SystemExit(0)


def _quiet_collector() -> None:
    """Fewer, shorter pauses of the garbage collector: what the server holds once started (the
    code, the restored tables) is frozen out of every collection, and full collections, whose
    pause grows with every live connection and table, come ten times less often. Measured with
    `jamaica bench-server --paced` (docs/run-a-server.md)."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, GC_OLDEST)


async def _rated_settings(
    store: Store, d: dict[str, Any], config: Config, specs: list[Any], limit: float | None,
    creator: Player | None,
) -> tuple[bool, tuple[int, int] | None]:  # fmt: skip
    """A new table's `rated` and `within` (ValueError if they cannot be): whether it is rated,
    and the range of shown ratings it admits (the creator's ± within)."""
    is_rated = d.get("rated", False)
    if not isinstance(is_rated, bool):
        raise ProtocolError("bad_request", "rated is true or false")
    within = rated.check_within(d.get("within"))
    if not is_rated:
        if within is not None:
            raise ProtocolError(
                "bad_request", "only a rated table keeps its seats for players of a level"
            )
        return False, None
    rated.check_rated(specs, limit, creator)
    assert creator is not None
    if within is None:
        return True, None
    mine = (await rated.shown(store, [creator.id], config.edition))[creator.id]
    return True, (mine.display - within, mine.display + within)


def _drain_on_sigterm(loop: asyncio.AbstractEventLoop, cluster: Cluster, tables: Tables) -> None:
    """On SIGTERM a node first hands its tables over, then lets uvicorn stop as it would: a
    deploy interrupts no game (the clients reconnect through the front door)."""
    previous = signal.getsignal(signal.SIGTERM)

    async def drain_then_stop() -> None:
        await cluster.drain(tables)
        if callable(previous):
            previous(signal.SIGTERM, None)

    def on_sigterm(signum: int, frame: Any) -> None:
        loop.call_soon_threadsafe(lambda: spawn(drain_then_stop()))

    signal.signal(signal.SIGTERM, on_sigterm)


def missing_page(status: int, message: str) -> Response:
    title = "no such table" if status == 404 else "table unavailable"
    body = (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>Jamaica — {title}</title>\n"
        '<link rel="stylesheet" href="/static/style.css">\n<link rel="icon" href="data:,">\n'
        '</head>\n<body>\n<header><h1>Jamaica</h1><a href="/">lobby</a></header>\n'
        f'<main><p class="panel" id="missing">{html.escape(message)}</p></main>\n'
        "</body>\n</html>\n"
    )
    return HTMLResponse(body, status_code=status)


@dataclass(frozen=True)
class Node:
    """`--node NAME`: this server is one node of several (needs PostgreSQL)."""

    name: str
    address: str  # where clients reach this node: a proxy route (/node/NAME) or http://host:port
    lease: float = 10.0
    redis: str | None = None  # redis://…: the lobby and the limits shared by every node


def serve(
    host: str, port: int, db: str, limits: Limits | None = None, node: Node | None = None
) -> None:
    import uvicorn

    limits = Limits() if limits is None else limits
    room = open_files_room()
    if room is not None and room < limits.max_connections:
        print(f"The open-file limit leaves room for {room} WebSockets: max-connections is "
              f"{room}, not {limits.max_connections} (raise `ulimit -n` for more)", flush=True)
        limits = dataclasses.replace(limits, max_connections=room)
    store = open_store(db)  # a StoreError (one line) if it cannot be used
    cluster = None
    if node is not None:
        from .cluster import Cluster
        from .store_pg import PostgresStore

        if not isinstance(store, PostgresStore):
            raise StoreError("--node needs a PostgreSQL database (--db postgresql://…)")
        if not (node.name and len(node.name) <= 64 and node.name.replace("-", "").isalnum()):
            raise StoreError("--node must be 1 to 64 letters, digits or dashes")
        cluster = Cluster(store, node.name, node.address, node.lease)
    shared = None
    if node is not None and node.redis:
        from .shared import Shared

        shared = Shared(node.redis, node.name)
    where = f"node {node.name} of the service on {safe_url(db)}" if node else f"games kept in {db}"
    print(f"Jamaica is served on http://{host}:{port}/ ({where})", flush=True)
    trusted = ",".join(limits.trusted_proxies)
    # No per-message compression: updates are a few kilobytes, and compressing each one once
    # per connection would cost the server's CPU for every spectator (one encoding is shared).
    # uvicorn stops on SIGTERM, then raises it again with the handler found at its start: this
    # one, so that the process ends as a Python program does (its exit handlers release what the
    # worker pools held), with status 0, not killed by the signal.
    signal.signal(signal.SIGTERM, _stopped)
    from uvicorn.config import LOGGING_CONFIG

    log_config = logs.timestamped(LOGGING_CONFIG)
    uvicorn.run(create_app(store, limits, cluster, shared, quiet_gc=True), host=host, port=port,
                http=guarded(limits),  # headers within 10 s, connections per address capped
                ws_max_size=MAX_MESSAGE * 4, ws_per_message_deflate=False, log_level="warning",
                log_config=log_config,
                proxy_headers=bool(trusted),
                forwarded_allow_ips=trusted or None)  # fmt: skip
