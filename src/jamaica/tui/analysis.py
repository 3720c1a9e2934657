"""The analysis in the terminal replay (issue 28): master's judgement of one seat's decisions.

- `verdict_panel`: at a step where the analysed seat decided, master's value of each option (as a
  win chance), the option it prefers (★), the one played (▸) and what it cost, with its mark
  (?! inaccuracy, ? mistake, ?? blunder); elsewhere, the seat's counts and the key to the next
  marked decision; while the analysis runs, its progress.
- `AnalysisList`: the per-game summary and every analysed decision; Enter jumps the replay there.
- `SeatPicker`: whose decisions, when the game had several humans (or none).

What it shows of hidden things: the analysed seat's own view (its hand, its private log), and
master's values, which were computed from that seat's view only (`analysis.core`). After the
game, on the player's own machine, that is theirs to see; the analysis of another seat of a
hot-seat game shows that seat's hand, which the picker says before anyone chooses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ..analysis.core import payment_run
from ..analysis.core import percent as shown_percent
from ..analysis.core import points as shown_points
from ..analysis.words import KIND_WORDS, labels, say_summary
from ..i18n import Words
from ..rules import State
from ..rules.phrases import N_, P_
from ..session import GameSession
from .lang import ENGLISH, translate_bindings, words_of

if TYPE_CHECKING:
    from ..analysis.core import GameAnalysis, Verdict

MARKS: Final = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
MARK_WORDS: Final = {"inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"),
                     "blunder": N_("blunder")}  # fmt: skip
MARK_STYLES: Final = {"inaccuracy": "bold #ffd75f", "mistake": "bold #ffaf5f",
                      "blunder": "bold #000000 on #ff8787"}  # fmt: skip
COUNTS: Final = {"inaccuracy": P_("{n} inaccuracy", "{n} inaccuracies"),
                 "mistake": P_("{n} mistake", "{n} mistakes"),
                 "blunder": P_("{n} blunder", "{n} blunders")}  # fmt: skip
# The kinds of question whose answers say what they are ("Food / Forward", "forward to space 12",
# "Pay food: …"); a row of another kind names it first ("gunpowder in battle: 2 gunpowder").
SELF_SAID: Final = frozenset({"card", "move", "pay", "load"})
SHOWN_OPTIONS: Final = 5  # options listed at a step on a small screen (the played one always)


def percent(x: float, _: Words = ENGLISH) -> str:
    """A value in [0, 1] as a whole percentage, in the reader's writing ("62%", "62 %")."""
    return _("{value}%", value=_.number(shown_percent(x)))


def points(loss: float, _: Words = ENGLISH) -> str:
    """A loss in win chance, in percentage points ("24 pts")."""
    return _.n("{n} pt", "{n} pts", shown_points(loss))


def lost(verdict: Verdict) -> bool:
    """Whether the answer taken lost a visible point (a whole percentage point) to master's."""
    return shown_points(verdict.loss) > 0


def mark_text(verdict: Verdict, _: Words = ENGLISH, word: bool = False) -> Text:
    """The verdict's mark (?!, ?, ??), with its word when `word`; nothing for a good decision."""
    if not verdict.mark:
        return Text()
    label = MARKS[verdict.mark] + (" " + _(MARK_WORDS[verdict.mark]) if word else "")
    return Text(label, MARK_STYLES[verdict.mark])


def option_labels(state: State, names: Sequence[str], _: Words = ENGLISH,
                  history: Sequence[int] = (), step: int = 0) -> dict[int, str]:  # fmt: skip
    """Each legal answer of `state`'s question (at `step` of the game `history`), in the reader's
    words; for a payment, each way to pay, the player's own among them."""
    run = payment_run(state, history, step) if history and state.decision_kind() == "pay" else ()
    return labels(state, names, _.lang, run)


def counts_text(analysis: GameAnalysis, _: Words = ENGLISH) -> Text:
    """ "2 inaccuracies ?!, 1 mistake ?, 0 blunders ??" — the marks of a game, in their colours."""
    counts = analysis.counts()
    out = Text()
    for i, kind in enumerate(("inaccuracy", "mistake", "blunder")):
        if i:
            out.append(", ")
        n = counts.get(kind, 0)
        out.append(_.n(*COUNTS[kind], n), MARK_STYLES[kind] if n else "dim")
        out.append(f" {MARKS[kind]}", "dim")
    return out


def summary_text(analysis: GameAnalysis, name: str, labels: Mapping[int, Mapping[int, str]],
                 _: Words = ENGLISH, you: bool = True) -> Text:  # fmt: skip
    """The per-game summary: whose, master's budget, the counts of marks, and where the seat lost
    most (`labels`: the option labels at each verdict's step) — "you" when the seat is the
    reader's (`you`: the game's only human), else by its name."""
    out = Text(_("{name}'s decisions, judged by master ({n} iterations each)", name=name,
                 n=_.number(analysis.iterations)), "bold")  # fmt: skip
    out.append("\n")
    worst = analysis.worst()
    out.append("\n" + say_summary(analysis, None if worst is None else
                                  dict(labels.get(worst.step, {})), _,
                                  None if you else name))  # fmt: skip
    return out


def verdict_row(verdict: Verdict, words: Mapping[int, str], _: Words = ENGLISH,
                two_lines: bool = False, width: int | None = None) -> Text:  # fmt: skip
    """One decision in a list: round and step, mark, the choice, and what it lost to master's
    (on a line of its own, under the choice, when `two_lines`; each line cut to `width` cells
    with an ellipsis, if given, so that none wraps under the columns)."""
    out = Text(_("R{round}", round=verdict.round).ljust(4) + f"{verdict.step:>4}  ", "dim")
    out.append_text(mark_text(verdict, _))
    out.pad_right(max(0, 13 - out.cell_len))
    if verdict.kind not in SELF_SAID:  # "0 gunpowder" alone does not say which question it was
        out.append(_("{kind}: ", kind=_(KIND_WORDS.get(verdict.kind, verdict.kind))), "dim")
    yours, best = words.get(verdict.chosen, "?"), words.get(verdict.values[0][0], "?")
    if lost(verdict) and verdict.kind == "pay":  # where two long ways differ stays in sight
        yours, best = differing(yours, best, _)
    out.append(yours, "bold" if verdict.mark else "")
    if not lost(verdict):
        return _cut(out, width)
    rest = Text(f"−{points(verdict.loss, _)}", "dim")
    rest.append(" · " + _("best: ") + best, "dim")
    if not two_lines:
        return _cut(out.append("  ").append_text(rest), width)
    under = _cut(Text(" " * 13).append_text(rest), width)
    return _cut(out, width).append("\n").append_text(under)


def differing(yours: str, best: str, _: Words = ENGLISH) -> tuple[str, str]:
    """Two ways to pay as a row shows them: what both take is left out ("and …"), so that where
    they differ is not cut off — "Pay doubloons: 2 from hold 4 and 1 from the 6th Hold and …" and
    "3 from hold 4 and …" (the panel says each in full). The "…" comes last, so that no row reads
    as a whole payment (a review read "… 1 from hold 1" as paying 1)."""
    head, colon, rest = yours.partition(": ")
    _head, _colon, other = best.partition(": ")
    if not colon or not _colon:
        return yours, best
    joint = _(" and ")
    mine, theirs = rest.split(joint), other.split(joint)
    only_mine = [p for p in mine if p not in theirs]
    only_theirs = [p for p in theirs if p not in mine]
    if not only_mine or not only_theirs or len(only_mine) == len(mine):
        return yours, best
    return (f"{head}{colon}" + joint.join([*only_mine, "…"]),
            joint.join([*only_theirs, "…"]))  # fmt: skip


def _cut(text: Text, width: int | None) -> Text:
    if width is not None and text.cell_len > width:
        text.truncate(width, overflow="ellipsis")
    return text


def verdict_panel(verdict: Verdict, words: Mapping[int, str], width: int, wide: bool,
                  _: Words = ENGLISH) -> Text:  # fmt: skip
    """Master's view of one decision: the verdict, then each option's value (★ master's choice,
    ▸ the one played); on a small screen the best few and the one played."""
    out = Text(_("Round {round}, {kind}", round=verdict.round,
                  kind=_(KIND_WORDS.get(verdict.kind, verdict.kind))) + "\n", "dim")  # fmt: skip
    best = verdict.values[0][0]
    if verdict.even:  # a decided game: no answer is master's choice but by noise
        out.append(_("Every answer is about as good here."), "bold")
        best = -1
    elif verdict.chosen == best:
        out.append(_("Master's choice too."), "bold")
    elif not lost(verdict):
        out.append(_("As good as master's choice."), "bold")
    else:
        out.append_text(mark_text(verdict, _, word=True) or Text(_("nearly as good"), "bold"))
        out.append(" · " + _("lost {points}", points=points(verdict.loss, _)))
    shown = list(verdict.values)
    if not wide and len(shown) > SHOWN_OPTIONS:
        keep = {a for a, _v in shown[: SHOWN_OPTIONS - 1]} | {verdict.chosen}
        hidden = len(shown) - len(keep)
        shown = [(a, v) for a, v in shown if a in keep]
    else:
        hidden = 0
    for action, value in shown:
        sign = "★" if action == best else ("▸" if action == verdict.chosen else " ")
        line = Text(f"\n{percent(value, _):>5} ")
        line.append(sign, "bold")
        line.append(" ")
        line.append(
            words.get(action, "?"),
            "bold reverse" if action == verdict.chosen else ("bold" if sign == "★" else ""),
        )
        out.append_text(line)
    if hidden:
        out.append("\n      " + _.n("… {n} more option", "… {n} more options", hidden), "dim")
    del width  # the panel wraps it
    return out


def progress_text(name: str, done: int, total: int, width: int, _: Words = ENGLISH) -> Text:
    """ "Master is analysing Anne's decisions", then a bar to the width and "12 of 65"."""
    out = Text(_("Master is analysing {name}'s decisions", name=name))
    count = _("{done} of {total}", done=done, total=total)
    bar = max(4, min(40, width - len(count) - 1))
    full = bar * done // total if total else 0
    out.append("\n" + "█" * full, "bold")
    out.append("░" * (bar - full), "dim")
    out.append(" " + count)
    return out


class SeatPicker(ModalScreen[int | None]):
    """Whose decisions to analyse: every seat, the humans first; it says that the analysis shows
    that player's hand."""

    BINDINGS = [Binding("escape,q", "close", N_("Close"))]
    DEFAULT_CSS = """
    SeatPicker { align: center middle; }
    SeatPicker > Vertical { width: 64; max-width: 100%; height: auto; max-height: 100%;
                            border: heavy $accent; padding: 0 1; }
    SeatPicker OptionList { height: auto; max-height: 8; }
    """

    def __init__(self, session: GameSession, names: Sequence[str]) -> None:
        super().__init__()
        _ = self.words = words_of(self)
        translate_bindings(self, _)
        humans = session.humans
        self.seats = humans + [k for k in range(len(session.seats)) if k not in humans]
        self.labels = []
        for k in self.seats:
            bot = session.seats[k].bot
            kind = _("human") if bot is None else _("bot: {level}", level=_(bot))
            self.labels.append(f"{k + 1}. {names[k]} ({kind})")

    def compose(self) -> ComposeResult:
        _ = self.words
        with Vertical():
            yield Static(Text.assemble(
                (_("Whose decisions should master analyse?") + "\n", "bold"),
                (_("The analysis shows that player's hand at each of their decisions."), "dim"),
            ))  # fmt: skip
            yield OptionList(*[Option(label) for label in self.labels], id="seats")
        yield Footer()

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.seats[event.option_index])

    def on_key(self, event: events.Key) -> None:
        """A seat's number, as the list writes it ("2. Mary Read"), picks it."""
        if event.character and event.character.isdigit() and int(event.character) - 1 in self.seats:
            event.stop()
            self.dismiss(int(event.character) - 1)

    def action_close(self) -> None:
        self.dismiss(None)


ANOTHER_SEAT: Final = -1


class AnalysisList(ModalScreen[int | None]):
    """The per-game summary and every analysed decision (marked ones in colour); Enter goes to
    that step of the replay (the screen returns it), `f` shows only the marked decisions (and
    back), `s` another seat (ANOTHER_SEAT)."""

    BINDINGS = [
        Binding("escape,q,a", "close", N_("Close")),
        Binding("f", "marked", N_("Marked only / all")),
        Binding("s", "another", N_("Another seat")),
    ]
    DEFAULT_CSS = """
    AnalysisList { align: center middle; }
    AnalysisList > Vertical { width: 110; max-width: 100%; height: 100%;
                              border: round $accent; padding: 0 1; }
    AnalysisList #summary { height: auto; margin-bottom: 1; }
    AnalysisList OptionList { height: 1fr; }
    """

    def __init__(self, analysis: GameAnalysis, name: str,
                 labels: Mapping[int, Mapping[int, str]], at: int,
                 you: bool = True) -> None:  # fmt: skip
        super().__init__()
        _ = self.words = words_of(self)
        translate_bindings(self, _)
        self.analysis, self.name_, self.labels, self.at = analysis, name, labels, at
        self.you = you  # the seat is the reader's: "You lost most…"
        self.shown: list[Verdict] = list(analysis.verdicts)  # all, or the marked ones (`f`)

    def compose(self) -> ComposeResult:
        _ = self.words
        with Vertical() as box:
            box.border_title = _("Analysis (Enter: go to the step)")
            box.border_subtitle = self.filter_words()
            yield Static(summary_text(self.analysis, self.name_, self.labels, _, self.you),
                         id="summary")  # fmt: skip
            yield OptionList(*[Option(self.row(v)) for v in self.shown], id="verdicts")
        yield Footer()

    def filter_words(self) -> str:
        """What the list shows now (`f` switches): every decision, or the marked ones only."""
        _ = self.words
        if len(self.shown) < len(self.analysis.verdicts):
            return _.n("{n} marked decision shown (f: all)", "{n} marked decisions shown (f: all)",
                       len(self.shown))  # fmt: skip
        return _.n("every decision shown: {n} (f: marked only)",
                   "every decision shown: {n} (f: marked only)", len(self.shown))  # fmt: skip

    def row(self, verdict: Verdict) -> Text:
        """A decision on one line, or on two (what it lost under it) if one would wrap."""
        room = min(110, self.app.size.width) - 10  # the borders, paddings and scrollbar
        row = verdict_row(verdict, self.labels.get(verdict.step, {}), self.words)
        if row.cell_len <= room:
            return row
        return verdict_row(verdict, self.labels.get(verdict.step, {}), self.words, True, room)

    def on_mount(self) -> None:
        self._highlight(self.at)

    def _highlight(self, at: int) -> None:
        """Highlight the decision shown at or after step `at`, else where most was lost (or the
        last shown)."""
        options = self.query_one(OptionList)
        shown = self.shown
        worst = self.analysis.worst()
        if shown:
            last = shown.index(worst) if worst in shown else len(shown) - 1
            options.highlighted = next((i for i, v in enumerate(shown) if v.step >= at), last)
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.shown[event.option_index].step)

    def action_marked(self) -> None:
        """Only the marked decisions, or all of them again; the highlight stays on its step."""
        options = self.query_one(OptionList)
        at = self.at
        if options.highlighted is not None and self.shown:
            at = self.shown[options.highlighted].step
        everything = list(self.analysis.verdicts)
        marked = [v for v in everything if v.mark]
        self.shown = everything if len(self.shown) < len(everything) or not marked else marked
        options.clear_options()
        options.add_options([Option(self.row(v)) for v in self.shown])
        self.query_one(Vertical).border_subtitle = self.filter_words()
        self._highlight(at)
        if not marked:
            _ = self.words
            self.notify(_("No decision is marked."))

    def action_another(self) -> None:
        self.dismiss(ANOTHER_SEAT)

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["ANOTHER_SEAT", "AnalysisList", "SeatPicker", "counts_text", "option_labels",
           "percent", "progress_text", "summary_text", "verdict_panel", "verdict_row"]  # fmt: skip
