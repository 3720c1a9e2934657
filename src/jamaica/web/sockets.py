"""The server's TCP connections, bounded before any request is read: uvicorn holds a connection
that never sends a request, or sends its headers a line at a time, for ever, and every one holds
an open file. A review opened 1,100 such sockets from one address under `ulimit -n 1024`: the
server held 1,003 and answered nothing, `/health` included.

`guarded(limits)` is uvicorn's HTTP protocol with two bounds more:

- **a request's headers within HEADER_SECONDS** of the connection (or the connection is closed);
  an idle connection between two requests is uvicorn's own `timeout_keep_alive`;
- **at most `2 × connections_per_address` (and at least 64) connections from one peer address**
  (an IPv6 peer's /64, as for every per-address limit) at once, its WebSockets included until
  they are upgraded (then `connections_per_address` counts them, in the app); over it a
  connection is closed at once. The trusted proxies' connections are not capped: every client
  behind a proxy comes through its address (the proxy caps them).
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
from collections.abc import Callable
from typing import Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .limits import Connections, Limits, address_key

HEADER_SECONDS: Final = float(os.environ.get("JAMAICA_HEADER_SECONDS", 10))
CONNECTIONS_FLOOR: Final = 64  # a browser opens about 6 at once; a low WebSocket cap keeps these


def counted_as(limits: Limits) -> Callable[[str], str | None]:
    """The key a peer's connections are counted by: `address_key` (an IPv6 subscriber's whole
    /64 is one), or None if they are not capped (a trusted proxy, a Unix socket)."""
    proxies = [ipaddress.ip_network(p, strict=False) for p in limits.trusted_proxies if p != "*"]
    any_proxy = "*" in limits.trusted_proxies

    def key(host: str) -> str | None:
        if any_proxy:
            return None
        try:
            address = ipaddress.ip_address(host.split("%")[0])
        except ValueError:  # not an IP address (a Unix socket): nothing to count by
            return None
        return None if any(address in net for net in proxies) else address_key(host)

    return key


def guarded(limits: Limits) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class (httptools) with the bounds above, for `limits`."""
    cap = max(CONNECTIONS_FLOOR, 2 * limits.connections_per_address)
    open_from = Connections(cap)  # by peer address, the connections not yet upgraded
    key_of = counted_as(limits)

    class Guarded(HttpToolsProtocol):
        _counted: str | None = None
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            key = key_of(self.client[0] if self.client else "")
            if key is not None:
                if not open_from.acquire(key):
                    transport.close()
                    return
                self._counted = key
            self._deadline = self.loop.call_later(HEADER_SECONDS, self._too_slow)

        def _too_slow(self) -> None:
            """No request's headers yet: the connection is closed (not an upgraded one)."""
            self._deadline = None
            if self.cycle is None and self.transport.get_protocol() is self:
                self.transport.close()

        def _release(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            key, self._counted = self._counted, None
            if key is not None:
                open_from.release(key)

        def handle_websocket_upgrade(self) -> None:
            super().handle_websocket_upgrade()
            self._release()  # the WebSocket protocol has the transport now: the app counts it

        def connection_lost(self, exc: Exception | None) -> None:
            self._release()
            super().connection_lost(exc)

    return Guarded
