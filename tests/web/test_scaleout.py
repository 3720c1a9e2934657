"""`jamaica bench-scaleout` (issue 23): one run on two real nodes sharing a real PostgreSQL plays
every game to its end on the node that keeps it, and measures every answer."""

from __future__ import annotations

import math
from pathlib import Path

from jamaica.web.bench import Pacing
from jamaica.web.scaleout import Once, Point, held, run_once

from ..services import Postgres


def test_a_run_on_two_nodes_plays_every_game_and_measures_it(
    postgres: Postgres, tmp_path: Path
) -> None:
    once = run_once(postgres, nodes=2, tables=4, seed=1, logs=tmp_path)
    assert math.isfinite(once.p99) and 0 < once.p99 < 5000
    assert once.rate > 0
    assert once.refused == 0
    assert {p.name for p in tmp_path.iterdir()} == {"n0.log", "n1.log"}


def test_a_paced_run_measures_people_s_answers_on_both_nodes(
    postgres: Postgres, tmp_path: Path
) -> None:
    once = run_once(postgres, nodes=2, tables=6, seed=2, logs=tmp_path,
                    pacing=Pacing(seconds=3.0, low=0.1, high=0.3, warmup=0.5))  # fmt: skip
    assert math.isfinite(once.p99) and 0 < once.p99 < 5000
    assert 6 <= once.rate < 12 * 2 / 0.1  # every seat answers, none faster than it thinks
    assert math.isfinite(once.cpu_ms) and once.cpu_ms > 0  # both nodes' CPU, from /proc


def _point(tables: int, p99s: list[float]) -> Point:
    return Point(1, tables, [Once(p99, 1.0) for p99 in p99s])


def test_the_figure_is_the_most_tables_that_kept_the_limit() -> None:
    points = [_point(10, [20.0, 30.0, 25.0]), _point(15, [90.0, 120.0, 95.0]),
              _point(20, [150.0, 99.0, 130.0])]  # fmt: skip
    assert held(points, 100.0) == 15
    assert held(points[2:], 100.0) == 0
