"""What the nodes of a service share through Redis (`--redis redis://…`): the lobby — every
node's tables, with their open seats, presence and watchers, and who sits where for "my tables"
and "your turn" — and the per-address limits (connections open, tables and players created).

Nothing here is on a game's path: games go on when Redis is down. Then the lobby shows this node's
tables only and each node counts its limits alone ("degraded", in the log and on /health), and
everything comes back by itself when Redis answers again.

Requests never wait for Redis for the lobby: a background loop publishes this node's lines and
reads everyone's once a second; the lobby reads that copy. The limits ask Redis at the moment
(one round trip, with a short timeout, falling back to this node's own count).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from .limits import Connections

log = logging.getLogger("jamaica.web")
PREFIX = "jamaica:"
TIMEOUT = 0.5  # seconds for any one Redis call
EVERY = 1.0  # seconds between two publications of this node's lobby lines
EXPIRES = 15  # seconds a node's lines (and connection counts) outlive its last publication
WHOLE = 5  # rounds between two publications of every line, changed or not
NOT_YET = "not connected yet"  # degraded until the first answer, and said so on /health
MAX_LINES = 5000  # lobby lines read from all nodes (bounded work and memory)
if TYPE_CHECKING:  # a hash's key or value, to redis (memoryview[int] is for the type checker)
    Field = bytes | bytearray | memoryview[int] | str | int | float


class Shared:
    def __init__(self, url: str, node: str) -> None:
        self.url, self.node = url, node
        # A pooled connection Redis closed (it restarted) is tried once more on a new one; a
        # timeout is not (Redis away: nobody waits twice for it).
        self.redis: aioredis.Redis = aioredis.Redis.from_url(
            url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT, decode_responses=True,
            retry=Retry(NoBackoff(), 1), retry_on_error=[RedisConnectionError],
        )  # fmt: skip
        self.degraded: str | None = NOT_YET
        self.lines: dict[str, dict[str, Any]] = {}  # every node's lobby lines, by table id
        self._published: dict[str, str] = {}
        # this process's connections by address, as counted in Redis: written whole at every
        # publication, so that what a killed process left there (a node restarted at once
        # inherits its key) or what Redis lost is set right within a second
        self.mine = Connections()
        self.report: Callable[[str | None], None] | None = None  # told when degraded or back

    # --- health -----------------------------------------------------------------------------------
    def _failed(self, e: Exception) -> None:
        if self.degraded in (None, NOT_YET):
            log.warning("Redis is out of reach (%s): the lobby shows this node's tables only and "
                        "limits count per node until it is back", e)  # fmt: skip
        self.degraded = str(e) or type(e).__name__
        if self.report is not None:
            self.report(self.degraded)

    def _ok(self) -> None:
        if self.degraded is not None:
            if self.degraded != NOT_YET:  # back, not just reached for the first time
                log.warning("Redis answers: the lobby and the limits are shared again")
            self.degraded = None
            if self.report is not None:
                self.report(None)

    # --- the lobby --------------------------------------------------------------------------------
    async def run(self, lines: Callable[[], dict[str, dict[str, Any]]]) -> None:
        """Publish this node's lines (`lines()`) and read everyone's, once a second, forever.
        Every `WHOLE` rounds everything is published again, changed or not: Redis may have lost
        it without this node seeing an error (restarted between two rounds, flushed by hand),
        and the other nodes' lobbies would lack this node's tables until each changed."""
        rounds = 0
        while True:
            rounds += 1
            if rounds % WHOLE == 0:
                self._published = {}
            try:
                await asyncio.wait_for(self.sync(lines()), 4 * TIMEOUT)
            except (RedisError, OSError, TimeoutError) as e:
                self._failed(e)
                self._published = {}  # publish everything again once it is back
            await asyncio.sleep(EVERY)

    async def sync(self, mine: dict[str, dict[str, Any]]) -> None:
        key = f"{PREFIX}lobby:{self.node}"
        texts = {table_id: json.dumps(line) for table_id, line in mine.items()}
        changed: dict[Field, Field] = {
            k: v for k, v in texts.items() if self._published.get(k) != v
        }
        gone = [k for k in self._published if k not in texts]
        async with self.redis.pipeline(transaction=False) as pipe:
            if changed:
                pipe.hset(key, mapping=changed)
            if gone:
                pipe.hdel(key, *gone)
            pipe.expire(key, EXPIRES)
            pipe.zadd(f"{PREFIX}nodes", {self.node: time.time()})
            pipe.zremrangebyscore(f"{PREFIX}nodes", 0, time.time() - EXPIRES)
            pipe.zrange(f"{PREFIX}nodes", 0, -1)
            replies = await pipe.execute()
        self._published = texts
        conns = f"{PREFIX}conns:{self.node}"
        async with self.redis.pipeline(transaction=True) as pipe:  # at once: no count between
            pipe.delete(conns)
            if self.mine.open:
                # (a copy typed as redis takes it: dict(...) would keep str keys only)
                counts: dict[Field, Field] = {k: v for k, v in self.mine.open.items()}
                pipe.hset(conns, mapping=counts)
                pipe.expire(conns, EXPIRES)
            await pipe.execute()
        nodes = [n for n in replies[-1] if n != self.node]
        merged: dict[str, dict[str, Any]] = {}
        if nodes:
            async with self.redis.pipeline(transaction=False) as pipe:
                for n in nodes:
                    pipe.hgetall(f"{PREFIX}lobby:{n}")
                for found in await pipe.execute():
                    for table_id, text in list(found.items())[:MAX_LINES]:
                        if len(merged) < MAX_LINES:
                            merged[table_id] = json.loads(text)
        self.lines = merged
        self._ok()

    def others(self, local: set[str]) -> list[dict[str, Any]]:
        """Other nodes' lobby lines (not tables this node keeps: its own copy is fresher)."""
        if self.degraded is not None:
            return []
        return [line for table_id, line in self.lines.items() if table_id not in local]

    # --- limits shared by the nodes ---------------------------------------------------------------
    async def acquire(self, address: str, limit: int) -> bool | None:
        """One more connection from `address`, if under `limit` over all nodes; None if Redis
        cannot say (the caller counts alone). While Redis is away nobody waits for it: the
        background loop finds out when it is back."""
        if self.degraded is not None:
            return None
        self.mine.add(address)  # before any wait: a publication meanwhile includes it
        try:
            mine = f"{PREFIX}conns:{self.node}"
            nodes = [str(n) for n in await self.redis.zrange(f"{PREFIX}nodes", 0, -1)]
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.hincrby(mine, address, 1)
                pipe.expire(mine, EXPIRES)
                for n in nodes:
                    if n != self.node:
                        pipe.hget(f"{PREFIX}conns:{n}", address)
                replies = await pipe.execute()
            total = int(replies[0]) + sum(int(x or 0) for x in replies[2:])
            if total > limit:
                self.mine.release(address)
                await self.redis.hincrby(mine, address, -1)
                return False
            return True
        except (RedisError, OSError, TimeoutError) as e:
            self.mine.release(address)  # the caller counts it alone
            self._failed(e)
            return None

    async def release(self, address: str) -> None:
        self.mine.release(address)
        try:
            mine = f"{PREFIX}conns:{self.node}"
            if await self.redis.hincrby(mine, address, -1) <= 0:
                await self.redis.hdel(mine, address)
        except (RedisError, OSError, TimeoutError) as e:
            self._failed(e)

    async def count(self, what: str, address: str, limit: int, window: int = 60) -> float | None:
        """Count one `what` (e.g. a table created) from `address` in this minute's window over
        all nodes: None if allowed, else the seconds to wait; None too if Redis cannot say (the
        caller's own count decides)."""
        if self.degraded is not None:
            return None
        key = f"{PREFIX}{what}:{address}"
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.incr(key)
                pipe.expire(key, window, nx=True)
                pipe.ttl(key)
                n, _, ttl = await pipe.execute()
        except (RedisError, OSError, TimeoutError) as e:
            self._failed(e)
            return None
        if int(n) > limit:
            return float(max(1, int(ttl)))
        return None

    async def close(self) -> None:
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            await asyncio.wait_for(self.redis.delete(f"{PREFIX}lobby:{self.node}"), TIMEOUT)
        await self.redis.aclose()
