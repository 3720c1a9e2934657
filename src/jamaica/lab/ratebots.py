"""`jamaica rate-bots`: the bot levels on the players' rating scale (issue 25).

Seeded games between the levels — 2 to 6 players in turn, the lineup of each game drawn from the
levels (each level at most once a game, so a game never rates a bot against itself), seats
rotated — rated in game order by the same model as the players' (`jamaica.ratings`): every bot
starts where a newcomer starts. The anchors `random` (any legal answer) and `rules` (the easy
level without its slips) and `greedy` place the four levels against known bots.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ..bots import LEVEL_SPECS, make_bot, parse_spec
from ..ratings.model import BETA, MU, SIGMA, TAU, Rating, rate
from ..ratings.places import places_of
from ..rules import EDITIONS, Config, State, play_game
from .distributed import Cluster, run_jobs
from .paths import check_writable
from .runner import game_seed

LEVELS = ("random", "easy", "rules", "greedy", "medium", "hard", "master")


@dataclass(frozen=True)
class Job:
    game: int  # across editions: the order the games are rated in, within an edition
    seed: int
    edition: str
    seats: tuple[str, ...]  # a level per seat


@dataclass(frozen=True)
class Played:
    job: Job
    places: tuple[int, ...]  # per seat (1 = first; ties shared, R8)
    rounds: int


def schedule(levels: Sequence[str], games: int, seed: int, editions: Sequence[str]) -> list[Job]:
    """`games` games per edition: 2, 3, … players in turn (up to 6, or the number of levels), a
    lineup of distinct levels drawn from the seed, its seats rotated game after game."""
    most = min(6, len(levels))
    jobs = []
    for e, edition in enumerate(editions):
        rng = random.Random(f"rate-bots {seed} {edition}")
        for g in range(games):
            n = 2 + g % (most - 1)
            lineup = sorted(rng.sample(range(len(levels)), n))
            turn = (g // (most - 1)) % n
            seats = tuple(levels[lineup[(i + turn) % n]] for i in range(n))
            index = e * games + g
            jobs.append(Job(index, game_seed(seed, index), edition, seats))
    return jobs


def play(job: Job) -> Played:
    """One game (in a Ray worker or here): the bots seeded from the game's seed, as the lab does."""
    config = Config(players=len(job.seats), edition=job.edition)
    agents = [make_bot(spec, job.seed * 10 + seat) for seat, spec in enumerate(job.seats)]
    finals: list[State] = []
    play_game(config, agents, job.seed, final_state=finals)
    return Played(job, tuple(places_of(finals[0])), finals[0].rnd)


@dataclass
class Standing:
    """A level's rating in one edition, and the places behind it."""

    rating: Rating
    places: list[float]  # per game: (place − 1) / (players − 1): 0 first, 1 last

    def to_dict(self) -> dict[str, Any]:
        return {
            "rating": self.rating.to_dict(),
            "display": self.rating.display,
            "provisional": self.rating.provisional,
            "mean_place_share": round(statistics.fmean(self.places), 4) if self.places else None,
        }


def rate_games(played: Sequence[Played], levels: Sequence[str]) -> dict[str, dict[str, Standing]]:
    """Every edition's standings: the games rated one after the other, in game order."""
    out: dict[str, dict[str, Standing]] = {}
    for p in sorted(played, key=lambda p: p.job.game):
        table = out.setdefault(p.job.edition, {lv: Standing(Rating(), []) for lv in levels})
        seats = p.job.seats
        new = rate([table[lv].rating for lv in seats], list(p.places))
        for lv, r, place in zip(seats, new, p.places, strict=True):
            table[lv].rating = r
            table[lv].places.append((place - 1) / (len(seats) - 1))
    return out


def rate_bots(
    games: int,
    seed: int = 1,
    editions: Sequence[str] = EDITIONS,
    levels: Sequence[str] = LEVELS,
    workers: int = 1,
    out: str | None = None,
    console: Console | None = None,
    quiet: bool = False,
    command: str = "",
) -> dict[str, Any]:
    """Play `games` games per edition between the levels, rate them, print a table per edition
    (level, rating, mu, sigma, games), write the JSON to `out`; return it."""
    console = console or Console()
    if games < 1 or workers < 1:
        raise ValueError("--games and --workers must be at least 1")
    if len(levels) < 2 or len(set(levels)) != len(levels):
        raise ValueError(f"--levels needs at least 2 different bots, not {', '.join(levels)}")
    for spec in levels:
        parse_spec(spec)
    for edition in editions:
        if edition not in EDITIONS:
            raise ValueError(f"edition must be one of {', '.join(EDITIONS)}, not {edition!r}")
    if out:
        check_writable(out, "--out")
    jobs = schedule(levels, games, seed, editions)
    start = time.monotonic()
    arrived: list[Played] = []

    def progress(p: Played) -> None:
        arrived.append(p)
        if not quiet and (len(arrived) % 10 == 0 or len(arrived) == len(jobs)):
            console.print(f"{len(arrived)}/{len(jobs)} games, {time.monotonic() - start:.0f} s")

    cluster = Cluster.parse(None, workers)
    played = run_jobs(play, jobs, cluster, progress)
    seconds = time.monotonic() - start
    standings = rate_games(played, levels)
    ties = sum(1 for p in played if len(set(p.places)) < len(p.places))
    result: dict[str, Any] = {
        "command": command or f"jamaica rate-bots --games {games} --seed {seed}",
        "summary": f"{len(played)} games, {games} per edition, 2-{min(6, len(levels))} players, "
        f"{seconds:.0f} s on {cluster.describe()}",
        "model": {
            "name": "openskill PlackettLuce",
            "mu": MU,
            "sigma": SIGMA,
            "beta": BETA,
            "tau": TAU,
        },
        "bots": {lv: LEVEL_SPECS.get(lv, lv) for lv in levels},
        "games": len(played),
        "games_with_a_shared_place": ties,
        "editions": {
            edition: {
                lv: table[lv].to_dict() | {"games": table[lv].rating.games}
                for lv in _strongest_first(table)
            }
            for edition, table in standings.items()
        },
    }
    for edition, table in standings.items():
        console.print(standings_table(edition, table, games))
    console.print(f"{len(played)} games in {seconds:.0f} s; {ties} with a shared place (R8)")
    if out:
        Path(out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        console.print(f"ratings written to {out}")
    return result


def _strongest_first(table: dict[str, Standing]) -> list[str]:
    return sorted(table, key=lambda lv: -table[lv].rating.conservative)


def standings_table(edition: str, table: dict[str, Standing], games: int) -> Table:
    t = Table(title=f"bot ratings, {edition} edition, {games} games")
    for col in ("level", "rating", "mu", "sigma", "games", "mean place (0 first, 1 last)"):
        t.add_column(col, justify="left" if col == "level" else "right")
    for lv in _strongest_first(table):
        s = table[lv]
        r = s.rating
        place = f"{statistics.fmean(s.places):.2f}" if s.places else "-"
        t.add_row(lv, r.shown(), f"{r.mu:.2f}", f"{r.sigma:.2f}", str(r.games), place)
    return t


__all__ = ["LEVELS", "Job", "Played", "rate_bots", "rate_games", "schedule"]
