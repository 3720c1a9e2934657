"""The lobby's HTTP interface: players, open seats, starting, rematches, a player's tables and
history, a table's chat (docs/lobby.md). A player is known by the `X-Player-Key` header."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from ..bots import parse_spec
from ..rules import CHANCE, EDITIONS, Config
from . import history, rated, seating, standings
from .chat import as_message
from .health import count_refused
from .language import http_error
from .limits import Limits, PerMinute, client_address
from .players import Player, Players
from .protocol import ProtocolError
from .registry import PRIVATE, Tables
from .security import TooLarge, not_json, read_body
from .standings import Shown
from .store import StoreError
from .tables import LiveTable

KEY_HEADER = "x-player-key"
ERRORS = {"taken": 409, "seated": 409, "started": 409, "not_creator": 403, "bad_token": 403}


def fail(request: Request, message: str | Exception, status: int = 400, **values: Any) -> Response:
    """A person's error, in their language (`message`: English, a catalog message id)."""
    return http_error(request, status, message, **values)


def moved(request: Request, to: str) -> Response:
    """A request about a table another node keeps: 307 there (method and body kept), or 503 if
    no node can take it this moment (a node handing its tables over)."""
    if not to:
        return http_error(request, 503, "this table is moving to another node: try again",
                          headers={"Retry-After": "1"})  # fmt: skip
    query = f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse(f"{to.rstrip('/')}{request.url.path}{query}", status_code=307)


class Elsewhere(Exception):
    """The table is kept by another node (its address; '' if none can say this moment)."""

    def __init__(self, to: str) -> None:
        super().__init__(to)
        self.to = to


class Counter(Protocol):
    """Events per address shared by every node (`shared.Shared.count`); `degraded` says why the
    count cannot be shared now (None: it is)."""

    degraded: str | None

    async def count(
        self, what: str, address: str, limit: int, window: int = 60
    ) -> float | None: ...


class Lobby:
    def __init__(
        self, tables: Tables, players: Players, limits: Limits, shared: Counter | None = None
    ) -> None:
        self.tables = tables
        self.players = players
        self.limits = limits
        self.created = PerMinute(limits.tables_per_minute)  # players made, per address
        self.tables_made = PerMinute(limits.tables_per_minute)  # tables made, per address
        self.shared = shared

    async def too_soon(self, what: str, mine: PerMinute, address: str) -> float | None:
        """None if `address` may create one more `what` now, else the seconds to wait: counted
        over every node when they share Redis, else (or while it is away) by this node."""
        if self.shared is not None:
            wait = await self.shared.count(what, address, mine.limit)
            if wait is not None:
                return wait
            if self.shared.degraded is None:
                return None
        return mine.wait(address)

    async def refuse_new_table(self, request: Request) -> Response | None:
        """Why the request's address may not make a table now — the caps every way to make one
        goes through (a new table, play-now, a rematch: a review made 181 tables a minute by
        rematches and 36 rated tables in a second by play-now) — or None if it may."""
        address = client_address(request.client)
        limits = self.limits
        wait = await self.too_soon("tables", self.tables_made, address)
        if wait is not None:
            count_refused("new_tables")
            return http_error(
                request, 429, "at most {most} new tables a minute from one address: try again "
                "in {wait} s", headers={"Retry-After": str(max(1, round(wait)))},
                most=limits.tables_per_minute, wait=f"{wait:.0f}",
            )  # fmt: skip
        mine = self.tables.unfinished_from(address)
        if mine >= limits.tables_per_address:
            count_refused("tables_per_address")
            return http_error(
                request, 429, "{mine} unfinished tables were created from your address, its "
                "limit: finish or leave one first", headers={"Retry-After": "600"}, mine=mine,
            )  # fmt: skip
        if sum(not t.record.finished for t in self.tables.live.values()) >= limits.max_tables:
            count_refused("max_tables")
            return http_error(
                request, 503, "the server has {most} unfinished tables, its limit: try again "
                "later", headers={"Retry-After": "60"}, most=limits.max_tables,
            )  # fmt: skip
        return None

    def made(self, request: Request, table: LiveTable) -> None:
        """A table the request's address made: in memory, and counted against its caps."""
        address = client_address(request.client)
        self.tables_made.add(address)
        self.tables.add(table)
        self.tables.by_address[table.id] = address

    # --- helpers ----------------------------------------------------------------------------------
    async def player(self, request: Request) -> Player | None:
        return await self.players.by_key(request.headers.get(KEY_HEADER))

    async def body(self, request: Request) -> dict[str, Any]:
        """The request's JSON object (empty if none); ValueError/TooLarge if it is not one."""
        raw = await read_body(request, self.limits.max_body)
        if not raw.strip():
            return {}
        d = json.loads(raw)
        if not isinstance(d, dict):
            raise ProtocolError("bad_request", "send a JSON object")
        return d

    async def table(self, request: Request) -> LiveTable | None:
        """The table of the request's path; Elsewhere if another node keeps it."""
        found = await self.tables.find(request.path_params["table_id"])
        if isinstance(found, str):
            raise Elsewhere(found)
        return found

    def seated(self, player: Player) -> list[tuple[LiveTable, int]]:
        out = []
        for table in reversed(list(self.tables.live.values())):
            seat = table.seat_of(player)
            reserved = [
                i
                for i, x in enumerate(table.record.seats)
                if seating.kind(x) == "reserved" and x.get("player") == player.id
            ]
            if seat is not None:
                out.append((table, seat))
            elif reserved:
                out.append((table, reserved[0]))
        return out

    def handler(
        self, fn: Callable[[Request, Player], Awaitable[Response]]
    ) -> Callable[[Request], Awaitable[Response]]:
        """An endpoint for a player: 401 without a valid key; bad input is a 400 with why."""

        async def endpoint(request: Request) -> Response:
            if request.method == "POST" and not_json(request):
                return fail(request, "send JSON (Content-Type: application/json)", 415)
            player = await self.player(request)
            if player is None:
                return fail(request, "send your player key (create a player first)", 401)
            try:
                return await fn(request, player)
            except Elsewhere as e:
                return moved(request, e.to)
            except TooLarge as e:
                count_refused("body_too_large")
                return fail(request, e, 413)
            except ProtocolError as e:
                return fail(request, e, ERRORS.get(e.code, 400))
            except StoreError as e:
                return fail(request, "the server could not store that: {why}", 503, why=e)
            except RecursionError:
                return fail(request, "the JSON is nested too deeply")
            except (ValueError, TypeError) as e:
                return fail(request, e)

        return endpoint

    # --- players ----------------------------------------------------------------------------------
    async def create_player(self, request: Request) -> Response:
        if not_json(request):
            return fail(request, "send JSON (Content-Type: application/json)", 415)
        address = client_address(request.client)
        wait = await self.too_soon("players", self.created, address)
        if wait is not None:
            count_refused("new_tables")
            return fail(request, "too many new players and tables from one address: try again "
                        "in {wait} s", 429, wait=f"{wait:.0f}")  # fmt: skip
        try:
            d = await self.body(request)
            player, key = await self.players.create(d.get("name", ""))
        except TooLarge as e:
            count_refused("body_too_large")
            return fail(request, e, 413)
        except StoreError as e:
            return fail(request, "the server could not store that: {why}", 503, why=e)
        except (ValueError, TypeError, RecursionError) as e:
            return fail(request, e if str(e) else "send a JSON object")
        self.created.add(address)
        return JSONResponse({"id": player.id, "name": player.name, "key": key}, status_code=201)

    async def me(self, request: Request, player: Player) -> Response:
        mine = []
        for table, seat in self.seated(player):
            line = table.summary()
            s = table.session.state
            line["seat"] = seat
            line["creator"] = table.record.creator == player.id
            line["pending"] = seating.kind(table.record.seats[seat]) == "reserved"
            waiting = table.record.started and not s.is_terminal() and s.current_player() != CHANCE
            line["your_turn"] = waiting and seat in table.waiting_for()
            mine.append(line)
        for line in self.tables.remote():  # tables other nodes keep
            seat = line.get("holders", {}).get(player.id)
            if seat is None or (line.get("archived") and line["status"] == "finished"):
                continue  # archived finished: read from the database, below
            public = {k: v for k, v in line.items() if k not in PRIVATE}
            seat_line = line["seats"][seat] if seat < len(line["seats"]) else {}
            mine.append({**public, "seat": seat, "creator": False,
                         "pending": seat_line.get("kind") == "reserved",
                         "your_turn": seat in line.get("waiting", [])})  # fmt: skip
        paused = self.tables.archived_by_player.get(player.id, {})  # this player's only
        listed = {x["id"] for x in mine}  # kept by a node now: listed from there
        mine += sorted(({**self.tables.archived_summaries[t], "status": "archived", "seat": seat,
                         "pending": False, "your_turn": False, "creator": False}
                        for t, seat in paused.items() if t not in listed),
                       key=lambda x: -x["created"])  # untimed and idle: it opens when visited
        finished, record = await asyncio.to_thread(history.mine, self.tables.store, player.id,
                                                 known=self.tables.archived_summaries)
        mine += [{**line, "pending": False, "your_turn": False, "creator": False}
                 for line in finished if line["id"] not in listed]  # fmt: skip
        stats = record.to_dict()  # every finished game, the listed and the older ones
        found = await asyncio.to_thread(standings.editions, self.tables.store, player.id)
        ratings = {e: Shown.of(r).to_dict() for e, r in found.items()}  # "play now", ranges
        return JSONResponse({"id": player.id, "name": player.name, "tables": mine, "stats": stats,
                             "ratings": ratings})  # fmt: skip

    async def rename(self, request: Request, player: Player) -> Response:
        d = await self.body(request)
        renamed = await self.players.rename(player, d.get("name", ""))
        return JSONResponse({"id": renamed.id, "name": renamed.name})

    # --- seats ------------------------------------------------------------------------------------
    async def sit(self, request: Request, player: Player) -> Response:
        table = await self.table(request)
        if table is None:
            return fail(request, "no such table", 404)
        d = await self.body(request)
        seat = d.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ProtocolError("bad_request", "seat must be a seat number")
        if table.record.rated:
            edition = table.record.config["edition"]
            why = rated.refusal(table, (await rated.shown(table.store, [player.id],
                                                         edition))[player.id])  # fmt: skip
            if why is not None:
                return fail(request, why, 403)
        await table.sit(player, seat)
        await rated.refresh(table)
        return JSONResponse({"seat": seat})

    async def play_now(self, request: Request, player: Player) -> Response:
        """Sit the player at the open rated table of their level (the seated players' mean rating
        closest to theirs), or make one with open seats for others to join."""
        d = await self.body(request)
        edition = d.get("edition", "2021")
        if edition not in EDITIONS:
            raise ProtocolError("bad_request", "edition is one of {editions}",
                                editions=", ".join(EDITIONS))  # fmt: skip
        players = d.get("players")
        if players is not None and (not isinstance(players, int) or isinstance(players, bool)
                                    or not 2 <= players <= 6):  # fmt: skip
            raise ProtocolError("bad_request", "players is 2 to 6 (or null: any)")
        mine = (await rated.shown(self.tables.store, [player.id], edition))[player.id]
        for _ in range(3):  # a seat taken meanwhile: the next closest
            found = rated.closest(list(self.tables.live.values()), player, mine, edition, players)
            if found is None:
                break
            table, seat = found
            try:
                await table.sit(player, seat)
            except ProtocolError:
                continue
            await rated.refresh(table)
            return JSONResponse({"id": table.id, "seat": seat, "created": False})
        config = Config(players=players or 2, edition=edition)
        specs = [{"kind": "me"}] + [{"kind": "open"}] * (config.players - 1)
        refused = await self.refuse_new_table(request)
        if refused is not None:
            return refused
        table, _ = await asyncio.to_thread(LiveTable.create, self.tables.store, config, specs,
                                           rated.PLAY_NOW_SECONDS, player, True)  # fmt: skip
        self.made(request, table)
        await rated.refresh(table)
        return JSONResponse({"id": table.id, "seat": 0, "created": True}, status_code=201)

    async def start(self, request: Request, player: Player) -> Response:
        table = await self.table(request)
        if table is None:
            return fail(request, "no such table", 404)
        d = await self.body(request)
        bot = d.get("bot", "greedy")
        if not isinstance(bot, str):
            raise ProtocolError("bad_request", "bot must be a bot's name")
        parse_spec(bot)
        if table.record.rated:
            return fail(request, "a rated table starts when players have taken every seat: "
                        "bots do not play rated games", 409)  # fmt: skip
        await table.start_now(player, bot)
        return JSONResponse({"status": table.status()})

    async def claim(self, request: Request, player: Player) -> Response:
        table = await self.table(request)
        if table is None:
            return fail(request, "no such table", 404)
        d = await self.body(request)
        seat, token = d.get("seat"), d.get("token")
        if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(token, str):
            raise ProtocolError("bad_request", "send the seat number and its token")
        await table.claim(player, seat, token[:64])
        return JSONResponse({"seat": seat})

    async def decline(self, request: Request, player: Player) -> Response:
        table = await self.table(request)
        if table is None:
            return fail(request, "no such table", 404)
        await table.decline(player)
        return JSONResponse({"status": table.status()})

    async def rematch(self, request: Request, player: Player) -> Response:
        """The same settings, seats rotated by one (each player moves one seat on: the order round
        the table changes); the players of the old table get their seats kept for them; the asker
        sits at once. The first Captain is not chosen here: the rules draw a random player
        (RULES.md, setup 4), and the new game draws again."""
        old = await self.table(request)
        if old is None:
            return fail(request, "no such table", 404)
        seat = old.seat_of(player)
        if seat is None:
            return fail(request, "only a player of this table can ask for a rematch", 403)
        if old.status() != "finished":
            return fail(request, "the game is not over yet", 409)
        async with old.lock:  # one rematch per table, however many ask at once
            again = old.record.rematch
            if again is not None and await self.tables.get(again) is not None:
                return JSONResponse({"id": again})
            refused = await self.refuse_new_table(request)
            if refused is not None:
                return refused
            table = await self._rematch(old, player)
            self.made(request, table)
            old.offer_rematch(table.id, old.names[seat])
            await asyncio.to_thread(self.tables.store.update_table, old.record)
        table.kick()
        return JSONResponse({"id": table.id})

    async def _rematch(self, old: LiveTable, player: Player) -> LiveTable:
        n = len(old.record.seats)
        specs: list[dict[str, Any]] = []
        for i in range(n):
            was = old.record.seats[(i + 1) % n]
            k, holder = seating.kind(was), seating.holder(was)
            if k == "bot":
                specs.append({"kind": "bot", "bot": was["bot"], "name": was["name"]})
            elif holder == player.id:
                specs.append({"kind": "me"})
            elif holder is not None:
                specs.append({"kind": "reserved", "player": holder, "name": was["name"]})
            else:  # an invite nobody bound to a player: open to anyone
                specs.append({"kind": "open"})
        config = Config.from_dict(old.record.config)
        r = old.record
        span = (
            None if r.rating_low is None or r.rating_high is None else (r.rating_low, r.rating_high)
        )
        table, _ = await asyncio.to_thread(LiveTable.create, self.tables.store, config, specs,
                                           r.seconds_per_decision, player, r.rated,
                                           span)  # fmt: skip
        await rated.refresh(table)
        return table

    async def chat(self, request: Request) -> Response:
        try:
            table = await self.table(request)
        except Elsewhere as e:
            return moved(request, e.to)
        if table is None:
            return fail(request, "no such table", 404)
        return JSONResponse({"messages": [as_message(r) for r in table.chat]})

    def routes(self) -> list[Route]:
        h = self.handler
        return [
            Route("/api/players", self.create_player, methods=["POST"]),
            Route("/api/me", h(self.me), methods=["GET"]),
            Route("/api/me", h(self.rename), methods=["POST"]),
            Route("/api/tables/{table_id}/sit", h(self.sit), methods=["POST"]),
            Route("/api/play-now", h(self.play_now), methods=["POST"]),
            Route("/api/tables/{table_id}/start", h(self.start), methods=["POST"]),
            Route("/api/tables/{table_id}/claim", h(self.claim), methods=["POST"]),
            Route("/api/tables/{table_id}/decline", h(self.decline), methods=["POST"]),
            Route("/api/tables/{table_id}/rematch", h(self.rematch), methods=["POST"]),
            Route("/api/tables/{table_id}/chat", self.chat, methods=["GET"]),
        ]
