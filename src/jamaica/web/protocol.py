"""The WebSocket protocol: typed, versioned messages (`{"op": ..., "v": 1, ...}`), parsed and
validated before anything is done with them.

Client → server:
- `{"op": "hello", "v": 1, "seat": 0, "token": "…"}` — take a seat (or `"seat": null` to watch);
  `{"op": "hello", "v": 1, "key": "…"}` — a player: their seat at this table, or watch by name;
  `"lang": "fr"` (optional, any hello) — the language of the words this connection is sent (the
  log's sentences, the question, notes and errors; else the connection's `?lang=` or its
  `Accept-Language`, else English);
- `{"op": "act", "v": 1, "action": "move 13", "turn": 57}` — answer the question; `turn` is the
  number of actions so far that the client saw (a stale answer is refused); `"actions": [...]`
  instead of `"action"` answers the question and the ones that follow it (e.g. a whole payment),
  all or nothing; a card choice offered early (simultaneous choice) is answered the same way;
- `{"op": "chat", "v": 1, "text": "…"}` — a chat line (plain text);
- `{"op": "back", "v": 1}` — take your seat back from the bot playing it while you were away;
- `{"op": "ping", "v": 1}`.

Server → client: `welcome`, `update` (the seat's view, new events, the question if it is that
seat's), `seats` (who sits where, who is connected), `chat`, `rematch`, `error` (`code`,
`message`: in the connection's language; programs read `code`), `pong`. See docs/lobby.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..i18n import LANGUAGES, Words

VERSION = 1
MAX_MESSAGE = 4096  # bytes: no legitimate message is longer
MAX_TOKEN = 64
MAX_ANSWERS = 12  # answers in one act (a whole payment)


class ProtocolError(ValueError):
    """A client's mistake: `code` for programs; `message` for people, in English (a catalog's
    message id: `jamaica i18n extract` finds it as this call's second argument) with its `{name}`
    places filled from `values`; `words(lang)` says it in the reader's language."""

    def __init__(self, code: str, message: str, **values: Any) -> None:
        super().__init__(message.format(**values) if values else message)
        self.code = code
        self.message = message
        self.values = values

    def words(self, lang: str) -> str:
        return Words(lang)(self.message, **self.values)


@dataclass(frozen=True)
class Hello:
    seat: int | None
    token: str | None
    key: str | None = None  # a player's key: their seat here, or a named spectator
    lang: str | None = None  # the language asked for (None: the connection's)


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


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class Back:
    pass


Message = Hello | Act | Ping | Chat | Back


def _size(raw: str | bytes) -> int:
    """The message's size in bytes (UTF-8 as it came): a text of 4,000 emoji is 16 kB, not 4,000
    (the length alone first — no encoding of a text already too long in characters)."""
    if isinstance(raw, bytes) or len(raw) > MAX_MESSAGE or len(raw) * 4 <= MAX_MESSAGE:
        return len(raw)
    return len(raw.encode("utf-8", "surrogatepass"))


def parse(raw: str | bytes) -> Message:
    """A client's message, or ProtocolError saying what is wrong with it."""
    if _size(raw) > MAX_MESSAGE:
        raise ProtocolError("too_big", "messages are at most {max} bytes", max=MAX_MESSAGE)
    try:
        d = json.loads(raw)
    except RecursionError:
        raise ProtocolError("bad_json", "a message must be a JSON object, not so deep") from None
    except ValueError:  # JSONDecodeError, UnicodeDecodeError
        raise ProtocolError("bad_json", "a message must be a JSON object") from None
    if not isinstance(d, dict):
        raise ProtocolError("bad_json", "a message must be a JSON object")
    if d.get("v") != VERSION:
        raise ProtocolError("bad_version", "this server speaks version {version}", version=VERSION)
    op = d.get("op")
    if op == "hello":
        seat, token = d.get("seat"), d.get("token")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise ProtocolError("bad_message", "seat must be a seat number or null")
        if token is not None and (not isinstance(token, str) or len(token) > MAX_TOKEN):
            raise ProtocolError("bad_message", "token must be a string")
        key = d.get("key")
        if key is not None and (not isinstance(key, str) or len(key) > MAX_TOKEN):
            raise ProtocolError("bad_message", "key must be a player's key")
        lang = d.get("lang")
        if lang is not None and (not isinstance(lang, str) or len(lang) > 35):
            raise ProtocolError("bad_message", "lang must be a language tag such as en or fr")
        return Hello(seat, token, key, language(lang))
    if op == "act":
        turn = d.get("turn")
        if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool)):
            raise ProtocolError("bad_message", "turn must be an integer")
        actions = d["actions"] if "actions" in d else [d.get("action")]
        if not isinstance(actions, list) or not 1 <= len(actions) <= MAX_ANSWERS:
            raise ProtocolError(
                "bad_message", "actions must be a list of 1 to {max}", max=MAX_ANSWERS
            )
        for action in actions:
            if not isinstance(action, str) or not action or len(action) > 40:
                raise ProtocolError("bad_message", "action must be the text of an action")
        return Act(actions[0], turn, tuple(actions[1:]))
    if op == "ping":
        return Ping()
    if op == "chat":
        text = d.get("text")
        if not isinstance(text, str):
            raise ProtocolError("bad_message", "text must be a string")
        return Chat(text)
    if op == "back":
        return Back()
    raise ProtocolError("bad_op", "op must be one of hello, act, chat, back, ping")


def language(tag: str | None) -> str | None:
    """The language of a tag we speak (`fr`, `fr-FR`), or None."""
    if not tag:
        return None
    base = tag.strip().replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None


def error(code: str, message: str, lang: str = "en", **values: Any) -> dict[str, Any]:
    """An error message for a client: `message` (English, a catalog message id, its places
    filled from `values`) said in `lang`."""
    return {"op": "error", "v": VERSION, "code": code, "message": Words(lang)(message, **values)}


def refusal(e: ProtocolError, lang: str) -> dict[str, Any]:
    return error(e.code, e.message, lang, **e.values)
