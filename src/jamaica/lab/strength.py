"""`jamaica lab strength`: the strength table of issue 28 — every bot against the references the
issue measures by, one Markdown table, reproducible from its seed.

- **rows**: the levels (easy, medium, hard, master), greedy, random, learned, deep and OpenSpiel's
  own `ISMCTSBot` at two budgets — the **same CPU** per decision as master, and **10×** that —
  searching at the engine's speed (`jamaica.lab.spielsearch`: OpenSpiel's code, random rollouts,
  UCT c = 2). Any other bot spec can be a row too (`--rows ismcts:iterations=100`).
- **pairings** (columns): the row's bot heads-up against hard, heads-up against greedy, with
  three hard at a 4-player table, heads-up against OpenSpiel's bot at the same CPU and at 10×.
  A bot is not paired with itself (the cell says —).
- **seeds**: game g of pairing c is dealt from `game_seed(seed + 1000 c, g)`, the same deals for
  every row (paired comparisons), whatever rows and pairings are chosen, so a part of the table
  run alone gives the very cells of the whole; the row's bot sits in seat g mod players, and
  every seat's bot is seeded from the game's seed. 2021 edition; heads-up games have the Ghost
  Ship (the rules require it), 4-player games not.
- **measure**: the row's bot's share of the wins (a shared win counts 1/k; the Ghost Ship can
  win, so heads-up shares may sum below 100%), its Wilson 95% interval and the games; the Ghost
  Ship's share of the heads-up games' wins, in a table of its own; and, in a last table, every
  bot's CPU time per decision with a choice (`time.thread_time`), mean and max, heads-up and at
  4 players, over every seat it sat in — so "same CPU" can be checked.

OpenSpiel's budget "same CPU" is `SAME_CPU_SIMULATIONS` unless `--spiel-simulations` gives
another; `--calibrate` measures it anew in a few games of master against OpenSpiel's bot. The
simulations are printed with the table, in the command that reproduces it.

Sizes: the default is the issue's — 300 games in each of master's cells, 1,000 for hard against
greedy, 100 in the other cells; `--games N` plays N per cell, `--quick` 2 per cell with
OpenSpiel at 2 and 20 simulations (a test). The games run as Ray tasks with `--workers`/`--ray`
(`jamaica.lab.distributed`).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..rules import CHANCE, Config, new_game
from .baseline import Cell
from .distributed import Cluster, run_jobs
from .entrants import BOUNDS, ENTRANTS, OPENSPIEL_ISMCTS, Entrant, check_spec, seat
from .runner import game_seed

DEFAULT_SEED = 2028
DEFAULT_GAMES = 100
MASTER_GAMES = 300  # master's cells: the targets are set over at least 300 games
QUICK_GAMES = 2
QUICK_SIMULATIONS = 2
# OpenSpiel's simulations per decision for the CPU master spends per decision, on this 2-core
# machine: master (its final budget) spent 217 ms per decision with a choice heads-up over 150
# games against hard (seed 2032), and `calibrate` measured OpenSpiel's bot at 1.9 ms a simulation
# (493 ms at 260 simulations): 217 / 1.9 ≈ 115.
SAME_CPU_SIMULATIONS = 115
MAX_SIMULATIONS = 100_000
SIZES = {("hard", "greedy"): 1000}  # (row, pairing) -> games: the issue asks 1,000 for these
CALIBRATION_GAMES = 4
SAME_CPU = "spiel"  # the names of OpenSpiel's rows and pairings
TEN_X = "spiel-x10"


def spiel_spec(simulations: int) -> str:
    return f"{OPENSPIEL_ISMCTS}:simulations={simulations}"


@dataclass(frozen=True)
class Budgets:
    """OpenSpiel's simulations per decision: the same CPU as master, and ten times that."""

    same_cpu: int

    @property
    def ten_x(self) -> int:
        return 10 * self.same_cpu

    def spec(self, name: str) -> str:
        return spiel_spec(self.same_cpu if name == SAME_CPU else self.ten_x)


@dataclass(frozen=True)
class Pairing:
    """A column: the row's bot at a table of `players` with `opponent` in every other seat."""

    name: str
    title: str
    players: int
    opponent: str  # a bot spec, or SAME_CPU / TEN_X for OpenSpiel's bot at that budget

    def opponent_spec(self, budgets: Budgets) -> str:
        return budgets.spec(self.opponent) if self.opponent in (SAME_CPU, TEN_X) else self.opponent


PAIRINGS: tuple[Pairing, ...] = (
    Pairing("hard", "vs hard, heads-up", 2, "hard"),
    Pairing("greedy", "vs greedy, heads-up", 2, "greedy"),
    Pairing("hard-x3", "+ 3 hard, 4 players", 4, "hard"),
    Pairing(SAME_CPU, "vs OpenSpiel ISMCTS, same CPU, heads-up", 2, SAME_CPU),
    Pairing(TEN_X, "vs OpenSpiel ISMCTS, 10× CPU, heads-up", 2, TEN_X),
)

MASTER = next(e for e in ENTRANTS if e.label == "master")
ROW_NAMES = ("easy", "medium", "hard", "master", "greedy", "random", "learned", "deep", SAME_CPU,
             TEN_X)  # fmt: skip


def entrant(name: str, budgets: Budgets) -> Entrant:
    """The row called `name` (a row name, or any bot spec)."""
    if name in (SAME_CPU, TEN_X):
        sims = budgets.same_cpu if name == SAME_CPU else budgets.ten_x
        words = "same CPU as master" if name == SAME_CPU else "10× master's CPU"
        budget = f"OpenSpiel's ISMCTSBot: {sims} simulations, 1 random rollout each"
        return Entrant(f"OpenSpiel ISMCTS ({words})", budgets.spec(name), budget)
    if name == MASTER.label:
        return MASTER
    for e in ENTRANTS + BOUNDS:
        if name in (e.label, e.spec):
            return e
    check_spec(name)  # any other bot, by its spec
    return Entrant(name, name, "as its spec says")


def _names(text: str | None, every: Sequence[str], what: str) -> list[str]:
    if text is None:
        return list(every)
    names = [w.strip() for w in text.split(",") if w.strip()]
    if not names:
        raise ValueError(f"--{what} names nothing")
    return names


def choose_pairings(text: str | None) -> list[Pairing]:
    chosen = []
    for name in _names(text, [p.name for p in PAIRINGS], "pairings"):
        found = [p for p in PAIRINGS if p.name == name]
        if not found:
            raise ValueError(
                f"no pairing {name!r}; pairings: {', '.join(p.name for p in PAIRINGS)}"
            )
        chosen.append(found[0])
    return chosen


def choose_rows(text: str | None, budgets: Budgets) -> list[tuple[str, Entrant]]:
    rows = []
    for name in _names(text, ROW_NAMES, "rows"):
        try:
            rows.append((name, entrant(name, budgets)))
        except ValueError as e:
            every = ", ".join([*ROW_NAMES, *(b.label for b in BOUNDS)])
            raise ValueError(f"no row {name!r} ({e}); rows: {every} or a bot spec"
                             ) from None  # fmt: skip
    return rows


@dataclass(frozen=True)
class Job:
    """One game: the bot of row `row` in seat `seat`, the pairing's opponent elsewhere."""

    row: int
    pairing: int  # index in PAIRINGS (it fixes the deals)
    game: int
    seed: int
    config: Config
    seats: tuple[str, ...]
    seat: int


@dataclass(frozen=True)
class SeatCPU:
    """One seat's thinking in one game: decisions with a choice, their CPU seconds, the most."""

    spec: str
    decisions: int
    seconds: float
    most: float


@dataclass(frozen=True)
class Outcome:
    row: int
    pairing: int
    share: float  # the row's bot's share of the win
    seats: tuple[SeatCPU, ...]
    ghost: float = 0.0  # the Ghost Ship's share of the win


def games_for(row: str, pairing: Pairing, games: int | None) -> int:
    """Games per cell: `games` if given, else the issue's size for the cell."""
    if games is not None:
        return games
    return SIZES.get((row, pairing.name), MASTER_GAMES if row == MASTER.label else DEFAULT_GAMES)


def schedule(
    rows: Sequence[tuple[str, Entrant]],
    pairings: Sequence[Pairing],
    budgets: Budgets,
    seed: int,
    games: int | None,
) -> list[Job]:
    """Every cell's games, game by game across the cells (so that a Ray task mixes cells and
    progress covers the whole table); cells of a bot against itself are left out."""
    cells = []
    for r, (name, e) in enumerate(rows):
        for p in pairings:
            opponent = p.opponent_spec(budgets)
            if opponent != e.spec:
                cells.append((r, p, opponent, games_for(name, p, games)))
    jobs = []
    for g in range(max((n for *_, n in cells), default=0)):
        for r, p, opponent, n in cells:
            if g < n:
                c = PAIRINGS.index(p)
                where = g % p.players
                seats = [opponent] * p.players
                seats[where] = rows[r][1].spec
                config = Config(players=p.players, edition="2021")
                jobs.append(Job(r, c, g, game_seed(seed + 1000 * c, g), config, tuple(seats),
                                where))  # fmt: skip
    return jobs


def play(job: Job) -> Outcome:
    """One game, every seat's decisions with a choice timed (`time.thread_time`)."""
    players = [seat(spec, job.seed * 10 + k, job.config) for k, spec in enumerate(job.seats)]
    rng = random.Random(job.seed)
    s = new_game(job.config, log=False)
    n = len(job.seats)
    decisions, seconds, most = [0] * n, [0.0] * n, [0.0] * n
    while not s.is_terminal():
        who = s.current_player()
        a: int
        if who == CHANCE:
            a = int(s.sample_chance(rng))
        elif len(s.legal) > 1:
            t0 = time.thread_time()
            a = players[who].act(s, who)
            spent = time.thread_time() - t0
            decisions[who] += 1
            seconds[who] += spent
            most[who] = max(most[who], spent)
        else:
            a = players[who].act(s, who)
        s.apply(a)
        for p in players:
            p.observe(a)
    winners = s.winners()
    share = 1.0 / len(winners) if job.seat in winners else 0.0
    ghost = 1.0 / len(winners) if s.gh in winners else 0.0
    cpu = tuple(SeatCPU(job.seats[k], decisions[k], seconds[k], most[k]) for k in range(n))
    return Outcome(job.row, job.pairing, share, cpu, ghost)


@dataclass(frozen=True)
class CPU:
    """A bot's thinking over many seats: decisions with a choice, mean and max seconds."""

    decisions: int = 0
    seconds: float = 0.0
    most: float = 0.0

    def add(self, s: SeatCPU) -> CPU:
        return CPU(self.decisions + s.decisions, self.seconds + s.seconds, max(self.most, s.most))

    def text(self) -> str:
        if not self.decisions:
            return "— | — | —"
        mean = 1000 * self.seconds / self.decisions
        return f"{self.decisions} | {_ms(mean)} | {_ms(1000 * self.most)}"


def _ms(x: float) -> str:
    return f"{x:.2f}" if x < 10 else f"{x:.0f}"


@dataclass(frozen=True)
class Table:
    """What a run found: per row, per pairing, the row's wins and games (None: not played);
    per bot spec, its CPU heads-up and at 4 players."""

    rows: list[tuple[str, Entrant]]
    pairings: list[Pairing]
    cells: list[list[Cell | None]]
    cpu: dict[str, tuple[CPU, CPU]]
    budgets: Budgets
    seed: int
    ghost: list[list[Cell | None]]  # the Ghost Ship's wins in each cell's games


def tabulate(
    rows: Sequence[tuple[str, Entrant]],
    pairings: Sequence[Pairing],
    budgets: Budgets,
    seed: int,
    outcomes: Sequence[Outcome],
) -> Table:
    wins: dict[tuple[int, int], list[float]] = {}
    ghost: dict[tuple[int, int], list[float]] = {}
    cpu: dict[str, tuple[CPU, CPU]] = {}
    for o in outcomes:
        wins.setdefault((o.row, o.pairing), []).append(o.share)
        ghost.setdefault((o.row, o.pairing), []).append(o.ghost)
        for s in o.seats:
            heads_up, four = cpu.get(s.spec, (CPU(), CPU()))
            cpu[s.spec] = (heads_up.add(s), four) if len(o.seats) == 2 else (heads_up, four.add(s))
    def cells(shares: dict[tuple[int, int], list[float]]) -> list[list[Cell | None]]:
        return [[Cell(sum(w), len(w)) if (w := shares.get((r, PAIRINGS.index(p)))) else None
                 for p in pairings] for r in range(len(rows))]  # fmt: skip

    return Table(list(rows), list(pairings), cells(wins), cpu, budgets, seed, cells(ghost))


def _label(spec: str, table: Table) -> str:
    for _, e in table.rows:
        if e.spec == spec:
            return e.label
    for name in (SAME_CPU, TEN_X):
        if table.budgets.spec(name) == spec:
            return entrant(name, table.budgets).label
    return spec


def _ghost_lines(table: Table) -> list[str]:
    """The Ghost Ship's share of the heads-up games' wins: what no bot at the table could have."""
    heads_up = [c for c, p in enumerate(table.pairings) if p.players == 2]
    if not any(table.ghost[r][c] for r in range(len(table.rows)) for c in heads_up):
        return []
    lines = ["", "The Ghost Ship's share of the wins in those games (heads-up: the row's share and "
             "its opponent's sum to the rest):", "",
             "| bot | " + " | ".join(table.pairings[c].title for c in heads_up) + " |",
             "|---|" + "---:|" * len(heads_up)]  # fmt: skip
    for (_, e), row in zip(table.rows, table.ghost, strict=True):
        texts = ["—" if (c := row[k]) is None else f"{c.text()} · {c.games}" for k in heads_up]
        lines.append(f"| {e.label} | " + " | ".join(texts) + " |")
    return lines


def markdown(table: Table) -> str:
    """The table, and the CPU table, in Markdown, with the protocol said above them."""
    b = table.budgets
    lines = [
        f"The row's share of the wins, % (Wilson 95% interval) · games; seed {table.seed}, "
        "2021 edition, fresh deals per pairing, seats rotated; heads-up with the Ghost Ship. "
        f"OpenSpiel's ISMCTSBot (random rollouts, UCT c = 2): same CPU = {b.same_cpu} "
        f"simulations per decision, 10× = {b.ten_x}.",
        "",
        "| bot | budget | " + " | ".join(p.title for p in table.pairings) + " |",
        "|---|---|" + "---:|" * len(table.pairings),
    ]
    for (_, e), cells in zip(table.rows, table.cells, strict=True):
        texts = ["—" if c is None else f"{c.text()} · {c.games}" for c in cells]
        lines.append(f"| {e.label} | {e.budget} | " + " | ".join(texts) + " |")
    lines += _ghost_lines(table)
    lines += [
        "",
        "CPU per decision with a choice (`time.thread_time`), over every seat each bot sat in:",
        "",
        "| bot | heads-up: decisions | mean ms | max ms | 4 players: decisions | mean ms | "
        "max ms |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    mine = [e.spec for _, e in table.rows]
    for spec in sorted(table.cpu, key=lambda s: mine.index(s) if s in mine else len(mine)):
        heads_up, four = table.cpu[spec]
        lines.append(f"| {_label(spec, table)} | {heads_up.text()} | {four.text()} |")
    return "\n".join(lines)


def strength(
    rows: Sequence[tuple[str, Entrant]],
    pairings: Sequence[Pairing],
    budgets: Budgets,
    seed: int = DEFAULT_SEED,
    games: int | None = None,
    cluster: Cluster | None = None,
    on_result: Callable[[Outcome], None] | None = None,
) -> Table:
    """Play the chosen cells where `cluster` says; the table."""
    if games is not None and games < 1:
        raise ValueError("--games must be at least 1")
    if not 1 <= budgets.same_cpu <= MAX_SIMULATIONS // 10:
        raise ValueError(f"--spiel-simulations must be 1 to {MAX_SIMULATIONS // 10}")
    for _, e in rows:
        check_spec(e.spec)
    for p in pairings:
        check_spec(p.opponent_spec(budgets))
    jobs = schedule(rows, pairings, budgets, seed, games)
    outcomes = run_jobs(play, jobs, cluster or Cluster(), on_result)
    return tabulate(rows, pairings, budgets, seed, outcomes)


def calibrate(
    spec: str = "master",
    probe: int = SAME_CPU_SIMULATIONS,
    games: int = CALIBRATION_GAMES,
    seed: int = DEFAULT_SEED,
    cluster: Cluster | None = None,
) -> tuple[int, float, float]:
    """OpenSpiel's simulations that cost, per decision with a choice, what `spec` spends: both
    play `games` heads-up games against each other (OpenSpiel at `probe` simulations) and the
    probe is scaled by the ratio of their mean CPU per decision. Returns the simulations and the
    two means (seconds)."""
    check_spec(spec)
    rows = [(spec, entrant(spec, Budgets(probe)))]
    jobs = schedule(rows, [PAIRINGS[3]], Budgets(probe), seed + 7, games)
    outcomes = run_jobs(play, jobs, cluster or Cluster())
    mine, theirs = CPU(), CPU()
    for o in outcomes:
        for s in o.seats:
            if s.spec == spec:
                mine = mine.add(s)
            else:
                theirs = theirs.add(s)
    if not mine.decisions or not theirs.decisions:
        raise ValueError("the calibration's games asked no question with a choice")
    ours, spiel = mine.seconds / mine.decisions, theirs.seconds / theirs.decisions
    sims = max(1, min(MAX_SIMULATIONS // 10, round(probe * ours / spiel)))
    return sims, ours, spiel


def command(
    *,
    games: int | None,
    quick: bool,
    seed: int,
    cluster: Cluster,
    rows: str | None,
    pairings: str | None,
    simulations: int | None,
    calibrating: bool,
) -> str:
    """`jamaica lab strength`: play, report progress on stderr, return the Markdown tables and
    the command that plays them again."""
    if games is not None and games < 1:
        raise ValueError("--games must be at least 1")
    if simulations is not None and calibrating:
        raise ValueError("--spiel-simulations and --calibrate: give one or the other")
    if simulations is not None and not 1 <= simulations <= MAX_SIMULATIONS // 10:
        raise ValueError(f"--spiel-simulations must be 1 to {MAX_SIMULATIONS // 10}")
    if quick and games is None:
        games = QUICK_GAMES
    chosen_pairings = choose_pairings(pairings)
    choose_rows(rows, Budgets(1))  # refuse a bad row before any calibration
    if calibrating:
        sims, ours, spiel = calibrate(seed=seed, cluster=cluster)
        print(f"calibrated: master {1000 * ours:.0f} ms per decision, OpenSpiel's bot "
              f"{1000 * spiel:.0f} ms at {SAME_CPU_SIMULATIONS} simulations: same CPU = {sims} "
              "simulations", file=sys.stderr, flush=True)  # fmt: skip
    else:
        sims = simulations or (QUICK_SIMULATIONS if quick else SAME_CPU_SIMULATIONS)
    budgets = Budgets(sims)
    chosen_rows = choose_rows(rows, budgets)
    total = len(schedule(chosen_rows, chosen_pairings, budgets, seed, games))
    start = time.monotonic()
    done = 0

    def progress(_: Outcome) -> None:
        nonlocal done
        done += 1
        if done % max(1, total // 20) == 0 or done == total:
            print(f"{done}/{total} games, {time.monotonic() - start:.0f} s", file=sys.stderr,
                  flush=True)  # fmt: skip

    table = strength(chosen_rows, chosen_pairings, budgets, seed, games, cluster, progress)
    again = ["jamaica lab strength", f"--seed {seed}", f"--spiel-simulations {sims}"]
    if games is not None:
        again.append(f"--games {games}")
    if rows is not None:
        again.append(f"--rows {','.join(n for n, _ in chosen_rows)}")
    if pairings is not None:
        again.append(f"--pairings {','.join(p.name for p in chosen_pairings)}")
    return (markdown(table) + f"\n\n{total} games in {time.monotonic() - start:.0f} s on "
            f"{cluster.describe()}. The same wins again (CPU times vary a little): "
            f"`{' '.join(again)}`")  # fmt: skip
