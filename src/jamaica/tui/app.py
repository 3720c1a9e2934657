"""`jamaica play`: the game in a full-screen terminal app (Textual).

Screens: the table setup, the game (board, ships, your hand, the battle, the log, the question
with its options), the hand-over between players at one keyboard, and the final scores.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from rich.markup import escape
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    DataTable,
    Footer,
    Input,
    Label,
    OptionList,
    RichLog,
    Select,
    Static,
)
from textual.widgets.option_list import Option

from ..rules import Config, IllegalActionError
from ..rules.data import PIRATES
from ..session import GameSession, Seat, clean_name
from . import render

KINDS = [("human", "human"), ("bot: random", "random"), ("bot: greedy", "greedy"),
         ("bot: ismcts (0.5 s)", "ismcts:seconds=0.5")]  # fmt: skip


class HandOver(ModalScreen[None]):
    """Hot-seat: hides the table until the next player is at the keyboard (also before the first
    human decision of a new or resumed game)."""

    BINDINGS = [Binding("enter", "go", "I am here")]
    DEFAULT_CSS = """
    HandOver { align: center middle; background: $background; }
    HandOver > Vertical { width: 60; height: auto; border: heavy $accent; padding: 1 2; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player_name = name

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Pass the keyboard to [b]{escape(self.player_name)}[/].", id="handover")
            yield Label("Everyone else: look away!  —  press Enter when ready.")

    def action_go(self) -> None:
        self.dismiss(None)


class Final(Screen[None]):
    """The score table with its parts, and the winner(s)."""

    BINDINGS = [Binding("q", "app.quit", "Quit")]

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        s = self.session.state
        names = [self.session.name(k) for k in range(s.ns)]
        view = s.view(None)
        winners = " and ".join(escape(names[w]) for w in view["winners"])
        yield Label(f"[b]The race is over after {s.rnd} rounds.[/]  Winner: [b]{winners}[/]",
                    id="winner-line")  # fmt: skip
        table: DataTable[str] = DataTable(id="scores")
        table.add_columns("ship", "position", "doubloons", "treasures", "total", "")
        for row in render.score_rows(view, names):
            table.add_row(*row)
        yield table
        yield Footer()


class Setup(Screen[None]):
    """Choose the table: players, who plays each seat, edition, Ghost Ship, names."""

    DEFAULT_CSS = """
    Setup { padding: 1 2; }
    .seat { height: 3; }
    .seat Input { width: 30; }
    .seat Select { width: 30; }
    #error { color: $error; }
    """

    def compose(self) -> ComposeResult:
        yield Label("[b]Jamaica[/] — a new race around the island")
        with Horizontal(classes="seat"):
            yield Select([(str(n), n) for n in range(2, 7)], value=4, allow_blank=False,
                         id="players")  # fmt: skip
            yield Select([("2021 edition", "2021"), ("classic (2007) edition", "classic")],
                         value="2021", allow_blank=False, id="edition")  # fmt: skip
            yield Select([("Ghost Ship: as the rules say", "auto"), ("Ghost Ship: on", "on"),
                          ("Ghost Ship: off", "off")], value="auto", allow_blank=False,
                         id="ghost")  # fmt: skip
        for i in range(6):
            with Horizontal(classes="seat", id=f"seat{i}"):
                yield Input(value=PIRATES[i], id=f"name{i}", max_length=24)
                yield Select(KINDS, value="human" if i == 0 else "greedy", allow_blank=False,
                             id=f"kind{i}")  # fmt: skip
        yield Label("", id="error")
        yield Button("Set sail", id="start", variant="primary")

    def on_mount(self) -> None:
        self._show_seats(4)

    @on(Select.Changed, "#players")
    def _players(self, event: Select.Changed) -> None:
        self._show_seats(int(str(event.value)))

    def _show_seats(self, n: int) -> None:
        for i in range(6):
            self.query_one(f"#seat{i}").display = i < n

    @on(Button.Pressed, "#start")
    def start(self) -> None:
        n = int(str(self.query_one("#players", Select).value))
        edition = str(self.query_one("#edition", Select).value)
        ghost = {"auto": None, "on": True, "off": False}[
            str(self.query_one("#ghost", Select).value)
        ]
        try:
            config = Config(players=n, edition=edition, ghost_ship=ghost)
        except ValueError as e:
            self.query_one("#error", Label).update(str(e))
            return
        seats = []
        for i in range(n):
            kind = str(self.query_one(f"#kind{i}", Select).value)
            name = clean_name(self.query_one(f"#name{i}", Input).value, i)
            seats.append(Seat(name, None if kind == "human" else kind))
        app = self.app
        assert isinstance(app, JamaicaApp)
        app.start_game(GameSession(config, seats, app.seed, app.save_path))


class Table(Screen[None]):
    """The game."""

    BINDINGS = [
        Binding("q", "app.quit", "Save & quit"),
        *[Binding(str(d), f"pick({d})", show=False) for d in range(1, 10)],
    ]
    DEFAULT_CSS = """
    #main { height: 1fr; }
    #left { width: 3fr; }
    #board { border: round $primary; padding: 0 1; height: auto; }
    #ships { border: round $primary; padding: 0 1; height: auto; }
    #hand { padding: 0 1; height: auto; }
    #battle { padding: 0 1; height: auto; }
    #log { width: 2fr; border: round $secondary; }
    #question { height: auto; max-height: 14; border: heavy $accent; }
    #prompt { padding: 0 1; }
    #options { height: auto; max-height: 10; }
    """

    def __init__(self, session: GameSession, delay: float) -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        humans = session.humans
        # Whose hand and private log the table shows. With one human it is always theirs; at a
        # hot-seat table nobody's (the public view) until the first human to decide has taken
        # the keyboard through the hand-over, for a new game and a resumed one alike, so no hand
        # is on screen while the dice and bots play first or before the right player is there.
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.shown_events = 0
        self.names = [session.name(k) for k in range(session.state.ns)]
        self.actions: list[int] = []
        self.busy = False

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with VerticalScroll(id="left"):
                yield Static(id="board")
                yield Static(id="ships")
                yield Static(id="battle")
                yield Static(id="hand")
            yield RichLog(id="log", wrap=True, markup=True, min_width=30)
        with Vertical(id="question"):
            yield Label("", id="prompt")
            yield OptionList(id="options")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_table()
        self.proceed()

    # --- drawing ---------------------------------------------------------------------------------
    def refresh_table(self) -> None:
        s = self.session.state
        view = s.view(self.viewer)
        self.query_one("#board", Static).update(render.board(view, self.names))
        self.query_one("#ships", Static).update(render.ships_panel(view, self.names))
        self.query_one("#battle", Static).update(render.battle_panel(view, self.names))
        self.query_one("#hand", Static).update(render.hand_panel(view))
        log = self.query_one("#log", RichLog)
        events = s.events_for(self.viewer, self.names)
        for e in events[self.shown_events :]:
            text = escape(e["text"])
            if e["kind"] == "round":
                text = f"[b reverse] {text} [/]"
            log.write(text)
        self.shown_events = len(events)
        self.show_question()

    def show_question(self) -> None:
        prompt = self.query_one("#prompt", Label)
        options = self.query_one("#options", OptionList)
        who = self.session.human_to_move()
        options.clear_options()
        self.actions = []
        if self.session.state.is_terminal():
            prompt.update("The game is over.")
            return
        if who is None or who != self.viewer or self.busy:
            name = self.session.state.current_player()
            waiting = self.names[name] if name >= 0 else "the dice"
            prompt.update(f"[dim]Waiting for {escape(waiting)}…[/]")
            return
        d = self.session.state.pending(self.names)
        prompt.update(f"[b]{escape(d.prompt)}[/]  [dim](1–{len(d.options)} or ↑↓ Enter)[/]")
        self.actions = [int(a) for a in d.actions]
        labels = list(d.options)
        if d.kind == "card":
            labels = [f"{c}   {render.card_text(c)}" for c in labels]
        options.add_options([Option(f"{i + 1}. {escape(label)}") for i, label in enumerate(labels)])
        options.highlighted = 0
        options.focus()

    # --- playing ---------------------------------------------------------------------------------
    def proceed(self) -> None:
        """Let the bots and the dice play until a human must decide; hand over if needed."""
        s = self.session
        if s.state.is_terminal():
            self.app.push_screen(Final(s))
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
        self.shown_events = 0
        self.query_one("#log", RichLog).clear()
        self.refresh_table()

    @work(thread=True, exclusive=True)
    def run_bots(self) -> None:
        s = self.session
        while s.waiting_for_bot_or_chance():
            chance = s.state.current_player() < 0
            s.step()
            if not chance and self.delay:
                self.app.call_from_thread(self.refresh_table)
                time.sleep(self.delay)
        self.app.call_from_thread(self._bots_done)

    def _bots_done(self) -> None:
        self.busy = False
        self.refresh_table()
        self.proceed()

    def choose(self, index: int) -> None:
        if not self.actions:
            self.app.notify("Not your turn to decide.", severity="warning")
            return
        if not 0 <= index < len(self.actions):
            self.app.notify(f"No option {index + 1}: choose 1 to {len(self.actions)}.",
                            severity="warning")  # fmt: skip
            return
        try:
            self.session.answer(self.actions[index])
        except (IllegalActionError, ValueError) as e:
            self.app.notify(str(e), severity="error")
            return
        self.refresh_table()
        self.proceed()

    @on(OptionList.OptionSelected, "#options")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.choose(event.option_index)

    def action_pick(self, digit: int) -> None:
        self.choose(digit - 1)


class JamaicaApp(App[None]):
    TITLE = "Jamaica"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False)]

    def __init__(
        self,
        session: GameSession | None = None,
        *,
        seed: int | None = None,
        save_path: Path | None = None,
        delay: float = 0.4,
    ) -> None:
        super().__init__()
        self.session = session
        self.seed = seed if seed is not None else random.randrange(2**31)
        self.save_path = save_path
        self.delay = delay

    def on_mount(self) -> None:
        if self.session is None:
            self.push_screen(Setup())
        else:
            self.start_game(self.session)

    def start_game(self, session: GameSession) -> None:
        self.session = session
        session.save()
        self.push_screen(Table(session, self.delay))
