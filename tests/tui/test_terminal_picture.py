"""The terminal's picture in the docs, taken from the real thing: the installed `jamaica play` in
tmux at 80×24 in the middle of a game, the pane captured with its colours (`capture-pane -e`),
each cell drawn by Chromium on a fixed grid (tests/tui/ansi.py) and screenshot. The picture goes
to the test's tmp_path; `JAMAICA_DOC_SHOTS=1` also writes docs/terminal-80x24.png, once every
check has passed — the same convention as the browser tests' screenshots."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from jamaica import Config
from jamaica.session import GameSession, make_seats

from ..web.conftest import browser  # noqa: F401  (Chromium through Playwright, or a skip)
from . import ansi
from .test_terminal import JAMAICA, Terminal, terminal

DOCS = Path(__file__).parents[2] / "docs"
SIZE = (80, 24)
SEED = 5
SHOT_ROUND = 9  # the picture: the human's choice of a card in this round (ships spread out,
# holds loaded, treasures taken, options leading to a lair and to a battle)


def mid_game(save: Path) -> None:
    """The rounds before SHOT_ROUND - 1 played by the library, the human seat answering as the
    greedy bot would (a believable game, fast); saved where the human chooses a card."""
    session = GameSession(Config(3), make_seats(["human", "greedy", "greedy"]), SEED, save)
    while True:
        session.run_until_human()
        s = session.state
        assert not s.is_terminal(), "the game ended before the picture's round"
        if s.rnd >= SHOT_ROUND - 1 and s.decision_kind() == "card":
            return
        session.answer(session.bot_action("greedy", 0))


def actions(save: Path) -> int:
    return len(json.loads(save.read_text())["actions"])


def settled(t: Terminal, timeout: float = 30) -> str:
    """The screen once it shows a question and stays the same for half a second (the app has
    drawn everything the last answer caused)."""
    end = time.monotonic() + timeout
    last = ""
    while time.monotonic() < end:
        screen = t.wait_for("─Your decision", "1. ", timeout=timeout)
        if screen == last:
            return screen
        last = screen
        time.sleep(0.5)
    raise AssertionError(f"the screen never settled:\n{last}")


def capture(t: Terminal) -> str:
    """The pane with its colours, every line whole (trailing cells kept)."""
    done = subprocess.run(["tmux", *t.socket, "capture-pane", "-t", t.name, "-p", "-e", "-N"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    return done.stdout


def test_the_sgr_parser_reads_what_tmux_writes() -> None:
    rows = ansi.parse(
        "\x1b[1m\x1b[38;2;255;95;95m\x1b[48;5;17mAB\x1b[0m \x1b[7;38;5;220m⚑\x1b[27m☠\n"
        "\x1b[4mx\x1b[24;39;49m\n",
        6,
        3,
    )
    assert ansi.text(rows) == "AB ⚑☠\nx\n"
    assert rows[0][0].style == ansi.Style(fg=(255, 95, 95), bg=(0, 0, 95), bold=True)
    assert rows[0][2].style == ansi.Style()
    assert rows[0][3].style.colours() == (ansi.DEFAULT_BG, (255, 215, 0))  # reversed
    assert rows[0][4].style == ansi.Style(fg=(255, 215, 0))
    assert rows[1][0].style == ansi.Style(fg=(255, 215, 0), underline=True)  # carried over
    assert rows[1][1].style == ansi.Style()
    assert all(len(r) == 6 for r in rows)
    for bad in ("x" * 7, "\x1b[5m", "\x1b]8;;http://x\x07y", "\x1b[38;5m", "a\nb\nc\nd"):
        with pytest.raises(ValueError):
            ansi.parse(bad, 6, 3)


def test_a_picture_of_the_terminal_mid_game(
    browser: Any,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    save = tmp_path / "game.json"
    mid_game(save)
    monkeypatch.setenv("COLORTERM", "truecolor")  # as most terminals say today: 24-bit colour
    cmd = f"{JAMAICA} play --resume {save} --delay 0"
    with terminal(cmd, SIZE, tmp_path) as t:
        # The rest of the round is played in the terminal, with the keys, up to the picture's.
        for _ in range(30):
            screen = settled(t)
            s = GameSession.load(save).state
            if s.rnd == SHOT_ROUND and s.decision_kind() == "card":
                break
            before = actions(save)
            t.keys("1")
            end = time.monotonic() + 15
            while actions(save) == before:
                assert time.monotonic() < end, f"the key was not taken:\n{screen}"
                time.sleep(0.05)
        else:
            raise AssertionError(f"round {SHOT_ROUND}'s card choice never came:\n{screen}")
        plain, coloured = screen, capture(t)
        assert t.screen() == plain, "the screen was still changing"

    rows = ansi.parse(coloured, *SIZE)  # raises if a line is wider than 80 or there are > 24
    assert ansi.text(rows).rstrip("\n") == plain.rstrip("\n"), "colours and text disagree"
    lines = plain.rstrip("\n").split("\n")
    assert len(lines) == SIZE[1], f"{len(lines)} lines: the screen is not full height"
    assert lines[0].startswith(f" Jamaica  Round {SHOT_ROUND}  ⚑ Captain ")
    assert lines[-1].startswith(" q Save & quit")
    for words in ("Dice ☀ morning", "Hand ", "Played ", "─Your decision", "choose an action card",
                  "1. ", "2. ", "treasure", "battle with", "─Log (l: all of it)", "▸AB Anne Bonny",
                  "MR Mary Read", "JR John Rackham", "PR ", "☠✦", "~2", "$3"):  # fmt: skip
        assert words in plain, f"{words!r} is not on the screen:\n{plain}"
    styles = {c.style for row in rows for c in row}
    assert len({s.colours()[0] for s in styles}) >= 10, "too few colours: not the coloured table"
    tags = {c.style.bg for row in rows for c in row[:45] if c.char in "ABMRJ" and c.style.bg}
    assert len(tags) >= 3, "the ships' tags are not each in their colour"

    page = browser.new_context(viewport={"width": 1000, "height": 600},
                               device_scale_factor=2).new_page()  # fmt: skip
    try:
        page.set_content(ansi.to_html(rows))
        page.evaluate("document.fonts.ready")
        grid = page.evaluate(
            """() => {
              const probe = document.createElement('span');
              probe.style.cssText = 'display:inline-block;width:80ch';
              document.querySelector('#grid .row').appendChild(probe);
              const width = probe.getBoundingClientRect().width; probe.remove();
              const grid = document.querySelector('#grid').getBoundingClientRect();
              const rows = [...document.querySelectorAll('#grid .row')];
              return { width, grid: [grid.width, grid.height],
                rows: rows.map(r => r.getBoundingClientRect().width),
                overflow: [...document.querySelectorAll('#grid span')]
                  .filter(s => s.scrollWidth > s.clientWidth + 1).map(s => s.textContent),
                mono: ['iiiiiiiiii', 'MMMMMMMMMM', '──────────'].map(t => {
                  const s = document.createElement('span'); s.textContent = t;
                  s.style.cssText = 'display:inline;width:auto';
                  document.querySelector('#grid .row').appendChild(s);
                  const w = s.getBoundingClientRect().width; s.remove(); return w / 10; }) };
            }"""
        )
        assert max(grid["mono"]) - min(grid["mono"]) < 0.01, f"not a monospace font: {grid}"
        assert grid["width"] == pytest.approx(80 * grid["mono"][0], abs=0.5)
        assert len(grid["rows"]) == SIZE[1]
        assert all(abs(w - grid["width"]) < 0.5 for w in grid["rows"]), grid["rows"]
        assert grid["grid"] == [pytest.approx(grid["width"], abs=0.5), SIZE[1] * 19]
        assert not grid["overflow"], f"glyphs wider than their cells: {grid['overflow']}"
        shot = tmp_path / "terminal-80x24.png"
        page.locator("#screen").screenshot(path=str(shot))
    finally:
        page.context.close()
    png = shot.read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 20_000
    if os.environ.get("JAMAICA_DOC_SHOTS"):
        (DOCS / "terminal-80x24.png").write_bytes(png)
