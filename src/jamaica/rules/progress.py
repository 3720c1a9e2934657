"""Where the round stands and what the pending question is about, as plain numbers.

`question(s)` lists the parameters of the pending question that a prompt states in words ("load
2 doubloons into which hold?", "2 food still to pay", "your gunpowder against a firepower of 8"):
an agent that sees them needs no memory to know what it is answering. All of it is public (R16):
the card in play has been revealed, loads, payments and battles happen in the open.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from .battle import firepower
from .ops import (
    K_ATTACK,
    K_LOAD,
    K_MOVE,
    K_PAY,
    K_POWDER,
    K_SABRE,
    K_SPOILS,
    T_ACTION,
    T_CARD_END,
    T_CHOOSE,
    T_GHOST,
    T_ROUND_END,
    T_TURN,
    TERMINAL,
)

if TYPE_CHECKING:
    from .state import State

MORNING_HALF, EVENING_HALF = 0, 1
_STOP = frozenset({T_ACTION, T_CARD_END, T_CHOOSE, T_GHOST, T_ROUND_END, T_TURN})


class Resolving(NamedTuple):
    """The half-turn in progress: whose ship acts (the Ghost Ship's index for its moves), the
    action card in play (-1 for the Ghost Ship), morning (0) or evening (1), and that die."""

    ship: int
    card: int
    half: int
    die: int


class Question(NamedTuple):
    """The parameters of the pending question; -1 where a parameter does not apply.

    `ship` is the ship the question is about (the one that moves, loads, pays, attacks, fights
    or wins the spoils); `resource` and `amount` the tokens loaded or still due (load, pay);
    `mode` how a move is made (`ops.M_NORMAL`, `M_GHOST`, `M_FALLBACK_2021`,
    `M_FALLBACK_CLASSIC`); `side` the side deciding in a battle (0 attacker, 1 defender);
    `firepower` each side's firepower so far (-1 before its die is rolled); `other` the loser
    of a battle (spoils)."""

    ship: int = -1
    resource: int = -1
    amount: int = -1
    mode: int = -1
    side: int = -1
    firepower: tuple[int, int] = (-1, -1)
    other: int = -1


def resolving(s: State) -> Resolving | None:
    """The half-turn being played, read off the task stack; None outside the players' turns and
    the Ghost Ship's moves (setup, card choice, draws, the end of the game)."""
    stack = s.stack
    for i in range(len(stack) - 1, -1, -1):
        t = stack[i]
        code = t[0]
        if code not in _STOP:
            continue
        if code == T_ACTION:  # the evening action still waits: this is the morning
            card = -1
            for j in range(i - 1, -1, -1):
                if stack[j][0] == T_CARD_END:
                    card = stack[j][2]
                    break
            return _new(Resolving, (t[1], card, MORNING_HALF, s.morning))
        if code == T_CARD_END:
            return _new(Resolving, (t[1], t[2], EVENING_HALF, s.evening))
        if code == T_GHOST and t[1] == 1:
            return _new(Resolving, (s.gh, -1, MORNING_HALF, s.morning))
        if code == T_ROUND_END and s.gh >= 0 and s.q is not None and s.q[1] != TERMINAL:
            return _new(Resolving, (s.gh, -1, EVENING_HALF, s.evening))
        return None
    return None


_NONE: Final = Question()
_NO_FIRE: Final = (-1, -1)
_new: Final = tuple.__new__  # a NamedTuple from a full tuple of its fields, at C speed


def question(s: State) -> Question:
    """The pending question's parameters (see `Question`)."""
    q = s.q
    if q is None or q[1] < 0:
        return _NONE
    kind, _, ctx = q
    # Every field, in the order of `Question`'s, made without the class's Python-level __new__:
    # this runs for every observation.
    if kind == K_MOVE:
        return _new(Question, (ctx[0], -1, -1, ctx[1], -1, _NO_FIRE, -1))
    if kind == K_LOAD or kind == K_PAY:
        return _new(Question, (ctx[0], ctx[1], ctx[2], -1, -1, _NO_FIRE, -1))
    if kind == K_ATTACK:
        return _new(Question, (ctx[0], -1, -1, -1, -1, _NO_FIRE, -1))
    if kind == K_POWDER or kind == K_SABRE:
        b = s.battle
        if b is None:
            return _NONE
        side = ctx[0]
        fp = (firepower(s, 0) if b[3] >= 0 else -1, firepower(s, 1) if b[5] >= 0 else -1)
        return _new(Question, (b[side], -1, -1, -1, side, fp, -1))
    if kind == K_SPOILS:
        return _new(Question, (ctx[0], -1, -1, -1, -1, _NO_FIRE, ctx[1]))
    return _NONE
