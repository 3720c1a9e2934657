"""What a browser is told and checked for: security headers on every response, the WebSocket's
Origin, and request bodies read no further than their cap."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
