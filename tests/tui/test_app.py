"""The terminal app, driven through Textual's pilot like a player at the keyboard."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Select

from jamaica import Config
from jamaica.session import GameSession, make_seats
from jamaica.tui.app import Final, HandOver, JamaicaApp, Setup, Table
from jamaica.tui.replay import ReplayApp

SIZE = (160, 50)


async def _until(pilot, condition, steps: int = 400) -> None:  # type: ignore[no-untyped-def]
    for _ in range(steps):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError("the app never got there")


async def _my_turn(pilot, app: JamaicaApp) -> bool:  # type: ignore[no-untyped-def]
    """Wait until a human must choose (True) or the game is over (False)."""
    await _until(
        pilot,
        lambda: (
            isinstance(app.screen, Final | HandOver)
            or (isinstance(app.screen, Table) and bool(app.screen.actions))
        ),
    )
    return not isinstance(app.screen, Final)


async def test_a_whole_game_against_three_bots_to_the_score_table(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    session = GameSession(Config(4), make_seats(["human", "greedy", "greedy", "random"]), 5, save)
    app = JamaicaApp(session, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        decisions = 0
        while await _my_turn(pilot, app):
            await pilot.press("1")
            decisions += 1
        assert session.state.is_terminal() and decisions > 10
        screen = app.screen
        assert isinstance(screen, Final)
        table = screen.query_one("#scores")
        assert table.row_count == 4  # type: ignore[attr-defined]
        text = str(screen.query_one("#winner-line").render())
        winners = [session.name(w) for w in session.state.winners()]
        assert all(w in text for w in winners)
    # the save file holds the finished game
    again = GameSession.load(save)
    assert again.state == session.state


async def test_hot_seat_hides_the_hand_until_the_next_player_takes_over(tmp_path: Path) -> None:
    hands = {}
    session = GameSession(Config(2), make_seats(["human", "human"], ["Ann", "Bob"]), 9)
    app = JamaicaApp(session, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await _my_turn(pilot, app)
        while isinstance(app.screen, HandOver) or session.state.decision_kind() != "card":
            await pilot.press("enter" if isinstance(app.screen, HandOver) else "1")
            await _my_turn(pilot, app)
        first = session.state.current_player()
        assert isinstance(app.screen, Table) and app.screen.viewer == first
        hands[first] = session.state.view(first)["hand"]
        await pilot.press("1")  # the first player chooses a card…
        await _my_turn(pilot, app)
        assert isinstance(app.screen, HandOver)  # …and the table is hidden for the hand-over
        nxt = session.state.current_player()
        assert nxt != first
        screenshot = app.export_screenshot()
        assert session.name(nxt) in screenshot
        for card in hands[first]:
            assert f"draws {card}" not in screenshot and f"Your hand: {card}" not in screenshot
        await pilot.press("enter")
        await _my_turn(pilot, app)
        assert isinstance(app.screen, Table) and app.screen.viewer == nxt
        shown = str(app.screen.query_one("#hand").render())
        for card in session.state.view(nxt)["hand"]:
            assert card in shown


async def test_save_after_every_decision_and_resume_where_it_was(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    session = GameSession(Config(3, edition="classic"), make_seats(["human", "greedy", "greedy"]),
                          21, save)  # fmt: skip
    app = JamaicaApp(session, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(6):
            await _my_turn(pilot, app)
            await pilot.press("1")
            await _my_turn(pilot, app)
            assert GameSession.load(save).state == session.state  # saved already
        await pilot.press("q")
    resumed = GameSession.load(save)
    assert resumed.state == session.state
    app2 = JamaicaApp(resumed, delay=0)
    async with app2.run_test(size=SIZE) as pilot:
        assert await _my_turn(pilot, app2)
        before = len(resumed.state.history)
        await pilot.press("1")
        await _my_turn(pilot, app2)
        assert len(resumed.state.history) > before


async def test_bad_keys_are_answered_in_the_app_and_change_nothing() -> None:
    session = GameSession(Config(3), make_seats(["human", "greedy", "greedy"]), 4)
    app = JamaicaApp(session, delay=0)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await _my_turn(pilot, app)
        before = session.state.to_dict()
        await pilot.press("9")
        await pilot.pause()
        assert session.state.to_dict() == before
        assert any("No option 9" in n.message for n in app._notifications)


async def test_the_setup_screen_starts_a_game(tmp_path: Path) -> None:
    app = JamaicaApp(seed=3, save_path=tmp_path / "s.json", delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, Setup)
        setup.query_one("#players", Select).value = 3
        setup.query_one("#name0", Input).value = "  [b]Jack[/b]\x07 "
        setup.query_one("#kind1", Select).value = "random"
        await pilot.pause()
        assert not setup.query_one("#seat3").display
        await pilot.click("#start")
        await _my_turn(pilot, app)
        assert isinstance(app.screen, Table)
        assert app.session is not None and app.session.config.players == 3
        assert app.session.seats[0].name == "[b]Jack[/b]"  # kept as text, shown escaped
        assert app.session.seats[1].bot == "random"
        assert (tmp_path / "s.json").exists()


async def test_the_setup_screen_refuses_a_bad_table() -> None:
    app = JamaicaApp(seed=3, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        setup = app.screen
        setup.query_one("#players", Select).value = 2
        setup.query_one("#ghost", Select).value = "off"
        await pilot.pause()
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, Setup)
        assert "always used" in str(setup.query_one("#error").render())


async def test_replay_steps_through_a_saved_game(tmp_path: Path) -> None:
    session = GameSession(Config(2), make_seats(["greedy", "greedy"]), 2, tmp_path / "r.json")
    session.run_until_human()
    app = ReplayApp(GameSession.load(tmp_path / "r.json"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.index == 0
        await pilot.press("right", "right", "right")
        assert app.index == 3
        await pilot.press("left")
        assert app.index == 2
        await pilot.press("end")
        assert app.states[app.index].is_terminal()
        assert "game over" in str(app.query_one("#where").render())


def test_corrupt_save_files_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    for text in ("{", "[]", '{"game": "jamaica", "format": 1}',
                 '{"game":"jamaica","format":1,"config":{"players":2},"seats":[],"seed":1,'
                 '"actions":[]}'):  # fmt: skip
        bad.write_text(text)
        with pytest.raises(ValueError, match=r"save file|players"):
            GameSession.load(bad)
    with pytest.raises(ValueError, match="cannot read"):
        GameSession.load(tmp_path / "missing.json")
