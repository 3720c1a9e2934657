"""Issue 23's failures on a real service (`jamaica bench-cluster`, bounded): nodes killed with
SIGKILL (restarted at once, or after their tables were taken over), a node paused past its lease
with answers queued, Redis down and PostgreSQL restarted under running games — real processes,
real PostgreSQL and Redis, simulated people playing over WebSockets. Nothing acknowledged is lost,
no game diverges from its stored decisions, a stale owner stores nothing, and the games and the
lobby go on by themselves."""

from __future__ import annotations

import pytest

from jamaica.web.chaos import Options, bench_cluster, table
from jamaica.web.services import Missing

from ..services import missing
from ..soak import soak


@pytest.mark.soak
def test_the_service_survives_kills_pauses_and_outages() -> None:
    o = soak(Options(kills=1, lease=2.0, redis_seconds=2.0, pg_seconds=3.0, tables=3, nodes=2),
             Options(kills=4, lease=2.0, redis_seconds=5.0, pg_seconds=6.0, tables=6))  # fmt: skip
    try:
        report = bench_cluster(o, out=lambda line: None)
    except Missing as e:
        missing(e)
    told = table(report, o)
    n = report.numbers
    assert not report.problems, told
    assert n["takeover_acknowledged"] > 0 and n["takeover_lost"] == 0, told
    assert n["takeover_diverged"] == 0 and n["takeover_unheld"] == 0, told
    assert n["split_stale"] == 0 and n["split_moved"] == 3 and n["split_on"] == 3, told
    assert n["redis_stopped"] == 0 and 0 <= n["redis_lobby"] < 10, told
    assert n["redis_lost"] == 0 and n["redis_diverged"] == 0, told
    assert n["pg_sent"] > 0 and n["pg_stuck"] == 0, told  # refused, or held until it is back
    assert n["pg_acknowledged"] > 0 and n["pg_lost"] == 0 and n["pg_diverged"] == 0, told
