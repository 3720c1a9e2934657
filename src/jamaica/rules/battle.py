"""Battles (RULES §8, R5, R6, R9) and their spoils, the Ghost Ship's included (§10).

`s.battle` holds the battle in progress: [attacker, defender, attacker's gunpowder, attacker's die
face, defender's gunpowder, defender's die face, Sabre used] (a face is an index into
COMBAT_FACES; -1 before the roll).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import (
    ACCEPT,
    ACTIONS,
    ATTACK,
    BLIND,
    DIE,
    GIVE,
    MAX_POWDER,
    NOTHING,
    POWDER,
    REROLL,
    STEAL,
    STEAL_BLIND,
    TAKE,
    Action,
)
from .data import (
    CLASS_CURSED,
    CLASS_TREASURE,
    COMBAT_FACES,
    CURSED,
    EMPTY,
    GOLD,
    GUNPOWDER,
    HOLD6,
    LADY_BETH,
    LADY_BETH_BONUS,
    NUM_POWERS,
    SABRE,
    SIXTH,
    SLOTS,
    STAR,
)
from .events import (
    E_BATTLE,
    E_DIE,
    E_GIVE,
    E_GIVE_SEEN,
    E_NOTHING,
    E_OVERBOARD,
    E_POWDER,
    E_POWER,
    E_SABRE,
    E_STEAL_BLIND,
    E_STEAL_POWER,
    E_STEAL_SEEN,
    E_TAKE,
    E_TIE,
    E_WIN,
)
from .holds import slot_count, total
from .ops import (
    C_BLIND,
    C_DIE,
    K_ATTACK,
    K_POWDER,
    K_SABRE,
    K_SPOILS,
    T_CHECK,
    T_LOAD,
    T_PAY,
    T_POWDER,
    T_ROLL,
    T_SABRE,
    T_SPOILS,
    Task,
    ask,
    chance,
    decision,
    ev,
    task,
)
from .shortage import shortage_die
from .turns import encode_card, ghost_controller

if TYPE_CHECKING:
    from .base import BaseState

DIE_ACTIONS = list(ACTIONS[DIE : DIE + len(COMBAT_FACES)])
STAR_FACE = COMBAT_FACES.index(STAR)
_REROLL_OR_NOT = [ACTIONS[REROLL], ACTIONS[ACCEPT]]


def decider(s: BaseState, ship: int, opponent: int) -> int:
    """Who decides for a ship in a battle: its player, or the Ghost Ship's controller (R9)."""
    return ghost_controller(s, opponent) if ship == s.gh else ship


def firepower(s: BaseState, side: int) -> int:
    b = s.battle
    assert b is not None
    ship = b[side]
    bonus = LADY_BETH_BONUS if s.powers[LADY_BETH] == ship else 0
    return COMBAT_FACES[b[3 + 2 * side]] + b[2 + 2 * side] + bonus


@decision(K_ATTACK)
def _attack(s: BaseState, ctx: tuple[Any, ...], a: Action) -> None:
    attacker = ctx[0]
    defender = a - ATTACK
    s.battle = [attacker, defender, 0, -1, 0, -1, 0]
    ev(s, s.all, E_BATTLE, attacker, defender, s.pos[attacker])
    s.stack.extend([(T_CHECK, 0), (T_SABRE, 0), (T_ROLL, 0), (T_POWDER, 0)])


@task(T_POWDER)
def _powder(s: BaseState, t: Task) -> None:
    b = s.battle
    assert b is not None
    side = t[1]
    ship = b[side]
    have = min(total(s, ship, GUNPOWDER), MAX_POWDER)
    if have:
        legal = list(ACTIONS[POWDER : POWDER + have + 1])
        ask(s, K_POWDER, decider(s, ship, b[1 - side]), (side,), legal)


@decision(K_POWDER)
def _spend(s: BaseState, ctx: tuple[Any, ...], a: Action) -> None:
    b = s.battle
    assert b is not None
    side = ctx[0]
    n = a - POWDER
    b[2 + 2 * side] = n
    if n:
        ev(s, s.all, E_POWDER, b[side], n)
        s.stack.append((T_PAY, b[side], GUNPOWDER, n))


@task(T_ROLL)
def _roll(s: BaseState, t: Task) -> None:
    chance(s, C_DIE, (0, t[1]), DIE_ACTIONS, None)


@decision(C_DIE)
def _die(s: BaseState, ctx: tuple[Any, ...], a: Action) -> None:
    face = a - DIE
    if ctx[0] == 1:
        shortage_die(s, ctx[1], face)
        return
    b = s.battle
    assert b is not None
    side = ctx[1]
    b[3 + 2 * side] = face
    ev(s, s.all, E_DIE, b[side], face, firepower(s, side))


@task(T_SABRE)
def _sabre(s: BaseState, t: Task) -> None:
    b = s.battle
    assert b is not None
    owner = s.powers[SABRE]
    if not b[6] and owner >= 0 and (owner == b[0] or owner == b[1]):  # R5
        ask(s, K_SABRE, owner, (t[1],), _REROLL_OR_NOT)


@decision(K_SABRE)
def _sabre_used(s: BaseState, ctx: tuple[Any, ...], a: Action) -> None:
    if a == REROLL:
        b = s.battle
        assert b is not None
        b[6] = 1
        ev(s, s.all, E_SABRE, s.powers[SABRE], b[ctx[0]])
        s.stack.append((T_ROLL, ctx[0]))


@task(T_CHECK)
def _check(s: BaseState, t: Task) -> None:
    b = s.battle
    assert b is not None
    attacker, defender = b[0], b[1]
    if t[1] == 0:
        if b[3] == STAR_FACE:  # the defender neither spends nor rolls
            _won(s, attacker, defender)
        else:
            s.stack.extend([(T_CHECK, 1), (T_SABRE, 1), (T_ROLL, 1), (T_POWDER, 1)])
        return
    if b[5] == STAR_FACE:
        _won(s, defender, attacker)
        return
    fa, fd = firepower(s, 0), firepower(s, 1)
    if fa > fd:
        _won(s, attacker, defender)
    elif fd > fa:
        _won(s, defender, attacker)
    else:
        s.battle = None
        ev(s, s.all, E_TIE, attacker, defender)


def _won(s: BaseState, winner: int, loser: int) -> None:
    s.battle = None
    ev(s, s.all, E_WIN, winner, loser)
    s.stack.append((T_SPOILS, winner, loser))


# --- spoils (R6) ---------------------------------------------------------------------------------
def spoils_options(s: BaseState, winner: int, loser: int) -> list[Action]:
    out: list[Action] = []
    base = loser * SLOTS
    seen: list[tuple[int, int]] = []
    for h in range(slot_count(s, loser)):
        kind, amount = s.hold_types[base + h], s.hold_counts[base + h]
        if kind != EMPTY and (h == SIXTH or (kind, amount) not in seen):
            seen.append((kind, amount))
            out.append(ACTIONS[TAKE + h])
    for p in range(NUM_POWERS):
        if s.powers[p] == loser and not (p == LADY_BETH and loser == s.gh):
            out.append(ACTIONS[STEAL + p])
    if s.face_down[loser]:
        out.append(ACTIONS[STEAL_BLIND])
    if winner != s.gh:  # the Ghost Ship never gives
        mine = {card & 15 for card in s.face_down[winner]}
        out.extend(ACTIONS[GIVE + i] for i, c in enumerate(CURSED) if c in mine)
    out.append(ACTIONS[NOTHING])
    return out


@task(T_SPOILS)
def _spoils(s: BaseState, t: Task) -> None:
    _, winner, loser = t
    ctx = (winner, loser)
    # A winner with face-down cards might give a cursed one: the question is asked whatever
    # they hold, or its absence would tell everyone they hold no cursed treasure (R16).
    secret_options = winner != s.gh and bool(s.face_down[winner])
    legal = spoils_options(s, winner, loser)
    ask(s, K_SPOILS, decider(s, winner, loser), ctx, legal, always=secret_options)


def _loot(s: BaseState, winner: int, loser: int, kind: int, amount: int) -> None:
    """Load stolen tokens by the loading rules; the Ghost Ship keeps only doubloons (§10)."""
    if winner == s.gh and kind != GOLD:
        ev(s, s.all, E_OVERBOARD, 0, kind)
        return
    s.stack.append((T_LOAD, winner, kind, amount, decider(s, winner, loser)))


@decision(K_SPOILS)
def _spoils_chosen(s: BaseState, ctx: tuple[Any, ...], a: Action) -> None:
    winner, loser = ctx
    if TAKE <= a < TAKE + SLOTS:
        i = loser * SLOTS + (a - TAKE)
        kind, amount = s.hold_types[i], s.hold_counts[i]
        s.hold_types[i], s.hold_counts[i] = EMPTY, 0
        ev(s, s.all, E_TAKE, winner, loser, kind, amount)
        _loot(s, winner, loser, kind, amount)
    elif STEAL <= a < STEAL + NUM_POWERS:
        power = a - STEAL
        ev(s, s.all, E_STEAL_POWER, winner, loser, power)
        contents = (0, 0)
        if power == HOLD6:  # R12: the card comes with its contents
            i = loser * SLOTS + SIXTH
            contents = (s.hold_types[i], s.hold_counts[i])
            s.hold_types[i], s.hold_counts[i] = EMPTY, 0
        if winner == s.gh:
            s.powers[power] = -2
            ev(s, s.all, E_OVERBOARD, 1, power)
            if contents[0] != EMPTY:
                _loot(s, winner, loser, *contents)
        else:
            s.powers[power] = winner
            j = winner * SLOTS + SIXTH
            if power == HOLD6:
                s.hold_types[j], s.hold_counts[j] = contents
    elif a == STEAL_BLIND:
        n = len(s.face_down[loser])
        chance(s, C_BLIND, ctx, list(ACTIONS[BLIND : BLIND + n]), None)
    elif GIVE <= a < GIVE + len(CURSED):
        kind = CURSED[a - GIVE]
        cards = s.face_down[winner]
        k = next(i for i, c in enumerate(cards) if c & 15 == kind)
        # Only the giver knows which of their face-down cards went: whoever else knew one of
        # them can no longer tell it apart, and the public knows only the weakest class (R16).
        klass = min((c >> 4) & 3 for c in cards)
        mine = (1 << winner) << 6
        s.face_down[winner] = tuple(
            (c & 15) | (klass << 4) | mine for i, c in enumerate(cards) if i != k
        )
        knowers = (1 << winner) | (0 if loser == s.gh else 1 << loser)
        s.face_down[loser] += (encode_card(kind, CLASS_CURSED, knowers),)
        ev(s, s.all, E_GIVE, winner, loser)
        ev(s, knowers, E_GIVE_SEEN, winner, loser, kind)
    else:
        ev(s, s.all, E_NOTHING, winner)


@decision(C_BLIND)
def _blind(s: BaseState, ctx: tuple[Any, ...], a: Action) -> None:
    """R6: a random face-down card of the loser; the thief then knows what it took."""
    winner, loser = ctx
    k = a - BLIND
    cards = s.face_down[loser]
    kind = cards[k] & 15
    # Nobody but the loser knows which card went: whoever else knew one of the loser's cards can
    # no longer tell it apart, and every card left (and the stolen one) is publicly of the
    # weakest class among them (R16; resampling must not know the stolen card's true class).
    klass = min((c >> 4) & 3 for c in cards)
    loser_bit = 0 if loser == s.gh else 1 << loser
    s.face_down[loser] = tuple(
        (c & 15) | (klass << 4) | (loser_bit << 6) for i, c in enumerate(cards) if i != k
    )
    ev(s, s.all, E_STEAL_BLIND, winner, loser)
    if winner == s.gh:
        s.overboard += (encode_card(kind, klass, loser_bit),)
        ev(s, s.all, E_OVERBOARD, 2, 0)
        return
    knowers = (1 << winner) | loser_bit
    ev(s, knowers, E_STEAL_SEEN, winner, loser, kind)
    if kind < NUM_POWERS:  # a power from the Ghost Ship's face-down cards is shown at once
        s.powers[kind] = winner
        ev(s, s.all, E_POWER, winner, kind)
    else:  # R15: a card that stays face down in a player's hands is known not to be a power
        s.face_down[winner] += (encode_card(kind, max(klass, CLASS_TREASURE), knowers),)
