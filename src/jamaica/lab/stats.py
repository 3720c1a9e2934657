"""Statistics over game results: win rates with 95% intervals, Elo ratings, design figures."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from .runner import GameResult

Z95 = 1.959964


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (wins may be fractional: shared wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def win_shares(r: GameResult) -> list[float]:
    """Per ship: 1 for a sole winner, 1/k for a victory shared by k."""
    share = [0.0] * len(r.scores)
    for w in r.winners:
        share[w] = 1.0 / len(r.winners)
    return share


@dataclass
class BotLine:
    bot: str
    seats: int
    wins: float
    ci: tuple[float, float]
    score: float
    position: float
    doubloons: float
    treasures: float
    rank: float
    elo: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.seats if self.seats else 0.0


def bot_table(results: Sequence[GameResult], ghost_name: str = "Ghost Ship") -> list[BotLine]:
    """One line per bot (over all the seats it played), and one for the Ghost Ship if it sailed."""
    names: list[str] = []
    for r in results:
        for b in r.bots:
            if b not in names:
                names.append(b)
    has_ghost = bool(results) and len(results[0].scores) > len(results[0].bots)
    if has_ghost:
        names.append(ghost_name)
    ratings = elo(results, names, ghost_name)
    lines = []
    for name in names:
        rows = [
            (r, k)
            for r in results
            for k in range(len(r.scores))
            if (r.bots[k] if k < len(r.bots) else ghost_name) == name
        ]
        n = len(rows)
        wins = sum(win_shares(r)[k] for r, k in rows)
        mean = [statistics.fmean(r.scores[k][i] for r, k in rows) if n else 0.0 for i in range(4)]
        rank = statistics.fmean(r.ranks[k] for r, k in rows) if n else 0.0
        lines.append(
            BotLine(name, n, wins, wilson(wins, n), mean[3], mean[0], mean[1], mean[2], rank,
                    ratings[name])
        )  # fmt: skip
    return lines


def elo(results: Sequence[GameResult], names: Sequence[str], ghost_name: str) -> dict[str, float]:
    """Elo ratings fitted to every pairwise result within the games (the better rank wins, equal
    ranks draw), by maximum likelihood; the mean rating is 1500."""
    index = {n: i for i, n in enumerate(names)}
    pairs: list[tuple[int, int, float]] = []
    for r in results:
        who = [index[r.bots[k] if k < len(r.bots) else ghost_name] for k in range(len(r.scores))]
        for a in range(len(who)):
            for b in range(a + 1, len(who)):
                if who[a] != who[b]:
                    ra, rb = r.ranks[a], r.ranks[b]
                    pairs.append((who[a], who[b], 1.0 if ra < rb else 0.5 if ra == rb else 0.0))
    rating = [0.0] * len(names)
    if pairs:
        scale = math.log(10) / 400
        for _ in range(100):  # damped Newton steps; one virtual draw against 1500 keeps it finite
            grad = [0.5 - 1 / (1 + math.exp(-scale * x)) for x in rating]
            curv = [0.25] * len(names)
            for a, b, outcome in pairs:
                p = 1 / (1 + math.exp(-scale * (rating[a] - rating[b])))
                grad[a] += outcome - p
                grad[b] -= outcome - p
                curv[a] += p * (1 - p)
                curv[b] += p * (1 - p)
            rating = [
                x + max(-200.0, min(200.0, 0.7 * g / (scale * c)))
                for x, g, c in zip(rating, grad, curv, strict=True)
            ]
        mean = statistics.fmean(rating)
        rating = [x - mean for x in rating]
    return {n: 1500.0 + rating[i] for n, i in index.items()}


def seat_table(results: Sequence[GameResult]) -> list[tuple[int, int, float, tuple[float, float]]]:
    """Win rate by seat counted from the first Captain (0 = the first Captain)."""
    if not results:
        return []
    players = len(results[0].bots)
    out = []
    for offset in range(players):
        n = len(results)
        wins = sum(win_shares(r)[(r.first_captain + offset) % players] for r in results)
        out.append((offset, n, wins / n, wilson(wins, n)))
    return out


def ghost_wins(results: Sequence[GameResult]) -> tuple[float, tuple[float, float]] | None:
    """The Ghost Ship's share of the wins and its Wilson interval; None if it never sailed."""
    sailed = [r for r in results if len(r.scores) > len(r.bots)]
    if not sailed:
        return None
    wins = sum(win_shares(r)[len(r.bots)] for r in sailed)
    return wins / len(sailed), wilson(wins, len(sailed))


def design_figures(results: Sequence[GameResult]) -> dict[str, float]:
    """The numbers a designer asks for, as one flat mapping. Ships are the players' ships: the
    Ghost Ship has its own figure (`ghost_wins`), and its points are in none of the others.
    A figure that nothing measured (no player ever won) is NaN."""
    n = len(results)
    rounds = [r.rounds for r in results]
    fig: dict[str, float] = {
        "games": n,
        "rounds_mean": statistics.fmean(rounds),
        "rounds_median": statistics.median(rounds),
        "rounds_min": min(rounds),
        "rounds_max": max(rounds),
        "battles_per_game": statistics.fmean(r.battles for r in results),
        "shortages_per_game": statistics.fmean(r.shortages for r in results),
        "ended_by_finish": sum(r.ended_by == "finish" for r in results) / n,
        "ended_by_ghost": sum(r.ended_by == "ghost" for r in results) / n,
        "ended_by_limit": sum(r.ended_by == "limit" for r in results) / n,
        "treasure_cards_per_game": statistics.fmean(len(r.treasures) for r in results),
        "treasure_points_per_ship": statistics.fmean(
            sc[2] for r in results for sc in r.scores[: len(r.bots)]),
        "ghost_wins": ghost[0] if (ghost := ghost_wins(results)) is not None else 0.0,
    }  # fmt: skip
    for f in range(3):
        outer = sum(r.lanes[f][0] for r in results)
        inner = sum(r.lanes[f][1] for r in results)
        fig[f"fork{f + 1}_outer_share"] = outer / (outer + inner) if outer + inner else 0.0
    winners = [r.scores[w] for r in results for w in r.winners if w < len(r.bots)]
    for i, part in enumerate(("position", "doubloons", "treasures", "total")):
        fig[f"winner_{part}"] = statistics.fmean(sc[i] for sc in winners) if winners else math.nan
    return fig
