"""The screens around the table: the hand-over between players at one keyboard, help, the whole
log, the saved game found at start-up, and the end of the race."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Final

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static

from ..i18n import Words
from ..rules.phrases import N_, P_
from ..session import GameSession
from . import render
from .lang import ENGLISH, shown_names, translate_bindings, words_of
from .widgets import Drawn

# Help: the keys of the screen it is opened from, then the rules in short (and the table's
# picture, for the screens that show one).
TABLE_KEYS: Final = N_("""\
[b]Keys[/b]
  1–9       answer with that option (or ↑ ↓ and Enter, or a click);
            gunpowder: 0–9, the amount spent
  ? h F1    this help              l   the whole log
  q         save and quit (the game is saved after every decision)
  Esc       close this screen
""")
SETUP_KEYS: Final = N_("""\
[b]Keys of the setup screen[/b]
  Tab Enter   the next field (shift+Tab: the one before)
  ↑ ↓ Enter   in an open list: choose (Esc closes it)
  ctrl+s      set sail (or Enter on the Set sail button)
  F1          this help              Esc   quit (nothing is saved)
""")
END_KEYS: Final = N_("""\
[b]Keys of the end of the race[/b]
  n   a new game (in a new file)     r   the replay of this one
  l   the whole log                  q   quit
""")
RACE: Final = N_("""\
[b]The race[/b]
  Sail around the island, from Port Royal back to Port Royal.
  Each round the Captain (⚑) rolls two dice and chooses the morning
  die (☀) and the evening die (☾). Everyone secretly picks a card
  ("Food / Forward": its morning and its evening action); then, from
  the Captain on, each shows it and does its morning action with the
  morning die, then its evening action with the evening die:
    Food, Gunpowder, Doubloons   load that many into one hold
                                 (a hold holds one kind)
    Forward, Backward            move that many spaces and pay:
                        ~n sea: n food   $n port: n doubloons
                        ☠ lair: free, and its treasure if ✦ is left
  Cannot pay: a shortage. You lose all of it and fall back (2021:
  the shortage die says where; classic: the first space you can pay).
  Stopping on another ship (not in Port Royal) is a battle: each side
  spends gunpowder and rolls the combat die (2–10; ★ wins at once);
  firepower = die + gunpowder (+2 with Lady Beth). The winner takes
  a hold's contents or a treasure, or gives a cursed treasure.
  The race ends with the round in which a ship reaches Port Royal.
  Score: the place (15 finished; 2–10 on spaces 41–49; −5 elsewhere)
  + doubloons + treasures.
""")
SCREEN: Final = N_("""\
[b]The screen[/b]
  Header: the round, the Captain, the dice, whose turn it is.
  Board: PR Port Royal; ├ the outer lane and └ the inner channel of
    each fork; | the red line. The two-letter tags are the ships.
    The spaces your options lead to are underlined, the highlighted
    option's in reverse (the option itself: underlined, on grey).
  Ships: ▸ whose turn, ⚑ the Captain, the space (↺ behind the start
    line), the holds (3f food, 3$ doubloons, 3p gunpowder, · empty),
    T face-down treasures, powers (M Morgan's Map, S Saran's Sabre,
    B Lady Beth, 6 the 6th Hold), c cards in hand.
  Right: the dice and your hand, the battle, the question, and the
    newest lines of the log.
""")


class HandOver(ModalScreen[None]):
    """Hot-seat: hides the table until the next player is at the keyboard (also before the first
    human decision of a new or resumed game). Enter shows their hand; q, Esc, ctrl+c or ctrl+q
    save and quit (the game is saved after every decision: nothing is lost)."""

    BINDINGS = [
        Binding("enter", "go", N_("I am here")),
        Binding(
            "q,escape,ctrl+c,ctrl+q", "app.quit", N_("Save & quit"), key_display="q", priority=True
        ),
    ]
    DEFAULT_CSS = """
    HandOver { align: center middle; background: $background; }
    HandOver > Vertical { width: 60; max-width: 100%; height: auto; border: heavy $accent;
                          padding: 1 2; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player_name = name
        self.words = words_of(self)
        translate_bindings(self, self.words)

    def compose(self) -> ComposeResult:
        _ = self.words
        with Vertical():
            before, _name, after = _("Pass the keyboard to {name}.").partition("{name}")
            text = Text(before)
            text.append(self.player_name, "bold")
            text.append(after)
            enter = _("Enter").ljust(7)
            yield Static(text, id="handover")
            yield Static(Text.assemble(_("Everyone else: look away!") + "\n\n",
                                       ("  " + enter, "bold"),
                                       _("I am {name}: show my hand", name=self.player_name) + "\n",
                                       ("  q      ", "bold"),
                                       _("save and quit; go on later with --resume")))  # fmt: skip
        yield Footer()

    def action_go(self) -> None:
        self.dismiss(None)


class Help(ModalScreen[None]):
    """The keys of the screen it was opened from (`keys`), then the rules in short, and with
    `screen` what the table's picture shows."""

    BINDINGS = [Binding("escape,q,question_mark,h,f1", "close", N_("Close"))]
    DEFAULT_CSS = """
    Help { align: center middle; }
    Help > VerticalScroll { width: 76; max-width: 100%; height: 100%; border: round $accent;
                            padding: 0 1; }
    """

    def __init__(self, keys: str = TABLE_KEYS, screen: bool = True) -> None:
        super().__init__()
        _ = self.words = words_of(self)
        translate_bindings(self, _)
        self.text = "\n".join([_(keys), _(RACE), *([_(SCREEN)] if screen else [])])

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.text, id="help")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)


class FullLog(ModalScreen[None]):
    """Every line of the log you may see, to scroll through."""

    BINDINGS = [Binding("escape,q,l", "close", N_("Close"))]
    DEFAULT_CSS = """
    FullLog > VerticalScroll { border: round $secondary; }
    """

    def __init__(self, lines: Sequence[Text]) -> None:
        super().__init__()
        self.lines = lines
        self.words = words_of(self)
        translate_bindings(self, self.words)

    def compose(self) -> ComposeResult:
        _ = self.words
        with VerticalScroll(id="full-log") as scroll:
            scroll.border_title = _("The whole log (↑ ↓ PgUp PgDn to scroll, Esc to close)")
            yield Static(Text("\n").join(self.lines))
        yield Footer()

    def on_mount(self) -> None:
        scroll = self.query_one(VerticalScroll)
        scroll.focus()
        scroll.scroll_end(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


def describe_game(session: GameSession, _: Words = ENGLISH) -> str:
    s = session.state
    seats = ", ".join(
        seat.name + ("" if seat.bot is None else f" ({_(seat.bot)})") for seat in session.seats
    )
    where = _("round {round}", round=s.rnd) if s.rnd else _("before the first round")
    played = _.n("{n} move played", "{n} moves played", len(s.history))
    return _("{where}, {played}; {seats}", where=where, played=played, seats=seats)


class SavedGameFound(ModalScreen[str]):
    """Start-up with an unfinished game in the save file: resume it, or start a new game in
    another file (the old one is kept), or quit. Never overwritten without asking."""

    BINDINGS = [
        Binding("r", "answer('resume')", N_("Resume it")),
        Binding("n", "answer('new')", N_("New game")),
        Binding("q,escape", "answer('quit')", N_("Quit")),
    ]
    DEFAULT_CSS = """
    SavedGameFound { align: center middle; }
    SavedGameFound > Vertical { width: 76; max-width: 100%; height: auto; border: heavy $accent;
                                padding: 1 2; }
    """

    def __init__(self, path: Path, found: GameSession, new_path: Path) -> None:
        super().__init__()
        self.path, self.found, self.new_path = path, found, new_path
        self.words = words_of(self)
        translate_bindings(self, self.words)

    def compose(self) -> ComposeResult:
        _ = self.words
        with Vertical():
            yield Static(Text.assemble(
                (_("An unfinished game is saved in "), ""), (str(self.path), "bold"),
                (_(":") + f"\n{describe_game(self.found, _)}.\n\n", ""),
                ("  r  ", "bold"), (_("resume it") + "\n", ""),
                ("  n  ", "bold"), (_("start a new game, saved in "), ""),
                (str(self.new_path), "bold"),
                (" " + _("({name} is kept)", name=self.path.name) + "\n", ""),
                ("  q  ", "bold"), (_("quit"), ""),
            ), id="found")  # fmt: skip
        yield Footer()

    def action_answer(self, what: str) -> None:
        self.dismiss(what)


def end_reason(session: GameSession, names: Sequence[str], _: Words = ENGLISH) -> str:
    """Why the race ended, in words: who reached Port Royal, or the round limit."""
    events = session.state.events_for(None, names)
    finishers = list(dict.fromkeys(names[e["args"][0]] for e in events if e["kind"] == "finish"))
    if finishers:
        return _.n(*REACHED, len(finishers), who=_(" and ").join(finishers))
    return _("The {limit}-round limit was reached.", limit=session.config.max_rounds)


REACHED: Final = P_("{who} reached Port Royal: the race is over.",
                    "{who} reached Port Royal: the race is over.")  # fmt: skip
WINNER: Final = P_("Winner: ", "Winner: ")  # a tie has several ("Gagnants : " in French)


class GameOver(Screen[None]):
    """The end of the race: why it ended, the ranking with the score's parts, the final board;
    a new game, a replay, or quit."""

    BINDINGS = [
        Binding("n", "app.new_game", N_("New game")),
        Binding("r", "app.replay", N_("Replay")),
        Binding("l", "app.full_log", N_("Log")),
        Binding("question_mark,h,f1", "app.help", N_("Help"), key_display="?"),
        Binding("q", "app.quit", N_("Quit")),
    ]
    DEFAULT_CSS = """
    Final { padding: 0 1; }
    #final-body { height: 1fr; }
    #winner-line { height: auto; margin-bottom: 1; }
    #scores { height: auto; margin-bottom: 1; }
    #profile-line { height: auto; margin-bottom: 1; }
    #final-board { height: auto; }
    """

    def __init__(self, session: GameSession, profile_line: str = "") -> None:
        """`profile_line`: how you did against the bots at this table, from your local profile
        (`profile.record`), said under the ranking."""
        super().__init__()
        self.session = session
        self.profile_line = profile_line
        self.words = words_of(self)
        translate_bindings(self, self.words)

    def compose(self) -> ComposeResult:
        _ = self.words
        s = self.session.state
        names = shown_names([self.session.name(k) for k in range(s.ns)], _)
        view = s.view(None)
        ghosts = render.ghost_ships(view)
        with VerticalScroll(id="final-body"):
            line = Text(_.n("After {n} round: ", "After {n} rounds: ", s.rnd), style="bold")
            line.append(end_reason(self.session, names, _))
            winners = view["winners"]
            line.append("\n" + _.n(*WINNER, len(winners)), "bold")
            for i, w in enumerate(winners):
                if i:
                    line.append(_(" and "))
                line.append_text(render.name_text(w, names[w], w in ghosts))
            yield Static(line, id="winner-line")
            yield Static(render.ranking(view, names, _=_), id="scores")
            if self.profile_line:
                yield Static(Text(self.profile_line), id="profile-line")
            board = Drawn(id="final-board")
            board.show(lambda width: render.board_text(view, names, width, _=_))
            yield board
        yield Footer()
