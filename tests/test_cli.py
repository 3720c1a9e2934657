"""The `jamaica` command: the demo game and the benchmark, run as a user would."""

from __future__ import annotations

import subprocess
import sys


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jamaica", *args], capture_output=True, text=True, timeout=120
    )


def test_demo_prints_a_whole_game_and_the_final_scores() -> None:
    out = _run("demo", "--seed", "3")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "=== Round 1 begins ===" in text
    assert "Final scores after" in text and "<- winner" in text
    assert "The game ends" in text
    for name in ("Anne Bonny", "Mary Read", "John Rackham", "Olivier Levasseur"):
        assert name in text.split("Final scores")[1]


def test_demo_is_reproducible_and_spectators_see_no_hands() -> None:
    a, b = (
        _run("demo", "--seed", "5", "--players", "2"),
        _run("demo", "--seed", "5", "--players", "2"),
    )
    assert a.stdout == b.stdout and "the Ghost Ship" in a.stdout
    spectator = _run("demo", "--seed", "5", "--players", "2", "--spectator").stdout
    assert " only]" not in spectator and " only]" in a.stdout


def test_demo_rejects_a_bad_configuration_without_a_traceback() -> None:
    out = _run("demo", "--players", "9")
    assert out.returncode == 2
    assert "players must be" in out.stderr and "Traceback" not in out.stderr


def test_bench_prints_its_figures() -> None:
    out = _run("bench", "--games", "5")
    assert out.returncode == 0, out.stderr
    for label in ("games/s", "decisions/s", "clone()", "view()", "greedy decisions/s",
                  "ISMCTS iterations/s", "PettingZoo steps/s", "OpenSpiel steps/s"):  # fmt: skip
        assert label in out.stdout


def test_bench_hints_prints_the_worst_update_per_kind_of_question() -> None:
    out = _run("bench", "--hints", "--games", "2")
    assert out.returncode == 0, out.stderr
    rows = {line.split()[0]: line.split() for line in out.stdout.splitlines()[3:]}
    for kind in ("card", "move", "pay", "powder", "spoils", "roll_dice", "game_over"):
        assert kind in rows
    assert rows["pay"][-1] == "gunpowder" and int(rows["pay"][1]) > 0  # the walk's clones
    assert rows["card"][1] == "0" and int(rows["card"][3]) == 17  # no clone; 17 arrivals
