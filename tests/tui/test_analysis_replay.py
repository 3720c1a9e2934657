"""Issue 28 in the terminal: master's analysis in the replay. `a` analyses the human seat's
decisions in a child process while the screen goes on answering; at each of its decisions the
replay shows master's value of every option, its preferred one and what the choice lost; the
summary and the list jump to a step; a hot-seat game asks whose decisions; an unfinished game is
not analysed; the analysis is kept for the session and beside the save file, and a kept file
that is not this game's is never believed. Master's budget is tiny here (the tests stay fast)."""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region

from jamaica import Config
from jamaica.analysis.words import KIND_WORDS
from jamaica.bots import make_bot
from jamaica.cli import build_parser
from jamaica.session import GameSession, make_seats
from jamaica.tui import analysis_job, render
from jamaica.tui.analysis import AnalysisList, SeatPicker
from jamaica.tui.analysis_job import ITERATIONS, Request, analyse, keep, kept_path, read_kept
from jamaica.tui.app import GameOver, JamaicaApp
from jamaica.tui.replay import ReplayApp, ReplayScreen, replay_app
from jamaica.tui.widgets import Drawn

from .screen import screen_text, until

SMALL = (80, 24)
BUDGET = 8  # master's iterations per decision in these tests


def finished_game(path: Path, kinds: list[str], seed: int = 4, names: str = "Anne,Mary,John",
                  stop: int | None = None) -> GameSession:  # fmt: skip
    """A game saved in `path`, its humans' answers given by the greedy bot, played to the end
    (or to `stop` actions)."""
    session = GameSession(Config(len(kinds)), make_seats(kinds, names.split(",")), seed, path)
    while not session.state.is_terminal() and (stop is None or len(session.state.history) < stop):
        who = session.human_to_move()
        if who is None:
            session.step()
        else:
            session.answer(make_bot("greedy", len(session.state.history)).act(session.state, who))
    return GameSession.load(path)


@pytest.fixture(autouse=True)
def fresh_cache() -> None:
    analysis_job._CACHE.clear()


async def _analysed(pilot: object, screen: ReplayScreen) -> None:
    await until(pilot, lambda: screen.analysis is not None, steps=1500)


async def test_a_analyses_the_human_and_each_decision_shows_every_option(tmp_path: Path) -> None:
    session = finished_game(tmp_path / "g.json", ["human", "greedy", "greedy"])
    app = ReplayApp(session, iterations=BUDGET)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert "master's analysis" in screen.query_one("#analysis", Drawn).text()
        await pilot.press("end", "a")
        await _analysed(pilot, screen)
        analysis = screen.analysis
        assert analysis is not None and analysis.player == 0 and analysis.iterations == BUDGET
        marked = [v for v in analysis.verdicts if v.mark]
        assert marked, "a tiny budget is noisy: some decision is marked"
        await pilot.press("home", "M")  # no marked decision before the start: said, not moved
        assert screen.index == 0
        await pilot.press("m")
        verdict = marked[0]
        assert screen.index == verdict.step
        state = screen.states[verdict.step]
        assert state.current_player() == 0 and (verdict.kind == "pay" or int(
            session.state.history[verdict.step]) == verdict.chosen)  # a payment: a way's index
        await pilot.pause()
        panel = screen.query_one("#analysis", Drawn).text()
        assert "★" in panel and "▸" in panel and "%" in panel and "lost" in panel, panel
        assert f"{round(100 * verdict.values[0][1])}%" in panel
        # the seat's own hand is shown (its view), nobody else's
        hand = " ".join(screen.query_one("#hand", Drawn).text().split())
        cards = state.view(0)["hand"]
        assert cards and all(render.card_text(card) in hand for card in cards), hand
        text = screen_text(app)
        lines = text.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        for name in ("#analysis", "#hand", "#where"):
            assert Region(0, 0, *SMALL).contains_region(screen.query_one(name).region), name
        # M goes back to the marked decision before, m on to the next
        if len(marked) > 1:
            await pilot.press("m")
            assert screen.index == marked[1].step
            await pilot.press("M")
            assert screen.index == marked[0].step


async def test_the_list_gives_the_summary_and_jumps_to_a_decision(tmp_path: Path) -> None:
    session = finished_game(tmp_path / "g.json", ["greedy", "human", "greedy"])
    app = ReplayApp(session, iterations=BUDGET)
    async with app.run_test(size=SMALL) as pilot:
        screen, _ = await _listed(pilot, app)
        assert screen.seat == 1  # the only human
        await pilot.pause()
        text = screen_text(app)
        assert "Mary's decisions, judged by master" in text and "decisions." in text
        assert "You lost most at" in text
        lines = text.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        await pilot.press("home", "down", "down", "enter")
        await until(pilot, lambda: app.screen is screen)
        assert screen.analysis is not None
        assert screen.index == screen.analysis.verdicts[2].step


async def test_hot_seat_asks_whose_decisions_and_says_it_shows_their_hand(tmp_path: Path) -> None:
    session = finished_game(tmp_path / "g.json", ["human", "human", "greedy"])
    app = ReplayApp(session, iterations=BUDGET)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, SeatPicker))
        text = screen_text(app)
        assert "shows that player's hand" in text
        assert "1. Anne (human)" in text and "2. Mary (human)" in text and "3. John (bot" in text
        await pilot.press("down", "enter")
        await until(pilot, lambda: app.screen is screen)
        await _analysed(pilot, screen)
        assert screen.seat == 1 and screen.analysis is not None and screen.analysis.player == 1
        # another seat, from the list (Enter on the first); then by a seat's number, as the list
        # writes it (a review pressed 2: nothing happened)
        for key, seat in (("enter", 0), ("3", 2)):
            await pilot.press("a")
            await until(pilot, lambda: isinstance(app.screen, AnalysisList))
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, SeatPicker))
            await pilot.press(key)
            await until(pilot, lambda s=seat: screen.analysis is not None and screen.seat == s,
                        steps=1500)  # fmt: skip


async def test_an_unfinished_game_is_not_analysed(tmp_path: Path) -> None:
    session = finished_game(tmp_path / "g.json", ["human", "greedy"], stop=60)
    assert not session.state.is_terminal()
    app = ReplayApp(session, iterations=BUDGET)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("end", "a")
        await pilot.pause()
        assert screen.seat is None and not screen.query_one("#analysis").display
    with pytest.raises(ValueError, match="finished game"):
        replay_app(session, "en", 1)


async def test_the_screen_answers_while_master_analyses(tmp_path: Path) -> None:
    """A real budget: the replay steps on while the child searches (the app never waits)."""
    session = finished_game(tmp_path / "g.json", ["human", "greedy", "greedy"])
    app = ReplayApp(session, analyse=0, iterations=ITERATIONS)
    async with app.run_test(size=SMALL) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await until(pilot, lambda: screen.progress[0] >= 1, steps=1500)
        for i in range(1, 6):
            await pilot.press("right")
            assert screen.index == i
        assert screen.analysis is None and screen.progress[0] < screen.progress[1]
        panel = " ".join(screen.query_one("#analysis", Drawn).text().split())
        assert "Master is analysing Anne's decisions" in panel


def test_leaving_stops_the_child(tmp_path: Path) -> None:
    session = finished_game(tmp_path / "g.json", ["human", "greedy", "greedy"])
    request = Request(session.config, tuple(session.state.history), 0, ITERATIONS)
    children: list[subprocess.Popen[bytes]] = []
    seen: list[tuple[int, int]] = []
    result = analyse(request, lambda d, t: seen.append((d, t)), lambda: len(seen) >= 2,
                     children.append)  # fmt: skip
    assert result is None and len(children) == 1
    assert children[0].poll() is not None  # stopped, not left searching
    assert seen[0][0] == 0 and seen[0][1] > 10


def test_kept_for_the_session_and_beside_the_save(tmp_path: Path) -> None:
    session = finished_game(tmp_path / "g.json", ["human", "greedy"], seed=9)
    request = Request(session.config, tuple(session.state.history), 0, BUDGET, save=session.path)
    made = analyse(request, lambda d, t: None, lambda: False)
    assert made is not None
    kept = kept_path(tmp_path / "g.json")
    assert kept == tmp_path / "g.analysis.json" and kept.exists()
    analysis_job._CACHE.clear()
    assert read_kept(request) == made
    children: list[subprocess.Popen[bytes]] = []
    assert analyse(request, lambda d, t: None, lambda: False, children.append) == made
    assert children == []  # from the file: no search
    # another seat or budget is not this analysis; a file edited by hand is not believed
    assert read_kept(Request(session.config, request.history, 1, BUDGET, save=session.path)) is None
    assert read_kept(Request(session.config, request.history, 0, 9, save=session.path)) is None
    data = json.loads(kept.read_text())
    data["analyses"][0]["analysis"]["verdicts"][0]["chosen"] += 1
    kept.write_text(json.dumps(data))
    assert read_kept(request) is None
    kept.write_text("not json")
    assert read_kept(request) is None
    # the same actions in another game are another game
    other = Request(Config(2, "classic"), request.history, 0, BUDGET, save=session.path)
    assert read_kept(other) is None


def test_the_command_checks_its_options(tmp_path: Path) -> None:
    session = finished_game(tmp_path / "g.json", ["human", "greedy"], seed=9)
    for seat in (0, 3):
        with pytest.raises(ValueError, match="from 1 to 2"):
            replay_app(session, "en", seat)
    for budget in (0, 100_000):
        with pytest.raises(ValueError, match="--budget"):
            replay_app(session, "en", 1, budget)
    with pytest.raises(ValueError, match="de 1 à 2"):
        replay_app(session, "fr", 3)
    app = replay_app(session, "en", 2, 16)
    assert app.analyse == 1 and app.iterations == 16
    ns = build_parser("en").parse_args(["replay", "g.json", "--analyse", "1", "--budget", "50"])
    assert (ns.analyse, ns.budget) == (1, 50)
    commands = next(a for a in build_parser("en")._actions
                    if isinstance(a, argparse._SubParsersAction))  # fmt: skip
    assert f"default {ITERATIONS})" in " ".join(commands.choices["replay"].format_help().split())


async def test_the_replay_at_the_end_of_play_analyses_too(tmp_path: Path) -> None:
    """`jamaica play`'s end → r → a: the analysis kept beside the save is shown at once."""
    save = tmp_path / "done.json"
    session = finished_game(save, ["human", "greedy", "greedy"])
    history = tuple(session.state.history)
    made = analyse(Request(session.config, history, 0, BUDGET), lambda d, t: None, lambda: False)
    assert made is not None
    keep(Request(session.config, history, 0, ITERATIONS, save=save), made)  # as if made before
    analysis_job._CACHE.clear()
    app = JamaicaApp(session, delay=0, save_path=save)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOver))
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("a")
        await until(pilot, lambda: screen.analysis is not None)
        assert screen.analysis == made and screen.seat == 0
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, AnalysisList))
        await pilot.press("escape", "escape")
        await until(pilot, lambda: isinstance(app.screen, GameOver))


async def test_closing_the_replay_in_play_stops_master(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save = tmp_path / "done.json"
    session = finished_game(save, ["human", "greedy", "greedy"])
    children: list[subprocess.Popen[bytes]] = []
    popen = subprocess.Popen

    def recorded(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        child = popen(*args, **kwargs)
        children.append(child)
        return child

    monkeypatch.setattr(subprocess, "Popen", recorded)  # as the analysis starts its child
    app = JamaicaApp(session, delay=0, save_path=save)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOver))
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("a")
        await until(pilot, lambda: screen.progress[0] >= 1, steps=1500)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, GameOver))
        await until(pilot, lambda: len(children) == 1 and children[0].poll() is not None)
    assert screen.analysis is None and not kept_path(save).exists()


async def _listed(pilot: Any, app: ReplayApp) -> tuple[ReplayScreen, AnalysisList]:
    """Analyse the human's decisions from the end of the game and open the list."""
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    await pilot.press("end", "a")
    await _analysed(pilot, screen)
    await pilot.press("a")
    await until(pilot, lambda: isinstance(app.screen, AnalysisList))
    listing = app.screen
    assert isinstance(listing, AnalysisList)
    return screen, listing


async def test_f_shows_only_the_marked_decisions_and_back(tmp_path: Path) -> None:
    session = finished_game(tmp_path / "g.json", ["greedy", "human", "greedy"])
    app = ReplayApp(session, iterations=BUDGET)
    async with app.run_test(size=SMALL) as pilot:
        screen, listing = await _listed(pilot, app)
        assert screen.analysis is not None
        verdicts = screen.analysis.verdicts
        marked = [v for v in verdicts if v.mark]
        assert marked and len(marked) < len(verdicts)  # this game has both (master's tiny budget)
        assert f"every decision shown: {len(verdicts)}" in screen_text(app)  # what is shown
        await pilot.press("f")
        await pilot.pause()
        assert listing.shown == marked
        text = screen_text(app)
        assert "Marked only / all" in text  # the footer says the key…
        assert f"{len(marked)} marked decision" in text and "(f: all)" in text  # …the box, which
        kinds = {v.kind for v in marked}  # a row whose answer does not say its question names it
        if kinds - {"card", "move", "pay"}:
            assert any(f"{KIND_WORDS[k]}: " in text for k in kinds - {"card", "move", "pay"}), text
        await pilot.press("end", "enter")
        await until(pilot, lambda: app.screen is screen)
        assert screen.index == marked[-1].step
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, AnalysisList))
        again = app.screen
        assert isinstance(again, AnalysisList)
        await pilot.press("f", "f")  # marked only, then every decision again
        await pilot.pause()
        assert again.shown == list(verdicts)


async def test_a_toast_reaches_the_screen_s_last_column(tmp_path: Path) -> None:
    """A terminal review saw a stray letter in column 80 beside "No marked decision that way.":
    Textual's toast rack kept a scrollbar's column free on the right, which showed what lay under
    it. The toast now covers the screen's edge, in the replay and in the game."""
    session = finished_game(tmp_path / "g.json", ["human", "greedy"])
    for app in (ReplayApp(session, iterations=BUDGET), JamaicaApp(session)):
        async with app.run_test(size=SMALL, notifications=True) as pilot:
            await pilot.pause()
            app.notify("No marked decision that way.")
            await pilot.pause(0.2)
            toast = app.screen.query("Toast").last()
            assert toast.region.right == SMALL[0], (type(app).__name__, toast.region)


async def test_the_footer_dims_the_keys_that_step_past_either_end(tmp_path: Path) -> None:
    """At the last step "→ Next  ↓ Round" did nothing yet looked alive (a terminal review)."""
    session = finished_game(tmp_path / "g.json", ["human", "greedy"])
    app = ReplayApp(session, iterations=BUDGET)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.check_action("step", (1,)) and screen.check_action("step", (-1,)) is None
        await pilot.press("end")
        assert screen.check_action("step", (1,)) is None
        assert screen.check_action("round", (1,)) is None and screen.check_action("step", (-1,))
        await pilot.press("right")  # dimmed: nothing happens
        assert screen.index == len(screen.states) - 1
        await pilot.press("left")
        assert screen.check_action("step", (1,)) and screen.index == len(screen.states) - 2


async def test_one_esc_too_many_does_not_end_the_replay(tmp_path: Path) -> None:
    """Helper's review: Esc closes the analysis list, and one more Esc quit `jamaica replay` at
    once. Esc on the replay itself now says that q quits; q does."""
    session = finished_game(tmp_path / "g.json", ["greedy", "human", "greedy"])
    app = ReplayApp(session, iterations=BUDGET)
    async with app.run_test(size=SMALL) as pilot:
        await _listed(pilot, app)
        await pilot.press("escape")  # closes the list
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("escape")  # one too many
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, ReplayScreen)
        assert [n.message for n in app._notifications] == ["Press q to quit."]
        footer = " ".join(screen_text(app).split())
        assert "q Quit" in footer, footer  # a second review: it said "q Close" and quit
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running
