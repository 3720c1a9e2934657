"""What the stored results say of players (issue 25): ratings, the ladder, a player's profile,
head-to-head, and how a player fares against each bot. Reads only, each bounded by a LIMIT; run
them in a thread (`asyncio.to_thread`), never on the event loop.

Everything returned is public: names, places, scores and ratings of finished games. No card of any
hand is stored with a result, so none can appear here (`tests/web/test_profiles.py` checks it the
two-worlds way).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..ratings import Rating
from ..rules import EDITIONS
from .store import Store

RECENT = 20  # games listed on a profile
HISTORY = 500  # rating points in a profile's chart, per edition (the newest)
LADDER = 100  # players on the ladder
LADDER_GAMES = 10  # rated games a player needs to be on the ladder
# a result's seat won the game: its `won` (not when the Ghost Ship won), or for results stored
# before that column, its place among the players
WON = "(won = 1 OR (won IS NULL AND place = 1))"


@dataclass(frozen=True)
class Shown:
    """A rating as the lobby and the pages show it."""

    display: int
    provisional: bool
    games: int

    @staticmethod
    def of(r: Rating) -> Shown:
        return Shown(r.display, r.provisional, r.games)

    def to_dict(self) -> dict[str, Any]:
        return {"display": self.display, "provisional": self.provisional, "games": self.games}


def ratings(store: Store, player_ids: list[str], edition: str) -> dict[str, Rating]:
    """The players' ratings in an edition (a newcomer's for those without rated games)."""
    ids = sorted(set(player_ids))[:6]
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    rows = store.read(f"SELECT player_id, mu, sigma, games FROM ratings WHERE edition = ? AND "
                      f"player_id IN ({marks})", (edition, *ids))  # fmt: skip
    found = {str(p): Rating(float(mu), float(sigma), int(n)) for p, mu, sigma, n in rows}
    return {p: found.get(p, Rating()) for p in ids}


def editions(store: Store, player_id: str) -> dict[str, Rating]:
    """A player's rating in every edition (a newcomer's where they have no rated game)."""
    rows = store.read("SELECT edition, mu, sigma, games FROM ratings WHERE player_id = ?",
                      (player_id,))  # fmt: skip
    found = {str(e): Rating(float(mu), float(sigma), int(n)) for e, mu, sigma, n in rows}
    return {e: found.get(e, Rating()) for e in EDITIONS}


def ladder(store: Store, edition: str, min_games: int = LADDER_GAMES) -> list[dict[str, Any]]:
    """The best `LADDER` players of an edition with at least `min_games` rated games, by shown
    rating (mu − 3 sigma)."""
    rows = store.read(
        "SELECT r.player_id, p.name, r.mu, r.sigma, r.games FROM ratings r JOIN players p ON "
        "p.id = r.player_id WHERE r.edition = ? AND r.games >= ? "
        "ORDER BY r.mu - 3 * r.sigma DESC, r.player_id LIMIT ?",
        (edition, min_games, LADDER),
    )
    out = []
    for rank, (pid, name, mu, sigma, n) in enumerate(rows, 1):
        shown = Shown.of(Rating(float(mu), float(sigma), int(n)))
        out.append({"rank": rank, "id": str(pid), "name": str(name), **shown.to_dict()})
    return out


def _name(store: Store, player_id: str) -> str | None:
    rows = store.read("SELECT name FROM players WHERE id = ?", (player_id,))
    return str(rows[0][0]) if rows else None


def profile(store: Store, player_id: str) -> dict[str, Any] | None:
    """A player's public page: name, rating and its history per edition, games by player count,
    recent games with everyone's places, and results against each bot level. None: no such
    player."""
    name = _name(store, player_id)
    if name is None:
        return None
    editions: dict[str, Any] = {}
    for edition, mu, sigma, n in store.read(
        "SELECT edition, mu, sigma, games FROM ratings WHERE player_id = ? ORDER BY edition",
        (player_id,),
    ):
        points = store.read(
            "SELECT at, mu_after, sigma_after, table_id, mu_before, sigma_before FROM results "
            "WHERE player_id = ? AND edition = ? AND rated = 1 ORDER BY at DESC LIMIT ?",
            (player_id, edition, HISTORY),
        )
        history = [{"at": float(at), "table": str(t),
                    "display": Rating(float(m), float(s), 1).display}
                   for at, m, s, t, _, _ in reversed(points)]  # fmt: skip
        if points:  # where the chart starts: the rating before the first game shown
            at, _, _, _, m, s = points[-1]
            history.insert(0, {"at": float(at), "table": None,
                               "display": Rating(float(m), float(s), 1).display})  # fmt: skip
        rating = Rating(float(mu), float(sigma), int(n))
        editions[str(edition)] = {**Shown.of(rating).to_dict(), "history": history}
    by_count = [
        {"players": int(k), "games": int(g), "won": int(w), "mean_score": float(sc),
         "mean_place": float(pl)}
        for k, g, w, sc, pl in store.read(
            f"SELECT players, COUNT(*), SUM(CASE WHEN {WON} THEN 1 ELSE 0 END), AVG(score), "
            "AVG(place) FROM results WHERE player_id = ? GROUP BY players ORDER BY players",
            (player_id,),
        )
    ]  # fmt: skip
    return {"id": player_id, "name": name, "ratings": editions, "by_players": by_count,
            "recent": recent(store, player_id), "bots": against_bots(store, player_id)}  # fmt: skip


def recent(store: Store, player_id: str, limit: int = RECENT) -> list[dict[str, Any]]:
    """The player's newest finished games, each with every seat's name, place and score."""
    mine = store.read(
        "SELECT table_id, seat, at, edition, rated, place, mu_before, sigma_before, mu_after, "
        f"sigma_after, {WON} FROM results WHERE player_id = ? ORDER BY at DESC LIMIT ?",
        (player_id, limit),
    )
    if not mine:
        return []
    ids = [str(r[0]) for r in mine]
    marks = ", ".join("?" for _ in ids)
    seats: dict[str, list[dict[str, Any]]] = {t: [] for t in ids}
    for t, seat, pid, bot, name, place, score, abandoned in store.read(
        "SELECT table_id, seat, player_id, bot, name, place, score, abandoned FROM results "
        f"WHERE table_id IN ({marks}) ORDER BY table_id, seat",
        ids,
    ):
        seats[str(t)].append({"seat": int(seat), "id": pid, "bot": bot, "name": str(name),
                              "place": int(place), "score": int(score),
                              "abandoned": bool(abandoned)})  # fmt: skip
    out = []
    for t, seat, at, edition, rated, place, mb, sb, ma, sa, won in mine:
        change = None
        if rated and mb is not None and ma is not None:
            before = Rating(float(mb), float(sb), 1).display
            change = {"before": before, "after": Rating(float(ma), float(sa), 1).display}
        out.append({"table": str(t), "seat": int(seat), "at": float(at), "edition": str(edition),
                    "rated": bool(rated), "place": int(place), "won": bool(won),
                    "rating": change,
                    "seats": seats[str(t)]})  # fmt: skip
    return out


def against_bots(store: Store, player_id: str) -> list[dict[str, Any]]:
    """For each bot the player has met (casual tables): games together, and the times the player
    finished ahead of it, level with it, behind it."""
    rows = store.read(
        "SELECT b.bot, COUNT(*), SUM(CASE WHEN m.place < b.place THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN m.place = b.place THEN 1 ELSE 0 END) FROM results m JOIN results b ON "
        "b.table_id = m.table_id AND b.bot IS NOT NULL WHERE m.player_id = ? GROUP BY b.bot "
        "ORDER BY COUNT(*) DESC LIMIT 20",
        (player_id,),
    )
    return [{"bot": str(bot), "games": int(n), "ahead": int(a), "level": int(e),
             "behind": int(n) - int(a) - int(e)} for bot, n, a, e in rows]  # fmt: skip


def versus(store: Store, player_id: str, other_id: str) -> dict[str, Any] | None:
    """Two players' games together: how often each finished ahead, level, and the games."""
    a, b = _name(store, player_id), _name(store, other_id)
    if a is None or b is None or player_id == other_id:
        return None
    rows = store.read(
        "SELECT x.table_id, x.at, x.place, y.place, x.rated FROM results x JOIN results y ON "
        "y.table_id = x.table_id AND y.player_id = ? WHERE x.player_id = ? ORDER BY x.at DESC "
        "LIMIT 1000",
        (other_id, player_id),
    )
    places = [(int(p), int(q)) for _, _, p, q, _ in rows]
    games = [{"table": str(t), "at": float(at), "place": int(p), "their_place": int(q),
              "rated": bool(r)} for t, at, p, q, r in rows[:RECENT]]  # fmt: skip
    return {"player": {"id": player_id, "name": a}, "other": {"id": other_id, "name": b},
            "games": len(places), "ahead": sum(p < q for p, q in places),
            "level": sum(p == q for p, q in places), "behind": sum(p > q for p, q in places),
            "recent": games}  # fmt: skip
