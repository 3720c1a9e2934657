"""One connection's outgoing messages: a bounded queue drained by the connection's own writer task.

Nobody else ever awaits a client: a table puts its messages in the outboxes and goes on. Messages
that only say how things are *now* — the game (`update`), the seats (`seats`) — are kept in
*slots*: at most one of each waits per client, and a newer one replaces it where it stands (an
update is made when it leaves, so it always shows the present and carries every event since the
last one sent). Chat lines wait in a slot too, merged into one message. So a burst of changes,
joins or chat lines can never fill a client's queue; only plain messages (answers to what the
client itself sent: errors, pongs) count towards the limit, and a client that falls that far
behind (its queue is full) or stops reading (one send takes too long) is disconnected; it can
reconnect and is sent the whole state again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

log = logging.getLogger("jamaica.web")

QUEUE_LIMIT = 64  # plain messages waiting for one client (slots come on top: one each)
SEND_TIMEOUT = 5.0  # seconds one message may take to leave
CLOSE_TOO_SLOW = 4008  # the WebSocket close code for a client that does not keep up
CLOSE_BROKEN = 1011  # a send failed: the client reconnects and is sent the whole state again

Producer = Callable[[], str]  # makes a slot's message when it leaves


class Wire(Protocol):
    """The raw connection (a WebSocket, or a test's fake)."""

    async def send_text(self, text: str) -> None: ...
    async def close(self, code: int) -> None: ...


try:  # the `web` extra's JSON encoder: several times as fast as the standard library's
    import orjson
except ImportError:  # pragma: no cover - the standard library's, if it is not installed
    orjson = None  # type: ignore[assignment]

_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)  # messages are trees


def encode(message: dict[str, Any]) -> str:
    """A message as compact JSON: the values of `json.dumps(message, separators=(",", ":"))`
    (orjson writes characters beyond ASCII as they are, not as \\u escapes). What orjson
    refuses (text that is not valid Unicode, an integer beyond 64 bits) the standard library
    encodes as it always did."""
    if orjson is not None:
        try:
            return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:  # orjson.JSONEncodeError is one
            pass
    return _ENCODER.encode(message)


class _Slot:
    """A queue entry standing for a slot's latest message."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


class Outbox:
    def __init__(
        self, wire: Wire, limit: int = QUEUE_LIMIT, send_timeout: float = SEND_TIMEOUT
    ) -> None:
        self.wire = wire
        self.limit = limit
        self.queue: deque[str | _Slot] = deque()
        self.plain = 0  # plain messages in the queue
        self.slots: dict[str, Producer | str] = {}  # slot -> its latest message, waiting
        self.merged: dict[str, list[Any]] = {}  # slot -> items to merge (see put_merged)
        self.send_timeout = send_timeout
        self.closed = False
        self.busy = False  # a message is being made or sent
        self._wake: asyncio.Future[None] | None = None  # the writer waits on it for the queue
        self._late = False  # the send in progress took longer than send_timeout
        self._task: asyncio.Task[Any] | None = None

    def start(self) -> None:
        self._task = spawn(self._run())

    def pending(self) -> int:
        """Entries waiting: plain messages and slots."""
        return len(self.queue)

    def put(self, message: dict[str, Any] | str) -> bool:
        """Queue a plain message (a dict, or text already encoded); never waits. False if the
        client is gone or was too slow (then it is disconnected)."""
        if self.closed:
            return False
        if self.plain >= self.limit:
            self.close(CLOSE_TOO_SLOW)
            return False
        self.queue.append(message if isinstance(message, str) else encode(message))
        self.plain += 1
        self._poke()
        return True

    def put_latest(self, slot: str, message: Producer | str) -> bool:
        """Queue the slot's message (text, or a function making it as it leaves), replacing the
        one of that slot still waiting, if any; never waits, never overflows."""
        if self.closed:
            return False
        if slot not in self.slots:
            self.queue.append(_Slot(slot))
            self._poke()
        self.slots[slot] = message
        return True

    def _poke(self) -> None:
        """Wake the writer if it waits for the queue."""
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)

    def put_merged(
        self, slot: str, items: list[Any], make: Callable[[list[Any]], str], keep: int = 100
    ) -> bool:
        """Queue items (e.g. chat lines) into one message of the slot, with the items of the one
        still waiting (the newest `keep` of them); `make` turns them into the message as it
        leaves."""
        if self.closed:
            return False
        waiting = self.merged.setdefault(slot, [])
        waiting.extend(items)
        del waiting[:-keep]
        return self.put_latest(slot, lambda: make(self.merged.pop(slot, [])))

    def _next(self) -> str | None:
        item = self.queue.popleft()
        if isinstance(item, str):
            self.plain -= 1
            return item
        message = self.slots.pop(item.name, None)
        if message is None or isinstance(message, str):
            return message
        try:
            return message()
        except Exception:  # a bug making one message must not end the connection
            log.exception("could not make a %r message", item.name)
            return encode({"op": "error", "v": 1, "code": "internal",
                           "message": "the server failed to make an update"})  # fmt: skip

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        me = asyncio.current_task()
        assert me is not None
        try:
            while True:
                while not self.queue:
                    self._wake = loop.create_future()
                    try:
                        await self._wake
                    finally:
                        self._wake = None
                self.busy = True
                text = self._next()
                if text is not None:
                    # A send that takes longer than send_timeout is cancelled (a timer, not a
                    # task or a timeout context per message: most sends finish at once).
                    late = loop.call_later(self.send_timeout, self._too_late, me)
                    try:
                        await self.wire.send_text(text)
                    finally:
                        late.cancel()
                self.busy = False
        except asyncio.CancelledError:
            if not self._late:
                raise
            self.close(CLOSE_TOO_SLOW)  # the send was cancelled for its time: too slow
        except Exception:  # the socket went away, or broke: make sure it is closed
            self.closed = True
            await self._close_wire(CLOSE_BROKEN)

    def _too_late(self, task: asyncio.Task[Any]) -> None:
        if not task.done():
            self._late = True
            task.cancel()

    def close(self, code: int = 1000) -> None:
        """Stop sending and close the connection (in the background: never waits)."""
        if self.closed:
            return
        self.closed = True
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        spawn(self._close_wire(code))

    async def _close_wire(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.wire.close(code), self.send_timeout)

    async def drain(self, timeout: float = 1.0) -> None:
        """Wait (a little) until what is queued has left: before closing on purpose."""
        end = asyncio.get_running_loop().time() + timeout
        while (self.queue or self.busy) and not self.closed:
            if asyncio.get_running_loop().time() > end:
                return
            await asyncio.sleep(0.01)

    def stop(self) -> None:
        """The connection ended: stop the writer."""
        self.closed = True
        self.slots.clear()
        self.merged.clear()
        if self._task is not None:
            self._task.cancel()


_BACKGROUND: set[asyncio.Task[Any]] = set()  # tasks nobody else holds, until they are done


def spawn(coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
    """Run `coro` as a task that is held until it is done (the event loop keeps only weak
    references to tasks: one nobody holds may be destroyed while pending)."""
    task = asyncio.get_running_loop().create_task(coro)
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)
    return task
