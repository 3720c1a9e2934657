"""What a browser is told and checked for: security headers on every response, the WebSocket's
Origin, and request bodies read no further than their cap."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .health import count_refused
from .limits import address_key, forget

# The pages load their scripts, styles and images from this server only (no inline script or
# style attribute), talk to it only (fetch and the WebSocket: 'self' covers ws:/wss:), and may not
# be framed.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """A pure ASGI middleware: the HEADERS on every HTTP response (a WebSocket has none)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in HEADERS if k not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def not_json(request: Request) -> bool:
    """Whether a write says its body is something else than JSON. A cross-site form (or a
    "simple" cross-site fetch) can only send a form's types or text/plain without the browser
    asking the server first, so the writes take `application/json`, or no type at all (no
    body: nothing a form can send)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "":  # no type: only with no body (a fetch of a Blob sends a body and no type)
        sized = request.headers.get("content-length", "0").strip() not in ("", "0")
        return sized or "transfer-encoding" in request.headers
    return kind != "application/json"


def origin_allowed(headers: Any, allowed: Iterable[str]) -> bool:
    """A WebSocket's Origin is this server's own (the Host it was asked for), or one allowed.
    No Origin at all is not a browser (which always sends it), so no cross-site risk."""
    origin: str | None = headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/").lower()
    allowed = {a.rstrip("/").lower() for a in allowed}
    if "*" in allowed or origin in allowed:
        return True
    host = str(headers.get("host") or "").lower()
    scheme, sep, netloc = origin.partition("://")
    if not sep or scheme not in ("http", "https") or not host:
        return False
    default = {"http": ":80", "https": ":443"}[scheme]
    return netloc.removesuffix(default) == host.removesuffix(default)


WRITE_COST = 10  # a request that changes something (POST…) costs this many reads
SOCKET_COST = 5  # a WebSocket handshake: a session, and the whole state sent to it
# (A replay step costs a read: the replay page finds each round's first step by asking for about
# a hundred steps; the steps are worked out in a worker process and cached.)


class HttpBudget:
    """A pure ASGI middleware: every request and WebSocket handshake from one address takes from
    that address's token bucket (`per_second` sustained, `burst` at once); a read costs 1, a
    WebSocket handshake SOCKET_COST, a write WRITE_COST. Over budget: 429 with
    Retry-After (a WebSocket is refused before it opens). The buckets are bounded: quiet
    addresses are forgotten."""

    def __init__(self, app: ASGIApp, per_second: float, burst: int) -> None:
        self.app = app
        self.per_second = per_second
        self.burst = float(burst)
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)
        self.refused = 0

    def take(self, address: str, cost: float, now: float | None = None) -> float:
        """0 if the request may go on (its cost is taken), else the seconds to wait."""
        now = time.monotonic() if now is None else now
        tokens, when = self.buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.per_second)
        if tokens < cost:
            self.buckets[address] = (tokens, now)
            return (cost - tokens) / self.per_second
        self.buckets[address] = (tokens - cost, now)
        full = self.burst / self.per_second  # seconds to refill: then it is as good as new
        forget(self.buckets, 50_000, lambda v: now - v[1] > full)
        return 0.0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = address_key(client[0] if client else None)
        if scope["type"] == "websocket":
            cost = SOCKET_COST  # a session: the whole state is sent
        else:
            cost = 1 if scope["method"] in ("GET", "HEAD", "OPTIONS") else WRITE_COST
        wait = self.take(address, cost)
        if not wait:
            await self.app(scope, receive, send)
            return
        self.refused += 1
        count_refused("http_budget")
        retry = str(max(1, math.ceil(wait)))
        body = json.dumps({"error": f"too many requests from your address: try again in "
                                    f"{retry} s"}).encode()  # fmt: skip
        headers = [(b"content-type", b"application/json"),
                   (b"content-length", str(len(body)).encode()),
                   (b"retry-after", retry.encode())]  # fmt: skip
        kind = "http"
        if scope["type"] == "websocket":  # refused before it opens: the same 429, if the
            if "websocket.http.response" not in scope.get("extensions", {}):  # server can say it
                await send({"type": "websocket.close", "code": 1008})
                return
            kind = "websocket.http"
        await send({"type": f"{kind}.response.start", "status": 429, "headers": headers})
        await send({"type": f"{kind}.response.body", "body": body})


class TooLarge(ValueError):
    pass


async def read_body(request: Request, cap: int) -> bytes:
    """The body, refused (TooLarge) by its Content-Length before reading a byte of it, or as soon
    as a streamed (chunked) body grows past `cap`."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > cap):
        raise TooLarge(f"requests are at most {cap} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > cap:
            raise TooLarge(f"requests are at most {cap} bytes")
    return bytes(body)
