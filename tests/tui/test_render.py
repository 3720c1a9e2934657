"""The pictures the terminal draws: colours that parse, a track that never splits a space,
readable unique ship tags, and a log that says each thing once."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from rich.console import Console
from rich.style import Style as RichStyle
from rich.text import Text
from textual.content import Content
from textual.style import Style as TextualStyle

from jamaica import Config
from jamaica.rules.data import NUM_SPACES
from jamaica.rules.events import card_title
from jamaica.session import GameSession, make_seats
from jamaica.tui import choices, render

from ..soak import soak


def _styles(text: Text) -> set[str]:
    out = {str(text.style)} if text.style else set()
    for span in text.spans:
        out.add(str(span.style))
    return out


Logged = dict[int | None, int]


def _panels(
    session: GameSession, viewer: int | None, width: int, logged: Logged | None = None
) -> list[Text]:
    """Every picture of the game now as `viewer` sees it. With `logged` (how many of each
    viewer's log lines were drawn before), only the log lines since then, and the one before (a
    line may hide the one before it): the whole log at every step is quadratic."""
    s = session.state
    names = [session.name(k) for k in range(s.ns)]
    view = s.view(viewer)
    events = s.events_for(viewer, names)
    played = render.played_order(events, s.ns)
    since = 0
    if logged is not None:
        since = max(0, logged.get(viewer, 0) - 1)
        logged[viewer] = len(events)
    out = [
        render.board_text(view, names, width, targets=(5, 6), chosen=(6,), active=0,
                          legend=True),
        render.ships_text(view, names, width, detail=True, played=played, turn=0),
        render.hand_panel(view, played[0], detail=True),
        render.battle_panel(view, names),
        render.status_line(view, names),
        *render.log_lines(events[since:], names, render.ghost_ships(view)),
    ]  # fmt: skip
    if s.is_terminal():
        out.append(render.ranking(view, names))
    elif viewer is not None and s.current_player() == viewer:
        q = choices.question(s, viewer, names)
        out += [q.prompt, *(c.label for c in q.choices)]
    return out


def _games() -> list[GameSession]:
    return [
        GameSession(Config(2), make_seats(["greedy", "greedy"]), 4),
        GameSession(Config(6), make_seats(["greedy"] * 6), 5),
        GameSession(Config(3, ghost_ship=True), make_seats(["greedy"] * 3), 6),
    ]


EVERY = soak(7, 1)  # the style check samples every 7th step, every battle and the end


@pytest.mark.soak
def test_every_style_of_every_picture_parses_in_rich_and_in_textual() -> None:
    """Colour names such as dodger_blue1 are Rich-only: Textual drops them silently."""
    for style in [*render.STYLES.values(), *render.PALETTE, render.GHOST]:
        RichStyle.parse(style)
        TextualStyle.parse(style)
    seen: set[str] = set()
    for session in _games():
        logged: Logged = {}  # every log line is drawn once, at the next sample
        while True:
            s = session.state
            step = len(s.history)
            every = step % EVERY == 0 or s.battle is not None or s.is_terminal()
            for viewer in (None, 0) if every else ():
                for text in _panels(session, viewer, 44 if step % 2 else 64, logged):
                    seen |= _styles(text)
                    Content.from_rich_text(text)  # what Textual draws
            if s.is_terminal():
                break
            session.step()
    assert len(seen) > 15
    for style in seen:
        RichStyle.parse(style)  # raises on a name it does not know
        TextualStyle.parse(style)


def _cells(text: Text) -> list[str]:
    return text.plain.splitlines()


@pytest.mark.parametrize("width", [24, 30, 36, 44, 56, 64, 100])
def test_the_track_never_splits_a_space_across_lines(width: int) -> None:
    session = GameSession(Config(6, ghost_ship=False), make_seats(["greedy"] * 6), 2)
    s = session.state
    names = ["Alice", "Anne Bonny", "Bob", "the Dread Pirate", "Émile Zola", "Zed"]
    for crowd in (0, 6, 45):  # every ship on one space, then all on the last stretch
        for k in range(s.ns):
            s.pos[k] = crowd
        view = s.view(None)
        lines = _cells(render.board_text(view, names, width))
        for space in range(1, NUM_SPACES):
            cell = render.space_cell(space, view["lair_tokens"], width >= 56).plain
            assert sum(cell in line for line in lines) == 1, (space, cell, lines)
        assert all(len(line) <= max(width, 40) for line in lines)  # a cell + its ships may
        tags = render.tags(names)
        line = next(line for line in lines if tags[0] in line)
        assert " ".join(tags) in line  # ships on one space: separate tags


def test_ship_tags_are_unique_and_readable() -> None:
    names = ["Anne Bonny", "Alice", "Al Capone", "Anne Bonny", "the Ghost Ship"]
    tags = render.tags(names, ghosts=[4])
    assert tags[0] == "AB" and tags[1] == "Al" and tags[4] == "GS"
    assert len(set(tags)) == len(tags) and all(len(t) == 2 for t in tags)
    assert render.tags(["[b]x[/b]", "", "李白", "Zed"])[3] == "Ze"
    assert len(set(render.tags(["Amy"] * 6))) == 6


def test_the_board_marks_the_options_and_the_active_ship() -> None:
    session = GameSession(Config(3), make_seats(["greedy"] * 3), 1)
    session.run_until_human(limit=20)
    s = session.state
    names = [session.name(k) for k in range(s.ns)]
    text = render.board_text(s.view(None), names, 44, targets=(7, 13), chosen=(13,), active=1)
    styled = {text.plain[span.start : span.end].strip(): str(span.style) for span in text.spans}
    assert "reverse" in styled[" 13~3".strip()] or any(
        "reverse" in str(sp.style) and "13" in text.plain[sp.start : sp.end] for sp in text.spans
    )
    assert any("underline" in str(sp.style) and "7~2" in text.plain[sp.start : sp.end]
               for sp in text.spans)  # fmt: skip


def test_your_own_draws_and_cards_are_logged_once() -> None:
    session = GameSession(Config(3), make_seats(["greedy"] * 3), 8)
    for _ in range(120):
        session.step()
    s = session.state
    names = [session.name(k) for k in range(s.ns)]
    lines = [t.plain for t in render.log_lines(s.events_for(0, names), names)]
    mine = [line for line in lines if line.startswith("Anne Bonny draws")]
    assert mine and "Anne Bonny draws a card." not in mine  # each draw said once, privately
    assert "Mary Read draws a card." in lines  # others' draws stay public
    assert not any(line.startswith("Anne Bonny chooses a card") for line in lines)


def test_the_cards_played_are_listed_newest_first() -> None:
    events: list[dict[str, Any]] = [
        {"kind": "reveal", "args": [0, 1]},
        {"kind": "reveal", "args": [0, 4]},
        {"kind": "reveal", "args": [1, 2]},
    ]
    played = render.played_order(events, 2)
    assert played[0] == ["fwd-gun", "fwd-fwd"] and played[1] == ["fwd-back"]
    events.append({"kind": "reshuffle", "args": [0]})
    assert render.played_order(events, 2)[0] == []


def test_the_hand_speaks_the_logs_words_and_never_splits_a_card() -> None:
    """Issue 24, item 11: the hand said "gold-fwd" where the log says "Doubloons / Forward"."""
    session = GameSession(Config(3), make_seats(["human", "greedy", "greedy"]), 4)
    session.run_until_human()
    s = session.state
    view = s.view(0)
    titles = [card_title(c) for c in view["hand"]]
    for width in (34, 40, 80):
        text = render.hand_panel(view, ["gold-fwd", "fwd-back", "back-fwd"], width=width)
        lines = text.plain.splitlines()
        assert all(len(line) <= width for line in lines), lines
        shown = " ".join(line.strip() for line in lines)
        for title in titles:
            assert title in shown
        assert shown.index("Doubloons / Forward") < shown.index("Forward / Backward")
        # a line never ends with the separator: at its end it read as an empty hold's "·"
        assert not any(line.rstrip().endswith("·") for line in lines), lines
        if width == 80:
            assert "Played Doubloons / Forward · Forward / Backward" in shown
        assert "-" not in shown  # no "gold-fwd"
    (reveal,) = [e["text"] for e in s.events_for(0) if e["kind"] == "draw_seen"][:1]
    assert any(title in reveal for title in titles)


def test_the_status_line_says_round_captain_and_whose_turn() -> None:
    session = GameSession(Config(3), make_seats(["greedy"] * 3), 8)
    while session.state.decision_kind() != "card":
        session.step()
    s = session.state
    names = [session.name(k) for k in range(s.ns)]
    line = render.status_line(s.view(None), names).plain
    assert f"Round {s.rnd}" in line and f"Captain {names[s.cap]}" in line
    assert f"{names[s.current_player()]} chooses a card" in line
    for kind in ("draw_card", "dice_order", "roll_dice"):
        assert "_" not in render.TURN_WORDS[kind]


@pytest.mark.soak
def test_a_random_game_renders_at_every_width() -> None:
    """Nothing breaks at any size: every picture wraps to a width without an error (each log
    line at the width of the next sample; the whole log at every sample with JAMAICA_SOAK=1)."""
    rng = random.Random(3)
    console = Console(width=200, file=None, color_system=None)
    session = GameSession(Config(4), make_seats(["random"] * 4), 11)
    logged: Logged | None = soak({}, None)
    while not session.state.is_terminal():
        if rng.random() < 0.1:
            width = rng.randint(10, 160)
            for text in _panels(session, rng.choice([None, 0, 1]), width, logged):
                text.wrap(console, width)
        session.step()


def test_a_score_s_sum_is_written_with_a_minus_sign() -> None:
    """The end ranking's "(2+6−4)": a terminal player saw "2+6+-4" for a cursed treasure."""
    from jamaica.tui.render import sum_text

    assert sum_text(2, 6, -4) == "2+6−4"
    assert sum_text(-5, 3, 0) == "−5+3+0"
    assert "+-" not in sum_text(15, -2, -3)


def test_the_ghost_ship_s_french_name_is_whole_where_there_is_room() -> None:
    """At 80 columns the ships' column is 44 wide: a terminal review saw "le Vaisseau fantô…" with
    spaces to spare (the place took a fixed field of 5 and the names at most 18 cells)."""
    from jamaica.i18n import Words

    seats = make_seats(["human", "greedy"], ["Anne Bonny", "Mary Read"])
    s = GameSession(Config(2), seats, 1).state
    names = ["Anne Bonny", "Mary Read", "le Vaisseau fantôme"]
    text = render.ships_text(s.view(0), names, 44, _=Words("fr")).plain
    assert "le Vaisseau fantôme " in text and "…" not in text, text
    assert all(len(line) <= 44 for line in text.split("\n")), text


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_header_says_when_the_captain_moves_the_ghost_ship(lang: str) -> None:
    """A review read "next: Anne Bonny moves" where Anne, the Captain, moved the Ghost Ship."""
    from jamaica import CHANCE, new_game
    from jamaica.i18n import Words
    from jamaica.rules.prompts import question_ship

    s, rng = new_game(Config(2), log=False), random.Random(4)
    while not (s.decision_kind() == "move" and question_ship(s) == s.gh):
        s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal))
    names = ["Anne Bonny", "Mary Read", "the Ghost Ship" if lang == "en" else "le Vaisseau fantôme"]
    said = render.turn_words(s.view(None), names, Words(lang), question_ship(s)).plain
    captain = names[s.current_player()]
    assert said == (f"{captain} moves the Ghost Ship" if lang == "en"
                    else f"{captain} déplace le Vaisseau fantôme"), said  # fmt: skip
    own = render.turn_words(s.view(None), names, Words(lang)).plain  # no ship given: as before
    assert "Ghost" not in own and "fantôme" not in own


def test_negative_numbers_are_written_with_a_minus_sign() -> None:
    """A ship behind the red line scores "−5" in the ranking and a cursed treasure reads "−2" in
    its detail, as the log and the help write them: a review saw "-5" and "-2" (hyphens) at the
    end of a game."""
    session = GameSession(Config(4), make_seats(["random"] * 4), 3)
    cursed = False
    while not session.state.is_terminal():
        session.step()
        s = session.state
        names = [session.name(k) for k in range(s.ns)]
        for k in range(s.n):
            view = s.view(k)
            if any(c.startswith("-") for c in view["ships"][k]["face_down_known"]):
                cursed = True
                text = render.ships_text(view, names, 80, detail=True).plain
                assert "(−" in text or ", −" in text, text
                assert not re.search(r"-\d", text), text
                # the table's own line (no detail) shows them too: "T−2−4", "T+3−4"
                line = render.ships_text(view, names, 80).plain.splitlines()[k]
                assert re.search(r"T\S*−\d", line), line
    s = session.state
    names = [session.name(k) for k in range(s.ns)]
    view = s.view(None)
    assert any(sc["position"] < 0 for sc in view["scores"])  # the game this test needs
    for width in (80, 40):
        text = render.ranking(view, names, width).plain
        assert "−5" in text and not re.search(r"-\d", text), text
    assert cursed  # and a cursed treasure seen by its owner on the way


def test_a_known_face_down_power_card_is_named_not_its_code() -> None:
    """Helper's review: the Ghost Ship's card read "2 treasures (+3, hold6)" (the page, and the
    terminal's "hold6" in English)."""
    from jamaica.i18n import Words

    ship = {"moves_left": 24, "powers": [], "face_down": 2, "face_down_known": ["+3", "hold6"],
            "ghost": True}  # fmt: skip
    said = render._ship_detail(ship, [], Words("en")).plain
    assert "(+3, 6th hold)" in said and "hold6" not in said
    assert "(+3, 6e cale)" in render._ship_detail(ship, [], Words("fr")).plain
