"""At 80×24 and at 120×40, every decision of a whole game shows the question, the dice, your
hand and (during a battle) the battle without scrolling: read off the screen and checked by the
widgets' places. The log wraps to its width, newest line at the bottom, also after a resize."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import OptionList

from jamaica import Config
from jamaica.rules.events import card_title
from jamaica.session import GameSession, make_seats
from jamaica.tui.app import GameOver, HandOver, JamaicaApp, Table
from jamaica.tui.widgets import Drawn, LogView, wrapped

from ..soak import soak
from .screen import screen_text, until

SIZES = [(80, 24), (120, 40)]


def _deciding(app: JamaicaApp) -> bool:
    """A human must answer (or take the keyboard), or the race is over."""
    screen = app.screen
    return isinstance(screen, GameOver | HandOver) or (
        isinstance(screen, Table) and bool(screen.actions)
    )


def _on_screen(widget: Widget, screen: Region) -> None:
    """The widget is shown whole, inside the screen above the footer's line."""
    region = widget.region
    assert widget.display and region.area > 0, widget
    assert screen.contains_region(region), (widget, region, screen)
    assert region.bottom <= screen.bottom - 1, (widget, region)  # the footer keeps its line
    if isinstance(widget, Drawn):
        lines = widget.lines(widget.content_size.width)
        assert widget.content_size.height >= len(lines), (widget, lines)  # nothing cut off


def _check_decision(app: JamaicaApp, seen: Counter[str]) -> None:
    table = app.screen
    assert isinstance(table, Table)
    q = table.question
    assert q is not None
    screen = Region(0, 0, *app.size)
    text = screen_text(app)
    state = table.session.state
    view = state.view(table.viewer)
    for name in ("#status", "#you", "#prompt", "#options", "#board", "#ships"):
        _on_screen(table.query_one(name), screen)
    # the dice, the hand and the question, as the player reads them
    assert "Dice " in text and "Hand " in text
    for card in view["hand"]:
        assert card_title(card) in text, card  # in the log's words, never split
    if view["dice"]["morning"]:
        assert f"☀ morning {view['dice']['morning']}" in text
    assert q.prompt.plain[:24] in " ".join(text.split()), q.prompt.plain
    options = table.query_one("#options", OptionList)
    assert options.highlighted is not None
    first = q.choices[options.highlighted].label.plain[:12]
    assert first in text, (first, text)
    assert f"Round {state.rnd}" in text
    if view["battle"] is not None:
        _on_screen(table.query_one("#battle"), screen)
        assert "⚔ Battle" in text
        seen["battle"] += 1
    seen[q.kind] += 1


# players, seed: games where the player at the keyboard meets battles, the Sabre and payments
GAMES = [(2, 7), (4, 12), (6, 5)]
NEEDED = ("card", "move", "pay", "dice_order", "battle", "powder")  # the questions to meet


@pytest.mark.soak
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("players", "seed"), GAMES, ids=lambda g: str(g))
async def test_every_decision_of_a_whole_game_fits_the_screen(
    size: tuple[int, int], players: int, seed: int
) -> None:
    """The 2-player game at 80×24 is played to the score table; the others stop once every
    question of NEEDED was met and checked (all are whole games with JAMAICA_SOAK=1)."""
    whole = soak(size == SIZES[0] and players == 2, True)
    session = GameSession(Config(players), make_seats(["human"] + ["greedy"] * (players - 1)),
                          seed)  # fmt: skip
    app = JamaicaApp(session, delay=0)
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    async with app.run_test(size=size) as pilot:
        while True:
            await until(pilot, lambda: _deciding(app))
            if isinstance(app.screen, GameOver):
                break
            await pilot.pause()
            _check_decision(app, seen)
            if not whole and all(seen[k] for k in NEEDED):
                break
            table = app.screen
            assert isinstance(table, Table)
            n = len(table.actions)
            pick = rng.randrange(n)
            if pick < 9:
                await pilot.press(str(pick + 1))
            else:  # further down the list: move there and press Enter
                await pilot.press(*["down"] * pick, "enter")
        if whole:
            text = screen_text(app)
            assert "Winner" in text and ("reached Port Royal" in text or "round limit" in text)
    assert all(seen[k] for k in NEEDED), seen


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_log_wraps_to_its_width_and_again_after_a_resize(size: tuple[int, int]) -> None:
    session = GameSession(Config(4), make_seats(["human", "greedy", "greedy", "greedy"]), 3)
    app = JamaicaApp(session, delay=0)
    async with app.run_test(size=size) as pilot:
        for _ in range(6):
            await until(pilot, lambda: isinstance(app.screen, Table) and bool(app.screen.actions))
            await pilot.press("1")
        await until(pilot, lambda: isinstance(app.screen, Table) and bool(app.screen.actions))
        for width, height in (size, (100, 30), (70, 22), size):
            await pilot.resize_terminal(width, height)
            await pilot.pause(0.1)
            log = app.screen.query_one("#log", LogView)
            inner = log.content_size
            lines = log.tail(inner.width, inner.height)
            assert lines and all(line.cell_len <= inner.width for line in lines)
            # the panel starts with a whole entry, never the tail of a cut sentence (but for the
            # newest, when it alone is taller than the panel: its end shows)
            if len(wrapped(log.entries[-1], inner.width, app.console)) <= inner.height:
                firsts = {wrapped(e, inner.width, app.console)[0].plain for e in log.entries}
                top = next(line.plain for line in lines if line.plain.strip())
                assert top in firsts, (top, [line.plain for line in lines])
            assert log.horizontal_scrollbar.display is False or not log.show_horizontal_scrollbar
            newest = log.entries[-1].plain
            text = " ".join(screen_text(app).split())
            assert newest.split()[-1] in text  # the newest line's end is on screen
            assert " ".join(newest.split()[-3:]) in text


def test_a_wrapped_log_line_keeps_every_word() -> None:
    from rich.console import Console
    from rich.text import Text

    from jamaica.tui.widgets import wrapped

    line = Text("Olivier Levasseur moves forward from space 26 to space 32 (a 3-food sea space).")
    for width in (10, 17, 30, 80):
        out = wrapped(line, width, Console())
        assert " ".join(t.plain.strip() for t in out).split() == line.plain.split()
        assert all(t.cell_len <= width for t in out)


async def test_what_befell_your_ship_stays_in_the_log_panel_until_you_answer() -> None:
    """Helper's review at 80×24: the Ghost Ship took the player's 4 food while the bots played,
    and at their next question the panel showed only "Round 3 begins…": the battle had scrolled
    out. What befell the reader's ship since they last answered stays above the newest lines,
    with a line saying some were left out, until they answer."""
    from rich.text import Text
    from textual.app import App, ComposeResult

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield LogView(id="log")

    app = One()
    async with app.run_test(size=(40, 10)):
        log = app.query_one(LogView)
        entries = [Text(f"line {i}") for i in range(20)]
        entries[3] = Text("The Ghost Ship takes 4 food from Me.")
        log.set_entries(entries, kept=[3], more=Text("… (l: the whole log)"))
        shown = [line.plain for line in log.view(40, 8)]
        assert shown[0] == "The Ghost Ship takes 4 food from Me.", shown
        assert shown[1] == "… (l: the whole log)" and shown[-1] == "line 19" and len(shown) == 8
        log.set_entries(entries[:6], kept=[3])  # it fits anyway: the log as it is
        assert [line.plain for line in log.view(40, 8)][-3:] == [entries[3].plain, "line 4",
                                                                "line 5"]  # fmt: skip
        log.set_entries(entries)  # answered since: no longer kept
        assert all("Ghost" not in line.plain for line in log.view(40, 8))
        # a second review: a shortage kept without what caused it, and below the marker the
        # end of a sentence ("pour la case 5."): every kept entry that fits, and the newest
        # entry whole below
        entries[4] = Text("Shortage! Me owes 3 food but has only 0, and pays it all.")
        entries[-1] = Text("Mary Read must pay 3 doubloons for space 5, a long line here.")
        log.set_entries(entries, kept=[3, 4])
        shown = [line.plain for line in log.view(40, 8)]
        assert shown[0].startswith("The Ghost Ship") and shown[1].startswith("Shortage!"), shown
        assert shown[-2].startswith("Mary Read must pay"), shown  # the newest, whole


def test_the_lines_kept_are_what_befell_the_reader_s_ship() -> None:
    from jamaica.tui.render import log_marks

    events = [{"kind": "round", "args": [3]}, {"kind": "take", "args": [3, 0, 1, 4]},
              {"kind": "take", "args": [2, 1, 1, 2]}, {"kind": "shortage", "args": [0, 3, 0, 4]},
              {"kind": "move", "args": [0, 3, 5]}]  # fmt: skip
    assert log_marks(events, 0) == [False, True, False, True, False]
    assert log_marks(events, 1) == [False, False, True, False, False]
    assert log_marks(events, None) == [False] * 5
    # a second review: ship 3's view kept ship 2's shortage (its second argument, the resource,
    # is 3), and ship 2's view kept the spoils ship 2 took itself
    assert log_marks(events, 3) == [False] * 5
    assert log_marks(events, 2) == [False] * 5


def test_a_line_never_breaks_at_a_no_break_space() -> None:
    """A review at 80×24 in French: "quel navire Anne Bonny attaque-t-il" / "?  (1–2, …)" — the
    narrow no-break space before "?" was taken for a space where a line may break."""
    from rich.console import Console
    from rich.text import Text

    line = Text("quel navire attaque-t-il\u202f?  (1–2)", style="bold")
    line.stylize("red", 0, 4)
    for width in range(20, 36):
        out = wrapped(line, width, Console())
        assert not any(t.plain.lstrip().startswith("?") for t in out), (width, out)
        assert "".join(t.plain for t in out).replace(" ", "") == line.plain.replace(" ", "")
        assert out[0].spans[0].style == "red"  # the styles stay where they were
