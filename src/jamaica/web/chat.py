"""A table's chat: plain text, bounded, rate-limited, stored with the table (and so in its
replay). Messages are text for the page to show as text: the server never makes them markup,
and the page renders them with `textContent`."""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from .protocol import ProtocolError
from .store import ChatRow

MAX_CHAT = 300  # characters in one message
KEPT = 100  # messages a table keeps in memory and sends to a newcomer
MAX_PER_TABLE = 5000  # messages a table stores in all: then its chat is full
BURST = 5  # messages one connection may send in WINDOW seconds
WINDOW = 10.0


def clean_text(text: str) -> str:
    """One line of printable text; a ProtocolError if empty or too long."""
    line = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    if not line:
        raise ProtocolError("chat_empty", "a chat message needs some text")
    if len(line) > MAX_CHAT:
        raise ProtocolError("chat_long", f"a chat message is at most {MAX_CHAT} characters")
    return line


class ChatLimit:
    """At most BURST messages in WINDOW seconds, per connection."""

    def __init__(self) -> None:
        self.sent: deque[float] = deque()

    def check(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        while self.sent and now - self.sent[0] > WINDOW:
            self.sent.popleft()
        if len(self.sent) >= BURST:
            wait = WINDOW - (now - self.sent[0])
            raise ProtocolError(
                "chat_limit", f"at most {BURST} chat messages in {WINDOW:g} seconds: "
                f"wait {max(1, round(wait))} s"
            )  # fmt: skip
        self.sent.append(now)


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
