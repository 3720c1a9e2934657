"""A saved game with search bots resumed at any point goes on exactly as it would have: the bots
of a game that can be saved search by a number of iterations, never by a time."""

from __future__ import annotations

from pathlib import Path

import pytest

from jamaica import Config
from jamaica.cli import build_parser, play_app
from jamaica.session import GameSession, make_seats, reproducible
from jamaica.tui.app import GameOver, HandOver, JamaicaApp, Table

from ..soak import soak
from .screen import until

BOTS = ["ismcts:iterations=30", "greedy", "ismcts:iterations=20:rollout=random"]
AFTER = soak(60, 100_000)  # steps played on after a resume (see below)


def _deciding(app: JamaicaApp) -> bool:
    screen = app.screen
    return isinstance(screen, GameOver | HandOver) or (
        isinstance(screen, Table) and bool(screen.actions)
    )


@pytest.mark.soak
def test_a_search_bot_game_resumed_anywhere_is_the_uninterrupted_game(tmp_path: Path) -> None:
    """The game's save file at five points (as the session writes it after every step), resumed,
    goes on as the uninterrupted game did: for AFTER steps (to the end with JAMAICA_SOAK=1; the
    last cut always plays to the end)."""
    whole = GameSession(Config(3), make_seats(BOTS), 17)
    whole.run_until_human()
    history = list(whole.state.history)
    n = len(history)
    assert whole.state.is_terminal() and n > 200
    cuts = (1, 37, n // 3, n // 2, n - 5)
    for cut in cuts:  # the save the game wrote after step `cut`, without searching again
        part = GameSession(Config(3), make_seats(BOTS), 17, tmp_path / f"cut{cut}.json")
        for a in history[:cut]:
            part.state.apply(a)
        part.save()
        resumed = GameSession.load(tmp_path / f"cut{cut}.json")
        assert resumed.state.history == history[:cut]
        resumed.run_until_human(limit=AFTER)
        end = len(resumed.state.history)
        assert end == min(n, cut + AFTER) and resumed.state.history == history[:end], cut
    assert len(resumed.state.history) == n and resumed.state.is_terminal()


async def _play(app: JamaicaApp, decisions: int) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(decisions):
            await until(pilot, lambda: _deciding(app))
            if not isinstance(app.screen, Table):
                break
            await pilot.press("1")
        await until(pilot, lambda: _deciding(app) and not isinstance(app.screen, HandOver))
        await pilot.press("q")


UNINTERRUPTED: list[int] = []  # the history of the game played without a break, 14 decisions


@pytest.mark.parametrize("stops", [[4], [2, 5, 9]])
async def test_the_app_resumed_with_search_bots_goes_on_exactly(
    stops: list[int], tmp_path: Path
) -> None:
    seats = ["human", "ismcts:iterations=25", "ismcts:iterations=25"]
    if not UNINTERRUPTED:  # played once for both tests: it is the same game
        whole = tmp_path / "whole.json"
        await _play(JamaicaApp(GameSession(Config(3), make_seats(seats), 23, whole), delay=0), 14)
        UNINTERRUPTED.extend(GameSession.load(whole).state.history)
    split = tmp_path / "split.json"
    session = GameSession(Config(3), make_seats(seats), 23, split)
    done = 0
    for stop in [*stops, 14]:
        await _play(JamaicaApp(session, delay=0), stop - done)
        done = stop
        session = GameSession.load(split)  # as `jamaica play --resume` does
    assert session.state.history == UNINTERRUPTED


def test_an_old_save_with_a_timed_bot_resumes_with_an_iteration_budget(tmp_path: Path) -> None:
    save = tmp_path / "old.json"
    GameSession(Config(2), make_seats(["human", "ismcts:seconds=0.5"]), 3, save).save()
    app = play_app(build_parser().parse_args(["play", "--resume", str(save)]))
    assert app.session is not None
    assert app.session.seats[1].bot == "ismcts:iterations=1000"
    assert "now plays ismcts:iterations=1000" in app.farewell()
    assert reproducible("ismcts:seconds=0.25:rollout=random") == (
        "ismcts:iterations=500:rollout=random"
    )
    assert reproducible("greedy") == "greedy"
