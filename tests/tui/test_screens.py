"""The screens around the table: setup from the command line, a saved game found at start-up,
help, the end of the race, the replay, and a payment asked as one question."""

from __future__ import annotations

from pathlib import Path

from textual.geometry import Region
from textual.widgets import Input, Select

from jamaica import Config
from jamaica.cli import build_parser, play_app
from jamaica.session import GameSession, make_seats
from jamaica.tui.app import JamaicaApp, Setup, Table
from jamaica.tui.replay import ReplayApp, ReplayScreen
from jamaica.tui.screens import FullLog, GameOver, Help, SavedGameFound
from jamaica.tui.widgets import Drawn, LogView

from .screen import screen_text, until

SMALL = (80, 24)


def _app(*args: str) -> JamaicaApp:
    return play_app(build_parser().parse_args(["play", *args]))


def _inside(app: JamaicaApp, *selectors: str) -> None:
    screen = Region(0, 0, *app.size)
    for selector in selectors:
        widget = app.screen.query_one(selector)
        assert widget.display and screen.contains_region(widget.region), (selector, widget.region)


async def test_the_command_line_fills_in_the_setup_screen(tmp_path: Path) -> None:
    app = _app("--players", "2", "--edition", "classic", "--names", "Zed,Yan",
               "--save", str(tmp_path / "s.json"))  # fmt: skip
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, Setup)
        assert setup.query_one("#players", Select).value == 2
        assert setup.query_one("#edition", Select).value == "classic"
        assert setup.query_one("#name0", Input).value == "Zed"
        assert setup.query_one("#name1", Input).value == "Yan"
        assert not setup.query_one("#seat2").display
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, Table))
        assert app.session is not None
        assert app.session.config == Config(2, "classic")
        assert [s.name for s in app.session.seats] == ["Zed", "Yan"]


async def test_names_alone_set_the_players_and_ghost_is_kept(tmp_path: Path) -> None:
    app = _app("--names", "Ann,Bob,Cid", "--ghost", "--save", str(tmp_path / "s.json"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        setup = app.screen
        assert setup.query_one("#players", Select).value == 3
        assert setup.query_one("#ghost", Select).value == "on"
        assert setup.query_one("#name2", Input).value == "Cid"


async def test_the_setup_screen_fits_80x24_with_six_seats(tmp_path: Path) -> None:
    app = _app("--players", "6", "--save", str(tmp_path / "s.json"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        _inside(app, "#players", "#edition", "#ghost", "#start", "#name5", "#kind5")
        text = screen_text(app)
        assert "Ghost Ship" in text and "as the rules say" in text
        assert "Set sail" in text and "Quit" in text  # the footer shows the keys
        kinds = [v for _, v in app.screen.query_one("#kind1", Select)._options]
        assert {"easy", "medium", "hard"} <= set(kinds)  # the levels
        assert "ismcts:iterations=400" in kinds  # search bots by iterations…
        assert not any("seconds" in str(k) for k in kinds)  # …never by seconds


async def test_quitting_the_setup_screen_does_not_claim_a_save(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    app = _app("--save", str(save))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("escape")
    assert not save.exists()
    assert "saved in" not in app.farewell() and "No game was started" in app.farewell()


def _unfinished(path: Path) -> GameSession:
    session = GameSession(Config(2), make_seats(["human", "greedy"]), 3, path)
    session.run_until_human()
    session.answer(session.state.legal_actions()[0])
    session.run_until_human()
    return session


async def test_an_unfinished_game_in_the_save_file_is_offered_not_overwritten(
    tmp_path: Path,
) -> None:
    save = tmp_path / "jamaica-save.json"
    old = _unfinished(save)
    before = save.read_bytes()
    app = _app("--save", str(save))
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SavedGameFound))
        await pilot.pause()
        text = "".join(line.strip(" │┃") for line in screen_text(app).splitlines())
        assert "resume it" in text and "jamaica-save-2.json" in text and "is kept" in text
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, Setup))
        await pilot.pause()
        assert "jamaica-save-2.json" in "".join(screen_text(app).split())
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, Table) and bool(app.screen.actions))
        await pilot.press("q")
    assert save.read_bytes() == before  # the old game is untouched
    new = tmp_path / "jamaica-save-2.json"
    assert GameSession.load(new).state != old.state
    assert f"saved in {new}" in app.farewell()


async def test_the_saved_game_found_can_be_resumed(tmp_path: Path) -> None:
    save = tmp_path / "jamaica-save.json"
    old = _unfinished(save)
    app = _app("--save", str(save))
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SavedGameFound))
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, Table) and bool(app.screen.actions))
        assert app.session is not None and app.session.state == old.state
        await pilot.press("1")
        await pilot.pause()
    assert len(GameSession.load(save).state.history) > len(old.state.history)


async def test_quitting_at_the_offer_leaves_the_file_alone(tmp_path: Path) -> None:
    save = tmp_path / "jamaica-save.json"
    _unfinished(save)
    before = save.read_bytes()
    app = _app("--save", str(save), "--seats", "human,greedy")
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SavedGameFound))
        await pilot.press("q")
    assert save.read_bytes() == before and "No game was started" in app.farewell()


async def test_a_file_that_is_not_an_unfinished_game_is_kept_too(tmp_path: Path) -> None:
    save = tmp_path / "notes.json"
    save.write_text("my notes, not a game")
    app = _app("--save", str(save), "--seats", "human,greedy")
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, Table))
        await pilot.press("q")
    assert save.read_text() == "my notes, not a game"
    assert (tmp_path / "notes-2.json").exists()
    assert "notes-2.json" in app.farewell()


async def test_help_opens_with_question_mark_h_and_f1() -> None:
    session = GameSession(Config(3), make_seats(["human", "greedy", "greedy"]), 4)
    app = JamaicaApp(session, delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, Table) and bool(app.screen.actions))
        for key in ("question_mark", "h", "f1"):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, Help)
            text = screen_text(app)
            assert "Keys" in text and "The race" in text
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, Table)


def _finished(path: Path | None = None) -> GameSession:
    session = GameSession(Config(3), make_seats(["greedy"] * 3, ["Ann", "Bob", "Cid"]), 6, path)
    session.run_until_human()
    assert session.state.is_terminal()
    return session


async def test_the_end_screen_ranks_explains_and_offers_a_new_game_or_a_replay(
    tmp_path: Path,
) -> None:
    save = tmp_path / "done.json"
    session = _finished(save)
    app = JamaicaApp(session, delay=0, save_path=save)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOver))
        await pilot.pause()
        text = screen_text(app)
        s = session.state
        assert f"After {s.rnd} rounds" in text and "Winner" in text
        assert "reached Port Royal" in text or "round limit" in text
        ranking = text.split("place")[1]
        winner = session.name(s.winners()[0])
        assert ranking.index(winner) < min(ranking.index(n) for n in ("Ann", "Bob", "Cid")
                                           if n != winner)  # fmt: skip
        assert "PR" in text and "New game" in text and "Replay" in text
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        assert "the game is over" in screen_text(app) and "place" in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, GameOver))
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, Setup))
        await pilot.pause()
        assert "done-2.json" in "".join(screen_text(app).split())  # the finished one is kept
        assert app.screen.query_one("#name1", Input).value == "Bob"


async def test_replay_keys_work_at_80x24_and_the_end_shows_the_scores(tmp_path: Path) -> None:
    session = _finished(tmp_path / "r.json")
    app = ReplayApp(GameSession.load(tmp_path / "r.json"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        last = len(screen.states) - 1
        for key, index in (("end", last), ("home", 0), ("pagedown", 25), ("pagedown", 50),
                           ("pageup", 25), ("right", 26), ("left", 25)):  # fmt: skip
            await pilot.press(key)
            assert screen.index == index, key
        for _ in range(60):  # the status line is in words, never an internal name
            await pilot.press("right")
            status = screen.query_one("#where", Drawn).text()
            assert "_" not in status and "next: " in status
        await pilot.press("end")
        await pilot.pause()
        text = screen_text(app)
        assert "the game is over" in text and "place" in text
        for name in ("Ann", "Bob", "Cid"):
            assert name in text
        scores = screen.query_one("#scores")
        assert Region(0, 0, *SMALL).contains_region(scores.region)
    assert session.state.is_terminal()


async def test_a_payment_is_one_question_with_every_split() -> None:
    """Paying 5 doubloons from several holds: one question listing the splits, not 5."""
    session = GameSession(Config(2), make_seats(["human", "greedy"]), 10)
    app = JamaicaApp(session, delay=0)
    async with app.run_test(size=SMALL) as pilot:
        while True:
            await until(pilot, lambda: isinstance(app.screen, Table) and bool(app.screen.actions))
            table = app.screen
            assert isinstance(table, Table) and table.question is not None
            if table.question.kind == "pay" and len(table.question.choices) > 1:
                break
            await pilot.press("1")
        q = table.question
        owed = session.state.q[2][2]  # type: ignore[index]
        assert "pay" in q.prompt.plain and "from which holds" in q.prompt.plain
        assert all(c.label.plain.startswith("take ") for c in q.choices)
        lefts = {c.label.plain.split("left:")[1] for c in q.choices}
        assert len(lefts) == len(q.choices)  # each option leaves the holds differently
        before = len(session.state.history)
        await pilot.press(str(len(q.choices)))
        await pilot.pause()
        split = q.choices[-1].actions
        assert tuple(session.state.history[before : before + len(split)]) == split
        assert len(split) < owed  # the engine took the rest itself


async def test_the_whole_log_opens_with_l_and_closes_with_escape() -> None:
    session = GameSession(Config(3), make_seats(["human", "greedy", "greedy"]), 4)
    app = JamaicaApp(session, delay=0)
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(4):
            await until(pilot, lambda: isinstance(app.screen, Table) and bool(app.screen.actions))
            await pilot.press("1")
        await until(pilot, lambda: isinstance(app.screen, Table) and bool(app.screen.actions))
        table = app.screen
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, FullLog))
        await pilot.pause()
        assert len(app.screen.lines) == len(table.query_one(LogView).entries) > 30
        newest = app.screen.lines[-1].plain
        assert " ".join(newest.split()[-3:]) in " ".join(screen_text(app).split())
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, Table))
