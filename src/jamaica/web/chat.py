"""A table's chat: plain text, bounded, rate-limited, stored with the table (and so in its
replay). Messages are text for the page to show as text: the server never makes them markup,
and the page renders them with `textContent`."""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from .limits import forget
from .outbox import encode
from .protocol import ProtocolError
from .store import ChatRow

MAX_CHAT = 300  # characters in one message
KEPT = 100  # messages a table keeps in memory and sends to a newcomer
PLAYER_LINES = 5000  # players' lines a table stores: the newest are kept, older ones dropped
SPECTATOR_LINES = 1000  # spectators' lines a table stores (the newest)
BURST = 5  # messages one player (or seat, or anonymous address) may send in WINDOW seconds
ADDRESS_BURST = 15  # messages from one address in WINDOW seconds, at all tables together
SPECTATORS_BURST = 20  # spectators' messages at one table in WINDOW seconds, all together
WINDOW = 10.0


def clean_text(text: str) -> str:
    """One line of printable text; a ProtocolError if empty or too long."""
    line = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    if not line:
        raise ProtocolError("chat_empty", "a chat message needs some text")
    if len(line) > MAX_CHAT:
        raise ProtocolError("chat_long", "a chat message is at most {max} characters", max=MAX_CHAT)
    return line


class ChatLimit:
    """At most `burst` messages in WINDOW seconds for each of its keys (a sliding window)."""

    def __init__(self, burst: int = BURST, window: float = WINDOW) -> None:
        self.burst = burst
        self.window = window
        self.sent: dict[str, deque[float]] = {}

    def wait(self, key: str, now: float) -> float:
        """Seconds until `key` may send again (0: now)."""
        times = self.sent.get(key)
        if times is None:
            return 0.0
        while times and now - times[0] > self.window:
            times.popleft()
        if not times:
            del self.sent[key]
            return 0.0
        return self.window - (now - times[0]) if len(times) >= self.burst else 0.0

    def add(self, key: str, now: float) -> None:
        self.sent.setdefault(key, deque()).append(now)
        forget(self.sent, 10_000, lambda t: not t or now - t[-1] > self.window)


def check_chat(limits: list[tuple[ChatLimit, str]], now: float | None = None) -> None:
    """Every (limit, key) must allow one more message, or a ProtocolError says how long to
    wait; only then is the message counted against each of them."""
    now = time.monotonic() if now is None else now
    wait = max(limit.wait(key, now) for limit, key in limits)
    if wait > 0:
        raise ProtocolError(
            "chat_limit", "too many chat messages (at most {burst} in {window} seconds): "
            "wait {wait} s", burst=BURST, window=f"{WINDOW:g}", wait=max(1, round(wait))
        )  # fmt: skip
    for limit, key in limits:
        limit.add(key, now)


ADDRESSES = ChatLimit(ADDRESS_BURST)  # the server's chat lines per address, at every table


def as_message(row: ChatRow) -> dict[str, Any]:
    return {
        "seq": row.seq,
        "at": row.at,
        "name": row.name,
        "seat": row.seat,
        "spectator": row.seat is None,
        "text": row.text,
    }


def chat_op(rows: list[ChatRow]) -> dict[str, Any]:
    return {"op": "chat", "v": 1, "messages": [as_message(r) for r in rows]}


def chat_text(rows: list[ChatRow]) -> str:
    """One `chat` message of the newest KEPT lines (lines waiting for a client are merged)."""
    return encode(chat_op(rows[-KEPT:]))
