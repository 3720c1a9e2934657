"""`jamaica replay FILE`: step through a saved or finished game, as a spectator sees it (also from
the end of a game in `jamaica play`); in a finished game, `a` has master analyse one seat's
decisions (issue 28): from then on the replay shows that seat's view (its hand, its log), and
at each of its decisions master's value of every option (`tui.analysis`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer
from textual.worker import Worker, WorkerState, get_current_worker

from ..analysis.core import GameAnalysis, Verdict
from ..i18n import Words
from ..rules import State
from ..rules.phrases import N_
from ..rules.prompts import question_ship
from ..session import GameSession, replay_states
from . import render
from .analysis import (
    ANOTHER_SEAT,
    AnalysisList,
    SeatPicker,
    counts_text,
    option_labels,
    progress_text,
    summary_text,
    verdict_panel,
    verdict_row,
)
from .analysis_job import ITERATIONS, MAX_ITERATIONS, Request, analyse, cached
from .lang import seen_events, shown_names, translate_bindings, words_of
from .screens import Help, end_reason
from .widgets import TOAST_CSS, Drawn, LogView, how_to_quit

SIDE: Final = 150  # from this width on, the marked decisions are listed beside the replay
REPLAY_KEYS: Final = N_("""\
[b]Keys of the replay[/b]
  → n space   the next step          ← p        the step before
  ↓ ]         the next round         ↑ \\[        a round back
  PgDn PgUp   25 steps on or back    Home End   the start, the end
  a           master's analysis of a seat's decisions (game over):
              the summary and the list of decisions (Enter: go there)
  m M         the next, the previous marked decision (?! ? ??)
  ? h F1      this help              q Esc      close the replay
""")


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
            "up,left_square_bracket",
            "round(-1)",
            N_("Round back"),
            key_display="↑",
            priority=True,
            show=False,
        ),
        Binding("pagedown", "step(25)", "+25", priority=True, show=False),
        Binding("pageup", "step(-25)", "-25", priority=True, show=False),
        Binding("home", "jump(0)", N_("Start"), priority=True, show=False),
        Binding("end", "jump(-1)", N_("End"), priority=True, show=False),
        Binding("a", "analysis", N_("Analysis")),
        Binding("m", "mark(1)", N_("Next mark")),
        Binding("M", "mark(-1)", N_("Mark back"), show=False),
        Binding("question_mark,h,f1", "help", N_("Help"), key_display="?"),
        Binding("q", "leave", N_("Close")),
        Binding("escape", "back", N_("Close"), show=False),
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
    #hand { border-top: solid $primary; }
    #analysis { border-top: solid $warning; }
    ReplayScreen.-wide #left { width: 60; }
    #side { display: none; width: 46; height: 100%; padding-left: 1; }
    ReplayScreen.-side #side { display: block; }
    """

    def __init__(self, session: GameSession, at_end: bool = False, analyse: int | None = None,
                 iterations: int = ITERATIONS) -> None:  # fmt: skip
        """`analyse`: a seat whose decisions master analyses at once; `iterations`: master's
        search per decision (the analysis's budget)."""
        super().__init__()
        self.session = session
        self.iterations = iterations
        self.seat: int | None = analyse  # whose decisions are analysed, and whose view is shown
        self.analysis: GameAnalysis | None = None
        self.progress = (0, 0)
        self.failed = ""
        self.labels: dict[int, dict[int, str]] = {}  # option labels at each analysed step
        self._worker: Worker[GameAnalysis | None] | None = None
        self._ticker: Timer | None = None
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
                yield Drawn(id="hand")
                yield Drawn(id="battle")
                yield Drawn(id="analysis")
                yield Drawn(id="scores")
                yield LogView(id="log")
            with Vertical(id="side"):  # from SIDE columns on, with an analysis: every mark
                yield Drawn(id="marks")
        yield Footer()

    def on_mount(self) -> None:
        if isinstance(self.app, ReplayApp):  # `jamaica replay`: q quits the program, says so
            from textual.binding import BindingsMap

            quit_ = self.words(N_("Quit"))
            self._bindings = BindingsMap([replace(b, description=quit_) if b.action == "leave"
                                          else b for _key, b in self._bindings])  # fmt: skip
        self.fit(self.app.size.width)
        if self.seat is not None:
            self.start_analysis(self.seat)
        self.show()

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width)

    def fit(self, width: int) -> None:
        self.set_class(width >= 110, "-wide")
        self.set_class(width >= SIDE and self.analysis is not None, "-side")

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
            out.append_text(render.turn_words(view, self.names, _, question_ship(s)))
        return out

    @property
    def wide(self) -> bool:
        return self.has_class("-wide")

    @property
    def yours(self) -> bool:
        """Whether the seat analysed is the reader's (the game's only human): "You lost most…"."""
        return self.session.humans == [self.seat]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Stepping past either end does nothing: its keys show dimmed in the footer there."""
        if action in ("step", "round") and parameters and hasattr(self, "states"):
            delta = int(str(parameters[0]))
            last = len(self.states) - 1
            if (delta > 0 and self.index >= last) or (delta < 0 and self.index == 0):
                return None
        return True

    def show(self) -> None:
        self.refresh_bindings()
        s = self.states[self.index]
        view = s.view(self.seat)
        names = self.names
        ghosts = render.ghost_ships(view)
        status = self.status()
        self.query_one("#where", Drawn).show(lambda w: status)
        _ = self.words
        self.query_one("#board", Drawn).show(lambda w: render.board_text(view, names, w, _=_))
        events_ = seen_events(s, self.seat, names, _)
        played = render.played_order(events_, s.ns)
        self.query_one("#ships", Drawn).show(
            lambda w: render.ships_text(view, names, w, played=played, _=_)
        )
        hand = self.query_one("#hand", Drawn)
        hand.display = self.seat is not None
        if self.seat is not None:
            mine = played[self.seat] if self.seat < len(played) else []
            hand.show(lambda w: render.hand_panel(view, mine, width=w, _=_))
        self.show_analysis()
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

    # --- the analysis ---------------------------------------------------------------------------
    def request(self, seat: int) -> Request:
        session = self.session
        return Request(session.config, tuple(int(a) for a in session.state.history), seat,
                       self.iterations, save=session.path)  # fmt: skip

    def verdict_at(self) -> Verdict | None:
        if self.analysis is None:
            return None
        return next((v for v in self.analysis.verdicts if v.step == self.index), None)

    def show_analysis(self) -> None:
        """The analysis panel: how to start one, its progress, the verdict at this step, or the
        counts and the way to the next marked decision."""
        _ = self.words
        panel = self.query_one("#analysis", Drawn)
        finished = self.session.state.is_terminal()
        panel.display = finished or self.seat is not None
        seat = self.seat
        if seat is None:
            panel.border_title = ""
            panel.show(lambda w: Text.assemble(("a", "bold"), "  " + _(
                "master's analysis: where were points lost?")))  # fmt: skip
            return
        panel.border_title = _("Analysis: {name}", name=self.names[seat])
        if self.failed:
            failed = self.failed
            panel.show(lambda w: Text(_("The analysis failed: {why}", why=failed), "bold"))
        elif self.analysis is None:
            done, total = self.progress
            name = self.names[seat]
            panel.show(lambda w: progress_text(name, done, total, w, _))
        elif (verdict := self.verdict_at()) is not None:
            words = self.labels.get(verdict.step, {})
            wide = self.wide
            panel.show(lambda w: verdict_panel(verdict, words, w, wide, _))
        else:
            analysis = self.analysis
            panel.show(lambda w: Text.assemble(counts_text(analysis, _), "\n", (_(
                "m: the next mark · a: the list"), "dim")))  # fmt: skip
        self.show_marks()

    def show_marks(self) -> None:
        """On a wide screen, beside the replay: the summary and every marked decision, this
        step's in reverse."""
        self.fit(self.app.size.width)
        if self.analysis is None or self.seat is None:
            return
        analysis, name, labels, at = self.analysis, self.names[self.seat], self.labels, self.index
        _ = self.words

        def draw(width: int) -> Text:
            out = summary_text(analysis, name, labels, _, self.yours)
            out.append("\n")
            for v in analysis.verdicts:
                if v.mark:
                    row = verdict_row(v, labels.get(v.step, {}), _, two_lines=True)
                    if v.step == at:
                        row.stylize("reverse")
                    out.append("\n")
                    out.append_text(row)
            return out

        self.query_one("#marks", Drawn).show(draw)

    def start_analysis(self, seat: int) -> None:
        """Analyse `seat`'s decisions (at once if this session has done it already), in a worker
        thread that waits on a child process: the screen goes on answering."""
        self.seat, self.analysis, self.failed, self.progress = seat, None, "", (0, 0)
        self._stop_ticker()
        request = self.request(seat)
        found = cached(request)
        if found is not None:
            self.analysed(found)
            return

        def work() -> GameAnalysis | None:
            worker = get_current_worker()

            def progress(done: int, total: int) -> None:
                self.progress = (done, total)

            return analyse(request, progress, lambda: worker.is_cancelled)

        self._worker = self.run_worker(work, name="analysis", group="analysis", thread=True,
                                       exclusive=True, exit_on_error=False)  # fmt: skip
        self._ticker = self.set_interval(0.25, self.show_analysis)

    def _stop_ticker(self) -> None:
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self._worker or event.state not in (WorkerState.SUCCESS,
                                                                   WorkerState.ERROR):  # fmt: skip
            return
        self._stop_ticker()
        if event.state == WorkerState.ERROR:
            self.failed = str(event.worker.error)
            self.show_analysis()
        elif isinstance(event.worker.result, GameAnalysis):
            self.analysed(event.worker.result)

    def analysed(self, analysis: GameAnalysis) -> None:
        if analysis.player != self.seat:
            return
        self.analysis = analysis
        history = self.session.state.history
        self.labels = {v.step: option_labels(self.states[v.step], self.names, self.words,
                                             history, v.step)
                       for v in analysis.verdicts}  # fmt: skip
        self.show()

    def action_analysis(self) -> None:
        """`a`: the list (once analysed), else which seat to analyse (or the only human's)."""
        _ = self.words
        if not self.session.state.is_terminal():
            self.notify(_("The analysis is for a finished game."), severity="warning")
            return
        if self.analysis is not None:
            self.open_list()
        elif self.seat is not None and not self.failed:
            self.notify(_("Master is still analysing: the list comes when it is done."))
        else:
            humans = self.session.humans
            if len(humans) == 1:
                self.start_analysis(humans[0])
                self.show()
            else:
                self.pick_seat()

    def pick_seat(self) -> None:
        def chosen(seat: int | None) -> None:
            if seat is not None:
                self.start_analysis(seat)
                self.show()

        self.app.push_screen(SeatPicker(self.session, self.names), chosen)

    def open_list(self) -> None:
        assert self.analysis is not None and self.seat is not None

        def chosen(step: int | None) -> None:
            if step == ANOTHER_SEAT:
                self.pick_seat()
            elif step is not None:
                self.index = step
                self.show()

        self.app.push_screen(AnalysisList(self.analysis, self.names[self.seat], self.labels,
                                          self.index, self.yours),
                             chosen)  # fmt: skip

    def action_mark(self, delta: int) -> None:
        """The next (previous) decision marked ?!, ? or ??."""
        if self.analysis is None:
            return
        steps = [v.step for v in self.analysis.verdicts if v.mark]
        found = (next((i for i in steps if i > self.index), None) if delta > 0
                 else next((i for i in reversed(steps) if i < self.index), None))  # fmt: skip
        if found is None:
            _ = self.words
            self.notify(_("No marked decision that way."))
            return
        self.index = found
        self.show()

    # --- stepping -------------------------------------------------------------------------------
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

    def action_back(self) -> None:
        """Esc: back to the game's end screen; in `jamaica replay`, where it would quit, it only
        says that q does (one Esc too many, after closing the analysis, must not end it)."""
        if isinstance(self.app, ReplayApp):
            _ = words_of(self)
            self.app.clear_notifications()
            self.app.notify(_("Press {key} to quit.", key="q"))
        else:
            self.app.pop_screen()


class ReplayApp(App[None]):
    TITLE = "Jamaica — replay"
    CSS = TOAST_CSS

    def on_load(self) -> None:
        _ = self.words
        self.title = _("Jamaica — replay")

    ENABLE_COMMAND_PALETTE = False

    def __init__(self, session: GameSession, lang: str = "en", analyse: int | None = None,
                 iterations: int = ITERATIONS) -> None:  # fmt: skip
        super().__init__()
        self.session = session
        self.words = Words(lang)
        self.analyse, self.iterations = analyse, iterations

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen(self.session, analyse=self.analyse,
                                      iterations=self.iterations))  # fmt: skip

    def action_help_quit(self) -> None:
        how_to_quit(self, self.words)


def replay_app(session: GameSession, lang: str, analyse: int | None = None,
               budget: int | None = None) -> ReplayApp:  # fmt: skip
    """The app of `jamaica replay FILE [--analyse SEAT] [--budget N]`, its options checked first
    (a ValueError in one line, in the reader's language): the seat is one of the table's, counted
    from 1, the game is over, the budget within bounds."""
    _ = Words(lang)
    players = session.config.players
    if budget is not None and not 1 <= budget <= MAX_ITERATIONS:
        raise ValueError(_("--budget must be from 1 to {most}, not {budget}",
                           most=MAX_ITERATIONS, budget=budget))  # fmt: skip
    if analyse is not None:
        if not 1 <= analyse <= players:
            raise ValueError(_("--analyse must be a seat from 1 to {players}, not {seat}",
                               players=players, seat=analyse))  # fmt: skip
        if not session.state.is_terminal():
            raise ValueError(_("--analyse needs a finished game: this one is still going on"))
    seat = None if analyse is None else analyse - 1
    return ReplayApp(session, lang, seat, ITERATIONS if budget is None else budget)
