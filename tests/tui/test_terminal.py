"""The installed `jamaica play`, run in a real pseudo-terminal (tmux), read off the screen."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

JAMAICA = str(Path(sys.executable).with_name("jamaica"))


def _need_tmux() -> None:
    if shutil.which("tmux") is None:
        if os.environ.get("JAMAICA_REQUIRE_TERMINAL"):
            pytest.fail("tmux is required (JAMAICA_REQUIRE_TERMINAL is set) but not installed")
        pytest.skip("tmux is not installed")


def test_play_in_a_real_terminal(tmp_path: Path) -> None:
    _need_tmux()
    save = tmp_path / "pty.json"
    name = f"jamaica-test-{os.getpid()}"
    socket = ["-L", name]  # a private tmux server, whatever else runs
    cmd = f"{JAMAICA} play --seats human,greedy,greedy --seed 3 --delay 0 --save {save}"
    env = {**os.environ, "TERM": "xterm-256color"}
    subprocess.run(["tmux", *socket, "new-session", "-d", "-s", name, "-x", "160", "-y", "50",
                    cmd], check=True, env=env)  # fmt: skip
    try:

        def screen_of() -> str:
            return subprocess.run(["tmux", *socket, "capture-pane", "-t", name, "-p"],
                                  capture_output=True, text=True).stdout  # fmt: skip

        end = time.monotonic() + 30
        screen = ""
        while time.monotonic() < end and "Anne Bonny:" not in screen:
            time.sleep(0.2)
            screen = screen_of()
        assert "Anne Bonny:" in screen, screen
        assert "Port Royal" in screen and "Your hand:" in screen and "~ sea (food)" in screen
        assert "1. " in screen
        for _ in range(3):
            subprocess.run(["tmux", *socket, "send-keys", "-t", name, "1"], check=True)
            time.sleep(0.6)
        subprocess.run(["tmux", *socket, "send-keys", "-t", name, "q"], check=True)
        end = time.monotonic() + 15
        while time.monotonic() < end and save.exists() is False:
            time.sleep(0.2)
        time.sleep(1)
        data = json.loads(save.read_text())
        assert data["game"] == "jamaica" and len(data["actions"]) > 10
        assert [s["bot"] for s in data["seats"]] == [None, "greedy", "greedy"]
    finally:
        subprocess.run(["tmux", *socket, "kill-server"], capture_output=True)
