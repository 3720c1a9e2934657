"""The WebSocket protocol: typed, versioned messages (`{"op": ..., "v": 1, ...}`), parsed and
validated before anything is done with them.

Client → server:
- `{"op": "hello", "v": 1, "seat": 0, "token": "…"}` — take a seat (or `"seat": null` to watch);
- `{"op": "act", "v": 1, "action": "move 13", "turn": 57}` — answer the question; `turn` is the
  number of actions so far that the client saw (a stale answer is refused); `"actions": [...]`
  instead of `"action"` answers the question and the ones that follow it (e.g. a whole payment),
  all or nothing; a card choice offered early (simultaneous choice) is answered the same way;
- `{"op": "ping", "v": 1}`.

Server → client: `welcome`, `update` (the seat's view, new events, the question if it is that
seat's), `error` (`code`, `message`), `pong`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

VERSION = 1
MAX_MESSAGE = 4096  # bytes: no legitimate message is longer
MAX_TOKEN = 64
MAX_ANSWERS = 12  # answers in one act (a whole payment)


class ProtocolError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Hello:
    seat: int | None
    token: str | None


@dataclass(frozen=True)
class Act:
    action: str  # the first (or only) answer
    turn: int | None
    more: tuple[str, ...] = ()  # answers to the questions that follow, sent together

    @property
    def actions(self) -> tuple[str, ...]:
        return (self.action, *self.more)


@dataclass(frozen=True)
class Ping:
    pass


Message = Hello | Act | Ping


def parse(raw: str | bytes) -> Message:
    """A client's message, or ProtocolError saying what is wrong with it."""
    if len(raw) > MAX_MESSAGE:
        raise ProtocolError("too_big", f"messages are at most {MAX_MESSAGE} bytes")
    try:
        d = json.loads(raw)
    except RecursionError:
        raise ProtocolError("bad_json", "a message must be a JSON object, not so deep") from None
    except ValueError:  # JSONDecodeError, UnicodeDecodeError
        raise ProtocolError("bad_json", "a message must be a JSON object") from None
    if not isinstance(d, dict):
        raise ProtocolError("bad_json", "a message must be a JSON object")
    if d.get("v") != VERSION:
        raise ProtocolError("bad_version", f"this server speaks version {VERSION}")
    op = d.get("op")
    if op == "hello":
        seat, token = d.get("seat"), d.get("token")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise ProtocolError("bad_message", "seat must be a seat number or null")
        if token is not None and (not isinstance(token, str) or len(token) > MAX_TOKEN):
            raise ProtocolError("bad_message", "token must be a string")
        return Hello(seat, token)
    if op == "act":
        turn = d.get("turn")
        if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool)):
            raise ProtocolError("bad_message", "turn must be an integer")
        actions = d["actions"] if "actions" in d else [d.get("action")]
        if not isinstance(actions, list) or not 1 <= len(actions) <= MAX_ANSWERS:
            raise ProtocolError("bad_message", f"actions must be a list of 1 to {MAX_ANSWERS}")
        for action in actions:
            if not isinstance(action, str) or not action or len(action) > 40:
                raise ProtocolError("bad_message", "action must be the text of an action")
        return Act(actions[0], turn, tuple(actions[1:]))
    if op == "ping":
        return Ping()
    raise ProtocolError("bad_op", "op must be one of hello, act, ping")


def error(code: str, message: str) -> dict[str, Any]:
    return {"op": "error", "v": VERSION, "code": code, "message": message}
