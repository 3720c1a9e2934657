"""The lab: tournaments and simulations are reproducible, and write what they promise."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from jamaica import Config
from jamaica.lab.commands import simulate, tournament
from jamaica.lab.distributed import LOCAL, Cluster
from jamaica.lab.runner import GameResult, game_seed, run_games
from jamaica.lab.stats import bot_table, elo, seat_table, wilson

PNG = b"\x89PNG\r\n\x1a\n"


def _quiet() -> Console:
    return Console(file=open("/dev/null", "w"), width=140)


def test_a_tournament_is_the_same_for_the_same_seed_whatever_the_workers(
    ray_cluster: None,
) -> None:
    config = Config(3)
    bots = ["greedy", "random", "random"]
    one = tournament(config, bots, 6, Cluster(), seed=4, console=_quiet(), quiet=True)
    two = tournament(config, bots, 6, Cluster(LOCAL, 2), seed=4, console=_quiet(), quiet=True)
    assert [r.to_dict() for r in one] == [r.to_dict() for r in two]
    other = tournament(config, bots, 6, Cluster(), seed=5, console=_quiet(), quiet=True)
    assert [r.to_dict() for r in other] != [r.to_dict() for r in one]
    # seats rotate: every bot sits in every seat
    assert {r.bots[0] for r in one} == {"greedy", "random"}
    assert [r.bots for r in one[:3]] == [
        ["greedy", "random", "random"],
        ["random", "greedy", "random"],
        ["random", "random", "greedy"],
    ]


def test_tournament_writes_csv_json_and_a_plot(tmp_path: Path) -> None:
    config = Config(2)
    out_csv, out_json, plot = tmp_path / "r.csv", tmp_path / "r.json", tmp_path / "p.png"
    results = tournament(config, ["greedy", "random"], 4, Cluster(), 2, str(out_csv), str(plot),
                         console=_quiet(), quiet=True)  # fmt: skip
    rows = list(csv.DictReader(out_csv.open()))
    assert len(rows) == 4 * 3  # two seats and the Ghost Ship per game
    assert rows[0].keys() >= {"game", "seat", "bot", "position", "doubloons", "treasures",
                              "total", "rank", "win", "rounds", "ended_by"}  # fmt: skip
    for r, game_rows in zip(results, (rows[i : i + 3] for i in range(0, 12, 3)), strict=True):
        assert [int(x["total"]) for x in game_rows] == [sc[3] for sc in r.scores]
        assert sum(float(x["win"]) for x in game_rows) == pytest.approx(1.0)
    assert plot.read_bytes().startswith(PNG) and plot.stat().st_size > 10_000
    tournament(config, ["greedy", "random"], 4, Cluster(), 2, str(out_json), console=_quiet(),
               quiet=True)  # fmt: skip
    data = json.loads(out_json.read_text())
    assert [d["scores"] for d in data] == [r.scores for r in results]


def test_simulate_reports_the_design_figures(tmp_path: Path) -> None:
    plot = tmp_path / "sim.png"
    fig = simulate(Config(3), "greedy", 6, Cluster(), 1, str(tmp_path / "s.json"), str(plot),
                   console=_quiet(), quiet=True)  # fmt: skip
    assert fig["games"] == 6
    assert 1 <= fig["rounds_min"] <= fig["rounds_mean"] <= fig["rounds_max"] <= 100
    assert fig["ended_by_finish"] + fig["ended_by_ghost"] + fig["ended_by_limit"] == 1.0
    for f in (1, 2, 3):
        assert 0.0 <= fig[f"fork{f}_outer_share"] <= 1.0
    assert fig["battles_per_game"] >= 0 and fig["treasure_cards_per_game"] <= 9
    assert plot.read_bytes().startswith(PNG)
    data = json.loads((tmp_path / "s.json").read_text())
    assert len(data) == 6 and all(d["bots"] == ["greedy"] * 3 for d in data)


def test_simulate_counts_the_ghost_ship_apart_from_the_players() -> None:
    """A designer's review: heads-up the seats' win rates summed to 96%, the Ghost Ship's 4%
    shown nowhere, and its points counted as a player's. Its wins have a figure of their own."""
    console = Console(file=io.StringIO(), width=140)
    fig = simulate(Config(2), "random", 40, Cluster(), 1, console=console, quiet=True)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "games won by the Ghost Ship" in text and "seed 1" in text
    seats = sum(rate for _, _, rate, _ in seat_table_of(40))
    assert fig["ghost_wins"] > 0  # random players: the Ghost Ship wins some (seed 1: 5 of 40)
    assert seats + fig["ghost_wins"] == pytest.approx(1.0)
    results = run_games([(g, game_seed(1, g), Config(2), ("random", "random")) for g in range(40)],
                        Cluster())  # fmt: skip
    players = [sc[2] for r in results for sc in r.scores[:2]]
    assert fig["treasure_points_per_ship"] == pytest.approx(sum(players) / len(players))
    assert all(sum(fork) <= 2 for r in results for fork in r.lanes)  # the players' ships only


def seat_table_of(games: int) -> list[tuple[int, int, float, tuple[float, float]]]:
    jobs = [(g, game_seed(1, g), Config(2), ("random", "random")) for g in range(games)]
    return seat_table(run_games(jobs, Cluster()))


def test_bad_options_are_refused_before_playing(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="3 bots"):
        tournament(Config(3), ["greedy"], 2, Cluster(), 1, console=_quiet(), quiet=True)
    with pytest.raises(ValueError, match="unknown bot"):
        tournament(Config(2), ["greedy", "chess"], 2, Cluster(), 1, console=_quiet(), quiet=True)
    with pytest.raises(ValueError, match=r"\.csv or \.json"):
        simulate(Config(2), "random", 2, Cluster(), 1, out=str(tmp_path / "x.txt"),
                 console=_quiet())  # fmt: skip


def _result(game: int, bots: list[str], ranks: list[float], winners: list[int]) -> GameResult:
    return GameResult(game, 0, bots, 0, 20, "finish", [[0, 0, 0, 10 - int(r)] for r in ranks],
                      winners, ranks, 0, 0, [[0, 0]] * 3, [])  # fmt: skip


def test_elo_and_win_intervals() -> None:
    results = [_result(g, ["a", "b"], [1.0, 2.0], [0]) for g in range(8)]
    results += [_result(8 + g, ["a", "b"], [2.0, 1.0], [1]) for g in range(2)]
    ratings = elo(results, ["a", "b"], "Ghost Ship")
    assert ratings["a"] > ratings["b"]
    assert ratings["a"] + ratings["b"] == pytest.approx(3000)
    assert 150 < ratings["a"] - ratings["b"] < 400  # 80% expected score is about +240
    lo, hi = wilson(8, 10)
    assert lo < 0.8 < hi and 0.44 < lo < 0.5
    lines = {line.bot: line for line in bot_table(results)}
    assert lines["a"].wins == 8 and lines["a"].seats == 10 and lines["b"].rank == 1.8


def test_the_commands_run_from_the_shell(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "jamaica", "tournament", "--bots", "greedy,random", "--games", "4",
         "--workers", "2", "--out", str(tmp_path / "t.csv"), "--plot", str(tmp_path / "t.png")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "win rate (95% CI)" in out.stdout and "Elo" in out.stdout and "Ghost Ship" in out.stdout
    assert (tmp_path / "t.png").exists() and (tmp_path / "t.csv").exists()
    bad = subprocess.run([sys.executable, "-m", "jamaica", "simulate", "--bot", "wizard"],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert bad.returncode == 2 and "unknown bot" in bad.stderr and "Traceback" not in bad.stderr
