"""`jamaica bench-ray`: games per second on 1 and on 2 Ray workers, and their ratio.

One local Ray cluster of 2 CPUs is started (on loopback, no dashboard; or the driver's own Ray
connection is used); a warm-up batch lets both workers import the game; then the same seeded
batch of games (`--bot` in every seat, 4 players) is played with at most 1 and at most 2 games in
flight, in turn (1, 2, 1, 2 …), so that a machine busy with other work weighs on both alike. It
prints each run, the median games/s of each, their ratio (the figure: 2.0 is perfect scaling on
2 cores), whether both gave the same results, and the load average before and after (other work
on the machine lowers the ratio).
"""

from __future__ import annotations

import os
import statistics
import time

from ..bots import parse_spec
from ..rules import Config
from .distributed import LOCAL, Cluster, connected
from .runner import GameResult, Job, game_seed, run_games


def _jobs(games: int, seed: int, bot: str) -> list[Job]:
    config = Config(players=4)
    return [(g, game_seed(seed, g), config, (bot,) * 4) for g in range(games)]


def _timed(jobs: list[Job], workers: int) -> tuple[float, list[GameResult]]:
    start = time.perf_counter()
    results = run_games(jobs, Cluster(LOCAL, workers))
    return len(jobs) / (time.perf_counter() - start), results


def bench_ray(games: int = 40, repeat: int = 3, seed: int = 1, bot: str = "greedy") -> str:
    """Run the benchmark; the report, one line per run and the ratio last."""
    if not 1 <= games <= 100_000 or not 1 <= repeat <= 100:
        raise ValueError("--games is 1 to 100000 and --repeat 1 to 100")
    parse_spec(bot)
    jobs = _jobs(games, seed, bot)
    lines = [f"{games} games of 4 x {bot} per run, a local Ray cluster of 2 CPUs; load average "
             f"before: {os.getloadavg()[0]:.1f}"]  # fmt: skip
    rates: dict[int, list[float]] = {1: [], 2: []}
    same = True
    with connected(Cluster(LOCAL, 2)):
        run_games(_jobs(4, seed + 1, bot), Cluster(LOCAL, 2))  # warm-up: the workers import
        reference: list[GameResult] | None = None
        for run in range(repeat):
            for workers in (1, 2):
                rate, results = _timed(jobs, workers)
                rates[workers].append(rate)
                if reference is None:
                    reference = results
                same = same and [r.to_dict() for r in results] == [
                    r.to_dict() for r in reference]  # fmt: skip
                lines.append(f"run {run + 1}, {workers} worker(s): {rate:.2f} games/s")
    lines.append(f"load average after: {os.getloadavg()[0]:.1f} (on {os.cpu_count()} cores)")
    one, two = statistics.median(rates[1]), statistics.median(rates[2])
    lines.append(f"median games/s: 1 worker {one:.2f}, 2 workers {two:.2f}")
    lines.append(f"same results on 1 and 2 workers: {'yes' if same else 'NO'}")
    lines.append(f"ratio 2 workers / 1 worker: {two / one:.2f}x")
    return "\n".join(lines)
