"""`jamaica play`: the game in a full-screen terminal app (Textual).

Screens: the table setup, the table (a header with the round, the Captain, the dice and whose
turn it is; the board and the ships on the left; the dice and your hand, the battle, the question
and the newest log lines on the right), the hand-over between players at one keyboard, help, the
whole log, and the end of the race. Laid out for 80×24 first: nothing a decision needs is ever
below the screen; more room gives borders, a legend and more detail, and the log takes the rest.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from rich.cells import cell_len
from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from ..i18n import Words
from ..rules import Config, IllegalActionError
from ..rules.phrases import N_
from ..rules.prompts import question_ship
from ..session import GameSession, Seat, clean_name, free_save_path, make_seats
from . import profile, render
from .choices import Question, question
from .lang import seen_events, shown_names, translate_bindings, words_of
from .screens import (
    END_KEYS,
    SETUP_KEYS,
    TABLE_KEYS,
    FullLog,
    GameOver,
    HandOver,
    Help,
    SavedGameFound,
)
from .widgets import TOAST_CSS, Drawn, LogView, how_to_quit

# The bots offered in the setup screen: each with a budget of iterations, never of seconds, so
# that a saved game resumed goes on exactly as it would have (`jamaica.session.reproducible`).
KINDS: list[tuple[str, str]] = [
    (N_("human"), "human"),
    (N_("bot: easy"), "easy"),
    (N_("bot: medium"), "medium"),
    (N_("bot: hard"), "hard"),
    (N_("bot: master (about 1 s a move)"), "master"),
    (N_("bot: random (easiest)"), "random"),
    (N_("bot: greedy"), "greedy"),
    (N_("bot: search, 400 iterations"), "ismcts:iterations=400"),
    (N_("bot: search, 1500 iterations (slow)"), "ismcts:iterations=1500"),
]
# What the setup screen's choices can be refused with (`rules.Config`), said in the reader's
# language: the message is its own message id.
TABLE_ERRORS = (
    N_("with 2 players the Ghost Ship is always used (RULES §1)"),
    N_("with 6 players there is no ship left to be the Ghost Ship"),
)
TALL = 34  # rows from which panels get borders and the ships a second line
WIDE = 110  # columns from which the board shows the score numbers and the legend


@dataclass(frozen=True)
class TableChoice:
    """A table as the command line or the last game left it: what the setup screen shows."""

    players: int = 4
    edition: str = "2021"
    ghost: bool | None = None
    max_rounds: int = 100
    names: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()

    def config(self) -> Config:
        return Config(self.players, self.edition, self.ghost, self.max_rounds)

    def kind(self, seat: int) -> str:
        if seat < len(self.kinds):
            return self.kinds[seat]
        return "human" if seat == 0 else "medium"  # the web lobby's default level too

    def name(self, seat: int) -> str:
        return clean_name(self.names[seat] if seat < len(self.names) else "", seat)

    def seats(self) -> list[Seat]:
        return make_seats([self.kind(i) for i in range(self.players)],
                          [self.name(i) for i in range(self.players)])  # fmt: skip


class Setup(Screen[None]):
    """Choose the table: players, edition, Ghost Ship, and each seat's name and player."""

    BINDINGS = [
        Binding("ctrl+s", "start", N_("Set sail")),
        Binding("f1", "app.help", N_("Help")),
        Binding("escape", "app.quit", N_("Quit")),
    ]
    DEFAULT_CSS = """
    Setup { padding: 0 1; }
    Setup Horizontal { height: 1; margin-bottom: 1; }
    Setup .seat { margin-bottom: 0; }
    Setup .label { width: 12; }
    Setup .num { width: 3; }
    #players { width: 10; }
    #edition { width: 28; }
    #ghost { width: 34; }
    Setup .seat Input { width: 28; margin-right: 1; }
    Setup .seat Select { width: 40; }
    /* the field with the focus stands out (it was a background of 235 against 234) */
    Setup Input:focus, Setup Select:focus > SelectCurrent, Setup Button:focus {
        background: #0079ad; color: #ffffff; text-style: bold; background-tint: #000000 0%;
    }
    #setup-note { height: auto; color: $text-muted; margin-top: 1; }
    #error { height: auto; color: $error; }
    #start { margin-top: 1; }
    """

    def __init__(self, table: TableChoice, note: str = "") -> None:
        super().__init__()
        self.table = table
        self.note = note
        self.words = words_of(self)
        translate_bindings(self, self.words)

    def compose(self) -> ComposeResult:
        _ = self.words
        t = self.table
        yield Static(Text(_("Jamaica — a new race around the island"), style="bold"), id="title")
        labels = [_("Players"), _("Ghost Ship")]
        width = max(12, *(cell_len(label) + 1 for label in labels))  # French words are longer
        with Horizontal():
            yield Static(labels[0], classes="label").set_styles(f"width: {width};")
            yield Select([(str(n), n) for n in range(2, 7)], value=t.players, allow_blank=False,
                         id="players", compact=True)  # fmt: skip
            yield Static("  " + _("Edition") + " ", classes="label")
            yield Select([(_("2021 edition"), "2021"), (_("classic (2007) edition"), "classic")],
                         value=t.edition, allow_blank=False, id="edition",
                         compact=True)  # fmt: skip
        with Horizontal():
            yield Static(labels[1], classes="label").set_styles(f"width: {width};")
            ghost = {None: "auto", True: "on", False: "off"}[t.ghost]
            yield Select([(_("as the rules say"), "auto"), (_("on"), "on"), (_("off"), "off")],
                         value=ghost, allow_blank=False, id="ghost", compact=True)  # fmt: skip
        kinds = [(_(label), value) for label, value in KINDS]
        for k in t.kinds:
            if k not in [v for _label, v in kinds]:
                kinds.append((_("bot: {spec}", spec=k), k))
        for i in range(6):
            with Horizontal(classes="seat", id=f"seat{i}"):
                yield Static(f"{i + 1}.", classes="num")
                yield Input(value=t.name(i), id=f"name{i}", max_length=24, compact=True)
                yield Select(kinds, value=t.kind(i), allow_blank=False, id=f"kind{i}",
                             compact=True)  # fmt: skip
        yield Static(Text(_("Tab or Enter: next field · ctrl+s or the button: set sail · "
                            "F1: help"), style="dim"), id="setup-keys")  # fmt: skip
        yield Static(self.note, id="setup-note")
        yield Static("", id="error")
        yield Button(_("Set sail"), id="start", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self._show_seats(self.table.players)
        self.query_one("#start", Button).focus()

    @on(Select.Changed, "#players")
    def _players(self, event: Select.Changed) -> None:
        self._show_seats(int(str(event.value)))

    def _show_seats(self, n: int) -> None:
        for i in range(6):
            self.query_one(f"#seat{i}").display = i < n

    @on(Input.Submitted)
    def _next_field(self) -> None:
        """Enter in a name goes on to the next field: only ctrl+s or the button sets sail."""
        self.focus_next()

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        _ = self.words
        n = int(str(self.query_one("#players", Select).value))
        edition = str(self.query_one("#edition", Select).value)
        ghost = {"auto": None, "on": True, "off": False}[
            str(self.query_one("#ghost", Select).value)
        ]
        kinds = tuple(str(self.query_one(f"#kind{i}", Select).value) for i in range(6))
        names = tuple(self.query_one(f"#name{i}", Input).value for i in range(6))
        table = replace(self.table, players=n, edition=edition, ghost=ghost, kinds=kinds,
                        names=names)  # fmt: skip
        try:
            table.config()
            table.seats()
        except ValueError as e:
            self.query_one("#error", Static).update(Text(_(str(e))))
            return
        app = self.app
        assert isinstance(app, JamaicaApp)
        app.table = table
        app.start_new(table)


class Table(Screen[None]):
    """The game."""

    BINDINGS = [
        Binding("q", "app.quit", N_("Save & quit")),
        Binding("question_mark,h,f1", "app.help", N_("Help"), key_display="?"),
        Binding("l", "full_log", N_("Log")),
        *[Binding(str(d), f"pick({d})", show=False) for d in range(10)],
    ]
    DEFAULT_CSS = """
    #status { height: 1; background: $panel; padding: 0 1; }
    #body { height: 1fr; }
    #left { width: 44; height: 100%; }
    #right { width: 1fr; height: 100%; padding-left: 1; }
    #ships { margin-top: 1; }
    #battle { border-top: solid $error; }
    #question { height: auto; border-top: solid $accent; }
    #options { height: auto; border: none; padding: 0; background: $background; }
    #options:focus { background-tint: $foreground 0%; }
    /* the highlighted option: underlined on a neutral grey on which every colour of the labels
       keeps a contrast of 4.5 or more (warnings, resources, the ships' colours: they were red on
       blue, 1.5) */
    #options > .option-list--option-highlighted { background: #2e2e2e; color: $foreground;
                                                  text-style: bold underline; }
    #note { height: auto; color: $warning; }
    #log { border-top: solid $secondary; min-height: 0; }
    Table.-wide #left { width: 64; }
    Table.-tall #board, Table.-tall #ships { border: round $primary; margin-top: 0; }
    Table.-tall #you { border: round $primary; }
    Table.-tall #battle { border: round $error; }
    Table.-tall #question { border: heavy $accent; }
    Table.-tall #log { border: round $secondary; }
    """

    def __init__(self, session: GameSession, delay: float) -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        self.words = words_of(self)
        translate_bindings(self, self.words)
        humans = session.humans
        # Whose hand and private log the table shows. With one human it is always theirs; at a
        # hot-seat table nobody's (the public view) until the first human to decide has taken
        # the keyboard through the hand-over, for a new game and a resumed one alike, so no hand
        # is on screen while the dice and bots play first or before the right player is there.
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.names = shown_names([session.name(k) for k in range(session.state.ns)], self.words)
        self.question: Question | None = None
        self.busy = False
        self.save_error = ""
        # Per reader, the log's length when they last answered: what befell their ship since
        # (`render.log_marks`) stays in the log panel until they answer again.
        self.log_seen: dict[int | None, int] = {}
        self.log_count = 0

    @property
    def actions(self) -> list[tuple[int, ...]]:
        """The answers the player may give now, one per option (empty: not theirs to answer)."""
        return [c.actions for c in self.question.choices] if self.question else []

    def compose(self) -> ComposeResult:
        yield Drawn(id="status")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield Drawn(id="board")
                yield Drawn(id="ships")
            with Vertical(id="right"):
                yield Drawn(id="you")
                yield Drawn(id="battle")
                with Vertical(id="question"):
                    yield Drawn(id="prompt")
                    yield OptionList(id="options")
                    yield Drawn(id="note")
                yield LogView(id="log")
        yield Footer()

    def on_mount(self) -> None:
        _ = self.words
        self._fit_classes(self.app.size.width, self.app.size.height)
        self.query_one("#note").display = False
        for panel, title in (("#board", N_("Board")), ("#ships", N_("Ships")), ("#you", N_("You")),
                             ("#battle", N_("Battle")), ("#question", N_("Your decision")),
                             ("#log", N_("Log (l: all of it)"))):  # fmt: skip
            self.query_one(panel).border_title = _(title)
        self.refresh_table()
        self.proceed()

    def on_resize(self, event: events.Resize) -> None:
        self._fit_classes(event.size.width, event.size.height)
        self.query_one("#status", Drawn).refresh()
        self.call_after_refresh(self._fit_options)

    def _fit_classes(self, width: int, height: int) -> None:
        self.set_class(width >= WIDE, "-wide")
        self.set_class(height >= TALL, "-tall")

    @property
    def tall(self) -> bool:
        return self.has_class("-tall")

    # --- drawing ---------------------------------------------------------------------------------
    def refresh_table(self) -> None:
        _ = self.words
        s = self.session.state
        view = self.view = s.view(self.viewer)
        # taken with the view: the header draws later, maybe while a bot's answer is applied
        self.for_ship = -1 if s.is_terminal() else question_ship(s)
        names = self.names
        events_ = seen_events(s, self.viewer, names, _)
        ghosts = render.ghost_ships(view)
        played = render.played_order(events_, s.ns)
        turn = view["pending"]["player"]
        self.query_one("#status", Drawn).show(self._status)
        self.query_one("#ships", Drawn).show(
            lambda w: render.ships_text(
                view, names, w, detail=self.tall, played=played, turn=turn, _=_
            )
        )
        me = self.viewer
        mine = played[me] if me is not None else []
        self.query_one("#you", Drawn).show(
            lambda w: render.hand_panel(view, mine, detail=w >= 56 or self.tall, width=w, _=_)
        )
        battle = self.query_one("#battle", Drawn)
        battle.display = view["battle"] is not None
        battle.show(lambda w: render.battle_panel(view, names, _))
        entries = render.log_lines(events_, names, ghosts)
        marks = render.log_marks(events_, self.viewer)
        seen = self.log_seen.get(self.viewer, 0)  # what the reader had when they last answered
        kept = [i for i, mark in enumerate(marks) if mark and i >= seen]
        self.log_count = len(entries)
        more = Text(_("… (l: the whole log)"), style="dim")
        self.query_one("#log", LogView).set_entries(entries, kept, more)
        self.show_question()

    def _status(self, width: int) -> Text:
        _ = self.words
        w, h = self.app.size
        if w < 80 or h < 24:  # say why things are cut off
            return Text(_("The terminal is {w}×{h}: the table needs 80×24 or more.",
                                   w=w, h=h), "bold")  # fmt: skip
        return render.status_line(self.view, self.names, width, self.words, self.for_ship)

    def draw_board(self) -> None:
        view = self.view
        q = self.question
        targets: set[int] = set()
        chosen: set[int] = set()
        active = None
        if q is not None:
            active = q.ship
            for c in q.choices:
                targets.update(c.spaces)
            i = self.query_one("#options", OptionList).highlighted
            if i is not None and 0 <= i < len(q.choices):
                chosen.update(q.choices[i].spaces)
        self.query_one("#board", Drawn).show(
            lambda w: render.board_text(
                view,
                self.names,
                w,
                targets=targets,
                chosen=chosen,
                active=active,
                legend=self.tall,
                _=self.words,
            )
        )

    def show_question(self) -> None:
        _ = self.words
        prompt = self.query_one("#prompt", Drawn)
        options = self.query_one("#options", OptionList)
        who = self.session.human_to_move()
        options.clear_options()
        self.question = None
        if self.session.state.is_terminal():
            prompt.show(lambda w: Text(_("The race is over.")))
        elif who is None or who != self.viewer or self.busy:
            waiting = render.turn_words(self.view, self.names, _, self.for_ship)
            prompt.show(lambda w: Text.assemble((_("Waiting: "), "dim"), waiting, ("…", "dim")))
        else:
            q = question(self.session.state, who, self.names, _)
            self.question = q
            n = len(q.choices)
            first, last = q.key(0), q.key(min(n, 9 + (q.key(0) == "0")) - 1)
            keys = (_("  ({first}–{last}, or ↑↓ Enter)", first=first, last=last) if n > 1
                    else _("  ({first} or Enter)", first=first))  # fmt: skip
            prompt.show(lambda w: Text.assemble(q.prompt, (keys, "dim")))
            options.add_options(
                [Option(Text.assemble((f"{q.key(i)}. ", "bold"), c.label))
                 for i, c in enumerate(q.choices)]
            )  # fmt: skip
            options.highlighted = 0
            options.focus()
            self.note(self.save_error)  # an old "not your turn" goes; a failed save stays
        self.draw_board()
        self.call_after_refresh(self._fit_options)

    def _fit_options(self) -> None:
        """Give the options what the right column has left, so the question never goes below
        the screen (a long list scrolls inside, with the highlighted option shown)."""
        right = self.query_one("#right")
        used = sum(
            w.outer_size.height
            for w in (self.query_one(f"#{name}") for name in ("you", "battle", "prompt", "note"))
            if w.display
        )
        question_box = self.query_one("#question")
        frame = question_box.outer_size.height - question_box.size.height
        room = right.size.height - used - frame - 1
        self.query_one("#options", OptionList).styles.max_height = max(2, room)

    def note(self, text: str) -> None:
        """A message under the question (never over it): a wrong key, a failed save."""
        panel = self.query_one("#note", Drawn)
        panel.display = bool(text)
        panel.show(lambda w: Text(text, style="bold"))
        self.call_after_refresh(self._fit_options)

    @on(OptionList.OptionHighlighted, "#options")
    def _highlighted(self) -> None:
        self.draw_board()

    # --- playing ---------------------------------------------------------------------------------
    def proceed(self) -> None:
        """Let the bots and the dice play until a human must decide; hand over if needed."""
        s = self.session
        if s.state.is_terminal():
            self.refresh_table()
            self.app.push_screen(GameOver(s, profile.record(s, _=self.words)))
            return
        if s.waiting_for_bot_or_chance():
            self.busy = True
            self.show_question()
            self.run_bots()
            return
        who = s.human_to_move()
        if who is not None and who != self.viewer:
            self.app.push_screen(HandOver(self.names[who]), lambda _: self._take_over(who))
            return
        self.refresh_table()

    def _take_over(self, who: int) -> None:
        self.viewer = who
        self.refresh_table()

    @work(thread=True, exclusive=True)
    def run_bots(self) -> None:
        _ = self.words
        s = self.session
        while s.waiting_for_bot_or_chance():
            chance = s.state.current_player() < 0
            try:
                s.step()
            except OSError as e:  # applied, not saved: the next save tries again
                self.save_error = _("Could not save to {path}: {error}", path=s.path,
                                             error=e.strerror or e)  # fmt: skip
            if not chance and self.delay and s.waiting_for_bot_or_chance():
                self.app.call_from_thread(self.refresh_table)  # show each bot's move a moment
                time.sleep(self.delay)
        self.app.call_from_thread(self._bots_done)

    def _bots_done(self) -> None:
        self.busy = False
        self.refresh_table()
        if self.save_error:
            self.note(self.save_error)
        self.proceed()

    def choose(self, index: int) -> None:
        _ = self.words
        actions = self.actions
        if not actions:
            self.note(_("Not your turn to decide: please wait."))
            return
        if not 0 <= index < len(actions):
            self.note(_("No option {k}: choose 1 to {n}.", k=index + 1, n=len(actions)))
            return
        self.save_error = ""
        self.log_seen[self.viewer] = self.log_count  # the log seen: its news need not stay
        try:
            for a in actions[index]:
                self.session.answer(a)
        except (IllegalActionError, ValueError) as e:
            self.note(str(e))
            return
        except OSError as e:
            self.save_error = _("Could not save to {path}: {error}",
                                         path=self.session.path, error=e.strerror or e)  # fmt: skip
        self.note(self.save_error)
        self.refresh_table()
        self.proceed()

    @on(OptionList.OptionSelected, "#options")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.choose(event.option_index)

    def action_pick(self, digit: int) -> None:
        """A digit key: the option it names (its number, or for gunpowder the amount spent)."""
        q = self.question
        if q is not None and q.keys:
            if str(digit) not in q.keys:
                _ = self.words
                self.note(_("No option {k}: choose {first} to {last}.", k=digit,
                            first=q.keys[0], last=q.keys[-1]))  # fmt: skip
                return
            self.choose(q.keys.index(str(digit)))
        elif digit > 0:
            self.choose(digit - 1)

    def action_full_log(self) -> None:
        events_ = seen_events(self.session.state, self.viewer, self.names, self.words)
        ghosts = render.ghost_ships(self.view)
        self.app.push_screen(FullLog(render.log_lines(events_, self.names, ghosts)))


@dataclass
class Outcome:
    """What the app leaves behind, for the message printed after it closes."""

    saved: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


class JamaicaApp(App[None]):
    TITLE = "Jamaica"
    CSS = TOAST_CSS
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", N_("Quit"), show=False)]

    def __init__(
        self,
        session: GameSession | None = None,
        *,
        seed: int | None = None,
        save_path: Path | None = None,
        delay: float = 0.4,
        table: TableChoice | None = None,
        start: bool = False,
        found: GameSession | None = None,
        note: str = "",
        lang: str = "en",
    ) -> None:
        """`session`: play it at once (a resumed game). Otherwise a new game saved in
        `save_path`: from `table` at once when `start` (the command line named every seat), else
        through the setup screen prefilled with `table`. `found`: the unfinished game already in
        `save_path`, offered to resume first. `note`: said on the setup screen. `lang`: the
        language of every screen (`jamaica play --lang`, else the environment's)."""
        super().__init__()
        self.words = Words(lang)
        self.session = session
        self.seed = seed if seed is not None else random.randrange(2**31)
        self.save_path = save_path
        self.delay = delay
        self.table = table or TableChoice()
        self.start_at_once = start
        self.found = found
        self.setup_note = note
        self.outcome = Outcome()
        self.told = 0  # the outcome's notes said already on the screen

    def action_help_quit(self) -> None:
        _ = self.words
        saved = _("The game is saved after every decision.") if self.session is not None else ""
        how_to_quit(self, _, saved)

    def on_mount(self) -> None:
        if self.session is not None:
            self.start_game(self.session)
        elif self.found is not None and self.save_path is not None:
            new = free_save_path(self.save_path)
            self.push_screen(SavedGameFound(self.save_path, self.found, new), self._found)
        else:
            self._new_game()

    def _found(self, answer: str | None) -> None:
        _ = self.words
        assert self.found is not None and self.save_path is not None
        if answer == "resume":
            self.start_game(self.found)
        elif answer == "new":
            old = self.save_path
            self.save_path = free_save_path(old)
            self.setup_note = _("This game will be saved in {new} ({old} is kept).",
                                         new=self.save_path, old=old)  # fmt: skip
            self._new_game()
        else:
            self.exit()

    def _new_game(self) -> None:
        if self.start_at_once:
            self.start_at_once = False
            self.start_new(self.table)
        else:
            self.push_screen(Setup(self.table, self.setup_note))

    def start_new(self, table: TableChoice) -> None:
        path = self.save_path
        if path is not None and (path.exists() or path.is_symlink()):  # appeared meanwhile
            path = self.save_path = free_save_path(path)
        self.start_game(GameSession(table.config(), table.seats(), self.seed, path))

    def start_game(self, session: GameSession) -> None:
        _ = self.words
        self.session = session
        try:
            session.save()
        except OSError as e:
            self.outcome.notes.append(
                _("Could not save to {path}: {error}", path=session.path, error=e.strerror or e)
            )
        if session.path is not None and session.path not in self.outcome.saved:
            self.outcome.saved.append(session.path)
        self.push_screen(Table(session, self.delay))
        self.call_after_refresh(self._tell_notes)

    def _tell_notes(self) -> None:
        """What the game's start changed or could not do (a timed bot resumed with iterations,
        a save that failed), said at once on the table, not only after quitting."""
        _ = self.words
        for note in self.outcome.notes[self.told :]:
            self.notify(note, title=_("Note"), severity="warning", timeout=30)
        self.told = len(self.outcome.notes)

    # --- actions from any screen -----------------------------------------------------------------
    def action_help(self) -> None:
        """Help for the screen it is asked from: its own keys (the setup screen's, the end's, the
        table's), the rules, and the table's picture where there is one."""
        screen = self.screen
        if isinstance(screen, Help):
            return
        if isinstance(screen, Setup):
            self.push_screen(Help(SETUP_KEYS, screen=False))
        elif isinstance(screen, GameOver):
            self.push_screen(Help(END_KEYS))
        else:
            self.push_screen(Help(TABLE_KEYS))

    def action_full_log(self) -> None:
        table = next((s for s in self.screen_stack if isinstance(s, Table)), None)
        if table is not None:
            table.action_full_log()

    def action_new_game(self) -> None:
        """From the end of the race: the setup screen again, for a game in a new file."""
        _ = self.words
        assert self.session is not None
        last = self.session
        self.table = replace(
            self.table,
            players=last.config.players,
            edition=last.config.edition,
            ghost=last.config.ghost_ship,
            names=tuple(s.name for s in last.seats),
            kinds=tuple(s.bot or "human" for s in last.seats),
        )
        self.seed = random.randrange(2**31)
        note = ""
        if self.save_path is not None:
            old = last.path or self.save_path
            self.save_path = free_save_path(self.save_path)
            note = _("This game will be saved in {new} ({old} is kept).",
                              new=self.save_path, old=old)  # fmt: skip
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(Setup(self.table, note))

    def action_replay(self) -> None:
        from .replay import ReplayScreen

        assert self.session is not None
        self.push_screen(ReplayScreen(self.session, at_end=True))

    def farewell(self) -> str:
        """The lines printed once the app has closed: where each game is, and what went wrong."""
        _ = self.words
        lines = list(self.outcome.notes)
        if self.session is None:
            lines.append(_("No game was started; nothing was saved."))
        for path in self.outcome.saved:
            try:
                done = GameSession.load(path).state.is_terminal()
            except ValueError:
                lines.append(_("The game could not be saved in {path}.", path=path))
                continue
            if done:
                lines.append(_("The finished game is saved in {path}: jamaica replay {path}",
                               path=path))  # fmt: skip
            else:
                lines.append(_("The game is saved in {path}: jamaica play --resume {path}",
                               path=path))  # fmt: skip
        return "\n".join(lines)


__all__ = ["KINDS", "GameOver", "HandOver", "JamaicaApp", "Setup", "Table", "TableChoice"]
