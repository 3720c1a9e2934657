"""The words of the web pages in the reader's language (issue 26): `/i18n/catalog.json` answers
the catalog of the language asked for (`?lang=`, the reader's choice kept by the page), else the
best of the browser's `Accept-Language`."""

from __future__ import annotations

import json
from functools import cache

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..i18n import LANGUAGES, js_catalog, negotiate


@cache
def _body(lang: str) -> bytes:
    return json.dumps(js_catalog(lang), ensure_ascii=False).encode()


async def catalog(request: Request) -> Response:
    asked = request.query_params.get("lang", "")
    lang = asked if asked in LANGUAGES else negotiate(request.headers.get("accept-language"))
    return Response(_body(lang), media_type="application/json",
                    headers={"Vary": "Accept-Language", "Cache-Control": "no-cache"})  # fmt: skip


def routes() -> list[Route]:
    return [Route("/i18n/catalog.json", catalog)]
