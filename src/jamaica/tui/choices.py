"""The question in front of the player at the keyboard, as options that say what they lead to.

The engine asks one small question at a time (`State.pending`); this module only words it for the
terminal: each card's morning and evening with the dice, from the rules' preview (`rules.hints`:
"☀ fwd 5 → 6 port 5 doubloons: you have 1 — shortage"), each move's arrival ("→ battle with Mary
Read"), and a payment as one question with every possible split, answered as the engine's
sequence of one-token payments. Nothing here decides a rule: previews and arrivals come from
`rules.hints`, splits from playing the payments on copies. What it reads is
the deciding player's own question and `State.view(player)`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from ..rules import State
from ..rules.actions import PAY
from ..rules.data import CARD_NAMES, CARDS, FORWARD, ICON_NAMES, RESOURCE_SHORT
from ..rules.events import amount
from ..rules.hints import card_preview, move_hints
from ..rules.ops import M_GHOST
from . import render

ICON_RESOURCE = {"food": "food", "gun": "powder", "gold": "gold"}


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


def question(state: State, player: int, names: Sequence[str]) -> Question:
    """The pending question of `player` (who must be the one to decide), in words."""
    d = state.pending(names)
    view = state.view(player)
    ghosts = render.ghost_ships(view)
    prompt = render.coloured_names(d.prompt, names, ghosts)
    kind = d.kind
    if kind == "card":
        previews = {p["action"]: p for p in card_preview(state, player)}
        cards = [_card(view, names, player, previews[str(a)], a) for a in d.actions]
        return Question(kind, prompt, tuple(cards), player)
    if kind == "move":
        return _move(state, view, names, prompt, d.actions)
    if kind == "pay":
        return _pay(state, view, names, prompt)
    if kind == "dice_order":
        lo, hi = view["dice"]["roll"]
        out = []
        for a in d.actions:
            m = int(str(a).split()[1])
            e = hi if m == lo else lo
            out.append(Choice(Text(f"☀ {m} in the morning, ☾ {e} in the evening"), (int(a),)))
        return Question(kind, prompt, tuple(out))
    labels: list[Text] = []
    for label, a in zip(d.options, d.actions, strict=True):
        text = render.coloured_names(label, names, ghosts)
        if kind == "attack":
            text.append_text(_fighter(view, int(str(a).split()[1])))
        elif kind == "powder":
            assert state.q is not None
            text.append_text(_firepower(view, state.q[2][0], int(str(a).split()[1])))
        labels.append(text)
    return Question(kind, prompt, tuple(Choice(t, (int(a),)) for t, a in
                                        zip(labels, d.actions, strict=True)))  # fmt: skip


def _fighter(view: Mapping[str, Any], ship: int) -> Text:
    s = view["ships"][ship]
    powder = render.resources(s)["powder"]
    extra = ", Lady Beth +2" if "beth" in s["powers"] else ""
    return Text(f" ({powder} gunpowder{extra})", style="dim")


def _firepower(view: Mapping[str, Any], side: int, powder: int) -> Text:
    """ "→ firepower die + 3 against 7": what spending `powder` makes of this side's roll."""
    b = view["battle"]
    roles = ("attacker", "defender")
    me, them = roles[side], roles[1 - side]
    beth = 2 if "beth" in view["ships"][b[me]]["powers"] else 0
    out = Text(f"  → firepower die + {powder + beth}", style="dim")
    die = b[f"{them}_die"]
    if die >= 0:
        theirs = "★" if die == 5 else str(render.FACE_VALUES[die] + b[f"{them}_powder"] + (
            2 if "beth" in view["ships"][b[them]]["powers"] else 0))  # fmt: skip
        out.append(f" against {theirs}", "dim")
    return out


# --- cards ---------------------------------------------------------------------------------------
def _card(view: Mapping[str, Any], names: Sequence[str], me: int, preview: Mapping[str, Any],
          action: int) -> Choice:  # fmt: skip
    """A card's line from the rules' preview (`rules.hints.card_preview`): nothing is decided
    here, only worded and coloured."""
    card = preview["card"]
    icons = CARDS[CARD_NAMES.index(card)]
    label = Text(card, style="bold")
    spaces: list[int] = []
    for sym, icon, step in zip(("☀", "☾"), icons, preview["steps"], strict=True):
        label.append(f"  {sym} ", "bold")
        if step["what"] == "load":
            resource = ICON_RESOURCE[ICON_NAMES[icon]]
            label.append(f"load {step['die']} {resource}", render.RESOURCE_STYLE[resource])
            continue
        label.append(f"{'fwd' if icon == FORWARD else 'back'} {step['die']} → ")
        parts: list[Text] = []
        if step["finished"]:
            parts.append(Text("finished: ignored", style="dim"))
        for d in step["destinations"]:
            parts.append(render.arrival(names, d, view["lair_tokens"]))
            spaces.append(d["space"])
        if step["after_shortage"]:
            parts.append(Text("from where the shortage leaves you", style="dim"))
        for i, part in enumerate(_unique(parts)):
            if i:
                label.append(" or ", "dim")
            label.append_text(part)
    return Choice(label, (action,), tuple(dict.fromkeys(spaces)))


def _unique(parts: list[Text]) -> list[Text]:
    seen: dict[str, Text] = {}
    for p in parts:
        seen.setdefault(p.plain, p)
    return list(seen.values())


# --- moves ---------------------------------------------------------------------------------------
def _move(
    state: State,
    view: Mapping[str, Any],
    names: Sequence[str],
    prompt: Text,
    actions: Sequence[int],
) -> Question:
    assert state.q is not None
    ship, mode, routes = state.q[2]
    by_dest = {o[0]: o for o in routes}
    hints = dict(zip(map(int, state.legal), move_hints(state), strict=True))  # the rules say
    out = []
    for a in actions:
        hint = hints[int(a)]
        dest = hint["space"]
        forward = by_dest[dest][2]
        way = ("forward" if forward else "backward") if mode <= M_GHOST else "back"
        text = Text(f"{way} to ")
        text.append_text(render.arrival(names, hint, view["lair_tokens"]))
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


def _pay(state: State, view: Mapping[str, Any], names: Sequence[str], prompt: Text) -> Question:
    assert state.q is not None
    ship, resource, count = state.q[2]
    before = _holds(state, ship)
    out = []
    for seq, after in pay_splits(state):
        text = Text("take ")
        parts = []
        for h, ((_, n0), (_, n1)) in enumerate(zip(before, after, strict=True)):
            if n0 != n1:
                where = "the 6th Hold" if h == 5 else f"hold {h + 1}"
                parts.append(f"{n0 - n1} from {where} (of {n0})")
        text.append(", ".join(parts))
        text.append("  → left: ", "dim")
        text.append_text(render.holds_text([{"type": t, "count": n} for t, n in after]))
        out.append(Choice(text, seq))
    owed = f"{names[ship]}: pay {amount(count, resource)} — from which holds?"
    prompt = render.coloured_names(owed, names, render.ghost_ships(view))
    return Question("pay", prompt, tuple(out), ship)
