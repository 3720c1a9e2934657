"""Live tables: a game, its seats and tokens, the connected clients, the bots and the clock.

The engine decides every rule; a table only relays questions and answers. Every decision is
appended to the store before it is applied and acknowledged, so a restarted server rebuilds each
table exactly by replaying it.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..bots import parse_spec
from ..rules import CHANCE, Action, Config, ParseError
from ..rules.events import EVENT_NAMES, describe
from ..rules.view import can_see
from ..session import GameSession, Seat, clean_name
from .protocol import VERSION, Act, Hello, ProtocolError
from .store import ActionRow, Store, TableRecord

TIMEOUT_BOT = "greedy"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Conn(Protocol):
    async def send(self, message: dict[str, Any]) -> None: ...


class Client:
    """One connection: its seat (None: a spectator) and how much of the log it has been sent."""

    def __init__(self, conn: Conn, seat: int | None) -> None:
        self.conn = conn
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
        """Rebuild a table from its stored decisions."""
        table = LiveTable(record, store)
        s = table.session.state
        for row in store.actions(record.id):
            if row.seq != len(s.history):
                raise ValueError(f"table {record.id}: decision {row.seq} is out of order")
            if row.by == "timeout":
                table._note_timeout(s.current_player(), Action.from_id(row.action))
            s.apply(row.action)
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

    async def join(self, conn: Conn, hello: Hello) -> Client:
        seat = self.check_seat(hello)
        client = Client(conn, seat)
        async with self.lock:
            self.clients.append(client)
            await conn.send(self.welcome(seat))
            await self._send_update(client)
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
            self._commit([(a, "player")])
            await self._broadcast()
        self.kick()

    def _commit(self, decisions: list[tuple[Action, str]]) -> None:
        """Apply the decisions (and the dice that follow them), then store them all in one
        transaction; the clients hear of them only after that (a decision is stored before it
        is acknowledged). If the store fails, the table is rebuilt from what was stored."""
        s = self.session.state
        start = len(s.history)
        rows = []
        for a, by in decisions:
            rows.append(ActionRow(len(s.history), int(a), by))
            s.apply(a)
        while s.current_player() == CHANCE:
            a = self.session.auto_action()
            rows.append(ActionRow(len(s.history), int(a), "chance"))
            s.apply(a)
        try:
            self.store.append_many(self.id, rows)
        except Exception:
            self._reload(start)
            raise
        if s.is_terminal():
            self.store.finish(self.id)
            self.record.finished = True
        if self.on_change is not None:
            self.on_change()

    def _reload(self, upto: int) -> None:
        fresh = LiveTable.restore(self.record, self.store)
        self.session = fresh.session
        assert len(self.session.state.history) <= upto or upto < 0

    # --- bots, dice and the clock ---------------------------------------------------------------
    def kick(self) -> None:
        """Make sure the bots and the dice play on if it is their turn, and the clock runs."""
        if self._auto is None or self._auto.done():
            self._auto = asyncio.get_running_loop().create_task(self._play_auto())

    async def _play_auto(self) -> None:
        session = self.session
        while True:
            async with self.lock:
                session = self.session
                if not session.waiting_for_bot_or_chance():
                    break
                if session.state.current_player() == CHANCE:
                    self._commit([])
                else:  # a bot thinks in a worker thread: the event loop stays free
                    a = await asyncio.to_thread(session.auto_action)
                    self._commit([(a, "bot")])
                await self._broadcast()
            await asyncio.sleep(0)
        self._arm_timer()

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
            a = await asyncio.to_thread(self.session.bot_action, TIMEOUT_BOT, who)
            self._note_timeout(who, a)
            self._commit([(a, "timeout")])
            await self._broadcast()
        self.kick()

    def _note_timeout(self, seat: int, a: Action) -> None:
        """Everyone learns that the time ran out; only the seat learns what was decided for it
        (the answer may be a secret, e.g. a card choice); what it did shows in the log."""
        s = self.session.state
        name = self.names[seat]
        self.notes.append((s.all, f"Time ran out for {name}: the {TIMEOUT_BOT} bot decides."))
        self.notes.append((1 << seat, f"For {name}, the {TIMEOUT_BOT} bot answered: {a}."))

    # --- telling the clients --------------------------------------------------------------------
    async def _broadcast(self) -> None:
        for client in list(self.clients):
            try:
                await self._send_update(client)
            except Exception:  # a closed socket: forget it
                self.leave(client)

    def update_for(self, client: Client) -> dict[str, Any]:
        s = self.session.state
        seat = client.seat
        events = s.events or []
        new = [
            {"kind": EVENT_NAMES[e[1]], "text": describe(e, s.n, self.names)}
            for e in events[client.raw_sent :]
            if can_see(e[0], seat)
        ]
        client.raw_sent = len(events)
        notes = [text for audience, text in self.notes[client.notes_sent :]
                 if can_see(audience, seat)]  # fmt: skip
        client.notes_sent = len(self.notes)
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

    async def _send_update(self, client: Client) -> None:
        await client.conn.send(self.update_for(client))

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
        }

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._auto is not None:
            self._auto.cancel()
