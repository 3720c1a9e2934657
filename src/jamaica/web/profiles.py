"""Public pages of rated play (issue 25): a player's profile, head-to-head, the ladder, and the
bots' ratings. JSON under `/api/…`, HTML pages that read it (`player.html`, `ladder.html`).

Every read runs in a thread, a few at a time: a burst of visitors waits its turn (and is told to
come back if the wait is long) instead of filling the thread pool the tables' commits need.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from importlib.resources.abc import Traversable
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ..ratings import bot_ratings
from ..rules import EDITIONS
from . import standings
from .store import Store, StoreError

READERS = 4  # profile and ladder reads at once
WAIT_SECONDS = 5.0  # a read waits this long for its turn, then is told to come back
_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


class Profiles:
    def __init__(self, store: Store, static: Traversable, ladder_games: int) -> None:
        self.store = store
        self.static = static
        self.ladder_games = ladder_games
        self.readers = asyncio.Semaphore(READERS)

    async def _read(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            await asyncio.wait_for(self.readers.acquire(), WAIT_SECONDS)
        except TimeoutError:
            raise _Busy from None
        try:
            return await asyncio.to_thread(fn, self.store, *args)
        finally:
            self.readers.release()

    async def _fetch(self, fn: Callable[..., Any], *args: Any) -> Any:
        """What `fn(store, *args)` read, or the Response saying why there is nothing."""
        try:
            found = await self._read(fn, *args)
        except _Busy:
            return JSONResponse({"error": "the server is busy: try again in a moment"},
                                status_code=503, headers={"Retry-After": "2"})  # fmt: skip
        except StoreError as e:
            return JSONResponse({"error": f"the server cannot read its records now ({e})"},
                                status_code=503, headers={"Retry-After": "10"})  # fmt: skip
        if found is None:
            return JSONResponse({"error": "no such player"}, status_code=404)
        return found

    async def _answer(self, fn: Callable[..., Any], *args: Any) -> Response:
        found = await self._fetch(fn, *args)
        return found if isinstance(found, Response) else JSONResponse(found)

    async def player(self, request: Request) -> Response:
        player_id = request.path_params["player_id"]
        if not _ID.fullmatch(player_id):
            return JSONResponse({"error": "no such player"}, status_code=404)
        return await self._answer(standings.profile, player_id)

    async def versus(self, request: Request) -> Response:
        a, b = request.path_params["player_id"], request.path_params["other_id"]
        if not (_ID.fullmatch(a) and _ID.fullmatch(b)):
            return JSONResponse({"error": "no such player"}, status_code=404)
        return await self._answer(standings.versus, a, b)

    async def ladder(self, request: Request) -> Response:
        edition = request.query_params.get("edition", "2021")
        if edition not in EDITIONS:
            return JSONResponse({"error": f"edition is one of {', '.join(EDITIONS)}"},
                                status_code=400)  # fmt: skip
        found = await self._fetch(standings.ladder, edition, self.ladder_games)
        if isinstance(found, Response):
            return found
        return JSONResponse({"edition": edition, "min_games": self.ladder_games,
                             "players": found, "bots": bots_shown(edition)})  # fmt: skip

    async def bots(self, request: Request) -> Response:
        return JSONResponse({e: bots_shown(e) for e in EDITIONS})

    def page(self, name: str) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            return FileResponse(str(self.static / name), media_type="text/html")

        return endpoint

    def routes(self) -> list[Route]:
        return [
            Route("/player/{player_id}", self.page("player.html")),
            Route("/ladder", self.page("ladder.html")),
            Route("/rules", self.page("rules.html")),
            Route("/api/players/{player_id}", self.player),
            Route("/api/players/{player_id}/versus/{other_id}", self.versus),
            Route("/api/ladder", self.ladder),
            Route("/api/ratings/bots", self.bots),
        ]


class _Busy(Exception):
    pass


def bots_shown(edition: str) -> list[dict[str, Any]]:
    """Each bot level's measured rating in an edition, as the pages show ratings."""
    return [{"bot": level, **standings.Shown.of(r).to_dict()}
            for level, r in bot_ratings(edition).items()]  # fmt: skip

