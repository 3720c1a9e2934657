"""Issue 24, items 10 and 11, driven like a player at the keyboard: the hot-seat hand-over can be
left (saving), the setup screen shows where the focus is and Enter in a name does not set sail,
help speaks of the screen it is opened from, the replay steps by round, a resumed game says at
once what changed, and every colour of an option stays readable on the highlight."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.color import Color
from textual.widgets import Button, Input, OptionList, Select

from jamaica import Config
from jamaica.cli import build_parser, play_app
from jamaica.session import GameSession, make_seats
from jamaica.tui import render
from jamaica.tui.app import HandOver, JamaicaApp, Setup, Table
from jamaica.tui.replay import ReplayApp, ReplayScreen
from jamaica.tui.screens import Help
from jamaica.tui.widgets import Drawn

from .screen import screen_text, until

SMALL = (80, 24)


def contrast(a: Color, b: Color) -> float:
    """The WCAG contrast ratio of two colours."""

    def lum(c: Color) -> float:
        def lin(v: int) -> float:
            x = v / 255
            return x / 12.92 if x <= 0.03928 else float(((x + 0.055) / 1.055) ** 2.4)

        return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b)

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# --- item 10: the hand-over ----------------------------------------------------------------------
@pytest.mark.parametrize("key", ["q", "escape", "ctrl+c", "ctrl+q"])
async def test_the_hand_over_can_be_left_and_the_game_is_saved(key: str, tmp_path: Path) -> None:
    """The hand-over answered only Enter, which shows the next player's hand: q, Esc, ctrl+c
    and ctrl+q did nothing. Each now quits, the game saved (it is after every decision)."""
    save = tmp_path / "hot.json"
    session = GameSession(Config(2), make_seats(["human", "human"], ["Ann", "Bob"]), 9, save)
    app = JamaicaApp(session, delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HandOver))
        await pilot.pause()
        text = screen_text(app)
        assert "Pass the keyboard to Bob" in text and "save and quit" in text
        await pilot.press(key)
        await pilot.pause()
        assert app.return_code == 0, "the app did not quit"
    assert GameSession.load(save).state == session.state
    assert f"The game is saved in {save}: jamaica play --resume {save}" in app.farewell()


# --- item 11: the setup screen -------------------------------------------------------------------
def _shown(widget: Input | Select[object] | Button) -> Color:
    """The background a field shows (a Select shows its current value's box)."""
    if isinstance(widget, Select):
        return widget.query_one("SelectCurrent").styles.background
    return widget.styles.background


async def test_the_setup_screen_shows_where_the_focus_is(tmp_path: Path) -> None:
    """The focused field had a background of 235 against 234 (1.1:1): the focus now stands out
    at 3:1 at least (WCAG's non-text contrast), against the screen and the other fields."""
    app = play_app(build_parser().parse_args(["play", "--save", str(tmp_path / "s.json")]))
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, Setup))
        setup = app.screen
        fields = ["#players", "#edition", "#ghost", "#name0", "#kind0", "#start"]
        blurred = {}
        setup.set_focus(None)  # every field blurred
        await pilot.pause()
        for selector in fields:
            blurred[selector] = _shown(setup.query_one(selector))  # type: ignore[arg-type]
        background = setup.styles.background
        for selector in fields:
            widget = setup.query_one(selector)
            widget.focus()
            await pilot.pause()
            focused = _shown(widget)  # type: ignore[arg-type]
            assert contrast(focused, background) >= 3, selector
            assert contrast(focused, blurred[selector]) >= 3, selector


async def test_enter_in_a_name_goes_to_the_next_field_and_does_not_set_sail(
    tmp_path: Path,
) -> None:
    app = play_app(build_parser().parse_args(["play", "--save", str(tmp_path / "s.json")]))
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, Setup))
        setup = app.screen
        name = setup.query_one("#name1", Input)
        name.focus()
        await pilot.press("ctrl+a", *"Zed", "enter")
        await pilot.pause()
        assert isinstance(app.screen, Setup) and app.session is None  # still setting up
        assert setup.focused is setup.query_one("#kind1")
        assert "Tab or Enter: next field" in screen_text(app)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, Table | HandOver))
        assert app.session is not None and app.session.seats[1].name.startswith("Zed")


# --- item 11: help for the screen it is opened from ----------------------------------------------
async def test_help_on_the_setup_screen_gives_its_keys(tmp_path: Path) -> None:
    app = play_app(build_parser().parse_args(["play", "--save", str(tmp_path / "s.json")]))
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, Setup))
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, Help))
        text = app.screen.text
        assert "Keys of the setup screen" in text and "ctrl+s" in text and "The race" in text
        assert "1–9" not in text and "save and quit" not in text  # the game's keys


async def test_help_in_the_replay_gives_its_keys(tmp_path: Path) -> None:
    app = ReplayApp(_finished(tmp_path / "r.json"))
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, Help))
        text = app.screen.text
        assert "Keys of the replay" in text and "the next round" in text and "Home End" in text
        assert "1–9" not in text and "save and quit" not in text


# --- item 11: the replay by round ----------------------------------------------------------------
def _finished(path: Path) -> GameSession:
    session = GameSession(Config(3), make_seats(["greedy"] * 3, ["Ann", "Bob", "Cid"]), 6, path)
    while not session.state.is_terminal():
        session.step()
    session.save()
    return GameSession.load(path)


async def test_the_replay_steps_by_round(tmp_path: Path) -> None:
    """Every draw and roll was a step (hundreds for some twenty rounds): ↓ and ↑ go by round."""
    app = ReplayApp(_finished(tmp_path / "r.json"))
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        last = screen.states[-1].rnd
        assert len(screen.states) > 10 * last  # many steps per round
        for rnd in range(1, last + 1):
            await pilot.press("down")
            s = screen.states[screen.index]
            assert s.rnd == rnd and screen.states[screen.index - 1].rnd == rnd - 1
            assert f"round {rnd} of {last}" in screen.query_one("#where", Drawn).text()
        await pilot.press("down")
        assert screen.index == len(screen.states) - 1  # after the last round: the end
        await pilot.press("up")
        assert screen.states[screen.index].rnd == last  # the start of the last round
        await pilot.press("right", "right", "up")
        assert screen.states[screen.index].rnd == last
        assert screen.states[screen.index - 1].rnd == last - 1  # its start again
        await pilot.press("up")
        assert screen.states[screen.index].rnd == last - 1
        await pilot.press("home", "up")
        assert screen.index == 0


# --- item 11: a resumed game says at once what changed -------------------------------------------
async def test_a_timed_bot_resumed_is_announced_at_once(tmp_path: Path) -> None:
    """A saved seat whose bot searched for seconds resumes with iterations: that was said only
    after quitting; now at once, on the table."""
    save = tmp_path / "old.json"
    GameSession(Config(2), make_seats(["human", "ismcts:seconds=0.5"]), 3, save).save()
    app = play_app(build_parser().parse_args(["play", "--resume", str(save)]))
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await until(pilot, lambda: "plays ismcts:iterations=1000" in screen_text(app))
        assert isinstance(app.screen, Table)
    assert "now plays ismcts:iterations=1000" in app.farewell()  # and again after quitting


# --- item 11: warnings readable on the highlighted option ----------------------------------------
async def test_every_colour_of_an_option_is_readable_on_the_highlight() -> None:
    """A shortage was red on the blue highlight (1.5:1). Every colour an option's words use —
    the ships', the resources', the warnings' — keeps 4.5:1 on the highlight."""
    session = GameSession(Config(3), make_seats(["human", "greedy", "greedy"]), 4)
    app = JamaicaApp(session, delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, Table) and bool(app.screen.actions))
        options = app.screen.query_one("#options", OptionList)
        style = options.get_component_rich_style("option-list--option-highlighted")
        assert style.bgcolor is not None and style.bgcolor.triplet is not None
        highlight = Color(*style.bgcolor.triplet)
        colours = [*render.PALETTE, render.GHOST, *render.RESOURCE_STYLE.values(),
                   *(s.split()[-1] for s in (render.STYLES["battle"], render.STYLES["good"],
                                             render.STYLES["token"]))]  # fmt: skip
        for colour in colours:
            assert contrast(Color.parse(colour), highlight) >= 4.5, colour
        # the shortage is a badge: black on light red, whatever the background
        assert render.STYLES["warn"] == "bold #000000 on #ff8787"
        assert contrast(Color.parse("#000000"), Color.parse("#ff8787")) >= 4.5
        old_blue = Color.parse("#0178d4")
        assert contrast(Color.parse("#ff5f5f"), old_blue) < 2  # what it was
