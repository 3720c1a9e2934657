"""The local profile of `jamaica play` (issue 25, item 6): your results against each bot, in the
user's data directory, written whole or not at all, each finished game counted once — and the
end screen's line about it, read off a real terminal at 80×24."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from jamaica import Config
from jamaica.ratings import places_of
from jamaica.session import GameSession, make_seats
from jamaica.tui import profile
from jamaica.tui.profile import Against, Profile, ProfileError

from .test_terminal import JAMAICA, terminal


def finish(session: GameSession) -> GameSession:
    """Play the game to its end: the bots and the dice as they come, the human's first option."""
    while not session.state.is_terminal():
        if session.waiting_for_bot_or_chance():
            session.step()
        else:
            session.answer(session.state.legal_actions()[0])
    return session


def a_game(kinds: list[str], seed: int = 3, path: Path | None = None) -> GameSession:
    config = Config(len(kinds), max_rounds=2)
    return finish(GameSession(config, make_seats(kinds), seed, path))


# --- where it lives ------------------------------------------------------------------------------
def test_the_profile_lives_in_jamaica_data_dir_when_it_is_set(data_dir: Path) -> None:
    assert profile.data_dir() == data_dir
    assert profile.profile_path() == data_dir / "profile.json"


def test_otherwise_in_the_platforms_user_data_directory(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("JAMAICA_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert profile.data_dir() == tmp_path / "xdg" / "jamaica"  # platformdirs, XDG rules
    monkeypatch.setitem(sys.modules, "platformdirs", None)  # not installed: XDG by hand
    assert profile.data_dir() == tmp_path / "xdg" / "jamaica"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert profile.data_dir() == Path.home() / ".local" / "share" / "jamaica"


# --- what it counts ------------------------------------------------------------------------------
def test_a_finished_game_counts_for_each_bot_at_the_table_once(data_dir: Path) -> None:
    session = a_game(["human", "easy", "easy", "random"])
    places = places_of(session.state)
    line = profile.record(session)
    p = profile.load(data_dir / "profile.json")
    easy, rnd = p.against["easy"], p.against["random"]
    assert (easy.games, easy.met, rnd.games, rnd.met) == (1, 2, 1, 1)  # two easy seats: met twice
    assert easy.ahead == (places[0] < places[1]) + (places[0] < places[2])
    assert rnd.ahead == (places[0] < places[3])
    assert easy.places == {4: [int(places[0] == k) for k in (1, 2, 3, 4)]} == rnd.places
    assert line.startswith(f"You finished ahead of easy {_times(easy.ahead)} in 2, of random ")
    # the same game again — even from another file — is not counted twice
    before = (data_dir / "profile.json").read_bytes()
    assert profile.record(session) == line
    copy = GameSession(session.config, session.seats, session.seed, data_dir / "other.json")
    copy.state = session.state.clone()
    assert profile.record(copy) == line
    assert (data_dir / "profile.json").read_bytes() == before


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def test_a_game_without_exactly_one_human_is_not_counted(data_dir: Path) -> None:
    assert profile.record(a_game(["human", "human", "easy"])) == ""
    assert profile.record(a_game(["easy", "random"])) == ""
    unfinished = GameSession(Config(2), make_seats(["human", "easy"]), 1)
    assert profile.record(unfinished) == ""
    assert not (data_dir / "profile.json").exists()


def test_the_end_screen_line_adds_up_every_game(data_dir: Path) -> None:
    p = Profile({"hard": Against(games=10, met=10, ahead=4, level=1), "easy": Against(9, 9, 7)})
    assert p.line(["hard"]) == (
        "You finished ahead of hard 4 times in 10 (all your games against them)."
    )
    assert p.line(["hard", "easy", "hard", "medium"]) == (
        "You finished ahead of hard 4 times in 10, of easy 7 times in 9 (all your games against "
        "them)."
    )
    assert p.line(["medium"]) == ""
    # French, as a review read it: "Tu as fini devant maître 0 fois sur 5 (toutes tes parties
    # contre eux)" — a level's name alone, and "them" for bots never named as such
    from jamaica.i18n import Words

    assert p.line(["hard", "easy"], Words("fr")) == (
        "Tu as fini devant le bot difficile 4 fois sur 10, devant le bot facile 7 fois sur 9 "
        "(sur toutes tes parties contre ces bots)."
    )


def test_a_profile_round_trips(data_dir: Path) -> None:
    p = Profile({"hard": Against(3, 4, 1, 1, {3: [1, 1, 1]})}, ["a", "b"])
    profile.save(p, data_dir / "p.json")
    assert profile.load(data_dir / "p.json") == p
    assert Profile.from_dict(json.loads(json.dumps(p.to_dict()))) == p


# --- written whole or not at all -----------------------------------------------------------------
def test_the_profile_is_replaced_whole_and_a_failed_write_leaves_the_old_one(
    data_dir: Path, monkeypatch
) -> None:
    path = data_dir / "profile.json"
    profile.record(a_game(["human", "easy", "random"], seed=1))
    old = path.read_bytes()
    assert [f.name for f in data_dir.iterdir()] == ["profile.json"]  # no temporary file left

    def crash(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    line = profile.record(a_game(["human", "easy", "random"], seed=2))
    assert line.startswith("Your results against the bots were not recorded")
    assert "No space left" in line
    assert path.read_bytes() == old
    assert [f.name for f in data_dir.iterdir()] == ["profile.json"]


@pytest.mark.parametrize(
    "text", ["{not json", '{"version": 99}', '{"version": 1, "against": {"hard": {"met": -1}}}']
)
def test_an_unreadable_profile_is_said_and_kept(data_dir: Path, text: str) -> None:
    path = data_dir / "profile.json"
    path.write_text(text)
    with pytest.raises(ProfileError):
        profile.load(path)
    line = profile.record(a_game(["human", "easy"], seed=4))
    assert line.startswith("Your results against the bots were not recorded")
    assert path.read_text() == text


# --- in a real terminal --------------------------------------------------------------------------
def test_the_end_screen_says_how_often_you_finished_ahead_of_each_bot(
    data_dir: Path, tmp_path: Path
) -> None:
    """80×24, a game of one round (R7 limit 1) against easy and hard, with nine earlier meetings
    with hard in the profile (three of them ahead): the end screen counts this game as the 10th."""
    before = Profile({"hard": Against(9, 9, 3, 0, {3: [3, 3, 3]})}, ["earlier"])
    profile.save(before, data_dir / "profile.json")
    save = tmp_path / "short.json"
    cmd = (f"{JAMAICA} play --seats human,easy,hard --seed 3 --delay 0 --max-rounds 1 "
           f"--save {save}")  # fmt: skip
    with terminal(cmd, (80, 24), tmp_path) as t:
        end = time.monotonic() + 90
        screen = t.screen()
        while "Winner" not in screen and time.monotonic() < end:
            if "Hand " in screen:
                t.keys("1")
            time.sleep(0.3)
            screen = t.screen()
        screen = t.wait_for("Winner", "You finished ahead of")
        (tmp_path / "end-screen.txt").write_text(screen)
        lines = screen.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        said = " ".join(line.strip() for line in lines if line.strip())
        after = profile.load(data_dir / "profile.json")
        hard, easy = after.against["hard"], after.against["easy"]
        assert hard.met == 10 and easy.met == 1
        # the bots as they sit: easy, then hard
        assert (
            f"You finished ahead of easy {_times(easy.ahead)} in 1, of hard "
            f"{_times(hard.ahead)} in 10 (all your games against them)."
        ) in said, screen
        t.keys("q")
        t.wait_for("EXIT=0")
