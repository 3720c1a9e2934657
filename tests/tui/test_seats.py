"""`jamaica play` refuses a bad seat before the game starts: one line, exit 2, no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from jamaica import Config
from jamaica.session import GameSession, make_seats


def _play(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jamaica", "play", *args],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("seats", "words"),
    [
        ("human,ismcts:rollout=banana", ["seat 2", "rollout", "random, greedy"]),
        ("human,ismcts:seconds=nan", ["seat 2", "seconds", "0.01 to 10"]),
        ("ismcts:iterations=0,human", ["seat 1", "iterations", "1 to 20000"]),
        ("human,ismcts:seconds=-1", ["seat 2", "seconds"]),
        ("human,minimax", ["seat 2", "unknown bot"]),
    ],
)
def test_play_refuses_a_bad_seat_with_one_line(
    seats: str, words: list[str], tmp_path: Path
) -> None:
    save = tmp_path / "save.json"
    out = _play("--seats", seats, "--save", str(save), "--delay", "0")
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("jamaica: error: "), out.stderr
    for word in words:
        assert word in lines[0]
    assert out.stdout == "" and not save.exists()  # the game never started


def test_resume_refuses_a_save_file_with_a_bad_bot(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    session = GameSession(Config(2), make_seats(["human", "greedy"]), 3, save)
    session.save()
    data = json.loads(save.read_text())
    data["seats"][1]["bot"] = "ismcts:seconds=nan"
    save.write_text(json.dumps(data))
    out = _play("--resume", str(save))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "corrupt save file" in lines[0] and "seconds" in lines[0]


def test_resume_refuses_deeply_nested_json(tmp_path: Path) -> None:
    save = tmp_path / "deep.json"
    save.write_text("[" * 100_000)
    out = _play("--resume", str(save))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_make_seats_names_the_bad_seat() -> None:
    with pytest.raises(ValueError, match=r"seat 3 .*rollout"):
        make_seats(["human", "greedy", "ismcts:rollout=banana"])
    seats = make_seats(["human", " ismcts:seconds=0.5:rollout=random "])
    assert seats[1].bot == "ismcts:seconds=0.5:rollout=random"
