"""Games on Ray: the same results for the same seeds whatever the workers, gathered in order."""

from __future__ import annotations

import io
import itertools
import os
import time

import pytest
from rich.console import Console

from jamaica import Config
from jamaica.lab.commands import tournament
from jamaica.lab.distributed import LOCAL, Cluster, chunk_size, run_jobs


def _quiet() -> Console:
    return Console(file=open(os.devnull, "w"), width=140)


def test_a_tournament_gives_the_same_table_on_one_and_two_ray_workers(ray_cluster: None) -> None:
    config = Config(3)
    bots = ["greedy", "random", "easy"]
    tables = [Console(file=io.StringIO(), width=140) for _ in range(3)]
    here = tournament(config, bots, 8, Cluster(), seed=4, console=tables[0], quiet=True)
    one = tournament(config, bots, 8, Cluster(LOCAL, 1), seed=4, console=tables[1], quiet=True)
    two = tournament(config, bots, 8, Cluster(LOCAL, 2), seed=4, console=tables[2], quiet=True)
    assert [r.to_dict() for r in one] == [r.to_dict() for r in two] == [r.to_dict() for r in here]
    printed = [t.file.getvalue() for t in tables]  # type: ignore[attr-defined]
    assert printed[0] == printed[1] == printed[2] and "win rate (95% CI)" in printed[0]
    assert [r.game for r in two] == list(range(8))
    other = tournament(config, bots, 8, Cluster(LOCAL, 2), seed=5, console=_quiet(), quiet=True)
    assert [r.to_dict() for r in other] != [r.to_dict() for r in two]


def test_jobs_run_in_ray_workers_and_come_back_in_job_order(ray_cluster: None) -> None:
    # early jobs sleep longest, so they finish last; the list is still in job order
    arrived: list[tuple[int, int]] = []
    out = run_jobs(lambda j: (time.sleep(0.02 * (16 - j) / 16), (j, os.getpid()))[1],
                   list(range(16)), Cluster(LOCAL, 2), arrived.append)  # fmt: skip
    assert [j for j, _ in out] == list(range(16))
    assert sorted(arrived) == sorted(out)
    pids = {pid for _, pid in out}
    assert os.getpid() not in pids and len(pids) == 2


def test_one_worker_plays_one_game_at_a_time(ray_cluster: None) -> None:
    def span(j: int) -> tuple[float, float]:
        start = time.time()
        time.sleep(0.05)
        return start, time.time()

    spans = sorted(run_jobs(span, list(range(6)), Cluster(LOCAL, 1)))
    # chunk_size(6, 1) is 1: six tasks, one after the other
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
    spans = sorted(run_jobs(span, list(range(6)), Cluster(LOCAL, 2)))
    assert any(b[0] < a[1] for a, b in itertools.pairwise(spans))


def test_in_process_needs_no_ray() -> None:
    seen: list[int] = []
    assert run_jobs(lambda j: j * j, [3, 1, 2], Cluster(), seen.append) == [9, 1, 4]
    assert seen == [9, 1, 4]


def test_where_the_games_run_is_read_from_ray_and_workers() -> None:
    assert Cluster.parse(None, 1) == Cluster(None, 1)
    assert Cluster.parse(None, 3) == Cluster(LOCAL, 3)
    assert Cluster.parse(None, None) == Cluster(LOCAL, os.cpu_count() or 1) or (
        os.cpu_count() == 1 and Cluster.parse(None, None) == Cluster(None, 1))
    assert Cluster.parse("local", 2) == Cluster(LOCAL, 2)
    assert Cluster.parse("auto", None) == Cluster("auto", 0)
    assert Cluster.parse(" 10.0.0.5:6379 ", 8) == Cluster("10.0.0.5:6379", 8)
    assert Cluster("auto", 0).describe() == "the Ray cluster at auto"
    with pytest.raises(ValueError, match="at least 1"):
        Cluster.parse(None, 0)
    with pytest.raises(ValueError, match="auto"):
        Cluster.parse("  ", 2)


def test_a_task_holds_a_few_games() -> None:
    assert chunk_size(6, 1) == 1
    assert chunk_size(400, 2) == 16
    assert chunk_size(100, 2) == 7


def test_bench_ray_plays_one_then_two_workers_and_prints_the_ratio(ray_cluster: None) -> None:
    from jamaica.lab.benchray import bench_ray

    report = bench_ray(games=4, repeat=2, seed=3, bot="random")
    lines = report.splitlines()
    runs = [line.split(":")[0] for line in lines[1:5]]
    assert runs == [f"run {r}, {w} worker(s)" for r in (1, 2) for w in (1, 2)]
    assert "same results on 1 and 2 workers: yes" in report
    ratio = float(lines[-1].split(": ")[1].rstrip("x"))
    assert 0 < ratio < 10
    with pytest.raises(ValueError, match="--games"):
        bench_ray(games=0)


def test_an_address_where_no_cluster_listens_is_refused_at_once() -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "jamaica", "tournament", "--bots",
                          "random,random", "--games", "2", "--ray", "127.0.0.1:1"],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "no Ray cluster answers at 127.0.0.1:1" in out.stderr
