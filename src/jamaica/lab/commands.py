"""`jamaica tournament` and `jamaica simulate`."""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..bots import parse_spec
from ..rules import Config
from .distributed import Cluster
from .paths import check_writable
from .runner import GameResult, Job, game_seed, run_games
from .stats import bot_table, design_figures, ghost_wins, seat_table, win_shares


def make_console() -> Console:
    """Rich's console; a wide one when the output is not a terminal (a file, a pipe)."""
    console = Console()
    return console if console.is_terminal else Console(width=140)


def _play(jobs: Sequence[Job], cluster: Cluster, console: Console, quiet: bool) -> list[GameResult]:
    if quiet:
        return run_games(jobs, cluster)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(f"playing on {cluster.describe()}", total=len(jobs))
        return run_games(jobs, cluster, lambda _: progress.advance(task))


def check_paths(out: str | None, plot: str | None) -> None:
    """Refuse bad output paths before any game is played."""
    if out and Path(out).suffix.lower() not in (".csv", ".json"):
        raise ValueError(f"--out must end in .csv or .json, not {out!r}")
    if plot and Path(plot).suffix.lower() not in (".png", ".svg", ".pdf"):
        raise ValueError(f"--plot must end in .png, .svg or .pdf, not {plot!r}")
    for path, option in ((out, "--out"), (plot, "--plot")):
        if path:
            check_writable(path, option)


def write_results(results: Sequence[GameResult], path: str) -> None:
    """Per-game results: JSON (everything) or CSV (a row per seat and ship)."""
    p = Path(path)
    if p.suffix.lower() == ".json":
        p.write_text(json.dumps([r.to_dict() for r in results], indent=1) + "\n")
        return
    if p.suffix.lower() != ".csv":
        raise ValueError(f"--out must end in .csv or .json, not {path!r}")
    with p.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["game", "seed", "seat", "bot", "position", "doubloons", "treasures", "total",
                    "rank", "win", "rounds", "ended_by", "first_captain"])  # fmt: skip
        for r in results:
            shares = win_shares(r)
            for k, sc in enumerate(r.scores):
                bot = r.bots[k] if k < len(r.bots) else "Ghost Ship"
                w.writerow([r.game, r.seed, k, bot, *sc, r.ranks[k], round(shares[k], 4),
                            r.rounds, r.ended_by, r.first_captain])  # fmt: skip


def tournament(
    config: Config,
    bots: Sequence[str],
    games: int,
    cluster: Cluster,
    seed: int,
    out: str | None = None,
    plot: str | None = None,
    console: Console | None = None,
    quiet: bool = False,
) -> list[GameResult]:
    """Play `games` games between the bots, rotating seats; print a table per bot."""
    console = console or make_console()
    if len(bots) != config.players:
        raise ValueError(f"{config.players} players need {config.players} bots, not {len(bots)}")
    for spec in bots:
        parse_spec(spec)
    if games < 1:
        raise ValueError("--games must be at least 1")
    check_paths(out, plot)
    n = len(bots)
    jobs: list[Job] = []
    for g in range(games):
        rot = g % n
        seats = tuple(bots[(i - rot) % n] for i in range(n))
        jobs.append((g, game_seed(seed, g), config, seats))
    results = _play(jobs, cluster, console, quiet)
    title = (f"{games} games of {', '.join(bots)}, {config.players} players, {config.edition} "
             f"edition" + (", Ghost Ship" if config.ghost else "") + f", seed {seed}")  # fmt: skip
    table = Table(title=title)
    for col in ("bot", "seats", "wins", "win rate (95% CI)", "score", "position", "doubloons",
                "treasures", "rank", "Elo"):  # fmt: skip
        table.add_column(col, justify="left" if col == "bot" else "right")
    for line in bot_table(results):
        lo, hi = line.ci
        table.add_row(
            line.bot, str(line.seats), f"{line.wins:g}",
            f"{line.win_rate:6.1%} ({lo:.1%}–{hi:.1%})", f"{line.score:.1f}",
            f"{line.position:.1f}", f"{line.doubloons:.1f}", f"{line.treasures:.1f}",
            f"{line.rank:.2f}", f"{line.elo:.0f}",
        )  # fmt: skip
    console.print(table)
    console.print(f"mean game length: {sum(r.rounds for r in results) / len(results):.1f} rounds")
    _outputs(results, out, plot, console, "tournament", title)
    return results


def simulate(
    config: Config,
    bot: str,
    games: int,
    cluster: Cluster,
    seed: int,
    out: str | None = None,
    plot: str | None = None,
    console: Console | None = None,
    quiet: bool = False,
) -> dict[str, float]:
    """Design statistics over `games` games with every seat played by the same bot."""
    console = console or make_console()
    parse_spec(bot)
    if games < 1:
        raise ValueError("--games must be at least 1")
    check_paths(out, plot)
    seats = tuple([bot] * config.players)
    jobs = [(g, game_seed(seed, g), config, seats) for g in range(games)]
    results = _play(jobs, cluster, console, quiet)
    fig = design_figures(results)
    title = (f"{games} games of {bot}, {config.players} players, {config.edition} edition"
             + (", Ghost Ship" if config.ghost else "") + f", seed {seed}")  # fmt: skip
    table = Table(title=title)
    table.add_column("figure")
    table.add_column("value", justify="right")
    for offset, _, rate, (lo, hi) in seat_table(results):
        who = "0 (the first Captain)" if offset == 0 else f"{offset} (from the first Captain)"
        table.add_row(f"win rate of seat {who}", f"{rate:.1%} ({lo:.1%}–{hi:.1%})")
    ghost = ghost_wins(results)
    if ghost is not None:
        share, (lo, hi) = ghost
        table.add_row("games won by the Ghost Ship", f"{share:.1%} ({lo:.1%}–{hi:.1%})")
    labels = {
        "rounds_mean": "rounds per game (mean)",
        "rounds_median": "rounds per game (median)",
        "rounds_min": "rounds per game (min)",
        "rounds_max": "rounds per game (max)",
        "battles_per_game": "battles per game",
        "shortages_per_game": "shortages per game",
        "fork1_outer_share": "fork 1: share of players' ships by the outer lane",
        "fork2_outer_share": "fork 2: share of players' ships by the outer lane",
        "fork3_outer_share": "fork 3: share of players' ships by the outer lane",
        "treasure_cards_per_game": "treasure cards drawn per game",
        "treasure_points_per_ship": "treasure points per player at the end",
        "ended_by_finish": "games ended by a player's finish",
        "ended_by_ghost": "games ended by the Ghost Ship",
        "ended_by_limit": "games ended by the round limit (R7)",
        "winner_position": "winning player's position points (mean)",
        "winner_doubloons": "winning player's doubloons (mean)",
        "winner_treasures": "winning player's treasure points (mean)",
        "winner_total": "winning player's score (mean)",
    }
    for key, label in labels.items():
        v = fig[key]
        text = f"{v:.1%}" if "share" in key or "ended_by" in key else f"{v:.2f}"
        if math.isnan(v):
            text = "—"  # no player won a game
        table.add_row(label, text)
    console.print(table)
    _outputs(results, out, plot, console, "simulate", title)
    return fig


def _outputs(results: Sequence[GameResult], out: str | None, plot: str | None,
             console: Console, kind: str, title: str) -> None:  # fmt: skip
    if out:
        write_results(results, out)
        console.print(f"per-game results written to {out}")
    if plot:
        from .plots import simulate_plot, tournament_plot

        (tournament_plot if kind == "tournament" else simulate_plot)(results, plot, title)
        console.print(f"plot written to {plot}")
