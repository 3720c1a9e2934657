"""The words of the web pages in the reader's language (issue 26): `/i18n/catalog.json` answers
the catalog of the language asked for (`?lang=`, the reader's choice kept by the page), else the
best of the browser's `Accept-Language`. `lang_of` is that choice for any request or WebSocket;
`said` an error's words in it (a `ProtocolError`'s message and values, or a message id)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..i18n import LANGUAGES, Words, js_catalog, negotiate
from .protocol import ProtocolError


def lang_of(conn: HTTPConnection) -> str:
    """The reader's language: `?lang=` if we speak it, else their `Accept-Language`."""
    asked = conn.query_params.get("lang", "")
    return asked if asked in LANGUAGES else negotiate(conn.headers.get("accept-language"))


def said(lang: str, message: str | Exception, **values: Any) -> str:
    """An error's words in `lang`: a ProtocolError's, or a message id (English) with values."""
    if isinstance(message, ProtocolError):
        return message.words(lang)
    return Words(lang)(str(message), **values)


def http_error(
    conn: HTTPConnection, status: int, message: str | Exception,
    headers: dict[str, str] | None = None, reason: str | None = None, **values: Any,
) -> JSONResponse:  # fmt: skip
    """`{"error": …}` in the reader's language (`message`: English, a catalog message id), and
    `"reason"` for programs when one is given."""
    body = {"error": said(lang_of(conn), message, **values)}
    if reason is not None:
        body["reason"] = reason
    return JSONResponse(body, status_code=status, headers=headers)


@cache
def _body(lang: str) -> bytes:
    return json.dumps(js_catalog(lang), ensure_ascii=False).encode()


async def catalog(request: Request) -> Response:
    return Response(_body(lang_of(request)), media_type="application/json",
                    headers={"Vary": "Accept-Language", "Cache-Control": "no-cache"})  # fmt: skip


def routes() -> list[Route]:
    return [Route("/i18n/catalog.json", catalog)]
