"""How much one client may ask of the server: the configurable caps and the counters behind them.

Every cap has a default, an environment variable and a `jamaica serve` option (the option wins).
A client is known by its address: the peer's, or — only when the peer is one of the configured
trusted proxies — the one the proxy names in X-Forwarded-For (uvicorn resolves it; off by default,
since anyone can send that header).
"""

from __future__ import annotations

import contextlib
import ipaddress
import itertools
import os
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Final, TypeVar

MAX_BODY = 16_384  # bytes of a request body: a table's settings are far smaller


# Open files kept for everything but WebSockets: the database, Redis, the worker pools' pipes,
# the logs, and the HTTP requests that must still be answered when the WebSockets are at their
# cap (/health, /ready, /metrics, the pages).
FILES_KEPT: Final = 128


@dataclass(frozen=True)
class Limits:
    connections_per_address: int = 32
    max_connections: int = 4000  # open WebSockets on the node (below its open-file limit)
    messages_per_second: float = 20.0  # per connection, sustained
    message_burst: int = 60  # per connection, at once
    tables_per_minute: int = 10  # created, per address
    max_tables: int = 500  # unfinished tables on the server
    tables_per_address: int = 20  # unfinished tables created from one address
    http_per_second: float = 40.0  # HTTP budget per address, sustained (a write costs more)
    http_burst: int = 400  # HTTP budget per address, at once (a replay page asks ~130 things)
    max_body: int = MAX_BODY
    trusted_proxies: tuple[str, ...] = ()  # addresses (or networks) whose X-Forwarded-For counts
    allowed_origins: tuple[str, ...] = ()  # web origins besides the server's own, or "*"
    ladder_games: int = 10  # rated games a player needs to be listed on the ladder
    hello_seconds: int = 30  # a WebSocket that says no hello for this long is closed

    def __post_init__(self) -> None:
        for name in ("connections_per_address", "max_connections", "message_burst",
                     "tables_per_minute", "max_tables", "max_body", "tables_per_address",
                     "http_burst", "ladder_games", "hello_seconds"):  # fmt: skip
            if getattr(self, name) < 1:
                raise ValueError(f"{name.replace('_', '-')} must be at least 1")
        for name in ("messages_per_second", "http_per_second"):
            if not getattr(self, name) > 0:  # NaN too
                raise ValueError(f"{name.replace('_', '-')} must be a positive number")
        for proxy in self.trusted_proxies:
            try:
                if proxy != "*":
                    ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise ValueError(f"trust-proxy: {proxy!r} is not an address, a network or "
                                 "*") from None  # fmt: skip
        for origin in self.allowed_origins:
            scheme, sep, host = origin.partition("://")
            if origin != "*" and not (sep and scheme in ("http", "https") and host
                                      and "/" not in host.rstrip("/")):  # fmt: skip
                raise ValueError(f"allow-origin: {origin!r} is not an origin like "
                                 "https://example.org, nor *")  # fmt: skip

    @staticmethod
    def from_env(env: Mapping[str, str] | None = None, **overrides: object) -> Limits:
        """The defaults, then `JAMAICA_<NAME>` environment variables, then `overrides` that are
        not None (a CLI's options). ValueError names a bad value."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in fields(Limits):
            var = "JAMAICA_" + f.name.upper()
            raw = env.get(var)
            if raw is not None and raw.strip():
                values[f.name] = _convert(f.name, raw, var)
            given = overrides.get(f.name)
            if isinstance(given, list | tuple):  # repeated options, each maybe a list
                given = tuple(x for v in given for x in _split(str(v))) or None
            if given is not None:
                values[f.name] = given
        return replace(Limits(), **values)


# The server's other settings read from the environment, checked when `jamaica serve` starts
# (each is read where it is used, maybe much later: a bad value must stop the start, in one line,
# not fail a game hours on). Name -> (whole number, the least value).
SETTINGS: Final = {
    "JAMAICA_BOT_THREADS": (True, 1), "JAMAICA_BOT_PROCESSES": (True, 1),
    "JAMAICA_SEAT_GRACE": (False, 0), "JAMAICA_ARCHIVE_AFTER": (False, 0),
    "JAMAICA_ARCHIVE_FINISHED_AFTER": (False, 0), "JAMAICA_SWEEP_EVERY": (True, 1),
    "JAMAICA_ANALYSIS_WAITING": (True, 1), "JAMAICA_ANALYSIS_ITERATIONS": (True, 1),
}  # fmt: skip


def check_settings(env: Mapping[str, str] | None = None) -> None:
    """ValueError naming the first setting of `SETTINGS` that is set to something unusable."""
    env = os.environ if env is None else env
    for var, (whole, least) in SETTINGS.items():
        raw = env.get(var, "").strip()
        if not raw:
            continue
        try:
            value = int(raw) if whole else float(raw)
        except ValueError:
            value = None
        if value is None or not value >= least:  # NaN too
            kind = "a whole number" if whole else "a number of seconds"
            raise ValueError(f"{var} must be {kind} of at least {least}, not {raw!r}")


def _split(raw: str) -> list[str]:
    return [x.strip() for x in raw.split(",") if x.strip()]


def _convert(name: str, raw: str, var: str) -> Any:
    if name in ("trusted_proxies", "allowed_origins"):
        return tuple(_split(raw))
    try:
        return float(raw) if name.endswith("_per_second") else int(raw)
    except ValueError:
        raise ValueError(f"{var} must be a number, not {raw!r}") from None


K = TypeVar("K")
V = TypeVar("V")


def forget(table: dict[K, V], limit: int, stale: Callable[[V], bool]) -> None:
    """Keep a per-address (or per-key) table bounded, at O(1) amortized cost: past `limit`
    entries, drop the stale ones, then, if still over half the limit, the oldest until half is
    left (a key dropped while active only starts again with a fresh budget)."""
    if len(table) <= limit:
        return
    for key in [k for k, v in table.items() if stale(v)]:
        del table[key]
    extra = len(table) - limit // 2
    if extra > 0:
        for key in list(itertools.islice(table, extra)):
            del table[key]


def address_key(host: object) -> str:
    """Who a client is, for the per-address limits: its IPv4 address, or the /64 network of its
    IPv6 address (one subscriber is usually given a whole /64: counting each of its 2^64
    addresses apart would give it unlimited budgets)."""
    text = str(host) if host is not None else "unknown"
    if ":" not in text:
        return text
    try:
        return str(ipaddress.IPv6Network(f"{text.split('%')[0]}/64", strict=False))
    except ValueError:
        return text


def client_address(client: Any) -> str:
    """Who a request's client is, for the per-address limits (behind a trusted proxy, uvicorn
    has already put the forwarded address here)."""
    return address_key(client.host if client is not None else None)


class TokenBucket:
    """`rate` tokens a second up to `burst`; each message takes one."""

    __slots__ = ("burst", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: int, now: float | None = None) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic() if now is None else now

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Flood:
    """One connection's messages: a token bucket, and the patience for messages beyond it. A
    client that bursts now and then is told `rate_limited`; one that keeps flooding runs out of
    patience (as many refused messages as a burst, refilled at a tenth of the rate) and is
    closed. An answer the table accepted gives its token back (`refund`): the game itself paces
    those, so a fast bot client is never limited — only what moves no game forward is."""

    __slots__ = ("bucket", "patience")

    def __init__(self, limits: Limits, now: float | None = None) -> None:
        self.bucket = TokenBucket(limits.messages_per_second, limits.message_burst, now)
        self.patience = TokenBucket(limits.messages_per_second / 10, limits.message_burst, now)

    def allow(self, now: float | None = None) -> bool | None:
        """True: handle the message; False: refuse it; None: refuse it and close."""
        now = time.monotonic() if now is None else now
        if self.bucket.take(now):
            return True
        return False if self.patience.take(now) else None

    def refund(self) -> None:
        self.bucket.tokens = min(self.bucket.burst, self.bucket.tokens + 1)


def open_files_room() -> int | None:
    """The WebSockets this process can hold: its open-file limit — raised first to the hard
    limit, as far as the system lets it — less FILES_KEPT; None where there is no such limit.
    A server past its limit can answer nobody, not even /health (a review held 1,003 sockets
    under `ulimit -n 1024`: every new player, /health and /metrics got no answer)."""
    try:
        import resource
    except ImportError:  # not a POSIX system
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    if soft == resource.RLIM_INFINITY:
        return None
    return max(1, soft - FILES_KEPT)


class Sockets:
    """The node's open WebSockets, against its cap (`Limits.max_connections`)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.open = 0

    def acquire(self) -> bool:
        if self.open >= self.cap:
            return False
        self.open += 1
        return True

    def release(self) -> None:
        self.open -= 1

    def crowded(self) -> bool:
        """Whether only players may come in now: the last tenth of the cap is theirs (a crowd
        of spectators must not keep a player from their seat)."""
        return self.open > self.cap - max(1, self.cap // 10)


class Connections:
    """Open connections per address."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit  # None: counted, never refused
        self.open: dict[str, int] = {}

    def acquire(self, address: str) -> bool:
        if self.limit is not None and self.open.get(address, 0) >= self.limit:
            return False
        self.add(address)
        return True

    def add(self, address: str) -> None:
        self.open[address] = self.open.get(address, 0) + 1

    def release(self, address: str) -> None:
        n = self.open.get(address, 0) - 1
        if n > 0:
            self.open[address] = n
        else:
            self.open.pop(address, None)


class PerMinute:
    """Events per address within the last minute (a sliding window)."""

    def __init__(self, limit: int, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self.seen: dict[str, deque[float]] = {}

    def wait(self, address: str, now: float | None = None) -> float | None:
        """None if one more is allowed now, else the seconds until it will be."""
        now = time.monotonic() if now is None else now
        times = self.seen.get(address)
        if times is None:
            return None
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.limit:
            return times[0] + self.window - now
        return None

    def add(self, address: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        self.seen.setdefault(address, deque()).append(now)
        forget(self.seen, 10_000, lambda t: not t or t[-1] <= now - self.window)
