"""Live tables: a game, its seats and tokens, the connected clients, the bots and the clock.

The engine decides every rule; a table only relays questions and answers. Every decision is
appended to the store before it is applied and acknowledged, so a restarted server rebuilds each
table exactly by replaying it.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import os
import secrets
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..bots import FALLBACK, make_bot, parse_spec, safe_spec
from ..rules import CHANCE, Action, Config, ParseError, State
from ..rules.events import EVENT_NAMES, describe
from ..rules.view import can_see
from ..session import GameSession, Seat, clean_name
from .committer import committer
from .outbox import Outbox, encode
from .protocol import VERSION, Act, Hello, ProtocolError
from .store import ActionRow, Store, TableRecord

log = logging.getLogger("jamaica.web")

TIMEOUT_BOT = "greedy"
BOT_DEADLINE = 30.0  # seconds a bot may think before the fallback bot decides instead
STORAGE_RETRY = 2.0  # seconds before a table retries a decision it could not store
_SECURE = secrets.SystemRandom()  # live chance: nothing a player reads can predict it
_POOL: ThreadPoolExecutor | None = None


def bot_pool() -> ThreadPoolExecutor:
    """The bounded pool every table's bots think in (`JAMAICA_BOT_THREADS`, default: the number
    of cores, at most 8): a busy server queues bot decisions instead of starting threads."""
    global _POOL
    if _POOL is None:
        default = min(8, os.cpu_count() or 2)
        workers = int(os.environ.get("JAMAICA_BOT_THREADS", default))
        _POOL = ThreadPoolExecutor(max(1, workers), thread_name_prefix="jamaica-bot")
    return _POOL


def _decide(spec: str, state: State, seat: int) -> Action:
    """A bot's answer on a copy of the game (in a pool thread), with fresh secret randomness."""
    return make_bot(spec, secrets.randbits(128)).act(state, seat)


class StorageFailed(Exception):
    """A decision could not be stored, so it was neither applied nor acknowledged."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Client:
    """One connection: its seat (None: a spectator), its outbox, and how much of the log and
    the notes it has been sent."""

    def __init__(self, outbox: Outbox, seat: int | None) -> None:
        self.outbox = outbox
        self.seat = seat
        self.raw_sent = 0  # engine events already looked at for this client
        self.notes_sent = 0


class LiveTable:
    def __init__(self, record: TableRecord, store: Store) -> None:
        self.record = record
        self.store = store
        config = Config.from_dict(record.config)
        seats = [Seat(s["name"], s["bot"]) for s in record.seats]
        # No seed: dice, draws and bots draw from the secure source; restarts replay the stored
        # outcomes (issue 9: a seed a player could search for would predict every hidden draw).
        self.session = GameSession(config, seats, None)
        self.names = [self.session.name(k) for k in range(self.session.state.ns)]
        self.lock = asyncio.Lock()
        self.clients: list[Client] = []
        self.notes: list[tuple[int, str]] = []  # (audience, text), audiences as for events
        self._auto: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self.on_change: Callable[[], None] | None = None
        self.storage_error: str | None = None  # set while decisions cannot be stored
        self.touched = record.created  # the last decision (or creation) time

    @property
    def id(self) -> str:
        return self.record.id

    # --- building -------------------------------------------------------------------------------
    @staticmethod
    def create(
        store: Store,
        config: Config,
        seats: Sequence[tuple[str, str | None]],
        seconds_per_decision: float | None = None,
    ) -> tuple[LiveTable, list[str | None]]:
        """A new table; returns it and each human seat's secret token (None for bots)."""
        if len(seats) != config.players:
            raise ValueError(f"{config.players} players need {config.players} seats")
        if seconds_per_decision is not None and not 1 <= seconds_per_decision <= 3600:
            raise ValueError("the time per decision must be between 1 and 3600 seconds")
        tokens: list[str | None] = []
        rows = []
        for i, (name, bot) in enumerate(seats):
            if bot is not None:
                parse_spec(bot)
            token = None if bot is not None else secrets.token_urlsafe(24)
            tokens.append(token)
            rows.append({"name": clean_name(name, i), "bot": bot,
                         "token_hash": token_hash(token) if token else None})  # fmt: skip
        seed = 0  # unused: live tables have no seed (see __init__)
        table_id = secrets.token_urlsafe(9)
        limit = seconds_per_decision
        record = TableRecord(table_id, config.to_dict(), rows, seed, limit, time.time())
        store.create_table(record)
        return LiveTable(record, store), tokens

    @staticmethod
    def restore(record: TableRecord, store: Store) -> LiveTable:
        """Rebuild a table from its stored decisions; a ValueError says why it cannot be."""
        for seat in record.seats:  # a bot spec stored by an older server may not be valid now
            if seat.get("bot") is not None and safe_spec(seat["bot"]) != seat["bot"]:
                log.warning("table %s: bot %r is not valid; %s plays that seat",
                            record.id, seat["bot"], FALLBACK)  # fmt: skip
                seat["bot"] = FALLBACK
        table = LiveTable(record, store)
        s = table.session.state
        for row in store.actions(record.id):
            if row.seq != len(s.history):
                raise ValueError(f"table {record.id}: decision {row.seq} is out of order")
            if row.by == "timeout":
                table._note_timeout(s.current_player(), Action.from_id(row.action))
            try:
                s.apply(row.action)
            except (ValueError, TypeError) as e:
                raise ValueError(f"table {record.id}: decision {row.seq}: {e}") from None
        return table

    # --- seats ----------------------------------------------------------------------------------
    def check_seat(self, hello: Hello) -> int | None:
        if hello.seat is None:
            return None
        seats = self.record.seats
        if not 0 <= hello.seat < len(seats):
            raise ProtocolError("bad_seat", f"seats are 0 to {len(seats) - 1}")
        expected = seats[hello.seat]["token_hash"]
        if expected is None:
            raise ProtocolError("bad_seat", "a bot plays that seat")
        given = token_hash(hello.token or "")
        if not hmac.compare_digest(given, expected):
            raise ProtocolError("bad_token", "that is not the token of this seat")
        return hello.seat

    async def join(self, outbox: Outbox, hello: Hello) -> Client:
        seat = self.check_seat(hello)
        client = Client(outbox, seat)
        async with self.lock:  # nothing here waits for a client: the outbox sends
            self.clients.append(client)
            outbox.put(self.welcome(seat))
            outbox.put(self.update_for(client))
        self.kick()
        return client

    def leave(self, client: Client) -> None:
        if client in self.clients:
            self.clients.remove(client)

    def welcome(self, seat: int | None) -> dict[str, Any]:
        return {
            "op": "welcome",
            "v": VERSION,
            "table": self.id,
            "seat": seat,
            "names": self.names,
            "bots": [s["bot"] for s in self.record.seats],
            "config": self.record.config,
            "seconds_per_decision": self.record.seconds_per_decision,
        }

    # --- answers --------------------------------------------------------------------------------
    async def act(self, client: Client, act: Act) -> None:
        async with self.lock:
            s = self.session.state
            if client.seat is None:
                raise ProtocolError("not_seated", "spectators cannot act")
            if s.is_terminal():
                raise ProtocolError("game_over", "the game is over")
            if s.current_player() != client.seat:
                raise ProtocolError("not_your_turn", "it is not your turn to decide")
            if act.turn is not None and act.turn != len(s.history):
                raise ProtocolError("stale", "the game has moved on since; look again")
            try:
                a = Action.parse(act.action)
            except ParseError as e:
                raise ProtocolError("illegal", str(e)) from None
            if a not in s.legal:
                legal = ", ".join(str(x) for x in s.legal)
                raise ProtocolError("illegal", f"{act.action!r} is not legal now; legal: {legal}")
            try:
                await self._commit([(a, "player")])
            except StorageFailed:
                raise ProtocolError(
                    "not_stored",
                    "the server could not store your answer: nothing changed; "
                    "try again in a moment",
                ) from None
            self._broadcast()
        self.kick()

    async def _commit(self, decisions: list[tuple[Action, str]]) -> None:
        """Apply the decisions (and the dice that follow them) to a copy of the game, store them
        all in one transaction, and only then make the copy the game: a decision is applied and
        acknowledged only once it is stored. If storing fails, nothing changes (StorageFailed)."""
        s = self.session.state.clone()
        rows = []
        for a, by in decisions:
            rows.append(ActionRow(len(s.history), int(a), by))
            s.apply(a)
        while s.current_player() == CHANCE:
            a = s.sample_chance(_SECURE)
            rows.append(ActionRow(len(s.history), int(a), "chance"))
            s.apply(a)
        try:  # group commit, in a thread: the disk's sync never stops the other tables
            await committer(self.store).commit(self.id, rows, s.is_terminal())
        except Exception as e:
            self._storage_failed(e)
            raise StorageFailed(str(e)) from None
        if self.storage_error is not None:
            log.warning("table %s: storage works again", self.id)
            self.storage_error = None
        self.session.state = s
        self.record.finished = s.is_terminal()
        self.touched = time.time()
        if self.on_change is not None:
            self.on_change()

    def _storage_failed(self, e: Exception) -> None:
        if self.storage_error is None:  # log once per failure, not once per retry
            log.error("table %s: cannot store decisions: %s", self.id, e)
        self.storage_error = str(e)

    # --- bots, dice and the clock ---------------------------------------------------------------
    def kick(self) -> None:
        """Make sure the bots and the dice play on if it is their turn, and the clock runs."""
        if self._auto is None or self._auto.done():
            self._auto = asyncio.get_running_loop().create_task(self._play_auto())

    async def _play_auto(self) -> None:
        """Chance and bots play until a human must decide. A bot thinks on a copy of the game,
        outside the lock, in the bounded bot pool; if storing fails, retry a little later."""
        while True:
            async with self.lock:
                session = self.session
                if not session.waiting_for_bot_or_chance():
                    break
                s = session.state
                turn, who = len(s.history), s.current_player()
                bot = None if who == CHANCE else session.seats[who].bot
                snapshot = s.clone(log=False)
            decision = None if bot is None else (await self._think(bot, snapshot, who), "bot")
            async with self.lock:
                if len(self.session.state.history) != turn:
                    continue
                try:
                    await self._commit([decision] if decision else [])
                except StorageFailed:
                    retry = True
                else:
                    retry = False
                    self._broadcast()
            if retry:
                await asyncio.sleep(STORAGE_RETRY)
            else:
                await asyncio.sleep(0)
        self._arm_timer()

    async def _think(self, spec: str, snapshot: State, who: int) -> Action:
        """The bot's answer, from the bounded pool within the deadline. If it fails or is late,
        the fallback bot answers at once (it takes under a millisecond, so it runs here even when
        the pool is jammed), and if that fails too, a random legal answer: a table never stalls."""
        loop = asyncio.get_running_loop()
        try:
            job = loop.run_in_executor(bot_pool(), _decide, spec, snapshot, who)
            a = await asyncio.wait_for(job, BOT_DEADLINE)
            if a in snapshot.legal:
                return a
            raise ValueError(f"{a} is not legal")
        except Exception as e:
            why = str(e) or type(e).__name__
            log.warning("table %s: the %s bot failed to decide for seat %d (%s); the %s bot "
                        "decides", self.id, spec, who, why, FALLBACK)  # fmt: skip
        try:
            a = _decide(FALLBACK, snapshot, who)
            if a in snapshot.legal:
                return a
        except Exception as e:
            log.error("table %s: the fallback bot failed too (%s)", self.id, e)
        return _SECURE.choice(snapshot.legal)

    def _arm_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        limit = self.record.seconds_per_decision
        who = self.session.human_to_move()
        if limit is None or who is None:
            return
        turn = len(self.session.state.history)
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(limit, lambda: loop.create_task(self._time_out(turn)))

    async def _time_out(self, turn: int) -> None:
        async with self.lock:
            s = self.session.state
            who = self.session.human_to_move()
            if who is None or len(s.history) != turn:
                return
            snapshot = s.clone(log=False)
        a = await self._think(TIMEOUT_BOT, snapshot, who)
        async with self.lock:
            if len(self.session.state.history) != turn:
                return
            try:
                await self._commit([(a, "timeout")])
            except StorageFailed:
                self._arm_timer_retry(turn)
                return
            self._note_timeout(who, a)
            self._broadcast()
        self.kick()

    def _arm_timer_retry(self, turn: int) -> None:
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(STORAGE_RETRY, lambda: loop.create_task(self._time_out(turn)))

    def _note_timeout(self, seat: int, a: Action) -> None:
        """Everyone learns that the time ran out; only the seat learns what was decided for it
        (the answer may be a secret, e.g. a card choice); what it did shows in the log."""
        s = self.session.state
        name = self.names[seat]
        self.notes.append((s.all, f"Time ran out for {name}: the {TIMEOUT_BOT} bot decides."))
        self.notes.append((1 << seat, f"For {name}, the {TIMEOUT_BOT} bot answered: {a}."))

    # --- telling the clients --------------------------------------------------------------------
    def _broadcast(self) -> None:
        """Queue an update for every client (never waits). The spectators' update is computed
        and encoded once per change and shared by all of them."""
        shared: dict[tuple[int, int], str] = {}
        for client in list(self.clients):
            if client.seat is None:
                start = (client.raw_sent, client.notes_sent)
                text = shared.get(start)
                if text is None:
                    text = shared[start] = encode(self.update_for(client))
                else:
                    client.raw_sent, client.notes_sent = self._sent_marks()
                client.outbox.put(text)
            else:
                client.outbox.put(self.update_for(client))
            if client.outbox.closed:  # gone, or too slow: it can reconnect and resync
                self.leave(client)

    def _sent_marks(self) -> tuple[int, int]:
        return len(self.session.state.events or []), len(self.notes)

    def update_for(self, client: Client) -> dict[str, Any]:
        s = self.session.state
        seat = client.seat
        events = s.events or []
        new = [
            {"kind": EVENT_NAMES[e[1]], "text": describe(e, s.n, self.names)}
            for e in events[client.raw_sent :]
            if can_see(e[0], seat)
        ]
        notes = [text for audience, text in self.notes[client.notes_sent :]
                 if can_see(audience, seat)]  # fmt: skip
        client.raw_sent, client.notes_sent = self._sent_marks()
        message: dict[str, Any] = {
            "op": "update",
            "v": VERSION,
            "turn": len(s.history),
            "view": s.view(seat),
            "events": new,
            "notes": notes,
            "question": None,
        }
        if seat is not None and s.current_player() == seat and not s.is_terminal():
            d = s.pending(self.names)
            message["question"] = {
                "kind": d.kind,
                "prompt": d.prompt,
                "options": [
                    {"action": str(a), "label": label}
                    for a, label in zip(d.actions, d.options, strict=True)
                ],
                "context": d.context,
                "deadline": self.record.seconds_per_decision,
            }
        return message

    def summary(self) -> dict[str, Any]:
        s = self.session.state
        return {
            "id": self.id,
            "players": s.n,
            "edition": self.record.config["edition"],
            "ghost": s.gh >= 0,
            "seats": [{"name": seat["name"], "bot": seat["bot"]} for seat in self.record.seats],
            "round": s.rnd,
            "finished": s.is_terminal(),
            "watchers": len(self.clients),
            "storage_error": self.storage_error is not None,
            "available": True,
        }

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._auto is not None:
            self._auto.cancel()
