"""The terminal app, driven through Textual's pilot like a player at the keyboard."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, OptionList, Select

from jamaica import Config
from jamaica.rules.events import card_title
from jamaica.session import GameSession, make_seats
from jamaica.tui import render
from jamaica.tui.app import GameOver, HandOver, JamaicaApp, Setup, Table
from jamaica.tui.choices import question
from jamaica.tui.replay import ReplayApp, ReplayScreen
from jamaica.tui.widgets import Drawn, LogView

from ..soak import soak

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
            isinstance(app.screen, GameOver | HandOver)
            or (isinstance(app.screen, Table) and bool(app.screen.actions))
        ),
    )
    return not isinstance(app.screen, GameOver)


# With JAMAICA_SOAK=1 the whole game is played through the app. By default the same game (the
# bots are seeded, the human answers option 1 as the key does) is played without the app up to the
# human's last LAST decisions and saved; the app resumes it and plays those to the score table
# (test_layout plays a whole game through the app in every run).
LAST = soak(8, None)


def _answer_1(session: GameSession) -> None:
    """What pressing 1 answers: the first choice of the question the app asks."""
    who = session.human_to_move()
    assert who is not None
    names = [session.name(k) for k in range(session.config.players)]
    for a in question(session.state, who, names).choices[0].actions:
        session.answer(a)


def _human_decisions(session: GameSession, most: int | None = None) -> int:
    """Play on (bots seeded, the human answering 1) to the end, or for `most` human decisions."""
    done = 0
    while most is None or done < most:
        session.run_until_human()
        if session.state.is_terminal():
            break
        _answer_1(session)
        done += 1
    return done


@pytest.mark.soak
async def test_a_whole_game_against_three_bots_to_the_score_table(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    seats = make_seats(["human", "greedy", "greedy", "random"])
    session = GameSession(Config(4), seats, 5, save)
    if LAST is not None:
        total = _human_decisions(GameSession(Config(4), seats, 5))
        assert total > 10
        _human_decisions(session, total - LAST)
        session = GameSession.load(save)  # resumed from its save file
    app = JamaicaApp(session, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        decisions = 0
        while await _my_turn(pilot, app):
            await pilot.press("1")
            decisions += 1
        assert session.state.is_terminal()
        assert decisions > 10 if LAST is None else decisions == LAST
        screen = app.screen
        assert isinstance(screen, GameOver)
        scores = str(screen.query_one("#scores").render())
        for k in range(4):
            assert session.name(k) in scores
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
            assert f"draws {card_title(card)}" not in screenshot
        await pilot.press("enter")
        await _my_turn(pilot, app)
        assert isinstance(app.screen, Table) and app.screen.viewer == nxt
        shown = app.screen.query_one("#you", Drawn).text()
        for card in session.state.view(nxt)["hand"]:
            assert card_title(card) in shown  # in the log's words


def _screen_text(app: JamaicaApp) -> str:
    """What a person sees on the terminal: the screenshot's text, without the SVG around it."""
    svg = app.export_screenshot().split("</style>")[-1]
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


def _spy_on_hands(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every player whose hand the table draws, in order (the hand panel is the only place)."""
    drawn: list[int] = []
    real = render.hand_panel

    def spy(view: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        if "hand" in view:
            drawn.append(view["player"])
        return real(view, *args, **kwargs)

    monkeypatch.setattr(render, "hand_panel", spy)
    return drawn


def _assert_nothing_private(app: JamaicaApp, session: GameSession) -> None:
    """Neither the screen nor the table under the hand-over shows any human's hand or private
    log lines."""
    seen = _screen_text(app)
    table = next(s for s in app.screen_stack if isinstance(s, Table))
    hand = table.query_one("#you", Drawn).text()
    log = "\n".join(line.plain for line in table.query_one("#log", LogView).entries)
    names = [session.name(k) for k in range(session.state.ns)]
    public = {e["text"] for e in session.state.events_for(None, names)}
    assert "Hand: hidden" in hand  # the table under the hand-over shows no hand
    for where in (seen, hand):
        assert "Played" not in where
    for p in session.humans:
        private = [e["text"] for e in session.state.events_for(p, names)
                   if e["text"] not in public]  # fmt: skip
        assert private  # there is something to hide
        for line in private:
            assert line not in seen and line not in log
        for card in map(card_title, session.state.view(p)["hand"]):
            if not any(card in line for line in public):  # a card named in public may show
                assert card not in seen and card not in hand and card not in log
    assert table.viewer is None  # the table under the hand-over shows the public view


@pytest.mark.parametrize("seed", [2, 9])  # the first seat decides first / the second does
async def test_leak8_handover_before_first_turn(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _spy_on_hands(monkeypatch)
    seats = make_seats(["human", "human"], ["Anne Bonny", "Mary Read"])
    session = GameSession(Config(2), seats, seed)
    app = JamaicaApp(session, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await _my_turn(pilot, app)
        first = session.human_to_move()
        assert first is not None and first == (0 if seed == 2 else 1)
        assert isinstance(app.screen, HandOver)  # before anything is confirmed
        await pilot.pause()  # let it be drawn
        assert f"Pass the keyboard to {session.name(first)}" in _screen_text(app)
        _assert_nothing_private(app, session)
        assert drawn == []  # no hand was drawn while the cards were dealt
        await pilot.press("enter")
        await _my_turn(pilot, app)
        assert isinstance(app.screen, Table) and app.screen.viewer == first
        shown = app.screen.query_one("#you", Drawn).text()
        for card in session.state.view(first)["hand"]:
            assert card_title(card) in shown
        assert set(drawn) == {first}


@pytest.mark.parametrize("next_up", ["human", "bot"])
async def test_leak8_handover_after_resume(
    next_up: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hot-seat game saved mid-way is resumed behind the hand-over, also while a bot or the
    dice move first (then the table shows only the public view)."""
    save = tmp_path / "hot.json"
    session = GameSession(Config(3), make_seats(["human", "human", "greedy"]), 13, save)
    stop_at = 2 if next_up == "bot" else 0  # the greedy bot or the first human moves next
    decisions = 0
    while True:
        who = session.state.current_player()
        if decisions >= 8 and who == stop_at:
            break
        if session.human_to_move() is None:
            session.step()
        else:
            session.answer(session.state.legal_actions()[0])
            decisions += 1
    resumed = GameSession.load(save)
    assert resumed.state == session.state
    assert resumed.state.current_player() == stop_at
    saved = len(resumed.state.history)
    drawn = _spy_on_hands(monkeypatch)
    app = JamaicaApp(resumed, delay=0.05 if next_up == "bot" else 0)
    async with app.run_test(size=SIZE) as pilot:
        assert await _my_turn(pilot, app)
        first = resumed.human_to_move()
        assert first is not None
        assert (len(resumed.state.history) > saved) == (next_up == "bot")
        assert isinstance(app.screen, HandOver)
        await pilot.pause()  # let it be drawn
        assert f"Pass the keyboard to {resumed.name(first)}" in _screen_text(app)
        _assert_nothing_private(app, resumed)
        assert drawn == []
        await pilot.press("enter")
        await _my_turn(pilot, app)
        assert isinstance(app.screen, Table) and app.screen.viewer == first
        assert "Hand " in app.screen.query_one("#you", Drawn).text()
        before = len(resumed.state.history)
        await pilot.press("1")
        await _my_turn(pilot, app)
        assert len(resumed.state.history) > before


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
    async with app.run_test(size=SIZE) as pilot:
        await _my_turn(pilot, app)
        before = session.state.to_dict()
        await pilot.press("9")
        await pilot.pause()
        assert session.state.to_dict() == before
        assert "No option 9" in app.screen.query_one("#note", Drawn).text()


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
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.index == 0
        await pilot.press("right", "right", "right")
        assert screen.index == 3
        await pilot.press("left")
        assert screen.index == 2
        await pilot.press("end")
        assert screen.states[screen.index].is_terminal()
        assert "the game is over" in screen.query_one("#where", Drawn).text()


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


def _at_powder(least: int = 3) -> GameSession:
    """A game (human and greedy) at the human's gunpowder question, with at least `least`
    amounts to choose from."""
    for seed in range(200):
        session = GameSession(Config(2), make_seats(["human", "greedy"]), seed)
        session.run_until_human()
        while not session.state.is_terminal():
            s = session.state
            if s.decision_kind() == "powder" and len(s.legal_actions()) >= least:
                return session
            legal = s.legal_actions()  # the human buys gunpowder when it can, to fight
            powder = [a for a in legal if "powder" in str(a) or "gunpowder" in str(a)]
            session.answer((powder or legal)[0])
            session.run_until_human()
    raise AssertionError("no gunpowder question found")


async def test_a_digit_spends_that_much_gunpowder() -> None:
    """Helper's review: at "how much gunpowder do you spend?" the keys were the options' numbers
    from 1, so "1" spent none and "3" spent 2. The digit is the amount now: "0" spends none."""
    session = _at_powder()
    app = JamaicaApp(session, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await _until(pilot, lambda: isinstance(app.screen, Table) and app.screen.question)
        table = app.screen
        assert isinstance(table, Table)
        prompt = str(table.query_one("#prompt", Drawn).render())
        assert "(0–" in prompt, prompt
        first = table.query_one("#options", OptionList).get_option_at_index(0).prompt
        assert str(first).startswith("0. 0 gunpowder"), first  # each label starts with its key
        before = len(session.state.history)
        await pilot.press("2")
        await _until(pilot, lambda: len(session.state.history) > before)
        assert str(session.state.history[before]) == "powder 2"


async def test_ctrl_c_says_in_the_reader_s_language_which_key_quits_once() -> None:
    """Textual's own toast was English on a French screen, and each press stacked another."""
    session = _at_powder()
    app = JamaicaApp(session, delay=0, lang="fr")
    async with app.run_test(size=SIZE) as pilot:
        await _until(pilot, lambda: isinstance(app.screen, Table) and app.screen.question)
        await pilot.press("ctrl+c")
        await pilot.press("ctrl+c")
        await pilot.pause()
        said = [(n.title, n.message) for n in app._notifications]
        assert len(said) == 1, said
        title, message = said[0]
        assert title == "Ctrl+C ne fait pas quitter", said  # in French
        assert "q" in message and "sauvée" in message, said
