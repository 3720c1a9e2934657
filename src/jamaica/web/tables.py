"""Live tables: a game, its seats and tokens, the connected clients, the bots and the clock.

The engine decides every rule; a table only relays questions and answers. Every decision is
appended to the store before it is applied and acknowledged, so a restarted server rebuilds each
table exactly by replaying it.
"""

from __future__ import annotations

import asyncio
import bisect
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..bots import FALLBACK, parse_spec, safe_spec
from ..i18n import LANGUAGES, Words, translations
from ..i18n.events import record
from ..rules import CHANCE, Action, Config, ParseError, State
from ..rules.data import CARD_NAMES
from ..rules.hints import card_preview, move_hints, pay_plans
from ..rules.ops import T_CHOOSE
from ..rules.phrases import N_, card
from ..rules.view import can_see
from ..rules.view import cards as cards_of
from ..session import GameSession, Seat, clean_name
from . import rated, seating
from .chat import KEPT, SPECTATORS_BURST, ChatLimit, chat_text
from .committer import committer
from .health import monitor_of
from .outbox import Outbox, encode, spawn
from .pacing import Pace
from .players import Player
from .protocol import VERSION, Act, Hello, ProtocolError
from .results import outcome_of
from .social import SEATS_EVERY, TIMEOUT_BOT, Client, Social
from .standings import Shown
from .store import ActionRow, ChatRow, Store, TableRecord
from .thinking import Scheduler, bot_answer

log = logging.getLogger("jamaica.web")

BOT_DEADLINE = 30.0  # seconds a bot may think before the fallback bot decides instead
STORAGE_RETRY = 2.0  # seconds before a table retries a decision it could not store
RESTORED_GRACE = 10.0  # seconds a kept clock gives at least, after a restart or a takeover
SPECTATORS_EVERY = 0.25  # seconds between two updates to a table's spectators, at least
TIMEOUTS_BEFORE_BOT = 3  # times in a row a player runs out of time before a bot takes over


_SECURE = secrets.SystemRandom()  # live chance: nothing a player reads can predict it
_POOL: Scheduler | None = None


def bot_pool() -> Scheduler:
    """The scheduler every table's bots think in (`thinking.py`): cheap decisions in a quick
    lane of threads (`JAMAICA_BOT_THREADS`), searches in a slow lane of processes
    (`JAMAICA_BOT_PROCESSES`; each default: the number of cores, at most 8), the tables taking
    turns in each lane. A busy server queues bot decisions instead of starting workers."""
    global _POOL
    if _POOL is None:
        _POOL = Scheduler.from_env(lambda spec, state, seat: _decide(spec, state, seat))
    return _POOL


def close_bot_pool() -> None:
    """Stop the bots' workers (at shutdown); the next `bot_pool()` starts new ones."""
    global _POOL
    if _POOL is not None:
        _POOL.close()
        _POOL = None


def _decide(spec: str, state: State, seat: int) -> Action:
    """A bot's answer on a copy of the game (in a worker thread, or here for the fallback), with
    fresh secret randomness."""
    return bot_answer(spec, state, seat)


# Spectators' updates made once and shared: (log sent, notes sent) -> (text, marks after it).
_Shared = dict[tuple[str, int, int], tuple[str, tuple[int, int]]]
_Audience = tuple[int | None, str]  # a seat (None: spectators) and a language


class StorageFailed(Exception):
    """A decision could not be stored, so it was neither applied nor acknowledged."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class LiveTable(Social):
    def __init__(self, record: TableRecord, store: Store) -> None:
        self.record = record
        self.store = store
        config = Config.from_dict(record.config)
        seats = [Seat(s["name"], seating.bot_of(s, TIMEOUT_BOT)) for s in record.seats]
        # No seed: dice, draws and bots draw from the secure source; restarts replay the stored
        # outcomes (issue 9: a seed a player could search for would predict every hidden draw).
        self.session = GameSession(config, seats, None)
        self.names = [self.session.name(k) for k in range(self.session.state.ns)]
        self.lock = asyncio.Lock()
        self.clients: list[Client] = []
        # (audience, its text in each language, events before it): audiences as for events
        self.notes: list[tuple[int, dict[str, str], int]] = []
        self._auto: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self.on_change: Callable[[], None] | None = None
        self.shown: dict[str, Shown] = {}  # rated tables: the players' ratings, for the lobby
        self.storage_error: str | None = None  # set while decisions cannot be stored
        self.early: dict[int, Action] = {}  # seat -> card chosen before the engine asked
        self.early_round = -1
        self.deadline_at: float | None = None  # epoch ms when the human to move runs out of time
        self._timer_turn = -1
        self._deadline_turn = -1  # the turn whose question record.deadline belongs to
        self.touched = record.created  # the last decision (or creation) time
        self.chat: list[ChatRow] = store.chat(record.id, KEPT)
        self.chat_seq = self.chat[-1].seq + 1 if self.chat else 0
        now = time.time()
        self.away_since = {i: now for i, seat in enumerate(record.seats) if seating.is_human(seat)}
        self.timeouts: dict[int, int] = {}  # seat -> times in a row it ran out of time
        self._absence: asyncio.TimerHandle | None = None
        self.on_rematch: Callable[[str, str], None] | None = None
        self.version = 0  # changes told to the clients (see _broadcast)
        self._public: _Shared = {}  # newcomers' updates of this change
        self._public_version = -1
        self._seats_pace = Pace(SEATS_EVERY, self._flush_seats)
        self._logs: dict[_Audience, tuple[list[int], list[dict[str, Any]]]] = {}
        self._spectators_pace = Pace(SPECTATORS_EVERY, self._tell_spectators)
        self._chat_cache: tuple[int, str] = (-1, "")
        self._logs_seen: dict[_Audience, int] = {}  # engine events looked at, per audience
        # per language, engine event -> its words (any audience)
        self._described: dict[str, dict[int, dict[str, Any]]] = {}
        self._updates: dict[tuple[Any, ...], tuple[str, tuple[int, int]]] = {}  # see update_text
        self._updates_of: tuple[State | None, int] = (None, -1)  # the state they were made from
        self.chat_limits = ChatLimit()  # per player (or seat, or anonymous address)
        self.spectators_chat = ChatLimit(SPECTATORS_BURST)  # the spectators together

    @property
    def id(self) -> str:
        return self.record.id

    # --- building -------------------------------------------------------------------------------
    @staticmethod
    def create(
        store: Store,
        config: Config,
        seats: Sequence[tuple[str, str | None] | dict[str, Any]],
        seconds_per_decision: float | None = None,
        creator: Player | None = None,
        rated: bool = False,
        rating_range: tuple[int, int] | None = None,
    ) -> tuple[LiveTable, list[str | None]]:
        """A new table; returns it and each invite seat's secret token (None for the others).
        A seat is `(name, bot)` (bot None: an invite) or `{"kind", "name", "bot", "player"}`
        with a kind of `seating.KINDS`, or `me` (the creator sits there)."""
        if len(seats) != config.players:
            raise ProtocolError("bad_request", "{players} players need {players} seats",
                                players=config.players)  # fmt: skip
        if seconds_per_decision is not None and not 1 <= seconds_per_decision <= 3600:
            raise ProtocolError(
                "bad_request", "the time per decision must be between 1 and 3600 seconds"
            )
        tokens: list[str | None] = []
        rows: list[dict[str, Any]] = []
        for i, spec in enumerate(seats):
            row, token = _seat_row(i, spec, creator)
            if row.get("player") is not None and any(r.get("player") == row["player"]
                                                     for r in rows):  # fmt: skip
                raise ProtocolError("bad_request", "a player sits at one seat of a table")
            row["name"] = seating.unique_name(row["name"], rows, i)
            rows.append(row)
            tokens.append(token)
        seed = 0  # unused: live tables have no seed (see __init__)
        table_id = secrets.token_urlsafe(9)
        limit = seconds_per_decision
        waiting = any(seating.kind(r) in seating.WAITING for r in rows)
        by = creator.id if creator else None
        low, high = rating_range if rating_range is not None else (None, None)
        record = TableRecord(table_id, config.to_dict(), rows, seed, limit, time.time(),
                             started=not waiting, creator=by, rated=rated, rating_low=low,
                             rating_high=high)  # fmt: skip
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
                a = Action.from_id(row.action)
                table._note_timeout(s.current_player(), a, table._labels(s, a))
            try:
                s.apply(row.action)
            except (ValueError, TypeError) as e:
                raise ValueError(f"table {record.id}: decision {row.seq}: {e}") from None
        table.early_round = s.rnd
        table._deadline_turn = len(s.history)  # the stored deadline is the last question's
        for p, action in store.early_choices(record.id, s.rnd).items():
            if 0 <= p < s.n and s.chosen[p] < 0 and (T_CHOOSE, p) in s.stack:
                table.early[p] = Action.from_id(action)
        return table

    # --- seats ----------------------------------------------------------------------------------
    def check_seat(self, hello: Hello, player: Player | None = None) -> int | None:
        """The seat a hello opens with its token. A seat bound to a player (a claimed invite)
        opens only for that player (`player`, known by their key): the invite's token, which the
        table's creator was given too, no longer opens it."""
        if hello.seat is None:
            return None
        seats = self.record.seats
        if not 0 <= hello.seat < len(seats):
            raise ProtocolError("bad_seat", "seats are 0 to {last}", last=len(seats) - 1)
        expected = seats[hello.seat]["token_hash"]
        if expected is None:
            if seats[hello.seat].get("bot") is not None:
                raise ProtocolError("bad_seat", "a bot plays that seat")
            raise ProtocolError("bad_seat", "that seat belongs to its player: they open it where "
                                            "they played, or through the lobby's “Play on another "
                                            "device”")  # fmt: skip
        given = token_hash(hello.token or "")
        if not hmac.compare_digest(given, expected):
            raise ProtocolError("bad_token", "that is not the token of this seat")
        holder = seats[hello.seat].get("player")
        if holder is not None and (player is None or player.id != holder):
            raise ProtocolError("claimed", "a player holds this seat: only they can open it, where "
                                           "they played or through the lobby's “Play on another "
                                           "device”")  # fmt: skip
        return hello.seat

    async def join(
        self, outbox: Outbox, hello: Hello, player: Player | None = None, address: str = "unknown",
        lang: str = "en",
    ) -> Client:  # fmt: skip
        if hello.key is not None and player is None:
            raise ProtocolError("bad_key", "that is not a player's key (create a player first)")
        if hello.seat is not None:
            seat = self.check_seat(hello, player)
        else:
            seat = None if player is None else self.seat_of(player)
        client = Client(outbox, seat, player, address, hello.lang or lang)
        async with self.lock:  # nothing here waits for a client: the outbox sends
            self.clients.append(client)
            outbox.put(self.welcome(seat, player))
            if seat is not None and self.record.seats[seat].get("replaced"):
                await self._take_back(seat)  # coming back takes the seat back
                self._broadcast()  # everyone reads that they are back; the newcomer, its update
            else:
                self._queue_update(client)
            outbox.put_merged("chat", list(self.chat), self._chat_text)
            self._broadcast_seats()
            self._check_absence()
        self.kick()
        return client

    def leave(self, client: Client) -> None:
        if client in self.clients:
            self.clients.remove(client)
            if client.seat is not None and client.seat not in self.connected_seats():
                self.away_since[client.seat] = time.time()
            self._broadcast_seats()
            self._check_absence()

    def welcome(self, seat: int | None, player: Player | None = None) -> dict[str, Any]:
        return {
            "op": "welcome",
            "v": VERSION,
            "table": self.id,
            "seat": seat,
            "you": None if player is None else {"name": player.name},
            "status": self.status(),
            "names": self.names,
            "bots": [s["bot"] for s in self.record.seats],
            "config": self.record.config,
            "seconds_per_decision": self.record.seconds_per_decision,
        }

    # --- answers --------------------------------------------------------------------------------
    async def act(self, client: Client, act: Act) -> None:
        async with self.lock:
            s = self.session.state
            seat = client.seat
            if seat is None:
                raise ProtocolError("not_seated", "spectators cannot act")
            if s.is_terminal():
                raise ProtocolError("game_over", "the game is over")
            if not self.record.started:
                raise ProtocolError("waiting", "the game starts when every seat is taken")
            if self.record.seats[seat].get("replaced"):
                raise ProtocolError("replaced", "a bot plays for you: take your seat back first")
            card = s.decision_kind() == "card"
            # A card choice does not depend on what happened since it was offered — in its own
            # round: one offered before this round's cards were asked is a late resend.
            if card and act.turn is not None and act.turn < self._cards_asked_at():
                raise ProtocolError("stale", "the game has moved on since; look again")
            if s.current_player() != seat:
                if (self.can_choose_early(seat) or seat in self.early) and not act.more:
                    await self._choose_early(seat, act.action)
                    return
                if self._already_chosen(seat, act):  # a double click, a resend: nothing to do
                    raise ProtocolError("chosen", "you have chosen this card already")
                raise ProtocolError("not_your_turn", "it is not your turn to decide")
            if act.turn is not None and act.turn != len(s.history) and not card:
                raise ProtocolError("stale", "the game has moved on since; look again")
            decisions, applied = self._check_answers(seat, act.actions)
            try:
                await self._commit(decisions, applied)
            except StorageFailed:
                raise ProtocolError(
                    "not_stored",
                    "the server could not store your answer: nothing changed; "
                    "try again in a moment",
                ) from None
            self.timeouts.pop(seat, None)
            self._broadcast()
        self.kick()

    def _cards_asked_at(self) -> int:
        """The turn this round's first card was asked at: the cards are asked one after another,
        with nothing between them, so it is the turn now less the cards chosen so far."""
        s = self.session.state
        return len(s.history) - sum(1 for c in s.chosen if c >= 0)

    def _already_chosen(self, seat: int, act: Act) -> bool:
        s = self.session.state
        c = s.chosen[seat]
        return not act.more and c >= 0 and act.action.strip() == f"play {CARD_NAMES[c]}"

    def _check_answers(
        self, seat: int, texts: Sequence[str]
    ) -> tuple[list[tuple[Action, str]], State | None]:
        """Each answer must be legal in turn, and each but the first must answer a question of
        the same seat that the previous one led to: all or nothing. Returns the answers and, for
        several, a copy of the game they were applied to (what `_commit` goes on from); one
        answer is checked against the game itself (nothing is copied)."""
        s = self.session.state
        if len(texts) == 1:
            a = _parse(texts[0])
            if a not in s.legal:
                legal = ", ".join(str(x) for x in s.legal)
                raise ProtocolError("illegal", "{answer} is not legal now; legal: {legal}",
                                    answer=repr(texts[0]), legal=legal)  # fmt: skip
            return [(a, "player")], None
        trial = s.clone()
        out = []
        for i, text in enumerate(texts):
            if i and (trial.is_terminal() or trial.current_player() != seat):
                raise ProtocolError("illegal", "answer {k} ({answer}) has no question",
                                    k=i + 1, answer=repr(text))  # fmt: skip
            a = _parse(text)
            if a not in trial.legal:
                legal = ", ".join(str(x) for x in trial.legal)
                raise ProtocolError("illegal", "{answer} is not legal now; legal: {legal}",
                                    answer=repr(text), legal=legal)  # fmt: skip
            trial.apply(a)
            out.append((a, "player"))
        return out, trial

    # --- simultaneous card choice ---------------------------------------------------------------
    def can_choose_early(self, seat: int) -> bool:
        """While the engine asks the players for their cards one after another, a human whose
        turn to choose is still to come may choose now (RULES §4.2: the choice is simultaneous).
        The card is kept secret, stored, and given to the engine when it asks."""
        s = self.session.state
        if s.q is None or s.decision_kind() != "card" or s.current_player() == seat:
            return False
        if not self.session.seats[seat].human or s.chosen[seat] >= 0:
            return False
        if not self.session.seats[s.current_player()].human:
            return False  # a bot answers at once: no one waits for it
        self._forget_old_choices()
        return seat not in self.early and (T_CHOOSE, seat) in s.stack

    # A seat that chose early may choose again (e.g. a second click) until the engine asks it.

    def _forget_old_choices(self) -> None:
        if self.early_round != self.session.state.rnd:
            self.early, self.early_round = {}, self.session.state.rnd

    async def _choose_early(self, seat: int, text: str) -> None:
        s = self.session.state
        a = _parse(text)
        cards = [f"play {c}" for c in cards_of(s.hand[seat])]
        if str(a) not in cards:
            raise ProtocolError("illegal", "{answer} is not legal now; legal: {legal}",
                                answer=repr(text), legal=", ".join(cards))  # fmt: skip
        try:
            await asyncio.to_thread(self.store.save_early, self.id, s.rnd, seat, int(a))
        except Exception as e:
            self._storage_failed(e)
            raise ProtocolError(
                "not_stored", "the server could not store your card: choose again in a moment"
            ) from None
        self.early[seat] = a
        self._broadcast()

    def _early_answer(self) -> Action | None:
        """The stored early card of the human the engine asks now, if any."""
        s = self.session.state
        if s.q is None or s.is_terminal() or s.decision_kind() != "card":
            return None
        self._forget_old_choices()
        a = self.early.get(s.current_player())
        return a if a is not None and a in s.legal else None

    async def _commit(
        self, decisions: list[tuple[Action, str]], applied: State | None = None
    ) -> None:
        """Apply the decisions (and the dice that follow them) to a copy of the game, store them
        all in one transaction, and only then make the copy the game: a decision is applied and
        acknowledged only once it is stored. If storing fails, nothing changes (StorageFailed).
        `applied`: a copy of the game the decisions were applied to already (`_check_answers`)."""
        game = self.session.state
        seq = len(game.history)
        rows = []
        for a, by in decisions:
            rows.append(ActionRow(seq, int(a), by))
            seq += 1
        forked = applied is None
        if applied is None:
            s = _fork(game)
            for a, _ in decisions:
                s.apply(a)
        else:
            s = applied
        self._forget_old_choices()
        taken: list[int] = []
        while True:
            while s.current_player() == CHANCE:
                a = s.sample_chance(_SECURE)
                rows.append(ActionRow(seq, int(a), "chance"))
                seq += 1
                s.apply(a)
            who = s.current_player()  # a card chosen early is given as soon as it is asked for
            early = self.early.get(who) if s.decision_kind() == "card" else None
            if early is None or early not in s.legal:
                break
            rows.append(ActionRow(seq, int(early), "player"))
            seq += 1
            s.apply(early)
            taken.append(who)
        deadline = self._deadline_after(s)
        over = s.is_terminal()  # then its results (and ratings) go in the same transaction
        outcome = outcome_of(s, self.record.seats, self.record.rated) if over else None
        try:  # group commit, in a thread: the disk's sync never stops the other tables
            with monitor_of(self.store).commit_seconds.time():
                await committer(self.store).commit(self.id, rows, over, deadline, outcome)
        except Exception as e:
            self._storage_failed(e)
            raise StorageFailed(str(e)) from None
        monitor_of(self.store).stored(rows)
        if over and self.record.rated:  # the lobby shows the ratings this game moved
            spawn(rated.refresh(self))
        if self.storage_error is not None:
            log.warning("table %s: storage works again", self.id)
            self.storage_error = None
        self.session.state = _joined(game, s) if forked else s
        s = self.session.state
        self.record.deadline = deadline
        self._deadline_turn = len(s.history)
        for who in taken:
            self.early.pop(who, None)
        self._arm_timer()  # before anyone is told of the new question: its deadline goes with it
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
            if self._nothing_to_play():
                self._arm_timer()  # what `_play_auto` would do, without a task (most answers)
                return
            self._auto = asyncio.get_running_loop().create_task(self._play_auto())

    def _nothing_to_play(self) -> bool:
        """Whether `_play_auto` would play nothing now (no bot, dice or early card) and find the
        clock as it should be (no clock, or this question's armed already)."""
        if self.lock.locked():
            return False
        clock = self._timer is not None and self._timer_turn == len(self.session.state.history)
        if self.record.seconds_per_decision is not None and not clock:
            return False
        if not self.record.started:
            return True
        return self._early_answer() is None and not self.session.waiting_for_bot_or_chance()

    async def _play_auto(self) -> None:
        """Chance and bots play until a human must decide. A bot thinks on a copy of the game,
        outside the lock, in the bounded bot pool; if storing fails, retry a little later."""
        while self.record.started:
            async with self.lock:
                session = self.session
                early = self._early_answer()
                if early is None and not session.waiting_for_bot_or_chance():
                    break
                s = session.state
                turn, who = len(s.history), s.current_player()
                bot = None if who == CHANCE or early is not None else session.seats[who].bot
                snapshot = s.clone(log=False)
            if early is not None:
                decision: tuple[Action, str] | None = (early, "player")
                self.early.pop(who, None)
            else:
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
        """The bot's answer, from the bot scheduler within the deadline (an anonymous table's bot
        with a capped budget). If it fails or is late, the fallback bot answers at once (it takes
        under a millisecond, so it runs here even when the workers are jammed), and if that fails
        too, a random legal answer: a table never stalls."""
        anonymous = self.record.creator is None
        try:
            job = bot_pool().decide(self.id, spec, snapshot, who, anonymous=anonymous)
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
        """Start the clock of the human who must answer now (once per question: the deadline
        sent to the clients does not move)."""
        turn = len(self.session.state.history)
        if self._timer is not None and self._timer_turn == turn:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        limit = self.record.seconds_per_decision
        who = self.session.human_to_move()
        self.deadline_at = None
        if limit is None or who is None or self._early_answer() is not None:
            return
        if not self.record.started:
            return
        self._timer_turn = turn
        now = time.time()
        deadline = self.record.deadline if self._deadline_turn == turn else None
        if deadline is None:  # e.g. the game has just started: the clock starts now
            deadline = now + limit
        else:  # stored with the question, kept by a restart or another node (after a grace)
            deadline = max(deadline, now + min(limit, RESTORED_GRACE))
        self.deadline_at = round(deadline * 1000)
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(deadline - now, lambda: spawn(self._time_out(turn)))

    def _deadline_after(self, s: State) -> float | None:
        """When the question of `s` runs out of time, if a human with a clock must answer it."""
        limit = self.record.seconds_per_decision
        who = s.current_player()
        if limit is None or not self.record.started or s.is_terminal() or who < 0:
            return None
        return time.time() + limit if self.session.seats[who].human else None

    async def _time_out(self, turn: int) -> None:
        async with self.lock:
            s = self.session.state
            who = self.session.human_to_move()
            if who is None or len(s.history) != turn:
                return
            snapshot = s.clone(log=False)
        a = await self._think(TIMEOUT_BOT, snapshot, who)
        async with self.lock:
            s = self.session.state
            if len(s.history) != turn:
                return
            labels, at = self._labels(s, a), len(s.events or ())
            try:
                await self._commit([(a, "timeout")])
            except StorageFailed:
                self._arm_timer_retry(turn)
                return
            self._note_timeout(who, a, labels, at)
            self.timeouts[who] = self.timeouts.get(who, 0) + 1
            if self.timeouts[who] >= TIMEOUTS_BEFORE_BOT:
                await self._replace(who, "{name} ran out of time three times in a row: the {bot} "
                                    "bot plays for them until they come back.")  # fmt: skip
            self._broadcast()
        self.kick()

    def _arm_timer_retry(self, turn: int) -> None:
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(STORAGE_RETRY, lambda: spawn(self._time_out(turn)))

    def _labels(self, s: State, a: Action) -> dict[str, str]:
        """The answer in the player's words (the option's label), as they would have clicked it,
        in each language."""
        labels = {}
        for lang in LANGUAGES:
            d = s.pending(self.names, translations(lang))
            labels[lang] = next((str(label) for action, label in zip(d.actions, d.options,
                                                                     strict=True)
                                 if action == a), str(a))  # fmt: skip
        return labels

    def _note_timeout(
        self, seat: int, a: Action, labels: dict[str, str], at: int | None = None
    ) -> None:
        """Everyone learns that the time ran out; only the seat learns what was decided for it
        (the answer may be a secret, e.g. a card choice); what it did shows in the log. Both are
        placed before the events the answer caused (`at`: the events before it)."""
        s = self.session.state
        name = self.names[seat]
        ran_out, answered = {}, {}
        for lang in LANGUAGES:
            _ = Words(lang)
            ran_out[lang] = _("Time ran out for {name}: the {bot} bot decides.", name=name,
                              bot=TIMEOUT_BOT)  # fmt: skip
            answered[lang] = _("For {name}, the {bot} bot answered: {label}.", name=name,
                               bot=TIMEOUT_BOT, label=labels[lang])  # fmt: skip
        self.note(s.all, ran_out, at)
        self.note(1 << seat, answered, at)

    # --- telling the clients --------------------------------------------------------------------
    def _broadcast(self) -> None:
        """Tell every client that the game changed (never waits, computes nothing here): each
        client's update waits in its outbox's `update` slot, made as it leaves — so it shows the
        present and a burst of changes is one message. Players are told at once; spectators
        at most every SPECTATORS_EVERY seconds (`_tell_spectators`), sharing one encoding per
        change (`_public_update`): however many watch, the players' game goes first."""
        self.version += 1
        self._seats_pace.flush()  # a change of seats goes before the game's
        watched = False
        for client in list(self.clients):
            if client.seat is None:
                watched = True
            else:
                self._queue_update(client)
        if watched or self._spectators_pace.timer is not None:  # no spectators: nothing to pace
            self._spectators_pace.request()

    def _tell_spectators(self) -> None:
        """Every spectator's update, made as each leaves, all from one encoding per part of the
        log sent (the game may move on while they leave: the first one made is everyone's)."""
        shared: _Shared = {}
        for client in [c for c in self.clients if c.seat is None]:
            client.outbox.put_latest("update", self._public_producer(client, shared))
            if client.outbox.closed:
                self.leave(client)

    def _public_producer(self, client: Client, shared: _Shared) -> Callable[[], str]:
        return lambda: self._public_update(client, shared)

    def _queue_update(self, client: Client) -> None:
        if client.seat is None:  # a newcomer: at once, shared with the others of this change
            if self._public_version != self.version:
                self._public.clear()
                self._public_version = self.version
            client.outbox.put_latest("update", self._public_producer(client, self._public))
        else:
            client.outbox.put_latest("update", lambda: self.update_text(client))
        if client.outbox.closed:  # gone, or too slow: it can reconnect and resync
            self.leave(client)

    def _public_update(self, client: Client, shared: _Shared) -> str:
        """A spectator's update, encoded once for every spectator of `shared` (the spectators
        told together) who has been sent the same part of the log."""
        start = (client.lang, client.raw_sent, client.notes_sent)
        known = shared.get(start)
        if known is None:
            text = encode(self.update_for(client))
            shared[start] = (text, (client.raw_sent, client.notes_sent))
            return text
        text, (client.raw_sent, client.notes_sent) = known
        return text

    def update_text(self, client: Client) -> str:
        """A seated client's update, encoded: made once for every client of the same seat that
        has been sent the same part of the log and the notes (a player's tabs), until anything
        it shows changes — the game, the notes, the names, the clock, the cards chosen early,
        who plays which seat. Each audience's update is still made from `update_for(seat)`:
        what that seat may see, and nothing else."""
        s = self.session.state
        if self._updates_of[0] is not s or self._updates_of[1] != len(s.history):
            self._updates.clear()  # a new state: what was made from the old one is stale
            self._updates_of = (s, len(s.history))
        self._forget_old_choices()  # (update_for would, and the key must see it)
        seat = client.seat
        replaced = seat is not None and bool(self.record.seats[seat].get("replaced"))
        key = (seat, client.lang, client.raw_sent, client.notes_sent, len(s.events or ()),
               len(self.notes),
               tuple(self.names), self.deadline_at, self.record.seconds_per_decision,
               self.early_round, tuple(self.early.items()),
               tuple(x.human for x in self.session.seats), replaced)  # fmt: skip
        known = self._updates.get(key)
        if known is None:
            text = encode(self.update_for(client))
            self._updates[key] = (text, (client.raw_sent, client.notes_sent))
            return text
        text, (client.raw_sent, client.notes_sent) = known
        return text

    def _chat_text(self, rows: list[ChatRow]) -> str:
        """The chat message of a newcomer (the newest lines), encoded once per chat line."""
        if rows and rows[-1].seq == self.chat_seq - 1 and len(rows) >= len(self.chat):
            if self._chat_cache[0] != self.chat_seq:
                self._chat_cache = (self.chat_seq, chat_text(rows))
            return self._chat_cache[1]
        return chat_text(rows)

    def _log_for(self, seat: int | None, lang: str) -> tuple[list[int], list[dict[str, Any]]]:
        """The events `seat` may see, looked at once for every client of that seat reading
        `lang` (a newcomer is sent the whole log: it is not looked at again for each): their
        places in the engine's log, and the events — each described once per language for
        every audience that sees it (an event's words depend on the event and the language,
        not on who reads them)."""
        s = self.session.state
        events = s.events or []
        audience = (seat, lang)
        where, described = self._logs.setdefault(audience, ([], []))
        words = self._described.setdefault(lang, {})
        for i in range(self._logs_seen.get(audience, 0), len(events)):
            e = events[i]
            if can_see(e[0], seat):
                d = words.get(i)
                if d is None:  # the args a tuple (JSON: a list): then the garbage collector
                    # stops looking at the event's words after their first collection
                    d = words[i] = record(e, s.n, self.names, lang)
                where.append(i)
                described.append(d)
        self._logs_seen[audience] = len(events)
        return where, described

    def update_for(self, client: Client) -> dict[str, Any]:
        s = self.session.state
        seat = client.seat
        events = s.events or []
        lang = client.lang
        t = translations(lang)
        where, described = self._log_for(seat, lang)
        start = bisect.bisect_left(where, client.raw_sent)
        new = described[start:]
        seen = [(text[lang], at) for audience, text, at in self.notes[client.notes_sent :]
                if can_see(audience, seat)]  # fmt: skip
        notes = [text for text, _ in seen]
        # each note's place among this update's events: how many of them come before it
        notes_at = [min(len(new), max(0, bisect.bisect_left(where, at) - start)) for _, at in seen]
        client.raw_sent, client.notes_sent = len(events), len(self.notes)
        message: dict[str, Any] = {
            "op": "update",
            "v": VERSION,
            "turn": len(s.history),
            "view": s.view(seat),
            "events": new,
            "notes": notes,
            "notes_at": notes_at,
            "question": None,
            "waiting_for": self.waiting_for(),
            "replaced": seat is not None and bool(self.record.seats[seat].get("replaced")),
        }
        if seat is None or s.is_terminal() or message["replaced"]:
            return message  # a bot plays a replaced seat: it is asked nothing
        if s.current_player() == seat:
            d = s.pending(self.names, t)
            question: dict[str, Any] = {
                "kind": d.kind,
                "prompt": d.prompt,
                "options": [
                    {"action": str(a), "label": label}
                    for a, label in zip(d.actions, d.options, strict=True)
                ],
                "context": d.context,
                "deadline": self.record.seconds_per_decision,
                "deadline_at": self.deadline_at,
                "early": False,
            }
            if d.kind == "pay":
                question["plans"] = pay_plans(s, t=t)
            elif d.kind == "move":
                question["moves"] = move_hints(s, t)  # what each destination means (the rules')
            message["question"] = question
        elif self.can_choose_early(seat):
            message["question"] = {
                "kind": "card",
                "prompt": Words(lang)(N_("Choose your card — everyone chooses at the same time.")),
                "options": [
                    {"action": f"play {c}", "label": card(c, t)} for c in cards_of(s.hand[seat])
                ],
                "context": {},
                "deadline": None,
                "deadline_at": None,
                "early": True,
            }
        if message["question"] is not None and message["question"]["kind"] == "card":
            message["question"]["preview"] = card_preview(s, seat, t)
        early = self.early.get(seat) if self.early_round == s.rnd else None
        message["early_choice"] = str(early).split()[1] if early is not None else None
        return message

    def waiting_for(self) -> list[int]:
        """The seats the table waits for: the one the engine asks and, while cards are chosen,
        every human who may still choose at the same time."""
        s = self.session.state
        who = s.current_player()
        if who < 0:
            return []
        return [who] + [p for p in range(s.n) if p != who and self.can_choose_early(p)]

    def summary(self) -> dict[str, Any]:
        """The lobby's line for this table: nothing secret (no player ids, no tokens)."""
        s = self.session.state
        seats = self.public_seats()
        return {
            "id": self.id,
            "status": self.status(),
            "players": s.n,
            "edition": self.record.config["edition"],
            "ghost": s.gh >= 0,
            "seconds_per_decision": self.record.seconds_per_decision,
            "seats": seats,
            "open_seats": sum(x["kind"] == "open" for x in seats),
            "round": s.rnd,
            "finished": s.is_terminal(),
            "watchers": self.watchers(),
            "created": self.record.created,
            "rematch": self.record.rematch,
            "result": self.result(),
            "storage_error": self.storage_error is not None,
            "available": True,
            **rated.summary(self),
        }

    def close(self) -> None:
        self._seats_pace.cancel()
        self._spectators_pace.cancel()
        if self._absence is not None:
            self._absence.cancel()
        if self._timer is not None:
            self._timer.cancel()
        if self._auto is not None:
            self._auto.cancel()


def _fork(game: State) -> State:
    """A copy of the game to apply decisions to, without its log and its decisions so far: they
    only ever grow, and `_joined` appends the copy's own to them once the copy is stored. So an
    answer costs the same late in a long game as early (a whole copy copies both)."""
    history = game.history
    game.history = []  # not copied (the rules only append to it); given back at once
    try:
        s = game.clone(log=False)
    finally:
        game.history = history
    s.events = None if game.events is None else []
    return s


def _joined(game: State, s: State) -> State:
    """`s` (a `_fork` of `game`, decisions applied) with the log and the decisions of `game`
    before its own: `game` is left behind (its lists now belong to `s`)."""
    game.history.extend(s.history)
    s.history = game.history
    if game.events is not None and s.events is not None:
        game.events.extend(s.events)
        s.events = game.events
    return s


def _parse(text: str) -> Action:
    try:
        return Action.parse(text)
    except ParseError as e:  # the rules' words, in English, after the reader's
        raise ProtocolError("illegal", "{answer} is not an action ({why})", answer=repr(text),
                            why=str(e)) from None  # fmt: skip


def _seat_row(
    i: int, spec: tuple[str, str | None] | dict[str, Any], creator: Player | None
) -> tuple[dict[str, Any], str | None]:
    """A seat's stored record and, for an invite, its secret token; a ValueError if the seat
    makes no sense."""
    if isinstance(spec, tuple):
        name, bot = spec
        spec = {"kind": "invite" if bot is None else "bot", "name": name, "bot": bot}
    k = spec.get("kind")
    name = spec.get("name", "")
    if not isinstance(name, str):
        raise ProtocolError("bad_request", "seat {seat}: a name is text", seat=i + 1)
    if k == "bot":
        bot = spec.get("bot")
        if not isinstance(bot, str):
            raise ProtocolError("bad_request", "seat {seat}: a bot seat names its bot", seat=i + 1)
        parse_spec(bot)
        return {"kind": "bot", "name": clean_name(name, i), "bot": bot, "token_hash": None,
                "player": None}, None  # fmt: skip
    if k == "invite":
        token = secrets.token_urlsafe(24)
        return {"kind": "invite", "name": clean_name(name, i), "bot": None,
                "token_hash": token_hash(token), "player": None}, token  # fmt: skip
    if k in ("me", "open", "reserved") and creator is None:
        raise ProtocolError("bad_request", "seat {seat}: create a player first (send your "
                            "player key)", seat=i + 1)  # fmt: skip
    if k == "me":
        assert creator is not None
        return {"kind": "player", "name": creator.name, "bot": None, "token_hash": None,
                "player": creator.id}, None  # fmt: skip
    if k == "open":
        return {"kind": "open", "name": seating.OPEN_NAME, "bot": None, "token_hash": None,
                "player": None}, None  # fmt: skip
    if k == "reserved" and isinstance(spec.get("player"), str):
        return {"kind": "reserved", "name": clean_name(name, i), "bot": None, "token_hash": None,
                "player": spec["player"]}, None  # fmt: skip
    raise ProtocolError("bad_request", "seat {seat}: a seat is me, open, invite or bot",
                        seat=i + 1)  # fmt: skip
