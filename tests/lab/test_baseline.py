"""The baseline table: a fixed protocol (conditions, pool, seeds), the same on Ray as here."""

from __future__ import annotations

import subprocess
import sys

import pytest

from jamaica.bots import LEVELS, make_bot
from jamaica.lab.baseline import CONDITIONS, POOL, baseline, markdown, play, schedule, select
from jamaica.lab.distributed import LOCAL, Cluster
from jamaica.lab.entrants import ENTRANTS, Entrant
from jamaica.lab.seer import SEER
from jamaica.rules import State, play_game

GREEDY = next(e for e in ENTRANTS if e.label == "greedy")
RANDOM = next(e for e in ENTRANTS if e.label == "random")
TINY_SPIEL = Entrant("OpenSpiel ISMCTS-2", "openspiel-ismcts:simulations=2", "2 simulations")


def test_every_row_plays_the_same_deals_in_every_seat_against_the_pool() -> None:
    jobs = schedule([(RANDOM, 8), (GREEDY, 8)])
    assert len(jobs) == 2 * 8 * len(CONDITIONS)
    mine = [j for j in jobs if j.row == 0]
    theirs = [j for j in jobs if j.row == 1]
    assert [j.seed for j in mine] == [j.seed for j in theirs]
    assert len({j.seed for j in mine}) == len(mine)  # a new deal for every game
    for j in mine:
        assert j.seats[j.seat] == "random" and len(j.seats) == j.config.players
        others = [s for k, s in enumerate(j.seats) if k != j.seat]
        assert all(s in POOL for s in others)
        if j.config.players == 4:
            assert sorted(others) == sorted(POOL)
    heads_up = [j for j in mine if j.condition == 0]
    assert {j.seat for j in heads_up} == {0, 1}
    assert {j.seats[1 - j.seat] for j in heads_up} == set(POOL)


def test_a_game_of_the_protocol_is_the_lab_s_game() -> None:
    job = schedule([(GREEDY, 3)])[2]  # 2021, heads-up, greedy in seat 0 against medium
    agents = [make_bot(spec, job.seed * 10 + k) for k, spec in enumerate(job.seats)]
    finals: list[State] = []
    play_game(job.config, agents, job.seed, final_state=finals)
    winners = finals[0].winners()
    outcome = play(job)
    assert outcome.share == (1 / len(winners) if job.seat in winners else 0.0)
    assert outcome.decisions > 10 and outcome.cpu > 0


def test_the_table_is_the_same_on_two_ray_workers_as_here(ray_cluster: None) -> None:
    rows = [(RANDOM, 2), (GREEDY, 2), (TINY_SPIEL, 1)]
    here = baseline(rows)
    there = baseline(rows, cluster=Cluster(LOCAL, 2))
    assert [r.cells for r in here] == [r.cells for r in there]
    assert [[c.games for c in r.cells] for r in here] == [[2] * 4, [2] * 4, [1] * 4]
    assert all(0 <= c.wins <= c.games for r in here for c in r.cells)
    assert here[0].cpu_ms[0] < here[2].cpu_ms[0]  # a search costs more than a random pick
    assert all(ms > 0 for ms in here[2].cpu_ms)
    text = markdown(here, 2027)
    assert text.count("\n| ") == 4  # the head and three rows
    assert "| OpenSpiel ISMCTS-2 | 2 simulations | 1 |" in text
    assert "2021, heads-up" in text and "classic, 4 players" in text


def test_rows_are_chosen_by_label_or_spec_each_with_its_games() -> None:
    assert [(e.label, n) for e, n in select("random,hard@24", 400)] == [
        ("random", 400), ("hard", 24)]  # fmt: skip
    assert [n for _, n in select("openspiel-ismcts:simulations=10@6", 400)] == [6]
    assert len(select(None, 4)) == len(ENTRANTS)
    every = [e.label for e, _ in select(None, 4)]  # every level a player meets (master was not
    assert set(LEVELS) <= set(every)  # a row), and no bound that sees the hidden cards
    assert SEER not in every and [e.label for e, _ in select(SEER, 4)] == [SEER]
    with pytest.raises(ValueError, match="no row 'wizard'"):
        select("wizard", 4)
    with pytest.raises(ValueError, match="whole number"):
        select("hard@x", 4)


def test_the_command_prints_the_table() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "jamaica", "lab", "baseline", "--quick", "--workers", "1",
         "--rows", "random,easy@2"], capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "| random | a legal answer at random | 4 |" in out.stdout
    assert "| easy | rules of thumb, 25% random slips | 2 |" in out.stdout
    assert "24 games in" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "jamaica", "lab", "baseline", "--rows", "x"],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert bad.returncode == 2 and "no row 'x'" in bad.stderr and "Traceback" not in bad.stderr
