"""The pending question in plain words, for front ends: who decides, what, and each option."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .actions import (
    ATTACK,
    BLIND,
    CAPTAIN,
    DIE,
    DRAW,
    GIVE,
    LOAD,
    MORNING,
    MOVE,
    PAY,
    PLAY,
    POWDER,
    REROLL,
    ROLL,
    ROLL_PAIRS,
    STEAL,
    STEAL_BLIND,
    TAKE,
    TREASURE,
    Action,
)
from .battle import firepower
from .data import (
    CARD_NAMES,
    COMBAT_FACE_NAMES,
    COMBAT_FACES,
    CURSED,
    GUNPOWDER,
    LADY_BETH,
    LADY_BETH_BONUS,
    SLOTS,
    SPACE_COST,
    STAR,
    TREASURE_TITLES,
)
from .events import amount, card_title, hold_name, space_words
from .events import ship_name as default_name
from .ops import (
    C_BLIND,
    C_CAPTAIN,
    C_DIE,
    C_DRAW,
    C_ROLL,
    C_TREASURE,
    CHANCE,
    K_ATTACK,
    K_LOAD,
    K_MORNING,
    K_MOVE,
    K_PAY,
    K_PLAY,
    K_POWDER,
    K_SABRE,
    K_SPOILS,
    KIND_NAMES,
    M_GHOST,
    TERMINAL,
)

if TYPE_CHECKING:
    from .base import BaseState


@dataclass(frozen=True)
class Decision:
    """The pending question. `player` is the deciding player, CHANCE, or TERMINAL."""

    player: int
    kind: str
    prompt: str
    actions: tuple[Action, ...]
    options: tuple[str, ...]  # a plain-words label per action
    context: dict[str, Any]


def _hold(s: BaseState, ship: int, h: int) -> str:
    i = ship * SLOTS + h
    if s.hold_counts[i] == 0:
        return f"{hold_name(h)} (empty)"
    return f"{hold_name(h)} ({amount(s.hold_counts[i], s.hold_types[i])})"


def pending(s: BaseState, names: Sequence[str] | None = None) -> Decision:
    assert s.q is not None
    kind, who, ctx = s.q
    if who == TERMINAL:
        return Decision(TERMINAL, "", "The game is over.", (), (), {})
    n = s.n
    legal = tuple(s.legal)

    def ship_name(k: int, _: int) -> str:
        return names[k] if names is not None else default_name(k, n)

    name = "" if who == CHANCE else ship_name(who, n)
    context: dict[str, Any] = {}
    labels: list[str] = []
    if kind == K_MORNING:
        prompt = (
            f"{name}, Captain: the dice show {ctx[0]} and {ctx[1]}. Which die is the morning die?"
        )
        labels = [f"{a - MORNING + 1} in the morning" for a in legal]
    elif kind == K_PLAY:
        prompt = f"{name}: choose an action card (morning {s.morning}, evening {s.evening})."
        labels = [card_title(CARD_NAMES[a - PLAY]) for a in legal]
    elif kind == K_MOVE:
        ship, mode, options = ctx
        who_moves = ship_name(ship, n)
        if mode == M_GHOST:
            prompt = f"{name}, Captain: where does the Ghost Ship go?"
        elif mode == 0:
            way = "forward" if options[0][2] else "backward"
            whose = "" if ship == who else f" for {who_moves}"
            prompt = f"{name}: choose where to go {way}{whose}."
        else:
            whose = "your ship" if ship == who else who_moves
            prompt = f"{name}: shortage — by which route does {whose} fall back?"
        by_dest = {o[0]: o for o in options}
        for a in legal:
            dest, _, forward = by_dest[a - MOVE]
            way = ("forward" if forward else "backward") if mode <= M_GHOST else "back"
            labels.append(f"{way} to {space_words(dest)}")
        context = {"ship": ship, "destinations": [a - MOVE for a in legal]}
    elif kind == K_LOAD:
        ship, resource, count = ctx
        prompt = f"{name}: load {amount(count, resource)} into which hold?"
        labels = [
            ("into " if s.hold_counts[ship * SLOTS + a - LOAD] == 0 else "empty and load into ")
            + _hold(s, ship, a - LOAD)
            for a in legal
        ]
    elif kind == K_PAY:
        ship, resource, count = ctx
        context = _owed(s, ship, resource, count)
        prompt = f"{name}: {context['owed']} — take one from which hold?"
        labels = [_hold(s, ship, a - PAY) for a in legal]
    elif kind == K_ATTACK:
        prompt = f"{name}: the space is crowded — which ship does {ship_name(ctx[0], n)} attack?"
        labels = [ship_name(a - ATTACK, n) for a in legal]
    elif kind == K_POWDER:
        b = s.battle or [0, 0]
        ship = b[ctx[0]]
        whose = "" if ship == who else f" for {ship_name(ship, n)}"
        prompt = f"{name}: how much gunpowder do you spend{whose}?"
        labels = [f"{a - POWDER} gunpowder" for a in legal]
    elif kind == K_SABRE:
        fight = s.battle
        assert fight is not None
        side = ctx[0]
        roller = fight[side]
        whose = "your die" if roller == who else f"{ship_name(roller, n)}'s die"
        prompt = (f"{name}: {_rolled(s, side, who, [ship_name(k, n) for k in range(s.ns)])} — "
                  f"use Saran's Sabre to have {whose} rolled again?")  # fmt: skip
        labels = ["roll again" if a == REROLL else "accept the roll" for a in legal]
    elif kind == K_SPOILS:
        winner, loser = ctx
        victor = "you won" if winner == who else f"{ship_name(winner, n)} won"
        prompt = f"{name}: {victor} — choose the spoils from {ship_name(loser, n)}."
        for a in legal:
            if TAKE <= a < TAKE + SLOTS:
                labels.append("take " + _hold(s, loser, a - TAKE))
            elif STEAL <= a < STEAL_BLIND:
                labels.append("steal " + TREASURE_TITLES[a - STEAL])
            elif a == STEAL_BLIND:
                labels.append("steal a face-down card at random")
            elif GIVE <= a < GIVE + len(CURSED):
                labels.append("give " + TREASURE_TITLES[CURSED[a - GIVE]])
            else:
                labels.append("take nothing")
    else:
        prompt, labels = _chance_words(kind, legal, [ship_name(k, n) for k in range(s.ns)])
    if not labels:
        labels = [str(a) for a in legal]
    return Decision(who, KIND_NAMES[kind], prompt, legal, tuple(labels), context)


def _owed(s: BaseState, ship: int, resource: int, count: int) -> dict[str, Any]:
    """A payment in words, as the log has it: what it is for, what is due and, when the engine
    has taken some already (from the only hold it could be, or the first of alike holds: §6
    leaves nothing to choose there), what is left to pay. `owed`: "2 food for space 27, 1 taken
    already: 1 still to pay"."""
    b = s.battle
    if resource == GUNPOWDER and b is not None and ship in (b[0], b[1]):
        due, what = b[2 + 2 * (b[1] == ship)], "the battle"  # the gunpowder spent (§8.1)
    else:
        due, what = SPACE_COST[s.pos[ship]], f"space {s.pos[ship]}"  # the space's cost (§6.2)
    due = max(due, count)
    owed = f"{amount(due, resource)} for {what}"
    if due > count:
        owed += f", {due - count} taken already: {count} still to pay"
    else:
        owed += " still to pay"
    return {"ship": ship, "due": due, "left": count, "for": what, "owed": owed}


def _rolled(s: BaseState, side: int, who: int, names: Sequence[str]) -> str:
    """The roll a Sabre may undo, in numbers: "Mary Read rolled 4: firepower 6 (4 + 2
    gunpowder) against your 8" (§8, R5, R13)."""
    b = s.battle
    assert b is not None
    roller = b[side]
    subject = "you" if roller == who else names[roller]
    face = b[3 + 2 * side]
    if COMBAT_FACES[face] == STAR:
        words = f"{subject} rolled the star, which wins"
        return words + (" at once" if side == 0 else " whatever the attacker's firepower")
    parts = [COMBAT_FACE_NAMES[face]]
    if b[2 + 2 * side]:
        parts.append(f"{b[2 + 2 * side]} gunpowder")
    if s.powers[LADY_BETH] == roller:
        parts.append(f"{LADY_BETH_BONUS} Lady Beth")
    words = f"{subject} rolled {COMBAT_FACE_NAMES[face]}: firepower {firepower(s, side)}"
    if len(parts) > 1:
        words += f" ({' + '.join(parts)})"
    other = b[1 - side]
    if side == 1:  # the attacker has rolled (not the star: the defender would not roll)
        theirs = "your" if other == who else f"{names[other]}'s"
        words += f" against {theirs} {firepower(s, 0)}"
    else:
        words += f"; {'you roll' if other == who else names[other] + ' rolls'} next"
    return words


def _chance_words(kind: int, legal: tuple[Action, ...], names: list[str]) -> tuple[str, list[str]]:
    if kind == C_ROLL:
        return "Chance: the Captain rolls the action dice.", [
            "{}-{}".format(*ROLL_PAIRS[a - ROLL]) for a in legal
        ]
    if kind == C_DIE:
        return "Chance: the combat die is rolled.", [COMBAT_FACE_NAMES[a - DIE] for a in legal]
    if kind == C_DRAW:
        return "Chance: an action card is drawn.", [card_title(CARD_NAMES[a - DRAW]) for a in legal]
    if kind == C_TREASURE:
        return "Chance: a treasure card is drawn.", [TREASURE_TITLES[a - TREASURE] for a in legal]
    if kind == C_BLIND:
        return "Chance: a face-down card is stolen.", [f"card {a - BLIND + 1}" for a in legal]
    if kind == C_CAPTAIN:
        return "Chance: the first Captain is drawn.", [names[a - CAPTAIN] for a in legal]
    return "Chance.", []
