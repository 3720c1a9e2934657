"""Players without passwords: a name and a secret key the browser keeps.

The server keeps the key's SHA-256 only, so a copy of the database gives no one a way in. A key
is 32 random bytes (URL-safe text); it travels in the `X-Player-Key` header or a `hello` message,
never in a URL's query. A player's id is public-safe but never shown: the lobby shows names.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from dataclasses import dataclass

from .protocol import ProtocolError
from .store import PlayerRecord, Store

MAX_NAME = 24
MAX_KEY = 64


@dataclass(frozen=True)
class Player:
    id: str
    name: str


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def player_name(text: object) -> str:
    """A player's chosen name: printable, 1 to 24 characters; a ValueError otherwise."""
    if not isinstance(text, str):
        raise ProtocolError("bad_request", "a name is text")
    name = " ".join("".join(ch for ch in text if ch.isprintable()).split())[:MAX_NAME]
    if not name:
        raise ProtocolError("bad_request", "choose a name of 1 to {max} characters", max=MAX_NAME)
    return name


class Players:
    """The players of this server, read through to the store (a small cache by key hash)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._by_hash: dict[str, Player] = {}

    # Every read and write of the store runs in a thread: the store's lock may be held by a
    # commit waiting for the disk, and the event loop must never wait for it.
    async def create(self, name: str) -> tuple[Player, str]:
        """A new player and their secret key (shown once, to them)."""
        key = secrets.token_urlsafe(32)
        record = PlayerRecord(secrets.token_urlsafe(12), player_name(name), key_hash(key),
                              time.time())  # fmt: skip
        await asyncio.to_thread(self.store.create_player, record)
        player = self._by_hash[record.key_hash] = Player(record.id, record.name)
        return player, key

    async def by_key(self, key: object) -> Player | None:
        """The player whose key this is, or None (no key, a malformed one, or unknown)."""
        if not isinstance(key, str) or not 20 <= len(key) <= MAX_KEY:
            return None
        digest = key_hash(key)
        player = self._by_hash.get(digest)
        if player is None:
            record = await asyncio.to_thread(self.store.player_by_key, digest)
            if record is None:
                return None
            if len(self._by_hash) > 10_000:
                self._by_hash.clear()
            player = self._by_hash[digest] = Player(record.id, record.name)
        return player

    async def rename(self, player: Player, name: str) -> Player:
        renamed = Player(player.id, player_name(name))
        await asyncio.to_thread(self.store.rename_player, player.id, renamed.name)
        for digest, known in list(self._by_hash.items()):
            if known.id == player.id:
                self._by_hash[digest] = renamed
        return renamed
