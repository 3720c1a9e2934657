"""A finished table's results, and the ratings they move (issue 25).

When a table finishes, the transaction that stores its last decisions also stores one result per
seat — place (ties shared, R8), score, who sat there — and, at a rated table, moves the players'
ratings (`jamaica.ratings`). A table's results are written once: their key is (table, seat), and
a table that already has results is not rated again (a retried commit, a node that took the table
over and replays it). Everything here is public once the game is over: places, scores, names; no
card of any hand.

Rows are locked in the players' order, as every transaction of several rows does (see
`SQLStore.append_batch`): two finishing tables sharing players never deadlock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..ratings import Key, Rating, places_of, rate_game
from . import seating
from .sqltx import Tx

if TYPE_CHECKING:
    from ..rules.state import State


@dataclass(frozen=True)
class SeatResult:
    seat: int
    player: str | None  # the player who held the seat at the end (None: a bot's seat, an invite)
    bot: str | None  # the bot's spec, for a bot's seat
    name: str
    place: int  # 1 for the winners; equal places for a tie (R8); an abandoned seat is last
    score: int
    abandoned: bool  # left, replaced by a bot, and not back by the end
    won: bool = False  # its ship won the game (not when the Ghost Ship did, nor after leaving)


@dataclass(frozen=True)
class Outcome:
    edition: str
    rated: bool
    seats: tuple[SeatResult, ...]

    @property
    def players(self) -> int:
        return len(self.seats)


def outcome_of(state: State, seats: Sequence[dict[str, Any]], rated: bool) -> Outcome:
    """A finished game's outcome from its state (the engine's ranking) and its stored seats."""
    abandoned = [i for i, seat in enumerate(seats) if seat.get("replaced")]
    if len(abandoned) == len(seats):
        abandoned = []  # nobody stayed: the ships' own order, and nobody is rated below anyone
    places = places_of(state, abandoned)
    scores = state.scores()
    winners = set(state.winners())
    out = []
    for i, seat in enumerate(seats):
        kind = seating.kind(seat)
        holder = seating.holder(seat)
        bot = seat.get("bot") if kind == "bot" else None
        out.append(SeatResult(i, holder, bot if isinstance(bot, str) else None,
                              str(seat.get("name", "")), places[i], scores[i].total,
                              i in abandoned, i in winners and i not in abandoned))  # fmt: skip
    return Outcome(state.cfg.edition, rated, tuple(out))


def rateable(outcome: Outcome) -> bool:
    """A rated result needs every seat held by a different player at the end."""
    ids = [s.player for s in outcome.seats]
    return outcome.rated and None not in ids and len(set(ids)) == len(ids)


def record(db: Tx, table_id: str, outcome: Outcome, now: float, for_update: str = "") -> None:
    """Store a finished table's results (and move its players' ratings if it is rated), once.
    `for_update`: the back-end's row-locking clause (" FOR UPDATE"; SQLite has one writer)."""
    if db.run("SELECT 1 FROM results WHERE table_id = ? LIMIT 1", (table_id,)):
        return  # already counted
    before: dict[str, Rating] = {}
    after: dict[str, Rating] = {}
    rated = rateable(outcome)
    if rated:
        ids = sorted(s.player for s in outcome.seats if s.player is not None)
        marks = ", ".join("?" for _ in ids)
        rows = db.run(f"SELECT player_id, mu, sigma, games FROM ratings WHERE edition = ? AND "
                      f"player_id IN ({marks}) ORDER BY player_id{for_update}",
                      (outcome.edition, *ids))  # fmt: skip
        found = {str(p): Rating(float(mu), float(sigma), int(n)) for p, mu, sigma, n in rows}
        before = {p: found.get(p, Rating()) for p in ids}
        keys = {p: Key(p, outcome.edition) for p in ids}
        new = rate_game({keys[p]: before[p] for p in ids},
                        {keys[s.player]: s.place for s in outcome.seats
                         if s.player is not None})  # fmt: skip
        after = {p: new[keys[p]] for p in ids}
        for p in ids:
            r = after[p]
            if p in found:
                db.run("UPDATE ratings SET mu = ?, sigma = ?, games = ? WHERE player_id = ? AND "
                       "edition = ?", (r.mu, r.sigma, r.games, p, outcome.edition))  # fmt: skip
            else:
                db.run("INSERT INTO ratings (player_id, edition, mu, sigma, games) VALUES "
                       "(?, ?, ?, ?, ?)", (p, outcome.edition, r.mu, r.sigma, r.games))  # fmt: skip
    rows_out = []
    for s in outcome.seats:
        b = before.get(s.player) if s.player is not None else None
        a = after.get(s.player) if s.player is not None else None
        rows_out.append((table_id, s.seat, s.player, s.bot, s.name, outcome.edition,
                         outcome.players, s.place, s.score, int(s.abandoned), int(rated),
                         b.mu if b else None, b.sigma if b else None, a.mu if a else None,
                         a.sigma if a else None, now, int(s.won)))  # fmt: skip
    db.run_many("INSERT INTO results (table_id, seat, player_id, bot, name, edition, players, "
                "place, score, abandoned, rated, mu_before, sigma_before, mu_after, sigma_after, "
                "at, won) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows_out)  # fmt: skip
