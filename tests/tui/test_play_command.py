"""`jamaica play` and `jamaica replay` from the command line: every bad option or file is one line
on stderr naming what is wrong, exit code 2, no traceback, and no file written or changed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jamaica import Config
from jamaica.session import GameSession, make_seats

from ..soak import soak


def _jamaica(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jamaica", *args],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, cwd=cwd,
    )  # fmt: skip


def _one_line_error(out: subprocess.CompletedProcess[str], *words: str) -> None:
    assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("jamaica: error: "), out.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])


@pytest.mark.parametrize(
    ("delay", "words"), [("-1", ["--delay", "0 to 10", "-1"]), ("nan", ["--delay"]),
                         ("inf", ["--delay"]), ("11", ["--delay", "11"])],
)  # fmt: skip
def test_a_bad_delay_is_refused(delay: str, words: list[str], tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    out = _jamaica("play", "--seats", "human,greedy", "--delay", delay, "--save", str(save))
    _one_line_error(out, *words)
    assert not save.exists()


def test_a_save_file_in_a_missing_folder_is_refused(tmp_path: Path) -> None:
    save = tmp_path / "no" / "such" / "dir" / "x.json"
    out = _jamaica("play", "--seats", "human,greedy", "--save", str(save))
    _one_line_error(out, str(save), "does not exist")
    out = _jamaica("play", "--save", str(tmp_path))  # a folder
    _one_line_error(out, str(tmp_path), "folder")


def test_a_save_file_in_a_folder_nobody_may_write_is_refused(tmp_path: Path) -> None:
    """A read-only folder; as root (CI), who may write anywhere, /proc (no file can be made)."""
    folder = Path("/proc") if os.geteuid() == 0 else tmp_path / "ro"
    if folder != Path("/proc"):
        folder.mkdir()
        folder.chmod(0o500)
    try:
        out = _jamaica("play", "--seats", "human,greedy", "--save", str(folder / "x.json"))
        _one_line_error(out, str(folder / "x.json"))
    finally:
        if folder != Path("/proc"):
            folder.chmod(0o700)


def test_a_bot_that_thinks_for_a_time_is_refused_for_a_saved_game(tmp_path: Path) -> None:
    out = _jamaica("play", "--seats", "human,ismcts:seconds=0.5", "--save", str(tmp_path / "s"))
    _one_line_error(out, "seat 2", "seconds", "ismcts:iterations=1000")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--names", "A,B,C", "--players", "2"], ["3 names for 2 players"]),
        (["--seats", "human,greedy", "--players", "3"], ["2 seats for 3 players"]),
        (["--players", "2", "--no-ghost"], ["Ghost Ship"]),
        (["--players", "9"], ["players"]),
        (["--resume", "x.json", "--seats", "human,greedy"], ["--seats", "--resume"]),
        (["--names", ""], ["--names", "''"]),  # each opened the setup screen
        (["--names", ","], ["--names", "','"]),
        (["--names", "A,,B"], ["--names", "'A,,B'"]),
        (["--seats", ""], ["--seats", "human,greedy,greedy"]),
    ],
)
def test_options_that_do_not_fit_together_are_refused(
    args: list[str], words: list[str], tmp_path: Path
) -> None:
    _one_line_error(_jamaica("play", *args, "--save", str(tmp_path / "s.json")), *words)


def _valid_save(path: Path) -> dict[str, object]:
    session = GameSession(Config(2), make_seats(["human", "greedy"]), 3, path)
    session.run_until_human()
    data: dict[str, object] = json.loads(path.read_text())
    return data


BAD_SAVES: dict[str, bytes | None] = {
    "nested": b"[" * 100_000,
    "nested-object": b'{"a":' * 50_000,
    "binary": bytes(range(256)) * 8,
    "empty": b"",
    "not-json": b"{this is not json",
    "a-list": b"[1, 2, 3]",
    "folder": None,
}


def _bad_saves(tmp_path: Path) -> dict[str, Path]:
    files: dict[str, Path] = {}
    for name, content in BAD_SAVES.items():
        path = tmp_path / f"{name}.json"
        if content is None:
            path.mkdir()
        else:
            path.write_bytes(content)
        files[name] = path
    good = _valid_save(tmp_path / "good.json")
    for name, change in {
        "seats-ints": {"seats": [1, 2]},
        "seat-name-int": {"seats": [{"name": 5, "bot": None}, {"name": "B", "bot": "greedy"}]},
        "seat-bot-int": {"seats": [{"name": "A", "bot": None}, {"name": "B", "bot": 7}]},
        "seats-string": {"seats": "human,greedy"},
        "seed-text": {"seed": "3"},
        "seed-bool": {"seed": True},
        "actions-text": {"actions": "1,2,3"},
        "action-illegal": {"actions": [0, 0, 0]},
        "action-float": {"actions": [1.5]},
        "action-huge": {"actions": [10**30]},
        "action-null": {"actions": [None]},
        "config-list": {"config": [2]},
        "config-players-text": {"config": {"players": "2"}},
        "config-unknown": {"config": {"players": 2, "colour": "red"}},
        "no-config": {"config": None},
        "format-2": {"format": 2},
        "other-game": {"game": "chess"},
    }.items():
        data = {**good, **change}
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data))
        files[name] = path
    return files


COMMANDS = ["play --resume", "replay"]


@pytest.mark.soak
@pytest.mark.parametrize("command", COMMANDS)
def test_every_bad_save_file_is_one_line_naming_the_file(command: str, tmp_path: Path) -> None:
    """Each bad save is a process of its own: by default the two commands share them out, every
    other one (each command reads every one with JAMAICA_SOAK=1)."""
    saves = list(_bad_saves(tmp_path).items())
    if not soak(False, True):
        saves = saves[COMMANDS.index(command) :: len(COMMANDS)]
    for name, path in saves:
        before = path.read_bytes() if path.is_file() else None
        out = _jamaica(*command.split(), str(path))
        try:
            _one_line_error(out, str(path))
        except AssertionError as e:
            raise AssertionError(f"{name}: {e}") from None
        if before is not None:
            assert path.read_bytes() == before, name  # untouched


def test_a_missing_save_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "missing.json"
    _one_line_error(_jamaica("play", "--resume", str(path)), str(path))
    _one_line_error(_jamaica("replay", str(path)), str(path))


@pytest.mark.parametrize("option", ["--save", "--resume"])
@pytest.mark.parametrize("name", ["", " "])
def test_an_empty_file_name_is_refused(option: str, name: str, tmp_path: Path) -> None:
    """Issue 24, item 11: `--save ''` silently used jamaica-save.json (and `--resume ''`
    started a new game)."""
    out = _jamaica("play", "--seats", "human,greedy", option, name, cwd=tmp_path)
    _one_line_error(out, option, "file")
    assert not list(tmp_path.iterdir())
