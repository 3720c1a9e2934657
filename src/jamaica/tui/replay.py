"""`jamaica replay FILE`: step through a saved or finished game, as a spectator sees it."""

from __future__ import annotations

from rich.markup import escape
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Label, RichLog, Static

from ..rules import State
from ..session import GameSession, replay_states
from . import render


class ReplayApp(App[None]):
    TITLE = "Jamaica — replay"
    BINDINGS = [
        Binding("right,n,space", "step(1)", "Next"),
        Binding("left,p", "step(-1)", "Back"),
        Binding("pagedown", "step(25)", "+25", show=False),
        Binding("pageup", "step(-25)", "-25", show=False),
        Binding("home", "jump(0)", "Start"),
        Binding("end", "jump(-1)", "End"),
        Binding("q", "quit", "Quit"),
    ]
    DEFAULT_CSS = """
    #main { height: 1fr; }
    #left { width: 3fr; }
    #log { width: 2fr; border: round $secondary; }
    #board, #ships { border: round $primary; padding: 0 1; height: auto; }
    """

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session
        self.names = [session.name(k) for k in range(session.state.ns)]
        self.states: list[State] = replay_states(session)
        self.index = 0

    def compose(self) -> ComposeResult:
        yield Label("", id="where")
        with Horizontal(id="main"):
            with VerticalScroll(id="left"):
                yield Static(id="board")
                yield Static(id="ships")
                yield Static(id="battle")
            yield RichLog(id="log", wrap=True, markup=True, min_width=30)
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        s = self.states[self.index]
        view = s.view(None)
        total = len(self.states) - 1
        status = "game over" if s.is_terminal() else f"next: {s.decision_kind()}"
        self.query_one("#where", Label).update(
            f"Step {self.index} of {total} — round {s.rnd} — {status}   (← → to step)"
        )
        self.query_one("#board", Static).update(render.board(view, self.names))
        self.query_one("#ships", Static).update(render.ships_panel(view, self.names))
        self.query_one("#battle", Static).update(render.battle_panel(view, self.names))
        log = self.query_one("#log", RichLog)
        log.clear()
        for e in s.events_for(None, self.names)[-200:]:
            log.write(escape(e["text"]))

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.states) - 1, self.index + delta))
        self.show()

    def action_jump(self, where: int) -> None:
        self.index = where if where >= 0 else len(self.states) - 1
        self.show()
