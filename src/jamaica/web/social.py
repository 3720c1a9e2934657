"""The social side of a live table (docs/lobby.md): who sits where, taking an open seat, starting
early, claiming an invite, declining a rematch seat, presence, a bot standing in for a player who
is away (and giving the seat back), the chat and the result. A mixin of `LiveTable`, which keeps
the game; it is here to keep each file about one thing."""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

from ..bots import parse_spec
from ..i18n import LANGUAGES, Words
from ..ratings.places import competition_places
from ..rules.scoring import rank_key
from ..session import GameSession, Seat, clean_name
from . import seating
from .chat import (
    ADDRESSES,
    KEPT,
    PLAYER_LINES,
    SPECTATOR_LINES,
    ChatLimit,
    chat_text,
    check_chat,
    clean_text,
)
from .outbox import Outbox, encode, spawn
from .pacing import Pace
from .players import Player
from .protocol import VERSION, Hello, ProtocolError
from .store import ChatRow, Store, TableRecord

SEATS_EVERY = 0.2  # seconds between two seats messages of a table
TIMEOUT_BOT = "greedy"  # decides for a player out of time, and plays for one who is away


def seat_grace() -> float:
    """Seconds a seated player may be away (while another human is here) before a bot plays for
    them (`JAMAICA_SEAT_GRACE`, default 120)."""
    return float(os.environ.get("JAMAICA_SEAT_GRACE", 120))


class Client:
    """One connection: its seat (None: a spectator), its outbox, and how much of the log and
    the notes it has been sent."""

    def __init__(
        self, outbox: Outbox, seat: int | None, player: Player | None = None,
        address: str = "unknown", lang: str = "en",
    ) -> None:  # fmt: skip
        self.outbox = outbox
        self.lang = lang  # the language of the words it is sent
        self.seat = seat
        self.player = player
        self.address = address
        self.raw_sent = 0  # engine events already looked at for this client
        self.notes_sent = 0

    def chat_key(self) -> str:
        """Who sends a chat line, for its limit: the player, else the seat, else the address
        (so reconnecting starts no new budget)."""
        if self.player is not None:
            return f"player:{self.player.id}"
        if self.seat is not None:
            return f"seat:{self.seat}"
        return f"address:{self.address}"


def note_words(message: str, **values: Any) -> dict[str, str]:
    """A note's words in every language (`message`: English, a catalog message id)."""
    return {lang: Words(lang)(message, **values) for lang in LANGUAGES}


class Social:
    """Seats, presence and chat of a table (mixed into `LiveTable`)."""

    record: TableRecord
    store: Store
    session: GameSession
    names: list[str]
    lock: asyncio.Lock
    clients: list[Client]
    notes: list[tuple[int, dict[str, str], int]]  # (audience, text per language, events before)
    chat: list[ChatRow]
    chat_seq: int
    away_since: dict[int, float]
    timeouts: dict[int, int]
    _absence: asyncio.TimerHandle | None
    _seats_pace: Pace
    chat_limits: ChatLimit
    _logs: dict[tuple[int | None, str], tuple[list[int], list[dict[str, Any]]]]
    _logs_seen: dict[tuple[int | None, str], int]
    _described: dict[str, dict[int, dict[str, Any]]]
    spectators_chat: ChatLimit

    # provided by LiveTable
    @property
    def id(self) -> str:
        raise NotImplementedError

    def kick(self) -> None:
        raise NotImplementedError

    def _broadcast(self) -> None:
        raise NotImplementedError

    def _arm_timer(self) -> None:
        raise NotImplementedError

    def _storage_failed(self, e: Exception) -> None:
        raise NotImplementedError

    def check_seat(self, hello: Hello, player: Player | None = None) -> int | None:
        raise NotImplementedError

    def seat_of(self, player: Player) -> int | None:
        """The seat this player holds at this table (None: they watch)."""
        for i, seat in enumerate(self.record.seats):
            if seating.holder(seat) == player.id:
                return i
        return None

    def watchers(self) -> int:
        """Connections that watch (no seat)."""
        return sum(c.seat is None for c in self.clients)

    def connected_seats(self) -> set[int]:
        return {c.seat for c in self.clients if c.seat is not None}

    def status(self) -> str:
        if self.record.finished or self.session.state.is_terminal():
            return "finished"
        return "playing" if self.record.started else "waiting"

    def public_seats(self) -> list[dict[str, Any]]:
        here = self.connected_seats()
        return [seating.public(seat, i in here) for i, seat in enumerate(self.record.seats)]

    def seats_message(self) -> dict[str, Any]:
        return {"op": "seats", "v": VERSION, "status": self.status(),
                "seats": self.public_seats(), "watchers": self.watchers()}  # fmt: skip

    def _broadcast_seats(self) -> None:
        """Queue the seats message in every client's `seats` slot, at most once every SEATS_EVERY
        seconds per table: a burst of joins is one message to each client, not one per join."""
        self._seats_pace.request()

    def _flush_seats(self) -> None:
        text = encode(self.seats_message())  # the same for everyone: nothing secret in it
        for client in list(self.clients):
            client.outbox.put_latest("seats", text)

    async def _save_record(self) -> None:
        try:
            await asyncio.to_thread(self.store.update_table, self.record)
        except Exception as e:
            self._storage_failed(e)
            raise ProtocolError(
                "not_stored", "the server could not store that: try again"
            ) from None

    def _set_seat(self, i: int, **fields: Any) -> None:
        self.record.seats[i] = {**self.record.seats[i], **fields}
        seat = self.record.seats[i]
        self.session.seats[i] = Seat(seat["name"], seating.bot_of(seat, TIMEOUT_BOT))
        self.names[i] = seat["name"]
        self._logs.clear()  # the log is described anew with the new name
        self._logs_seen.clear()
        self._described.clear()

    async def sit(self, player: Player, i: int) -> None:
        """`player` takes open seat `i` (or the seat reserved for them); the game starts once no
        seat waits for a player."""
        async with self.lock:
            seats = self.record.seats
            if not 0 <= i < len(seats):
                raise ProtocolError("bad_seat", "seats are 0 to {last}", last=len(seats) - 1)
            k = seating.kind(seats[i])
            mine = k == "reserved" and seats[i].get("player") == player.id
            if k != "open" and not mine:
                raise ProtocolError("taken", "that seat is taken")
            held = self.seat_of(player)
            if held is not None:
                raise ProtocolError("seated", "you sit at seat {seat} of this table already",
                                    seat=held + 1)  # fmt: skip
            before = dict(seats[i])
            name = seating.unique_name(player.name, seats, i)
            self._set_seat(i, kind="player", player=player.id, name=name)
            if not any(seating.kind(x) in seating.WAITING for x in seats):
                self.record.started = True
            try:
                await self._save_record()
            except ProtocolError:
                self._set_seat(i, **before)
                self.record.started = False
                raise
            self.away_since[i] = time.time()
            self._broadcast_seats()
            self._broadcast()
        self.kick()

    async def start_now(self, player: Player, bot: str) -> None:
        """The creator starts a waiting table: `bot` plays every seat still open or reserved."""
        parse_spec(bot)
        async with self.lock:
            if self.record.creator != player.id:
                raise ProtocolError("not_creator", "only the table's creator can start it early")
            if self.record.started:
                raise ProtocolError("started", "the game has started already")
            before = [dict(x) for x in self.record.seats]
            for i, seat in enumerate(self.record.seats):
                if seating.kind(seat) in seating.WAITING:
                    name = seating.unique_name(clean_name("", i), self.record.seats, i)
                    self._set_seat(i, kind="bot", bot=bot, player=None, name=name)
            self.record.started = True
            try:
                await self._save_record()
            except ProtocolError:
                for i, seat in enumerate(before):
                    self._set_seat(i, **seat)
                self.record.started = False
                raise
            self._broadcast_seats()
            self._broadcast()
        self.kick()

    async def claim(self, player: Player, i: int, token: str) -> None:
        """An invite seat opened with its token is bound to the player who opened it."""
        async with self.lock:
            self.check_seat(Hello(i, token), player)
            held = self.seat_of(player)
            if held is not None and held != i:
                raise ProtocolError("seated", "you sit at seat {seat} of this table already",
                                    seat=held + 1)  # fmt: skip
            if self.record.seats[i].get("player") not in (None, player.id):
                raise ProtocolError("taken", "another player holds that seat")
            self._set_seat(i, player=player.id)
            await self._save_record()

    async def decline(self, player: Player) -> None:
        """A player declines the rematch seat kept for them: it becomes open."""
        async with self.lock:
            for i, seat in enumerate(self.record.seats):
                if seating.kind(seat) == "reserved" and seat.get("player") == player.id:
                    self._set_seat(i, kind="open", player=None, name=seating.OPEN_NAME)
                    await self._save_record()
                    self._broadcast_seats()
                    return
            raise ProtocolError("no_seat", "no seat of this table is kept for you")

    async def back(self, client: Client) -> None:
        async with self.lock:
            if client.seat is None or not self.record.seats[client.seat].get("replaced"):
                raise ProtocolError("not_replaced", "nobody plays your seat but you")
            await self._take_back(client.seat)
            self._broadcast()
        self.kick()

    def note(self, audience: int, text: dict[str, str], at: int | None = None) -> None:
        """A line for the log of those in `audience` (as for events), in each language
        (`note_words` makes it), placed after the game's first `at` events (default: all so
        far), so that a page shows it where it happened."""
        events = self.session.state.events
        self.notes.append((audience, text, len(events or ()) if at is None else at))

    async def _replace(self, i: int, why: str) -> None:
        """A bot plays seat i until its player comes back (told to everyone)."""
        self._set_seat(i, replaced=True)
        try:
            await self._save_record()
        except ProtocolError:
            self._set_seat(i, replaced=False)
            return
        self.note(self.session.state.all, note_words(why, name=self.names[i], bot=TIMEOUT_BOT))
        self._broadcast_seats()
        self._arm_timer()

    async def _take_back(self, i: int) -> None:
        self._set_seat(i, replaced=False)
        try:
            await self._save_record()
        except ProtocolError:
            self._set_seat(i, replaced=True)
            raise
        self.timeouts.pop(i, None)
        self.note(self.session.state.all, note_words("{name} is back.", name=self.names[i]))
        self._broadcast_seats()
        self._arm_timer()

    def _absent(self, now: float) -> list[tuple[int, float]]:
        """Seated humans who are away while another human is here: (seat, when grace ends)."""
        if not self.record.started or self.status() == "finished":
            return []
        here = self.connected_seats()
        out = []
        for i, seat in enumerate(self.record.seats):
            if seating.kind(seat) == "bot" or seat.get("replaced") or i in here:
                continue
            others = any(j != i and seating.is_human(self.record.seats[j]) for j in here)
            if others:
                out.append((i, self.away_since.get(i, now) + seat_grace()))
        return out

    def _check_absence(self) -> None:
        """Arm one timer for the first absent player's end of grace."""
        if self._absence is not None:
            self._absence.cancel()
            self._absence = None
        absent = self._absent(time.time())
        if absent:
            due = min(end for _, end in absent)
            loop = asyncio.get_running_loop()
            delay = max(0.0, due - time.time()) + 0.05
            self._absence = loop.call_later(delay, lambda: spawn(self._absence_due()))

    async def _absence_due(self) -> None:
        async with self.lock:
            now = time.time()
            for i, end in self._absent(now):
                if end <= now:
                    await self._replace(
                        i, "{name} has left: the {bot} bot plays for them until they come back.")
            self._broadcast()
            self._check_absence()
        self.kick()

    async def say(self, client: Client, text: str) -> None:
        """A chat line from a player or a spectator: checked, stored, then shown to everyone.
        Limits: per player (or seat, or anonymous address) at this table, per address at every
        table, and for the spectators of this table together — never the players' lines. The
        table keeps the newest lines of each kind (chat is never full)."""
        line = clean_text(text)
        limits = [(self.chat_limits, client.chat_key()), (ADDRESSES, client.address)]
        if client.seat is None:
            limits.append((self.spectators_chat, "all"))
        check_chat(limits)
        if client.seat is not None:
            name = self.names[client.seat]
        elif client.player is not None:
            name = seating.unique_name(client.player.name, self.record.seats, -1)
        else:
            name = "A spectator"
        keep = SPECTATOR_LINES if client.seat is None else PLAYER_LINES
        async with self.lock:
            row = ChatRow(self.chat_seq, time.time(), client.seat, name, line)
            try:
                await asyncio.to_thread(self.store.add_chat, self.id, row, keep)
            except Exception as e:
                self._storage_failed(e)
                raise ProtocolError(
                    "not_stored", "the server could not keep your message"
                ) from None
            self.chat_seq += 1
            self.chat = [*self.chat[-(KEPT - 1) :], row]
            for other in list(self.clients):
                other.outbox.put_merged("chat", [row], chat_text)

    def offer_rematch(self, new_id: str, by: str) -> None:
        self.record.rematch = new_id
        text = encode({"op": "rematch", "v": VERSION, "table": new_id, "by": by})
        for client in list(self.clients):
            client.outbox.put(text)

    def result(self) -> list[dict[str, Any]] | None:
        """Each ship's final score and rank (1: a winner), once the game is over: the players'
        by seat, then the Ghost Ship's (`"ghost": true`), which scores like a player and can win
        (RULES §10) — a player behind it is not first."""
        s = self.session.state
        if not s.is_terminal():
            return None
        ranks = competition_places([rank_key(s, k) for k in range(s.ns)])  # the engine's order
        out: list[dict[str, Any]] = []
        for i, sc in enumerate(s.scores()):
            out.append({"name": self.names[i], "score": sc.total, "rank": ranks[i]})
            if i == s.gh:
                out[-1]["ghost"] = True
        return out
