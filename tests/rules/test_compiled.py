"""The compiled rules core (issue 27, item 5): `jamaica.rules` compiled with mypyc from the same
source plays the very same games as the pure package, passes the rules tests, and is faster.

The copy is built once per test session (`jamaica.compiled.build`, about a minute on 2 cores) and
cached under pytest's temporary directory by a key of the sources, so a rerun with the same
sources builds nothing. Without a C compiler or mypyc the tests skip, unless
JAMAICA_REQUIRE_COMPILED=1 (CI sets it) makes that a failure.

The rules tests run on the compiled copy in a subprocess, where it stands in for `jamaica.rules`
(`python -m jamaica.compiled run -m pytest ...`). Left out there: the five tests of
test_hint_bounds.py that count the interpreter's work (lines of the rules package executed
through `sys.settrace`, and calls through methods patched on the class): compiled code runs no
Python lines and calls its own methods directly, so there is nothing to count. They check the
hints' algorithm, which is the same source in both builds, and run on the pure package. The
bounded default also leaves out the three slowest tests (about 40 s of the run); JAMAICA_SOAK=1
runs them too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

import jamaica.rules as pure
from jamaica import compiled as build_tool

from ..soak import SOAK, soak

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("JAMAICA_REQUIRE_COMPILED", "").strip() not in ("", "0")

# Counting the interpreter's work: nothing to count in compiled code (see above).
COUNTING = [
    "test_hint_bounds.py::test_the_payment_restated_is_the_engines",
    "test_hint_bounds.py::test_a_defender_spending_17_gunpowder_gets_the_plans_within_the_bound",
    "test_hint_bounds.py::test_every_kind_of_question_at_its_worst_costs_a_bounded_update[move]",
    "test_hint_bounds.py::test_the_worst_cases_are_the_largest_questions_a_game_can_ask",
    "test_hint_bounds.py::test_every_kind_of_question_of_random_games_costs_a_bounded_update",
]
SLOWEST = [
    "test_hint_bounds.py::test_on_every_hold_contents_the_walk_ends_before_its_bound",
    "test_hint_bounds.py::test_the_plans_are_those_of_the_walk_of_every_order",
    "test_knowledge.py::test_no_leaks_a_player_cannot_tell_worlds_that_differ_only_in_hidden_cards",
]


@pytest.fixture(scope="session")
def build_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    why = ""
    if shutil.which(os.environ.get("CC", "cc")) is None:
        why = "no C compiler (cc)"
    else:
        try:
            import mypyc  # noqa: F401
        except ImportError:
            why = "mypyc is not installed (it comes with mypy: the dev extra)"
    if why:
        if REQUIRED:
            pytest.fail(f"JAMAICA_REQUIRE_COMPILED=1 but {why}")
        pytest.skip(why)
    base = tmp_path_factory.getbasetemp()
    # pytest's own numbered directories sit in one per user, kept between sessions: the cache.
    root = base.parent if base.parent.name.startswith("pytest-of-") else base
    return build_tool.build(root / "jamaica-compiled")


@pytest.fixture(scope="session")
def crules(build_dir: Path) -> ModuleType:
    return build_tool.load(build_dir)


def test_the_copy_is_compiled_and_stands_apart_from_the_pure_package(crules: ModuleType) -> None:
    assert crules is not pure
    assert crules.State is not pure.State
    for name in ("state", "base", "turns", "battle", "holds", "flow", "actions"):
        module = sys.modules[f"{build_tool.PACKAGE}.{name}"]
        assert module.__file__ is not None and module.__file__.endswith(".so"), module.__file__
    # Native classes: their methods are C functions, not Python ones.
    assert type(crules.State.apply).__name__ != "function"
    assert type(pure.State.apply).__name__ == "function"


def test_a_blank_state_runs_no_init(crules: ModuleType) -> None:
    """`clone` and `from_dict` start from `State.__new__(State)`: a blank instance, as in Python.
    (mypyc's own `__new__` of a class runs `__init__`, a whole new game: clone was 2× slower.)"""
    for rules in (pure, crules):
        blank = rules.State.__new__(rules.State)
        with pytest.raises(AttributeError):
            _ = blank.q


def test_the_compiled_core_plays_the_same_games(crules: ModuleType) -> None:
    """Both editions, 2–6 players, with and without the Ghost Ship where the rules allow it:
    seeded random games, every action, final state, event log and view, game by game."""
    games = soak(10, 200)
    want = build_tool.game_digests(pure, games)
    got = build_tool.game_digests(crules, games)
    assert len(want) == 16 * games
    differ = [name for name in want if got.get(name) != want[name]]
    assert not differ, f"{len(differ)} games differ, the first: {differ[0]}"
    assert build_tool.same_games_hash(crules, games) == build_tool.same_games_hash(pure, games)


def test_the_hash_tells_games_apart() -> None:
    """The same-games hash depends on the games: other seeds, another hash; each game its own."""
    digests = build_tool.game_digests(pure, 2)
    assert len(set(digests.values())) == len(digests)
    assert build_tool.same_games_hash(pure, 2, seed=0) != build_tool.same_games_hash(pure, 2, 1)


def test_the_hash_command_prints_both_hashes(
    build_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert build_tool.main(["--dir", str(build_dir.parent), "hash", "--games", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("pure ") and lines[1].startswith("compiled ")
    assert lines[0].split()[1] == lines[1].split()[1]
    assert lines[2] == "same games"


def test_run_puts_the_compiled_copy_in_place_of_jamaica_rules(build_dir: Path) -> None:
    code = (
        "import jamaica, jamaica.rules.state as st, jamaica.bots; "
        "print(st.__file__); print(jamaica.State is st.State); print(jamaica.rules.__name__)"
    )
    done = subprocess.run(
        build_tool.command(build_dir, ["-c", code]), capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    file, same, name = done.stdout.split()
    assert file.endswith(".so") and same == "True" and name == build_tool.PACKAGE


@pytest.mark.soak
def test_the_rules_tests_pass_on_the_compiled_copy(build_dir: Path) -> None:
    """tests/rules, run by pytest in a subprocess with the compiled copy as `jamaica.rules`."""
    skip = COUNTING + ([] if SOAK else SLOWEST)
    args = ["-m", "pytest", "-x", "-n", "0", "-p", "no:cacheprovider", "tests/rules",
            "--ignore=tests/rules/test_compiled.py"]  # fmt: skip
    for test in skip:
        args += ["--deselect", f"tests/rules/{test}"]
    t = time.perf_counter()
    done = subprocess.run(
        build_tool.command(build_dir, args), capture_output=True, text=True, cwd=ROOT
    )
    seconds = time.perf_counter() - t
    tail = "\n".join((done.stdout + done.stderr).splitlines()[-30:])
    assert done.returncode == 0, tail
    assert " passed" in tail and "failed" not in tail, tail
    print(f"tests/rules on the compiled copy: {tail.splitlines()[-1]} ({seconds:.0f} s)")


def test_the_compiled_core_is_faster(crules: ModuleType) -> None:
    """Timed turn about in this process, best of 5 rounds: games/s at least 1.5× the pure
    package's (measured 3.9× on a busy 2-core machine), and clone() no slower (measured 1.9×
    faster without its log; it was 2.5× slower before the blank-instance fix)."""
    r = build_tool.bench(pure, crules, rounds=5, games=10)
    pure_games, compiled_games = r["games/s"]
    assert compiled_games >= 1.5 * pure_games, r
    pure_clone, compiled_clone = r["clone(log=False) µs"]
    assert compiled_clone <= pure_clone, r
