"""The question in front of the player at the keyboard, as options that say what they lead to.

The engine asks one small question at a time (`State.pending`); this module only words it for the
terminal: each card's morning and evening with the dice, from the rules' preview (`rules.hints`:
"Forward / Forward  ☀ forward 5 → 5 port $3: have 1 — shortage!"), each move's arrival ("→
battle with Mary Read"), and a payment as one question with every possible split, answered as the
engine's sequence of one-token payments, under the rules' words for what is left to pay. Nothing
here decides a rule: previews and arrivals come from `rules.hints`, splits from playing the
payments on copies. What it reads is the deciding player's own question and `State.view(player)`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from ..i18n import Words, translations
from ..rules import State
from ..rules.actions import PAY
from ..rules.data import RESOURCE_SHORT
from ..rules.hints import card_preview, move_hints
from ..rules.ops import M_GHOST
from . import render
from .lang import ENGLISH, pending

RESOURCE_WORDS = {"food": "food", "gunpowder": "powder", "doubloons": "gold"}  # rules → styles


@dataclass(frozen=True)
class Choice:
    label: Text
    actions: tuple[int, ...]  # answered in this order (several for a payment split)
    spaces: tuple[int, ...] = ()  # the board spaces this option leads to


@dataclass(frozen=True)
class Question:
    kind: str
    prompt: Text
    choices: tuple[Choice, ...]
    ship: int | None = None  # the ship that moves or pays, to highlight
    # The key of each choice, if not its number from 1: the gunpowder spent ("0" for none).
    keys: tuple[str, ...] = ()

    def key(self, index: int) -> str:
        return self.keys[index] if self.keys else str(index + 1)


def question(state: State, player: int, names: Sequence[str], _: Words = ENGLISH) -> Question:
    """The pending question of `player` (who must be the one to decide), in words (`_`: the
    reader's language)."""
    d = pending(state, names, _)
    view = state.view(player)
    ghosts = render.ghost_ships(view)
    prompt = render.coloured_names(d.prompt, names, ghosts)
    kind = d.kind
    if kind == "card":
        previews = {p["action"]: p for p in card_preview(state, player, translations(_.lang))}
        cards = [_card(view, names, player, previews[str(a)], a, _) for a in d.actions]
        return Question(kind, prompt, tuple(cards), player)
    if kind == "move":
        return _move(state, view, names, prompt, d.actions, _)
    if kind == "pay":
        return _pay(state, view, names, d.context["owed"], _)
    if kind == "dice_order":
        lo, hi = view["dice"]["roll"]
        out = []
        for a in d.actions:
            m = int(str(a).split()[1])
            e = hi if m == lo else lo
            words = _(
                "☀ {morning} in the morning, ☾ {evening} in the evening", morning=m, evening=e
            )
            out.append(Choice(Text(words), (int(a),)))
        return Question(kind, prompt, tuple(out))
    labels: list[Text] = []
    for label, a in zip(d.options, d.actions, strict=True):
        text = render.coloured_names(label, names, ghosts)
        if kind == "attack":
            text.append_text(_fighter(view, int(str(a).split()[1]), _))
        elif kind == "powder":
            assert state.q is not None
            text.append_text(_firepower(view, state.q[2][0], int(str(a).split()[1]), _))
        labels.append(text)
    # gunpowder: the key is the amount spent, so "3" spends 3 (and "0" none), never "the third"
    keys = tuple(str(a).split()[1] for a in d.actions) if kind == "powder" else ()
    choices = tuple(Choice(t, (int(a),)) for t, a in zip(labels, d.actions, strict=True))
    return Question(kind, prompt, choices, keys=keys)


def _fighter(view: Mapping[str, Any], ship: int, _: Words = ENGLISH) -> Text:
    s = view["ships"][ship]
    powder = render.resources(s)["powder"]
    extra = ", Lady Beth +2" if "beth" in s["powers"] else ""
    return Text(" (" + _("{n} gunpowder", n=powder) + f"{extra})", style="dim")


def _firepower(view: Mapping[str, Any], side: int, powder: int, _: Words = ENGLISH) -> Text:
    """ "→ firepower die + 3 against 7": what spending `powder` makes of this side's roll."""
    b = view["battle"]
    roles = ("attacker", "defender")
    me, them = roles[side], roles[1 - side]
    beth = 2 if "beth" in view["ships"][b[me]]["powers"] else 0
    out = Text(_("  → firepower die + {n}", n=powder + beth), style="dim")
    die = b[f"{them}_die"]
    if die >= 0:
        theirs = "★" if die == 5 else str(render.FACE_VALUES[die] + b[f"{them}_powder"] + (
            2 if "beth" in view["ships"][b[them]]["powers"] else 0))  # fmt: skip
        out.append(_(" against {n}", n=theirs), "dim")
    return out


# --- cards ---------------------------------------------------------------------------------------
def _card(view: Mapping[str, Any], names: Sequence[str], me: int, preview: Mapping[str, Any],
          action: int, _: Words = ENGLISH) -> Choice:  # fmt: skip
    """A card's line from the rules' preview (`rules.hints.card_preview`), in the log's words
    ("Food / Forward", "forward 3"): nothing is decided here, only worded and coloured. An
    evening that depends on the morning says after which morning ("after 39: 27 sea ~4: have
    1 — shortage!")."""
    label = Text(preview["title"], style="bold")
    spaces: list[int] = []
    for sym, step in zip(("☀", "☾"), preview["steps"], strict=True):
        label.append(f"  {sym} ", "bold")
        words = step["words"][0].lower() + step["words"][1:]
        if step["what"] == "load":
            style = render.RESOURCE_STYLE[RESOURCE_WORDS[step["resource"]]]
            label.append(words, "dim" if step["ignored"] else style)
            continue
        label.append(f"{words} → ")
        if step["finished"]:
            label.append(_("ignored: finished"), "dim")
            continue
        label.append_text(_destinations(view, names, step, spaces, _))
    return Choice(label, (action,), tuple(dict.fromkeys(spaces)))


def _destinations(view: Mapping[str, Any], names: Sequence[str], step: Mapping[str, Any],
                  spaces: list[int], _: Words = ENGLISH) -> Text:  # fmt: skip
    """A move step's destinations: those that hold whatever the morning did, then each group
    that holds only after some of the morning's answers, then the unknown place of a shortage."""
    always: list[Text] = []
    after: dict[str, list[Text]] = {}
    for d in step["destinations"]:
        spaces.append(d["space"])
        hint = render.arrival(names, d, _)
        if d["after"]:
            after.setdefault(d["after_words"], []).append(hint)
        else:
            always.append(hint)
    groups = [Text(_(" or "), "dim").join(always)] if always else []
    for words, hints in after.items():
        group = Text(words + _(": "), "dim")
        group.append_text(Text(_(" or "), "dim").join(hints))
        groups.append(group)
    if step["after_shortage"]:
        groups.append(Text(_("after a shortage: from where it leaves you") if groups
                           else _("from where the shortage leaves you"), "dim"))  # fmt: skip
    return Text(_("; "), "dim").join(groups)


# --- moves ---------------------------------------------------------------------------------------
def _move(
    state: State,
    view: Mapping[str, Any],
    names: Sequence[str],
    prompt: Text,
    actions: Sequence[int],
    _: Words = ENGLISH,
) -> Question:
    assert state.q is not None
    ship, mode, routes = state.q[2]
    by_dest = {o[0]: o for o in routes}
    t = translations(_.lang)
    hints = dict(zip(map(int, state.legal), move_hints(state, t), strict=True))  # the rules say
    out = []
    for a in actions:
        hint = hints[int(a)]
        dest = hint["space"]
        forward = by_dest[dest][2]
        way = (
            (_("forward to ") if forward else _("backward to "))
            if mode <= M_GHOST
            else _("back to ")
        )
        text = Text(way)
        text.append_text(render.arrival(names, hint, _))
        out.append(Choice(text, (int(a),), (dest,)))
    return Question("move", prompt, tuple(out), ship)


# --- payments ------------------------------------------------------------------------------------
def _holds(state: State, ship: int) -> list[tuple[str, int]]:
    return [(h["type"], h["count"]) for h in state.view(None)["ships"][ship]["holds"]]


Holds = tuple[tuple[str, int], ...]


def _take(holds: Holds, h: int) -> Holds:
    kind, n = holds[h]
    return (*holds[:h], ("-", 0) if n == 1 else (kind, n - 1), *holds[h + 1 :])


def _rest_paid(holds: Holds, kind: str, owed: int) -> Holds:
    """What the engine takes by itself once one way is left (`rules.holds.pay`): everything of
    that kind if that is what is owed, else one at a time from the only hold it could be."""
    while owed > 0:
        have = [h for h, (t, n) in enumerate(holds) if t == kind and n > 0]
        if sum(holds[h][1] for h in have) == owed:
            return tuple(("-", 0) if t == kind else (t, n) for t, n in holds)
        holds = _take(holds, have[0])
        owed -= 1
    return holds


def pay_splits(state: State) -> list[tuple[tuple[int, ...], Holds]]:
    """Every different way to pay what is owed, each with the one-token payments that make it
    (played on copies of the state) and the holds it leaves (regular holds being alike, two ways
    that leave the same contents are one)."""
    assert state.q is not None
    kind, who, (ship, resource, _) = state.q
    word = RESOURCE_SHORT[resource]
    seen: set[tuple[Any, ...]] = set()
    frontier: list[tuple[State, tuple[int, ...]]] = [(state.clone(log=True), ())]
    done: dict[tuple[Any, ...], tuple[tuple[int, ...], Holds]] = {}
    while frontier:
        nxt: list[tuple[State, tuple[int, ...]]] = []
        for s, seq in frontier:
            assert s.q is not None
            holds, owed = tuple(_holds(s, ship)), s.q[2][2]
            for a in s.legal:
                after = _take(holds, int(a) - PAY)
                c = s.clone(log=True)
                c.apply(a)
                q = c.q
                # Still this payment: asked again, and nothing happened (a new payment, for the
                # next space, begins with an event).
                same = len(c.events or ()) == len(s.events or ())
                if same and q is not None and q[:2] == (kind, who) and q[2][:2] == (ship, resource):
                    now = tuple(_holds(c, ship))  # the engine may have taken more by itself
                    key = (*sorted(now[:5]), *now[5:])
                    if key not in seen:
                        seen.add(key)
                        nxt.append((c, (*seq, int(a))))
                    continue
                after = _rest_paid(after, word, owed - 1)
                done.setdefault((*sorted(after[:5]), *after[5:]), ((*seq, int(a)), after))
        frontier = nxt
    return list(done.values())


def _pay(state: State, view: Mapping[str, Any], names: Sequence[str], owed: str,
         _: Words = ENGLISH) -> Question:  # fmt: skip
    """A payment as one question: every way to split what is left to pay (the rules' words for
    it, `owed`: what is due, for what, what the engine took already, what is left)."""
    assert state.q is not None
    ship = state.q[2][0]
    before = _holds(state, ship)
    out = []
    for seq, after in pay_splits(state):
        text = Text(_("take "))
        parts = []
        for h, ((_t0, n0), (_t1, n1)) in enumerate(zip(before, after, strict=True)):
            if n0 != n1:
                where = _("the 6th Hold") if h == 5 else _("hold {k}", k=h + 1)
                parts.append(_("{n} from {where} (of {total})", n=n0 - n1, where=where,
                               total=n0))  # fmt: skip
        text.append(", ".join(parts))
        text.append(_("  → left: "), "dim")
        text.append_text(render.holds_text([{"type": t, "count": n} for t, n in after], _=_))
        out.append(Choice(text, seq))
    asked = _("{name}: {owed} — from which holds?", name=names[ship], owed=owed)
    prompt = render.coloured_names(asked, names, render.ghost_ships(view))
    return Question("pay", prompt, tuple(out), ship)
