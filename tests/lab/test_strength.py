"""`jamaica lab strength`: its rows and columns, its deals, reproducible, on Ray as here, and its
refusals."""

from __future__ import annotations

import subprocess
import sys

import pytest

from jamaica.lab.distributed import LOCAL, Cluster
from jamaica.lab.strength import (
    PAIRINGS,
    ROW_NAMES,
    Budgets,
    calibrate,
    choose_pairings,
    choose_rows,
    command,
    markdown,
    schedule,
    strength,
)

TINY = Budgets(2)  # OpenSpiel at 2 and 20 simulations


def _cmd(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "jamaica", "lab", "strength", *args],
                          capture_output=True, text=True, timeout=timeout)  # fmt: skip


def test_every_row_meets_every_pairing_on_the_same_deals_but_not_itself() -> None:
    rows = choose_rows(None, TINY)
    assert [name for name, _ in rows] == list(ROW_NAMES)
    jobs = schedule(rows, PAIRINGS, TINY, 2028, 6)
    cells = {(j.row, j.pairing) for j in jobs}
    names = [name for name, _ in rows]
    itself = {(names.index("hard"), 0), (names.index("hard"), 2), (names.index("greedy"), 1),
              (names.index("spiel"), 3), (names.index("spiel-x10"), 4)}  # fmt: skip
    assert cells == {(r, c) for r in range(len(rows)) for c in range(len(PAIRINGS))} - itself
    for c, pairing in enumerate(PAIRINGS):
        decks = {r: [j.seed for j in jobs if j.pairing == c and j.row == r] for r in range(10)}
        played = [d for d in decks.values() if d]
        assert all(d == played[0] for d in played) and len(set(played[0])) == 6  # fresh, shared
        for j in (j for j in jobs if j.pairing == c):
            assert j.config.players == pairing.players and j.seat == j.game % pairing.players
            assert j.seats[j.seat] == rows[j.row][1].spec
            others = {s for k, s in enumerate(j.seats) if k != j.seat}
            assert others == {pairing.opponent_spec(TINY)}
    assert {j.seats[1 - j.seat] for j in jobs if j.pairing == 4} == {
        "openspiel-ismcts:simulations=20"}  # fmt: skip


def test_the_default_sizes_are_the_issue_s() -> None:
    rows = choose_rows("hard,master,easy", TINY)
    jobs = schedule(rows, choose_pairings("hard,greedy"), TINY, 1, None)
    count = {(rows[j.row][0], PAIRINGS[j.pairing].name): 0 for j in jobs}
    for j in jobs:
        count[rows[j.row][0], PAIRINGS[j.pairing].name] += 1
    assert count == {("hard", "greedy"): 1000, ("master", "hard"): 300, ("master", "greedy"): 300,
                     ("easy", "hard"): 100, ("easy", "greedy"): 100}  # fmt: skip


def test_a_quick_table_has_its_rows_columns_and_cpu_and_replays_from_its_seed() -> None:
    rows = choose_rows("random,greedy", TINY)
    pairings = choose_pairings("greedy,spiel")
    first = strength(rows, pairings, TINY, seed=5, games=2)
    again = strength(rows, pairings, TINY, seed=5, games=2)
    assert first.cells == again.cells
    assert first.cells[1][0] is None  # greedy is not paired with itself
    assert [[c.games for c in r if c] for r in first.cells] == [[2, 2], [2]]
    text = markdown(first)
    head = "| bot | budget | vs greedy, heads-up | vs OpenSpiel ISMCTS, same CPU, heads-up |"
    assert head in text
    assert "| random | a legal answer at random | " in text and " · 2 |" in text
    assert "| greedy | one-step lookahead, 1 sampled world | — | " in text
    cpu = {line.split(" | ")[0][2:]: line for line in text.splitlines()[-3:]}
    assert set(cpu) == {"random", "greedy", "OpenSpiel ISMCTS (same CPU as master)"}
    spiel = first.cpu["openspiel-ismcts:simulations=2"][0]
    greedy = first.cpu["greedy"][0]
    assert spiel.decisions > 20 and spiel.seconds > 0 and spiel.most > 0
    assert greedy.decisions > 20 and greedy.seconds > 0


def test_a_part_of_the_table_gives_the_cells_of_the_whole() -> None:
    whole = strength(choose_rows("random,greedy", TINY), choose_pairings("spiel"), TINY, 3, 2)
    part = strength(choose_rows("greedy", TINY), choose_pairings("spiel"), TINY, 3, 2)
    assert part.cells[0] == whole.cells[1]


def test_the_table_is_the_same_on_two_ray_workers_as_here(ray_cluster: None) -> None:
    # OpenSpiel's column at the same CPU (2 simulations): the 10x column (20) is the same code
    # with its budget resolved here, before the jobs go out, and took 15 s a run
    rows, pairings = choose_rows("random,greedy", TINY), choose_pairings("greedy,spiel")
    here = strength(rows, pairings, TINY, seed=9, games=2)
    there = strength(rows, pairings, TINY, seed=9, games=2, cluster=Cluster(LOCAL, 2))
    assert here.cells == there.cells
    assert set(here.cpu) == set(there.cpu)


def test_the_calibration_scales_openspiel_to_the_bot_s_cpu() -> None:
    sims, ours, spiel = calibrate("greedy", probe=4, games=2)
    assert ours > 0 and spiel > ours  # a search of 4 rollouts costs more than greedy's look
    assert 1 <= sims <= 4


def test_the_command_prints_both_tables_and_how_to_play_them_again() -> None:
    out = _cmd("--quick", "--workers", "1", "--rows", "random", "--pairings", "greedy,spiel")
    assert out.returncode == 0, out.stderr
    assert "| random | a legal answer at random | " in out.stdout
    assert "same CPU = 2 simulations per decision, 10× = 20" in out.stdout
    assert "| bot | heads-up: decisions | mean ms | max ms |" in out.stdout
    assert ("`jamaica lab strength --seed 2028 --spiel-simulations 2 --games 2 --rows random "
            "--pairings greedy,spiel`") in out.stdout  # fmt: skip
    assert "4 games in" in out.stdout and "2/4 games" in out.stderr


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--rows", "wizard"], "no row 'wizard'"),
        (["--pairings", "easy"], "no pairing 'easy'; pairings: hard, greedy, hard-x3"),
        (["--games", "0"], "--games must be at least 1"),
        (["--spiel-simulations", "0"], "--spiel-simulations must be 1 to 10000"),
        (["--calibrate", "--spiel-simulations", "5"], "give one or the other"),
        (["--rows", ","], "--rows names nothing"),
    ],
)
def test_a_bad_option_is_refused_clearly(args: list[str], says: str) -> None:
    out = _cmd(*args, "--workers", "1", timeout=120)
    assert out.returncode == 2 and says in out.stderr, out.stderr
    assert "Traceback" not in out.stderr and not out.stdout


def test_the_command_refuses_before_playing() -> None:
    with pytest.raises(ValueError, match="unknown bot 'wizard'"):
        command(games=1, quick=True, seed=1, cluster=Cluster(), rows="wizard:x=1",
                pairings=None, simulations=None, calibrating=False)  # fmt: skip


def test_the_ghost_ship_s_wins_are_counted_apart() -> None:
    """Heads-up the Ghost Ship sails too (R: 2 players always have it) and can win: its share is
    its own line, so that the row's share and its opponent's are seen to sum to the rest."""
    table = strength(choose_rows("random", TINY), choose_pairings("spiel"), TINY, seed=1, games=2)
    cell, ghost = table.cells[0][0], table.ghost[0][0]
    assert ghost is not None and cell is not None
    assert ghost.games == cell.games == 2
    assert ghost.wins == 1.0 and cell.wins == 1.0  # the first deal's winner is the Ghost Ship
    text = markdown(table)
    assert "The Ghost Ship's share of the wins" in text
    assert f"| random | {ghost.text()} · 2 |" in text
    four = strength(choose_rows("random", TINY), choose_pairings("hard-x3"), TINY, seed=1, games=1)
    assert "Ghost Ship's share" not in markdown(four)  # 4 players: no Ghost Ship
