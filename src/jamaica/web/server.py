"""`jamaica serve`: the game server (Starlette on uvicorn) — lobby, tables, WebSockets, replays."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..rules import Config, new_game
from .layout import board_layout
from .protocol import MAX_MESSAGE, Act, Hello, Ping, ProtocolError, error, parse
from .store import SQLiteStore, Store
from .tables import Client, LiveTable

log = logging.getLogger("jamaica.web")
STATIC = resources.files("jamaica.web") / "static"
MAX_BODY = 16_384


class Tables:
    """Every table of this server, rebuilt from the store at start."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.live: dict[str, LiveTable] = {}

    def restore_all(self) -> None:
        for record in self.store.tables():
            self.live[record.id] = LiveTable.restore(record, self.store)

    def start(self) -> None:
        for table in self.live.values():
            table.kick()


class SocketConn:
    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send_text(json.dumps(message, separators=(",", ":")))


def create_app(store: Store) -> Starlette:
    tables = Tables(store)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        tables.restore_all()
        tables.start()
        yield
        for t in tables.live.values():
            t.close()

    def page(name: str) -> Any:
        async def endpoint(request: Request) -> Response:
            return FileResponse(str(STATIC / name), media_type="text/html")

        return endpoint

    async def list_tables(request: Request) -> Response:
        return JSONResponse([t.summary() for t in reversed(list(tables.live.values()))])

    async def create_table(request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_BODY:
            return JSONResponse({"error": "request too large"}, status_code=413)
        try:
            d = json.loads(body)
            if not isinstance(d, dict):
                raise ValueError("send a JSON object")
            seats = d.get("seats")
            if not isinstance(seats, list) or not all(isinstance(x, dict) for x in seats):
                raise ValueError("seats must be a list of {name, bot}")
            players = d.get("players", len(seats))
            config = Config(players=players, edition=d.get("edition", "2021"),
                            ghost_ship=d.get("ghost_ship"))  # fmt: skip
            pairs = []
            for x in seats:
                name, bot = x.get("name", ""), x.get("bot")
                if not isinstance(name, str) or (bot is not None and not isinstance(bot, str)):
                    raise ValueError("a seat's name and bot must be strings (bot null: human)")
                pairs.append((name, bot))
            limit = d.get("seconds_per_decision")
            if limit is not None and (
                not isinstance(limit, int | float) or isinstance(limit, bool)
            ):
                raise ValueError("seconds_per_decision must be a number or null")
            table, tokens = LiveTable.create(store, config, pairs, limit)
        except (ValueError, TypeError, json.JSONDecodeError) as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        tables.live[table.id] = table
        table.kick()
        base = str(request.base_url).rstrip("/")
        links = [
            {"seat": i, "name": table.names[i], "bot": table.record.seats[i]["bot"],
             "url": None if tok is None else f"{base}/table/{table.id}?seat={i}&token={tok}",
             "token": tok}
            for i, tok in enumerate(tokens)
        ]  # fmt: skip
        return JSONResponse(
            {"id": table.id, "seats": links, "spectator_url": f"{base}/table/{table.id}"},
            status_code=201,
        )

    async def replay_step(request: Request) -> Response:
        """The public view of a game at step N (any game: only public information)."""
        table = tables.live.get(request.path_params["table_id"])
        if table is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        history = table.session.state.history
        try:
            step = int(request.query_params.get("step", len(history)))
        except ValueError:
            return JSONResponse({"error": "step must be an integer"}, status_code=400)
        step = max(0, min(step, len(history)))
        s = new_game(table.session.config)
        for a in history[:step]:
            s.apply(a)
        return JSONResponse({
            "step": step, "steps": len(history), "names": table.names,
            "view": s.view(None), "events": [e["text"] for e in s.events_for(None, table.names)],
        })  # fmt: skip

    async def board(request: Request) -> Response:
        return JSONResponse(board_layout())

    async def socket(ws: WebSocket) -> None:
        table = tables.live.get(ws.path_params["table_id"])
        await ws.accept()
        conn = SocketConn(ws)
        if table is None:
            await conn.send(error("no_table", "there is no such table"))
            await ws.close(code=4404)
            return
        client: Client | None = None
        try:
            while True:
                raw = await ws.receive_text()
                try:
                    msg = parse(raw)
                    if isinstance(msg, Hello):
                        if client is not None:
                            raise ProtocolError("already", "this connection has a seat already")
                        client = await table.join(conn, msg)
                    elif isinstance(msg, Act):
                        if client is None:
                            raise ProtocolError("no_hello", "say hello first")
                        await table.act(client, msg)
                    elif isinstance(msg, Ping):
                        await conn.send({"op": "pong", "v": 1})
                except ProtocolError as e:
                    await conn.send(error(e.code, str(e)))
                except (WebSocketDisconnect, RuntimeError):
                    raise
                except Exception:  # a bug must not take the table down: say so, log it
                    log.exception("error while handling a message on table %s", table.id)
                    await conn.send(error("internal", "the server failed on that message"))
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # the socket went away mid-send
            pass
        finally:
            if client is not None:
                table.leave(client)

    routes = [
        Route("/", page("index.html")),
        Route("/table/{table_id}", page("table.html")),
        Route("/replay/{table_id}", page("replay.html")),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}/replay", replay_step),
        Route("/api/board", board),
        WebSocketRoute("/ws/{table_id}", socket),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.tables = tables
    return app


def serve(host: str, port: int, db: str) -> None:
    import uvicorn

    store = SQLiteStore.from_url(db)
    print(f"Jamaica is served on http://{host}:{port}/ (games kept in {db})", flush=True)
    uvicorn.run(create_app(store), host=host, port=port, ws_max_size=MAX_MESSAGE * 4,
                log_level="warning")  # fmt: skip
