"""Issue 26: the terminal app in French. The installed `jamaica play` is run in a real
pseudo-terminal (tmux) at 80×24 with `LANG=fr_FR.UTF-8` (and with `--lang fr`), a whole game
against bots is played off the screen, and every screen is read: French words, none of the app's
English ones, nothing past the 80th column, the end of the race reached. The language is chosen
by `--lang`, else the environment; the command's help follows the environment too."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jamaica.cli import build_parser, play_app

from ..soak import soak
from .test_terminal import JAMAICA, terminal

# The app's own English words, any of which on a French screen is a word left untranslated
# (the players' names here are Anne Bonny, Mary Read and John Rackham: none of these).
ENGLISH = re.compile(
    r"\b(Round|Captain|Dice|Hand|Played|Chosen|Your decision|Waiting|Save & quit|Help|Log|"
    r"Quit|Winner|After|rounds?|chooses|morning|evening|forward|backward|shortage|battle|"
    r"treasure|holds?|moves|pays|loads|firepower|powder|gold|food|doubloons?|the|and|have|"
    r"take|left|New game|Replay|Keys|The race|The screen|whole log|lair|sea|finish|"
    r"orders|rolls|draws|reveals|spends|wins|Ghost Ship|empty|deck|to go|face-down|ahead of|"
    r"times in|Pass the keyboard|look away|show my hand|Set sail|Players|Edition|human|bot:)\b"
)
FRENCH_TABLE = ("Manche", "Capitaine", "Dés", "Sauver et quitter")


def _french_env() -> str:
    """A shell prefix for a French terminal, whatever this one's locale is."""
    return "env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=fr_FR.UTF-8"


def _check(screen: str, seen: list[str]) -> None:
    lines = screen.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines), screen
    english = sorted({m.group(0) for m in ENGLISH.finditer(screen)})
    assert english == [], f"English on a French screen: {english}\n{screen}"
    seen.append(screen)


# The LANG game is played to the end of the race. The --lang game speaks the same French once the
# flag has chosen it: by default it stops after FLAG_ANSWERS answers and is saved and quit (in
# French too), to the end of the race with JAMAICA_SOAK=1.
FLAG_ANSWERS = soak(12, None)


@pytest.mark.soak
@pytest.mark.parametrize("how", ["LANG", "--lang"])
def test_a_whole_game_in_french_fits_80x24(how: str, tmp_path: Path) -> None:
    save = tmp_path / "fr.json"
    prefix = _french_env() if how == "LANG" else "env -u LANGUAGE -u LC_ALL LANG=C.UTF-8"
    flag = "" if how == "LANG" else "--lang fr"
    cmd = (f"{prefix} JAMAICA_DATA_DIR={tmp_path / 'data'} {JAMAICA} play {flag} "
           f"--seats human,greedy,greedy --seed 3 --delay 0 --save {save}")  # fmt: skip
    seen: list[str] = []
    with terminal(cmd, (80, 24), tmp_path) as t:
        screen = t.wait_for("Ta décision", "1. ")
        _check(screen, seen)
        assert all(w in screen for w in FRENCH_TABLE), screen
        # help and the whole log, in French, then back to the table
        t.keys("?")
        screen = t.wait_for("Touches", "La course")
        _check(screen, seen)
        t.keys("Escape")
        t.wait_for("Ta décision")
        time.sleep(0.3)  # Esc then l at once would read as alt+l
        t.keys("l")
        _check(t.wait_for("Tout le journal"), seen)
        t.keys("Escape")
        t.wait_for("Ta décision")
        answered = 0
        stop = FLAG_ANSWERS if how == "--lang" else None
        end = time.monotonic() + 240
        while time.monotonic() < end:
            screen = t.screen()
            if "Nouvelle partie" in screen or answered == stop:
                break
            if "Ta décision" in screen and "1. " in screen:
                _check(screen, seen)
                answered += 1
                t.keys("1")
                t.changed(screen)
            else:
                time.sleep(0.05)
        else:
            raise AssertionError(f"the end of the race never showed:\n{screen}")
        if answered == stop:  # saved and quit mid-game
            t.wait_for("Ta décision", "Sauver et quitter")
            t.keys("q")
            screen = t.wait_for("EXIT=0")
            assert "La partie est enregistrée dans" in screen
        else:
            screen = t.wait_for("Gagnant", "manches")
            _check(screen, seen)
            assert "place" in screen and "total" in screen and "PR" in screen
            assert "Port Royal" in screen or "limite" in screen
            t.keys("q")
            screen = t.wait_for("EXIT=0")
            assert "La partie terminée est enregistrée dans" in screen
    assert answered >= 10
    # the questions seen were of several kinds, and each one spoke French
    questions = "\n".join(seen)
    assert "choisi" in questions and "Main" in questions and "Journal" in questions


def test_lang_and_the_environment_choose_the_terminal_s_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)

    def lang(args: list[str], env: str) -> str:
        monkeypatch.setenv("LANG", env)
        ns = build_parser().parse_args(["play", "--save", str(tmp_path / "g.json"), *args])
        return play_app(ns).words.lang

    assert lang(["--lang", "fr"], "C") == "fr"
    assert lang([], "fr_FR.UTF-8") == "fr"
    assert lang([], "C") == "en"
    assert lang(["--lang", "en"], "fr_FR.UTF-8") == "en"


def _jamaica(args: list[str], lang: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}  # fmt: skip
    env.update(LANG=lang, COLUMNS="100")
    return subprocess.run([sys.executable, "-m", "jamaica", *args], capture_output=True,
                          text=True, env=env, timeout=60)  # fmt: skip


def test_the_command_s_help_and_errors_speak_the_environment_s_language() -> None:
    fr = _jamaica(["--help"], "fr_FR.UTF-8").stdout
    assert fr.startswith("utilisation\u202f: jamaica")
    assert "Jamaica, la course des pirates." in fr and "options\u202f:" in fr
    assert "affiche ce message d’aide et quitte" in fr
    assert "jouer dans le terminal, contre des bots" in fr
    assert "usage:" not in fr and "show this help" not in fr
    play = _jamaica(["play", "--help"], "fr_FR.UTF-8").stdout
    assert "la langue des écrans" in play and "jouer avec le Vaisseau fantôme" in play
    error = _jamaica(["play", "--players"], "fr_FR.UTF-8")
    assert error.returncode == 2
    assert "jamaica play\u202f: erreur\u202f: argument --players\u202f: un argument attendu" in (
        error.stderr
    )
    ours = _jamaica(["play", "--delay", "99"], "fr_FR.UTF-8")
    assert "jamaica\u202f: erreur\u202f: --delay doit être un nombre de secondes" in ours.stderr
    en = _jamaica(["--help"], "C").stdout
    assert en.startswith("usage: jamaica") and "show this help message and exit" in en
    assert "Jamaica, the pirate race." in en
