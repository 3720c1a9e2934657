"""`jamaica replay FILE`: step through a saved or finished game, as a spectator sees it (also from
the end of a game in `jamaica play`)."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer

from ..i18n import Words
from ..rules import State
from ..rules.phrases import N_
from ..session import GameSession, replay_states
from . import render
from .lang import seen_events, shown_names, translate_bindings, words_of
from .screens import REPLAY_KEYS, Help, end_reason
from .widgets import Drawn, LogView


class ReplayScreen(Screen[None]):
    """One step of the game at a time: the board, the ships, the battle, the log so far, and at
    the end the ranking. Nothing on this screen takes the keys (priority bindings), so Home,
    End, PgUp and PgDn step through the game at any size."""

    BINDINGS = [
        Binding("right,n,space", "step(1)", N_("Next"), priority=True),
        Binding("left,p", "step(-1)", N_("Back"), priority=True),
        Binding(
            "down,right_square_bracket", "round(1)", N_("Round"), key_display="↓", priority=True
        ),
        Binding(
            "up,left_square_bracket", "round(-1)", N_("Round back"), key_display="↑", priority=True
        ),
        Binding("pagedown", "step(25)", "+25", priority=True),
        Binding("pageup", "step(-25)", "-25", priority=True),
        Binding("home", "jump(0)", N_("Start"), priority=True),
        Binding("end", "jump(-1)", N_("End"), priority=True),
        Binding("question_mark,h,f1", "help", N_("Help"), key_display="?"),
        Binding("q,escape", "leave", N_("Close")),
    ]
    DEFAULT_CSS = """
    #where { height: 1; background: $panel; padding: 0 1; }
    #body { height: 1fr; }
    #left { width: 44; height: 100%; }
    #right { width: 1fr; height: 100%; padding-left: 1; }
    #ships { margin-top: 1; }
    #battle { border-top: solid $error; }
    #scores { border-top: solid $accent; }
    #log { border-top: solid $secondary; min-height: 0; }
    ReplayScreen.-wide #left { width: 60; }
    """

    def __init__(self, session: GameSession, at_end: bool = False) -> None:
        super().__init__()
        self.session = session
        _ = self.words = words_of(self)
        translate_bindings(self, _)
        self.names = shown_names([session.name(k) for k in range(session.state.ns)], _)
        self.states: list[State] = replay_states(session)
        self.index = len(self.states) - 1 if at_end else 0
        # the step at which each round begins (its first state: the Captain to roll)
        states = self.states
        self.rounds = [i for i in range(1, len(states)) if states[i].rnd != states[i - 1].rnd]

    def compose(self) -> ComposeResult:
        yield Drawn(id="where")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield Drawn(id="board")
                yield Drawn(id="ships")
            with Vertical(id="right"):
                yield Drawn(id="battle")
                yield Drawn(id="scores")
                yield LogView(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self.set_class(self.app.size.width >= 110, "-wide")
        self.show()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width >= 110, "-wide")

    def status(self) -> Text:
        _ = self.words
        s = self.states[self.index]
        view = s.view(None)
        out = Text(_("Step {step} of {steps}", step=self.index, steps=len(self.states) - 1),
                   style="bold")  # fmt: skip
        last = self.states[-1].rnd
        out.append(" · " + (_("round {round} of {rounds}", round=s.rnd, rounds=last) if s.rnd
                            else _("setup")) + " · ")  # fmt: skip
        if s.is_terminal():
            out.append(_("the game is over"), "bold")
        else:
            out.append(_("next: "))
            out.append_text(render.turn_words(view, self.names, _))
        return out

    def show(self) -> None:
        s = self.states[self.index]
        view = s.view(None)
        names = self.names
        ghosts = render.ghost_ships(view)
        status = self.status()
        self.query_one("#where", Drawn).show(lambda w: status)
        _ = self.words
        self.query_one("#board", Drawn).show(lambda w: render.board_text(view, names, w, _=_))
        events_ = seen_events(s, None, names, _)
        played = render.played_order(events_, s.ns)
        self.query_one("#ships", Drawn).show(
            lambda w: render.ships_text(view, names, w, played=played, _=_)
        )
        battle = self.query_one("#battle", Drawn)
        battle.display = view["battle"] is not None
        battle.show(lambda w: render.battle_panel(view, names, _))
        scores = self.query_one("#scores", Drawn)
        scores.display = s.is_terminal()
        if s.is_terminal():
            reason = end_reason(self.session, names, _)
            scores.show(lambda w: Text.assemble((reason + "\n", "bold"),
                                                render.ranking(view, names, w, _)))  # fmt: skip
        self.query_one("#log", LogView).set_entries(render.log_lines(events_, names, ghosts))

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.states) - 1, self.index + delta))
        self.show()

    def action_jump(self, where: int) -> None:
        self.index = where if where >= 0 else len(self.states) - 1
        self.show()

    def action_round(self, delta: int) -> None:
        """The start of the next round; back: the start of this round, or of the one before if
        this is its start (the setup before the first)."""
        if delta > 0:
            self.index = next((i for i in self.rounds if i > self.index), len(self.states) - 1)
        else:
            self.index = next((i for i in reversed(self.rounds) if i < self.index), 0)
        self.show()

    def action_help(self) -> None:
        self.app.push_screen(Help(REPLAY_KEYS))

    def action_leave(self) -> None:
        if isinstance(self.app, ReplayApp):
            self.app.exit()
        else:
            self.app.pop_screen()


class ReplayApp(App[None]):
    TITLE = "Jamaica — replay"

    def on_load(self) -> None:
        _ = self.words
        self.title = _("Jamaica — replay")

    ENABLE_COMMAND_PALETTE = False

    def __init__(self, session: GameSession, lang: str = "en") -> None:
        super().__init__()
        self.session = session
        self.words = Words(lang)

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen(self.session))
