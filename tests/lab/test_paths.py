"""Output files are checked before any game is played (a designer's review): a long run must not
end in a traceback because its file cannot be written."""

from __future__ import annotations

from pathlib import Path

import pytest

from jamaica.cli import main
from jamaica.lab.paths import check_writable

UNWRITABLE = "/proc/jamaica-results"  # not even root may make a file there


def _refused(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(args)
    err = capsys.readouterr().err
    assert e.value.code == 2 and message in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) <= 2  # the usage line and the error


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "--bots", "greedy,random", "--games", "2", "--workers", "1", "--plot"],
        ["tournament", "--bots", "greedy,random", "--games", "2", "--workers", "1", "--out"],
        ["simulate", "--games", "2", "--workers", "1", "--out"],
        ["rate-bots", "--games", "5", "--levels", "random,easy", "--out"],
        ["lab", "fit-value", "--games", "10", "--workers", "1", "--out"],
    ],
    ids=["tournament-plot", "tournament-out", "simulate", "rate-bots", "fit-value"],
)
def test_an_unwritable_output_is_refused_before_any_game(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    suffix = ".png" if args[-1] == "--plot" else ".json"
    _refused([*args, UNWRITABLE + suffix], "cannot be written", capsys)


def test_a_folder_or_a_missing_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "d.csv").mkdir()
    _refused(["simulate", "--games", "2", "--workers", "1", "--out", str(tmp_path / "d.csv")],
             "is a folder", capsys)  # fmt: skip
    _refused(["lab", "fit-value", "--games", "10", "--workers", "1", "--out",
              str(tmp_path / "nodir" / "x.json")], "no such directory", capsys)  # fmt: skip


def test_the_check_leaves_no_file_and_keeps_an_existing_one(tmp_path: Path) -> None:
    new, old = tmp_path / "new.json", tmp_path / "old.json"
    old.write_text("kept")
    check_writable(new, "--out")
    check_writable(old, "--out")
    assert not new.exists() and old.read_text() == "kept"


def test_fit_value_needs_enough_games_to_hold_some_out(capsys: pytest.CaptureFixture[str]) -> None:
    _refused(["lab", "fit-value", "--games", "1", "--workers", "1"], "at least 10", capsys)
