"""Issue 28: the installed `jamaica replay FILE` in a real pseudo-terminal (tmux), read off the
screen: `a` analyses the human's decisions with a progress bar, `m` goes to a marked decision
where every option's value is shown (★ master's choice, ▸ the one played), `a` again gives the
summary and the list, Enter jumps to a step — at 80×24 and 120×40, and in French (no English word
of the analysis's). Master's budget is tiny (`--budget 8`) so the test stays fast."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from .test_analysis_replay import finished_game
from .test_terminal import JAMAICA, Terminal, terminal


def _fits(screen: str, size: tuple[int, int]) -> None:
    lines = screen.splitlines()
    assert len(lines) <= size[1] and all(len(line) <= size[0] for line in lines), screen


def _mark(t: Terminal, *words: str) -> str:
    """Press `m` until the replay stands on a marked decision (the analysis must be done)."""
    for _ in range(40):
        t.keys("m")
        time.sleep(0.3)
        screen = t.screen()
        if all(w in screen for w in words):
            return screen
    raise AssertionError(f"no marked decision shown:\n{t.screen()}")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_analysis_in_a_real_terminal(size: tuple[int, int], tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    finished_game(save, ["human", "greedy", "greedy"])
    cmd = f"env -u LANGUAGE -u LC_ALL LANG=C.UTF-8 {JAMAICA} replay {save} --budget 8"
    with terminal(cmd, size, tmp_path) as t:
        screen = t.wait_for("Step 0 of", "master's analysis")
        _fits(screen, size)
        t.keys("End")
        t.keys("a")
        screen = t.wait_for("Analysis: Anne", "m: the next mark")
        _fits(screen, size)
        assert re.search(r"\d+ inaccurac", screen) and "Hand" in screen
        t.keys("Home")
        screen = _mark(t, "★", "▸", "lost")
        _fits(screen, size)
        assert re.search(r"Step \d+ of \d+ · round \d+ of \d+ · next: Anne", screen), screen
        assert re.search(r"\d+% ★ ", screen) and re.search(r"\d+% ▸ ", screen), screen
        assert re.search(r"(\?!|\?\?|\?) (inaccuracy|mistake|blunder) · lost \d+ pts?", screen)
        # the list: the summary, the decisions; Enter goes to the highlighted one
        t.keys("a")
        screen = t.wait_for("Analysis (Enter: go to the step)", "judged by master")
        _fits(screen, size)
        assert "You lost most at" in screen and re.search(r"R\d+ +\d+ ", screen), screen
        t.keys("Home", "Enter")
        screen = t.wait_for("Analysis: Anne", "next: Anne")
        _fits(screen, size)
        t.keys("q")
        t.wait_for("EXIT=0")
    assert (tmp_path / "game.analysis.json").exists()  # kept beside the save


# The analysis's English words, any of which on a French screen is left untranslated.
ENGLISH = re.compile(
    r"\b(Analysis|analysis|Step|decisions?|judged|master's|Master's|lost|best|Next mark|"
    r"inaccurac\w+|mistakes?|blunders?|the next mark|the list|Hand|round|You lost|"
    r"Enter: go|Another seat|Close)\b"
)


def test_the_analysis_in_french_fits_80x24(tmp_path: Path) -> None:
    save = tmp_path / "partie.json"
    finished_game(save, ["human", "greedy", "greedy"])
    cmd = (f"env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=fr_FR.UTF-8 {JAMAICA} replay {save} "
           "--budget 8 --analyse 1")  # fmt: skip
    seen = []
    with terminal(cmd, (80, 24), tmp_path) as t:
        seen.append(t.wait_for("Analyse\u202f: Anne", "m\u202f: la marque suivante"))
        seen.append(_mark(t, "★", "▸", "perdus"))
        t.keys("a")
        seen.append(t.wait_for("jugées par le maître", "Tu as le plus"))
        t.keys("Escape")
        time.sleep(0.5)  # else the terminal reads Escape and ? as one key (alt+?)
        t.keys("?")
        seen.append(t.wait_for("Touches du replay", "l’analyse des décisions par le maître"))
    for screen in seen:
        _fits(screen, (80, 24))
        english = sorted({m.group(0) for m in ENGLISH.finditer(screen)})
        assert english == [], f"English on a French screen: {english}\n{screen}"
    assert re.search(r"\d+\u202f% ★ ", seen[1]), seen[1]
