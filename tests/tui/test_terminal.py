"""The installed `jamaica play`, run in a real pseudo-terminal (tmux) at 80×24 and 120×40, read
off the screen: the dice, the hand and the question are there at every decision."""

from __future__ import annotations

import itertools
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

JAMAICA = str(Path(sys.executable).with_name("jamaica"))


def _need_tmux() -> None:
    if shutil.which("tmux") is None:
        if os.environ.get("JAMAICA_REQUIRE_TERMINAL"):
            pytest.fail("tmux is required (JAMAICA_REQUIRE_TERMINAL is set) but not installed")
        pytest.skip("tmux is not installed")


class Terminal:
    def __init__(self, name: str) -> None:
        self.socket = ["-L", name]  # a private tmux server, whatever else runs
        self.name = name

    def screen(self) -> str:
        return subprocess.run(["tmux", *self.socket, "capture-pane", "-t", self.name, "-p"],
                              capture_output=True, text=True).stdout  # fmt: skip

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", *self.socket, "send-keys", "-t", self.name, *keys], check=True)

    def wait_for(self, *words: str, timeout: float = 30) -> str:
        """The screen once it shows every one of `words` and stands still (the same 0.05 s
        later: not caught half drawn)."""
        end = time.monotonic() + timeout
        screen = last = ""
        while time.monotonic() < end:
            screen = self.screen()
            if screen == last and all(w in screen for w in words):
                return screen
            last = screen
            time.sleep(0.05)
        raise AssertionError(f"{words} never showed:\n{screen}")

    def changed(self, since: str, timeout: float = 30) -> str:
        """The screen once it is no longer `since` and has stood still for 0.1 s (the key was
        read and the app has drawn what follows): waited for, rather than a fixed pause."""
        end = time.monotonic() + timeout
        last = since
        while time.monotonic() < end:
            time.sleep(0.05)
            screen = self.screen()
            if screen == last != since:
                return screen
            last = screen
        raise AssertionError(f"the screen never moved on from:\n{since}")


_SERVERS = itertools.count()


@contextmanager
def terminal(cmd: str, size: tuple[int, int], cwd: Path) -> Iterator[Terminal]:
    _need_tmux()
    # a server of its own each time: a killed one may still be going away when the next starts
    name = f"jamaica-test-{os.getpid()}-{size[0]}-{next(_SERVERS)}"
    env = {**os.environ, "TERM": "xterm-256color"}
    shell = f"cd {shlex.quote(str(cwd))} && {cmd}; echo EXIT=$?; sleep 30"
    subprocess.run(["tmux", "-L", name, "new-session", "-d", "-s", name, "-x", str(size[0]),
                    "-y", str(size[1]), shell], check=True, env=env)  # fmt: skip
    try:
        yield Terminal(name)
    finally:
        subprocess.run(["tmux", "-L", name, "kill-server"], capture_output=True)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_play_in_a_real_terminal(size: tuple[int, int], tmp_path: Path) -> None:
    save = tmp_path / "pty.json"
    cmd = f"{JAMAICA} play --seats human,greedy,greedy --seed 3 --delay 0 --save {save}"
    with terminal(cmd, size, tmp_path) as t:
        kinds = set()
        for _ in range(12):
            screen = t.wait_for("1. ", "Hand ", "Dice ", "Round ")
            lines = screen.splitlines()
            assert len(lines) <= size[1] and all(len(line) <= size[0] for line in lines)
            assert "PR" in screen and "Save & quit" in screen
            data = json.loads(save.read_text())
            kinds.add(len(data["actions"]))
            t.keys("1")
            t.changed(screen)
        t.keys("q")
        screen = t.wait_for("EXIT=0")
        assert f"The game is saved in {save}" in "".join(screen.splitlines())
    data = json.loads(save.read_text())
    assert data["game"] == "jamaica" and len(data["actions"]) > 10
    assert [s["bot"] for s in data["seats"]] == [None, "greedy", "greedy"]
    assert len(kinds) > 5  # the game moved on between the screens


def test_plain_play_offers_the_saved_game_and_never_overwrites_it(tmp_path: Path) -> None:
    save = tmp_path / "jamaica-save.json"
    from jamaica import Config
    from jamaica.session import GameSession, make_seats

    session = GameSession(Config(3), make_seats(["human", "greedy", "greedy"]), 5, save)
    session.run_until_human()
    before = save.read_bytes()
    with terminal(f"{JAMAICA} play", (80, 24), tmp_path) as t:
        t.wait_for("An unfinished game is saved in", "resume it", "jamaica-save-2.json")
        t.keys("n")
        t.wait_for("Set sail", "jamaica-save-2.json")
        t.keys("Escape")
        screen = t.wait_for("EXIT=0")
        assert "No game was started" in screen
    assert save.read_bytes() == before
    assert not (tmp_path / "jamaica-save-2.json").exists()
