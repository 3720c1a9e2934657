"""`jamaica lab baseline`: the baseline table — a fixed evaluation protocol, one Markdown table.

The protocol (`Protocol`), the same for every row so rows can be compared, and fixed so that a
table can be cited:

- **conditions**: heads-up (with the Ghost Ship, as the rules require) and 4 players, in both
  editions (2021 and classic): four columns;
- **opponents**: the pool `easy`, `greedy`, `medium` — cheap bots of graded strength. Heads-up,
  the opponent of game g is `POOL[g % 3]`; at 4 players the three sit together, in an order
  that turns game after game. The rated bot's seat turns too (seat g mod players);
- **seeds**: game g of condition c is dealt from `game_seed(seed + 1000 c, g)` (the lab's seed
  of a game; protocol seed 2027), and every row plays the same deals: paired comparisons;
- **measure**: the rated bot's share of wins (a shared victory counts 1/k; the Ghost Ship can
  win, so heads-up shares may sum below 100%), with its Wilson 95% interval, and the CPU time
  (`time.thread_time`) the bot spends per decision with a choice, heads-up and at 4 players.

Sizes: `--quick` plays 4 games per cell (a test, seconds); the default 400 games per cell gives
intervals of about ±5 points (±4.9 at 50%, ±4.2 at 25%). The rows are `entrants.ENTRANTS`.
Games run as Ray tasks with `--ray`/`--workers` (`jamaica.lab.distributed`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..rules import CHANCE, Config, new_game
from .distributed import Cluster, run_jobs
from .entrants import BOUNDS, ENTRANTS, Entrant, check_spec, seat
from .runner import game_seed
from .stats import wilson

POOL = ("easy", "greedy", "medium")
CONDITIONS = ((2, "2021"), (4, "2021"), (2, "classic"), (4, "classic"))
PROTOCOL_SEED = 2027
QUICK_GAMES = 4
DEFAULT_GAMES = 400


@dataclass(frozen=True)
class Job:
    """One game of the protocol: row `row`'s bot in seat `seat`, the pool in the others."""

    row: int
    condition: int
    game: int
    seed: int
    config: Config
    seats: tuple[str, ...]
    seat: int


@dataclass(frozen=True)
class Outcome:
    """What one game tells about the rated bot."""

    row: int
    condition: int
    share: float  # its share of the win
    cpu: float  # seconds of its decisions with a choice
    decisions: int  # how many such decisions


def schedule(rows: Sequence[tuple[Entrant, int]], seed: int = PROTOCOL_SEED) -> list[Job]:
    """Every row's games (`(entrant, games per cell)`), condition by condition; every row plays
    the same deals, the first `games` of each condition."""
    jobs = []
    for r, (entrant, games) in enumerate(rows):
        for c, (players, edition) in enumerate(CONDITIONS):
            config = Config(players=players, edition=edition)
            for g in range(games):
                where = g % players
                pool = [POOL[(g + i) % len(POOL)] for i in range(players - 1)]
                seats = (*pool[:where], entrant.spec, *pool[where:])
                jobs.append(Job(r, c, g, game_seed(seed + 1000 * c, g), config, seats, where))
    return jobs


def play(job: Job) -> Outcome:
    """One game, the rated bot's decisions timed (each seat seeded from the game's seed)."""
    players = [seat(spec, job.seed * 10 + k, job.config) for k, spec in enumerate(job.seats)]
    rng = random.Random(job.seed)
    s = new_game(job.config, log=False)
    cpu, decisions = 0.0, 0
    while not s.is_terminal():
        who = s.current_player()
        a: int
        if who == CHANCE:
            a = int(s.sample_chance(rng))
        elif who == job.seat and len(s.legal) > 1:
            t0 = time.thread_time()
            a = players[who].act(s, who)
            cpu += time.thread_time() - t0
            decisions += 1
        else:
            a = players[who].act(s, who)
        s.apply(a)
        for p in players:
            p.observe(a)
    winners = s.winners()
    share = 1.0 / len(winners) if job.seat in winners else 0.0
    return Outcome(job.row, job.condition, share, cpu, decisions)


@dataclass(frozen=True)
class Cell:
    wins: float
    games: int

    def text(self) -> str:
        lo, hi = wilson(self.wins, self.games)
        return f"{100 * self.wins / self.games:.1f} ({100 * lo:.1f}–{100 * hi:.1f})"


@dataclass(frozen=True)
class Row:
    entrant: Entrant
    cells: tuple[Cell, ...]  # per condition
    cpu_ms: tuple[float, float]  # per decision with a choice: heads-up, 4 players


def tabulate(entrants: Sequence[Entrant], outcomes: Sequence[Outcome]) -> list[Row]:
    """The outcomes summed per row and condition."""
    rows = []
    for r, entrant in enumerate(entrants):
        mine = [o for o in outcomes if o.row == r]
        cells = tuple(
            Cell(sum(o.share for o in mine if o.condition == c),
                 sum(1 for o in mine if o.condition == c))
            for c in range(len(CONDITIONS))
        )  # fmt: skip
        cpu = []
        for players in (2, 4):
            part = [o for o in mine if CONDITIONS[o.condition][0] == players]
            n = sum(o.decisions for o in part)
            cpu.append(1000 * sum(o.cpu for o in part) / n if n else 0.0)
        rows.append(Row(entrant, cells, (cpu[0], cpu[1])))
    return rows


def markdown(rows: Sequence[Row], seed: int) -> str:
    """The table, in Markdown, with the protocol in a line above it."""
    heads = [f"{edition}, {'heads-up' if p == 2 else f'{p} players'}" for p, edition in CONDITIONS]
    lines = [
        f"Win rate % (Wilson 95% interval) against the pool {', '.join(POOL)}, protocol seed "
        f"{seed}; CPU ms per decision with a choice.",
        "",
        "| bot | budget | games per cell | " + " | ".join(heads)
        + " | CPU ms, heads-up | CPU ms, 4 players |",
        "|---|---|---:|" + "---:|" * (len(heads) + 2),
    ]
    for row in rows:
        cells = " | ".join(c.text() for c in row.cells)
        lines.append(f"| {row.entrant.label} | {row.entrant.budget} | {row.cells[0].games} | "
                     f"{cells} | {row.cpu_ms[0]:.2f} | {row.cpu_ms[1]:.2f} |")  # fmt: skip
    return "\n".join(lines)


def baseline(
    rows: Sequence[tuple[Entrant, int]],
    seed: int = PROTOCOL_SEED,
    cluster: Cluster | None = None,
    on_result: Callable[[Outcome], None] | None = None,
) -> list[Row]:
    """Play the protocol for each `(entrant, games per cell)` where `cluster` says; the rows."""
    for entrant, games in rows:
        check_spec(entrant.spec)
        if games < 1:
            raise ValueError("--games must be at least 1")
    outcomes = run_jobs(play, schedule(rows, seed), cluster or Cluster(), on_result)
    return tabulate([entrant for entrant, _ in rows], outcomes)


def select(rows: str | None, games: int) -> list[tuple[Entrant, int]]:
    """The rows named (comma-separated labels or specs, each with `@N` for its own games per
    cell; None: every row), each with its games per cell (`games` unless given)."""
    if rows is None:
        return [(e, games) for e in ENTRANTS]
    chosen = []
    for word in (w.strip() for w in rows.split(",") if w.strip()):
        name, at, size = word.rpartition("@") if "@" in word else (word, "", "")
        if at and not (size.isdigit() and int(size) >= 1):
            raise ValueError(f"{word!r}: a row's games are a whole number, e.g. hard@40")
        found = [e for e in ENTRANTS + BOUNDS if name in (e.label, e.spec)]
        if not found:
            names = ", ".join(e.label for e in ENTRANTS + BOUNDS)
            raise ValueError(f"no row {name!r}; rows: {names} (or their specs)")
        chosen += [(e, int(size) if at else games) for e in found]
    if not chosen:
        raise ValueError("--rows names no row")
    return chosen


def table_command(games: int, seed: int, cluster: Cluster, rows: str | None) -> str:
    """`jamaica lab baseline`: play, report progress on stderr, return the Markdown table."""
    import sys

    if games < 1:
        raise ValueError("--games must be at least 1")
    chosen = select(rows, games)
    total = sum(n for _, n in chosen) * len(CONDITIONS)
    start = time.monotonic()
    done = 0

    def progress(_: Outcome) -> None:
        nonlocal done
        done += 1
        if done % max(1, total // 20) == 0 or done == total:
            print(f"{done}/{total} games, {time.monotonic() - start:.0f} s", file=sys.stderr,
                  flush=True)  # fmt: skip

    result = baseline(chosen, seed, cluster, progress)
    wall = time.monotonic() - start
    return (markdown(result, seed)
            + f"\n\n{total} games in {wall:.0f} s on {cluster.describe()}.")  # fmt: skip
