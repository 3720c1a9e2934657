"""The analysis in a reader's language: each verdict and the game's summary, with the engine's own
labels for the answers (`State.pending(names, t)`: the player's question as they read it).

Words are made here, at the edge, from the language-neutral `GameAnalysis`; the labels come from
the player's own question at that step, which holds nothing hidden from them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..i18n import Words, translations
from ..rules import Config, State, new_game
from ..rules.actions import LOAD
from ..rules.data import SLOTS
from ..rules.hints import payment_label
from ..rules.phrases import N_, Translations, amount, hold
from .core import (
    SYMBOLS,
    GameAnalysis,
    Verdict,
    payment_plans,
    payment_run,
    percent,
    points,
    thresholds,  # fmt: skip
)

# The kinds of question, as a reader names them (the catalog translates them).
KIND_WORDS = {
    "card": N_("card choice"),
    "move": N_("move"),
    "load": N_("loading"),
    "pay": N_("payment"),
    "dice_order": N_("morning die"),
    "attack": N_("attack or not"),
    "powder": N_("gunpowder in battle"),
    "sabre": N_("Saran's Sabre"),
    "spoils": N_("spoils"),
    "ghost_move": N_("the Ghost Ship's move"),
    "ghost_powder": N_("the Ghost Ship's gunpowder"),
    "ghost_spoils": N_("the Ghost Ship's spoils"),
    "ghost_attack": N_("whom the Ghost Ship attacks"),
}
A_MARK = {"inaccuracy": N_("an inaccuracy"), "mistake": N_("a mistake"),
          "blunder": N_("a blunder")}  # fmt: skip
MARK_WORDS = {"": N_("good"), "inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"),
              "blunder": N_("blunder")}  # fmt: skip


def labels(
    state: State, names: Sequence[str] | None, lang: str, run: Sequence[int] = ()
) -> dict[int, str]:
    """The player's answers to the pending question, each action id to its label; for a payment,
    each way to pay (`core.payment_plans`, with `run`: the answers the player gave) by its index,
    in the rules' words ("Pay doubloons: 2 from hold 1")."""
    if state.decision_kind() == "pay":
        t = translations(lang)
        return {i: payment_label(state, taken, t)
                for i, (_, taken) in enumerate(payment_plans(state, run))}  # fmt: skip
    if state.decision_kind() == "load":
        return load_labels(state, translations(lang))
    d = state.pending(names, translations(lang))
    return {int(a): label for a, label in zip(d.actions, d.options, strict=True)}


def load_labels(state: State, t: Translations) -> dict[int, str]:
    """Each answer to a load question, saying what is loaded and what it throws out: "load 1
    gunpowder into hold 2, emptying its 2 food" (the question's own labels, "empty and load into
    hold 2 (2 food)", read out of context as if the food were the load)."""
    assert state.q is not None
    ship, resource, count = state.q[2]
    load = amount(count, resource, t)
    out = {}
    for a in state.legal:
        h = int(a) - LOAD
        i = ship * SLOTS + h
        if state.hold_counts[i] == 0:
            out[int(a)] = t.gettext(N_("load {amount} into {hold}")).format(
                amount=load, hold=hold(h, t))
        else:
            out[int(a)] = t.gettext(N_("load {amount} into {hold}, emptying its {cargo}")).format(
                amount=load, hold=hold(h, t),
                cargo=amount(state.hold_counts[i], state.hold_types[i], t))
    return out


def say_verdict(v: Verdict, words: dict[int, str], _: Words) -> str:
    """One verdict in a sentence: the answer taken and, if it lost, master's preference."""
    kind = _(KIND_WORDS.get(v.kind, v.kind))
    yours = words.get(v.chosen, str(v.chosen))
    best = words.get(v.best, str(v.best))
    if v.even:
        return _("Round {round}, {kind}: {yours} — every answer here has about the same win "
                 "chance ({p}%): the game hardly turns on it.", round=v.round, kind=kind,
                 yours=yours, p=percent(v.values[0][1]))  # fmt: skip
    if v.chosen == v.best:  # a different answer that loses nothing as shown is "about as good"
        return _("Round {round}, {kind}: {yours} — master's choice too.", round=v.round,
                 kind=kind, yours=yours)  # fmt: skip
    if not v.mark:
        return _("Round {round}, {kind}: {yours} — about as good as master's choice, {best}.",
                 round=v.round, kind=kind, yours=yours, best=best)  # fmt: skip
    a_mark = _(A_MARK[v.mark])
    return _.n("Round {round}, {kind}: {yours} is {a_mark}: master prefers {best}, {n} point of "
               "win chance better.", "Round {round}, {kind}: {yours} is {a_mark}: master prefers "
               "{best}, {n} points of win chance better.", points(v.loss), round=v.round,
               kind=kind, yours=yours, best=best, a_mark=a_mark)  # fmt: skip


def say_counts(a: GameAnalysis, _: Words) -> str:
    """ "2 inaccuracies, 1 mistake, 0 blunders"."""
    c = a.counts()
    return ", ".join([
        _.n("{n} inaccuracy", "{n} inaccuracies", c["inaccuracy"]),
        _.n("{n} mistake", "{n} mistakes", c["mistake"]),
        _.n("{n} blunder", "{n} blunders", c["blunder"]),
    ])  # fmt: skip


def say_summary(
    a: GameAnalysis, worst_words: dict[int, str] | None, _: Words, who: str | None = None
) -> str:
    """The game in two sentences, like lichess's: the marks, and where the player lost most
    (`who`: the player's name, when the reader is someone else — "You" otherwise)."""
    marks = say_counts(a, _)
    head = _.n("{marks} in {n} decision.", "{marks} in {n} decisions.", len(a.verdicts),
               marks=marks)  # fmt: skip
    course = say_course(a, _, who)
    return head + (" " + course if course else "") + " " + say_lost_most(a, worst_words, _, who)


def say_course(a: GameAnalysis, _: Words, who: str | None = None) -> str:
    """How the player's chance to win went, by master's value of the answers they gave, from
    their first decision to their last, and what the marked ones cost of a fall: a strong
    player's review read "1 mistake" as "you played fine" in a game whose chance fell from 45%
    to 4%. "" with fewer than two decisions."""
    if len(a.verdicts) < 2:
        return ""
    first, last = a.verdicts[0], a.verdicts[-1]
    start, end = percent(dict(first.values)[first.chosen]), percent(dict(last.values)[last.chosen])
    found = {"start": start, "first": first.round, "end": end, "last": last.round}
    said = (_("{name}'s chance to win, by master: {start}% in round {first}, {end}% in round "
              "{last}.", name=who, **found) if who is not None else
            _("Your chance to win, by master: {start}% in round {first}, {end}% in round {last}.",
              **found))  # fmt: skip
    marked = sum(points(v.loss) for v in a.verdicts if v.mark)
    if start - end <= marked:
        return said
    return said + " " + _.n(
        "The marked answers cost {n} point of it; the rest came from the dice, the cards and the "
        "other players.", "The marked answers cost {n} points of it; the rest came from the "
        "dice, the cards and the other players.", marked)  # fmt: skip


def say_lost_most(
    a: GameAnalysis, worst_words: dict[int, str] | None, _: Words, who: str | None = None
) -> str:
    """Where the player (`who`, or "you") lost most, in a sentence (or that master found nothing
    better)."""
    w = a.worst()
    if w is None or worst_words is None:
        if who is not None:
            return _("Master found nothing better than {name}'s answers.", name=who)
        return _("Master found nothing better than your answers.")
    kind = _(KIND_WORDS.get(w.kind, w.kind))
    found = {"round": w.round, "kind": kind, "yours": worst_words.get(w.chosen, str(w.chosen)),
             "best": worst_words.get(w.best, str(w.best))}  # fmt: skip
    if who is not None:
        return _.n(
            "{name} lost most at round {round} ({kind}): {yours} instead of {best}, {n} point of "
            "win chance.", "{name} lost most at round {round} ({kind}): {yours} instead of "
            "{best}, {n} points of win chance.", points(w.loss), name=who, **found,
        )  # fmt: skip
    return _.n(
        "You lost most at round {round} ({kind}): {yours} instead of {best}, {n} point of win "
        "chance.", "You lost most at round {round} ({kind}): {yours} instead of {best}, {n} "
        "points of win chance.", points(w.loss), **found,
    )  # fmt: skip


def render(
    a: GameAnalysis, config: Config, history: Sequence[int], names: Sequence[str] | None,
    lang: str = "en",
) -> dict[str, Any]:  # fmt: skip
    """The analysis as a reader gets it (JSON-safe): per verdict its step, round, kind (code and
    words), mark (code, words, ?!/?/??), loss, the answer taken and master's, every option with its
    label and value, and a sentence; the counts and the summary (and its parts: how the chance
    to win went, `course`, and where most was lost, `lost_most`). Replays the game for the labels
    (the player's own questions)."""
    _ = Words(lang)
    at = {v.step: v for v in a.verdicts}
    said: dict[int, dict[int, str]] = {}
    s = new_game(config, log=False)
    if names is not None and len(names) != s.ns:
        raise ValueError(f"names: one name per ship, the Ghost Ship last: {s.ns} for this game, "
                         f"not {len(names)} (or None)")  # fmt: skip
    for step, action in enumerate(history[: max(at, default=-1) + 1]):
        if step in at:
            run = payment_run(s, history, step) if s.decision_kind() == "pay" else ()
            said[step] = labels(s, names, lang, run)
        s.apply(action)
    out = []
    for v in a.verdicts:
        words = said.get(v.step, {})
        out.append({
            "step": v.step, "round": v.round, "kind": v.kind,
            "kind_words": _(KIND_WORDS.get(v.kind, v.kind)), "mark": v.mark,
            "mark_words": _(MARK_WORDS[v.mark]), "symbol": SYMBOLS[v.mark], "loss": v.loss,
            "points": points(v.loss), "chosen": v.chosen, "best": v.best, "even": v.even,
            "options": [{"action": act, "label": words.get(act, str(act)), "value": value}
                        for act, value in v.values],
            "text": say_verdict(v, words, _),
        })  # fmt: skip
    w = a.worst()
    worst_words = None if w is None else said.get(w.step)
    return {
        "player": a.player, "iterations": a.iterations, "counts": a.counts(),
        "worst": None if w is None else w.step, "verdicts": out,
        "summary": say_summary(a, worst_words, _), "course": say_course(a, _),
        "lost_most": say_lost_most(a, worst_words, _),
        "players": config.players, "thresholds": shown_thresholds(config.players),
    }  # fmt: skip


def shown_thresholds(players: int) -> dict[str, int]:
    """The fewest whole points of win chance, as shown, that each mark takes with `players`
    players ("?!" from 3 points at four players): what the page's legend says."""
    return {name: math.ceil(round(x * 100, 6)) for name, x in thresholds(players)}


__all__ = [
    "KIND_WORDS",
    "MARK_WORDS",
    "labels",
    "render",
    "say_counts",
    "say_course",
    "say_lost_most",
    "say_summary",
    "say_verdict",
]
