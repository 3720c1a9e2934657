"""One connection's outgoing messages: a bounded queue drained by the connection's own writer task.

Nobody else ever awaits a client: a table puts its messages in the outboxes and goes on. A client
that falls too far behind (its queue is full) or stops reading (one send takes too long) is
disconnected; it can reconnect and is sent the whole state again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any, Protocol

log = logging.getLogger("jamaica.web")

QUEUE_LIMIT = 64  # messages waiting for one client
SEND_TIMEOUT = 5.0  # seconds one message may take to leave
CLOSE_TOO_SLOW = 4008  # the WebSocket close code for a client that does not keep up
CLOSE_BROKEN = 1011  # a send failed: the client reconnects and is sent the whole state again


class Wire(Protocol):
    """The raw connection (a WebSocket, or a test's fake)."""

    async def send_text(self, text: str) -> None: ...
    async def close(self, code: int) -> None: ...


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


class Outbox:
    def __init__(
        self, wire: Wire, limit: int = QUEUE_LIMIT, send_timeout: float = SEND_TIMEOUT
    ) -> None:
        self.wire = wire
        self.queue: asyncio.Queue[str] = asyncio.Queue(limit)
        self.send_timeout = send_timeout
        self.closed = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def put(self, message: dict[str, Any] | str) -> bool:
        """Queue a message (a dict, or text already encoded); never waits. False if the client
        is gone or was too slow (then it is disconnected)."""
        if self.closed:
            return False
        text = message if isinstance(message, str) else encode(message)
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close(CLOSE_TOO_SLOW)
            return False
        return True

    async def _run(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                await asyncio.wait_for(self.wire.send_text(text), self.send_timeout)
        except asyncio.CancelledError:
            raise
        except TimeoutError:
            self.close(CLOSE_TOO_SLOW)
        except Exception:  # the socket went away, or broke: make sure it is closed
            self.closed = True
            await self._close_wire(CLOSE_BROKEN)

    def close(self, code: int = 1000) -> None:
        """Stop sending and close the connection (in the background: never waits)."""
        if self.closed:
            return
        self.closed = True
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        asyncio.get_running_loop().create_task(self._close_wire(code))

    async def _close_wire(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.wire.close(code), self.send_timeout)

    async def drain(self, timeout: float = 1.0) -> None:
        """Wait (a little) until what is queued has left: before closing on purpose."""
        end = asyncio.get_running_loop().time() + timeout
        while not self.queue.empty() and not self.closed:
            if asyncio.get_running_loop().time() > end:
                return
            await asyncio.sleep(0.01)

    def stop(self) -> None:
        """The connection ended: stop the writer."""
        self.closed = True
        if self._task is not None:
            self._task.cancel()
