"""The round (RULES §3–§4, §6, §9–§10): setup draws, dice, cards, actions, movement, arrival,
lair treasures, the Ghost Ship's moves, the end of the round and of the game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import (
    ACTIONS,
    ATTACK,
    CAPTAIN,
    DRAW,
    MORNING,
    MOVE,
    PLAY,
    ROLL,
    ROLL_PAIRS,
    TREASURE,
    Action,
)
from .board import MOVES_BACKWARD, MOVES_FORWARD_BEHIND, MOVES_FORWARD_RACE, Dest, moves_left
from .data import (
    BACKWARD,
    CARDS,
    CLASS_ANY,
    CLASS_TREASURE,
    FOOD,
    FORWARD,
    GOLD,
    HAND_LIMIT,
    HAND_LIMIT_WITH_MAP,
    LAIR,
    MAP,
    NUM_CARDS,
    NUM_POWERS,
    NUM_TREASURE_TYPES,
    PORT,
    PORT_ROYAL,
    SEA,
    SPACE_COST,
    SPACE_TYPE,
)
from .events import (
    E_CAPTAIN,
    E_CHOSE,
    E_CHOSE_SEEN,
    E_DICE,
    E_DRAW,
    E_DRAW_SEEN,
    E_FACE_DOWN,
    E_FACE_DOWN_SEEN,
    E_FALLBACK,
    E_FINISH,
    E_GAME_END,
    E_GHOST_DIRECTION,
    E_IGNORED,
    E_MOVE,
    E_PAY,
    E_POWER,
    E_RESHUFFLE,
    E_REVEAL,
    E_ROLL,
    E_ROUND,
    E_SHORTAGE,
)
from .holds import empty_all, pay, total
from .ops import (
    C_CAPTAIN,
    C_DRAW,
    C_ROLL,
    C_TREASURE,
    K_ATTACK,
    K_MORNING,
    K_MOVE,
    K_PLAY,
    M_FALLBACK_2021,
    M_GHOST,
    M_NORMAL,
    T_ACTION,
    T_ARRIVE,
    T_CARD_END,
    T_CHOOSE,
    T_DRAW,
    T_FIRST_CAPTAIN,
    T_GHOST,
    T_LOAD,
    T_ROUND,
    T_ROUND_END,
    T_SETTLE,
    T_SHORTAGE,
    T_TREASURE,
    T_TURN,
    TERMINAL,
    Task,
    ask,
    chance,
    decision,
    ev,
    task,
)

if TYPE_CHECKING:
    from .base import BaseState

ROLL_ACTIONS = list(ACTIONS[ROLL : ROLL + len(ROLL_PAIRS)])
ROLL_PROBS = [(1 if a == b else 2) / 36 for a, b in ROLL_PAIRS]
PLAY_ACTIONS = ACTIONS[PLAY : PLAY + NUM_CARDS]
DRAW_ACTIONS = ACTIONS[DRAW : DRAW + NUM_CARDS]
MOVE_ACTIONS = ACTIONS[MOVE:]
CARD_BITS = tuple((1 << c, c) for c in range(NUM_CARDS))


def _per_mask(actions: tuple[Action, ...]) -> tuple[tuple[Action, ...], ...]:
    """For every set of cards (a bit mask), the answers naming its cards."""
    return tuple(
        tuple(actions[c] for bit, c in CARD_BITS if m & bit) for m in range(1 << NUM_CARDS)
    )


_PLAYS, _DRAWS = _per_mask(PLAY_ACTIONS), _per_mask(DRAW_ACTIONS)  # choose a card, draw one


def encode_card(ttype: int, klass: int, knowers: int) -> int:
    """A face-down treasure card: its type, what the public knows of it, who knows its value."""
    return ttype | (klass << 4) | (knowers << 6)


def player_bit(s: BaseState, ship: int) -> int:
    return 0 if ship == s.gh else 1 << ship


def ghost_controller(s: BaseState, opponent: int) -> int:
    """R9: the Captain, or the next player clockwise when the Captain fights the Ghost Ship."""
    return s.cap if opponent != s.cap else (s.cap + 1) % s.n


def seat_order(s: BaseState) -> list[int]:
    return [(s.cap + i) % s.n for i in range(s.n)]


# --- setup ---------------------------------------------------------------------------------------
@task(T_FIRST_CAPTAIN)
def _first_captain(s: BaseState, t: Task) -> None:
    chance(s, C_CAPTAIN, (), list(ACTIONS[CAPTAIN : CAPTAIN + s.n]), None)


@decision(C_CAPTAIN)
def _captain_is(s: BaseState, ctx: tuple[Any, ...], a: Action) -> None:
    s.cap = a - CAPTAIN


# --- the round -----------------------------------------------------------------------------------
@task(T_ROUND)
def _round(s: BaseState, t: Task) -> None:
    s.rnd += 1
    s.roll = ()
    s.morning = s.evening = 0
    ev(s, s.all, E_ROUND, s.rnd)
    ev(s, s.all, E_CAPTAIN, s.cap)
    chance(s, C_ROLL, (), ROLL_ACTIONS, ROLL_PROBS)


@decision(C_ROLL)
def _rolled(s: BaseState, ctx: tuple[Any, ...], a: Action) -> None:
    lo, hi = ROLL_PAIRS[a - ROLL]
    s.roll = (lo, hi)
    ev(s, s.all, E_ROLL, lo, hi)
    options = [ACTIONS[MORNING + lo - 1]]
    if hi != lo:
        options.append(ACTIONS[MORNING + hi - 1])
    ask(s, K_MORNING, s.cap, (lo, hi), options)


@decision(K_MORNING)
def _dice_order(s: BaseState, ctx: tuple[Any, ...], a: Action) -> None:
    lo, hi = ctx
    m = a - MORNING + 1
    s.morning, s.evening = m, (hi if m == lo else lo)
    ev(s, s.all, E_DICE, s.cap, s.morning, s.evening)
    order = seat_order(s)
    tasks: list[Task] = [(T_CHOOSE, p) for p in order]
    tasks += [(T_TURN, p) for p in order]
    if s.gh >= 0:
        tasks += [(T_GHOST, 0), (T_GHOST, 1)]
    tasks.append((T_ROUND_END,))
    s.stack.extend(reversed(tasks))


@task(T_CHOOSE)
def _choose(s: BaseState, t: Task) -> None:
    p = t[1]
    hand = s.hand[p]
    ask(s, K_PLAY, p, (p,), list(_PLAYS[hand]))


@decision(K_PLAY)
def _chosen(s: BaseState, ctx: tuple[Any, ...], a: Action) -> None:
    p = ctx[0]
    c = a - PLAY
    s.hand[p] &= ~(1 << c)
    s.chosen[p] = c
    ev(s, s.all, E_CHOSE, p)
    ev(s, 1 << p, E_CHOSE_SEEN, p, c)


@task(T_TURN)
def _turn(s: BaseState, t: Task) -> None:
    p = t[1]
    c = s.chosen[p]
    s.chosen[p] = -1
    bit = 1 << c
    s.disc[p] |= bit
    s.known_in_hand[p] &= ~bit
    ev(s, s.all, E_REVEAL, p, c)
    morning_icon, evening_icon = CARDS[c]
    s.stack.append((T_CARD_END, p, c))  # marks the card in play until its actions are done
    s.stack.append((T_ACTION, p, evening_icon, s.evening, 1))
    s.stack.append((T_ACTION, p, morning_icon, s.morning, 0))


@task(T_CARD_END)
def _card_end(s: BaseState, t: Task) -> None:
    """Nothing to do: the marker only says, while it is on the stack, whose card is in play
    (see `progress.resolving`)."""


@task(T_ACTION)
def _action(s: BaseState, t: Task) -> None:
    _, p, icon, die, _half = t
    if s.lap[p] >= 1:  # finished in the morning: the evening action is ignored (§9)
        ev(s, s.all, E_IGNORED, p)
        return
    if icon == FORWARD or icon == BACKWARD:
        ask_move(s, p, p, die, icon == FORWARD, M_NORMAL)
    else:
        s.stack.append((T_LOAD, p, icon, die, p))


Option = tuple[int, int, int]  # (destination, crossed the start line, forward)
MoveChoice = tuple[tuple[Option, ...], tuple[Action, ...]]  # a move's options and answers


MoveTable = tuple[tuple[tuple[Dest, ...], ...], ...]  # board.MOVES_*[space][die]


def _choices(table: MoveTable, way: int) -> tuple[tuple[MoveChoice, ...], ...]:
    """Per space and die, a move's options and their answers, made once."""
    out = []
    for by_space in table:
        row = []
        for by_die in by_space:
            options = tuple((dest, int(crossed), way) for dest, crossed in by_die)
            row.append((options, tuple(MOVE_ACTIONS[o[0]] for o in options)))
        out.append(tuple(row))
    return tuple(out)


_RACE, _BEHIND, _BACK = (_choices(MOVES_FORWARD_RACE, 1), _choices(MOVES_FORWARD_BEHIND, 1),
                         _choices(MOVES_BACKWARD, 0))  # fmt: skip


def _move_choices(s: BaseState, ship: int, die: int, forward: bool) -> MoveChoice:
    table = (_RACE if s.lap[ship] == 0 else _BEHIND) if forward else _BACK
    return table[s.pos[ship]][die]


def move_options(s: BaseState, ship: int, die: int, forward: bool) -> list[Option]:
    """(destination, crossed the start line, forward) for each distinct destination (R2)."""
    return list(_move_choices(s, ship, die, forward)[0])


def ask_move(s: BaseState, ship: int, decider: int, die: int, forward: bool, mode: int) -> None:
    options, answers = _move_choices(s, ship, die, forward)
    ask(s, K_MOVE, decider, (ship, mode, options), list(answers))


@decision(K_MOVE)
def _moved(s: BaseState, ctx: tuple[Any, ...], a: Action) -> None:
    ship, mode, options = ctx
    dest = a - MOVE
    for option in options:
        if option[0] == dest:
            _, crossed, forward = option
            break
    start = s.pos[ship]
    s.pos[ship] = dest
    if mode >= M_FALLBACK_2021:
        ev(s, s.all, E_FALLBACK, ship, start, dest)
    else:
        ev(s, s.all, E_MOVE, ship, start, dest, forward, crossed)
    if crossed:
        if not forward:
            s.lap[ship] -= 1
        elif s.lap[ship] == 0:  # the race lap is complete: stop at Port Royal (§6, §9)
            s.lap[ship] = 1
            s.ending = True
            ev(s, s.all, E_FINISH, ship)
            return
        else:  # R3: behind the start line, crossing it only starts the race lap
            s.lap[ship] += 1
    s.stack.append((T_ARRIVE, ship, mode))


@task(T_ARRIVE)
def _arrive(s: BaseState, t: Task) -> None:
    _, ship, mode = t
    space = s.pos[ship]
    if space != PORT_ROYAL:
        pos = s.pos
        if pos.count(space) > 1:  # another ship there (this one is): the rare case
            foes = [k for k in range(s.ns) if k != ship and pos[k] == space]
            s.stack.append((T_SETTLE, ship, mode))
            decider = s.cap if ship == s.gh else ship
            ask(s, K_ATTACK, decider, (ship, tuple(foes)), [ACTIONS[ATTACK + k] for k in foes])
            return
    settle(s, ship, mode)


@task(T_SETTLE)
def _settle_task(s: BaseState, t: Task) -> None:
    settle(s, t[1], t[2])


def settle(s: BaseState, ship: int, mode: int) -> None:
    """After any battle: pay the space, or take the lair's treasure (§6.2); shortage (§7)."""
    space = s.pos[ship]
    kind = SPACE_TYPE[space]
    if kind == LAIR:
        if s.tokens >> space & 1:
            s.stack.append((T_TREASURE, ship, space))
        return
    if mode == M_GHOST or mode == M_FALLBACK_2021 or (kind != PORT and kind != SEA):
        return
    resource = GOLD if kind == PORT else FOOD
    cost = SPACE_COST[space]
    have = total(s, ship, resource)
    if have >= cost:
        ev(s, s.all, E_PAY, ship, resource, cost, space)
        pay(s, ship, resource, cost)
    else:
        empty_all(s, ship, resource)
        ev(s, s.all, E_SHORTAGE, ship, resource, have, cost)
        s.stack.append((T_SHORTAGE, ship))


# --- treasure cards ------------------------------------------------------------------------------
TREASURE_ACTIONS = ACTIONS[TREASURE : TREASURE + NUM_TREASURE_TYPES]


@task(T_TREASURE)
def _treasure(s: BaseState, t: Task) -> None:
    pile = s.pile
    n = sum(pile)
    legal = [TREASURE_ACTIONS[k] for k in range(NUM_TREASURE_TYPES) if pile[k]]
    chance(s, C_TREASURE, (t[1], t[2]), legal, [pile[a - TREASURE] / n for a in legal])


@decision(C_TREASURE)
def _treasure_drawn(s: BaseState, ctx: tuple[Any, ...], a: Action) -> None:
    ship, space = ctx
    kind = a - TREASURE
    s.tokens &= ~(1 << space)  # the token leaves the lair as its card is drawn
    s.pile[kind] -= 1
    if ship == s.gh:  # face down, unseen by all (§10)
        s.face_down[ship] += (encode_card(kind, CLASS_ANY, 0),)
        ev(s, s.all, E_FACE_DOWN, ship)
    elif kind < NUM_POWERS:  # R11: a power works at once
        s.powers[kind] = ship
        ev(s, s.all, E_POWER, ship, kind)
    else:
        s.face_down[ship] += (encode_card(kind, CLASS_TREASURE, 1 << ship),)
        ev(s, s.all, E_FACE_DOWN, ship)
        ev(s, 1 << ship, E_FACE_DOWN_SEEN, ship, kind)


# --- the Ghost Ship (§10) ------------------------------------------------------------------------
GHOST_LEADS, GHOST_LAST, CAPTAIN_CHOOSES = 0, 1, 2  # why the Ghost Ship goes the way it goes


def ghost_options(s: BaseState, die: int) -> tuple[int, list[Option]]:
    """§10: why the Ghost Ship goes the way it goes (alone in the lead: backward; alone in last
    place: forward; else the Captain chooses) and its options with `die`."""
    g = s.gh
    mine = moves_left(s.pos[g], s.lap[g])
    others = [moves_left(s.pos[k], s.lap[k]) for k in range(s.n)]
    if mine < min(others):
        return GHOST_LEADS, move_options(s, g, die, False)
    if mine > max(others):
        return GHOST_LAST, move_options(s, g, die, True)
    return CAPTAIN_CHOOSES, move_options(s, g, die, True) + move_options(s, g, die, False)


@task(T_GHOST)
def _ghost(s: BaseState, t: Task) -> None:
    g = s.gh
    if s.lap[g] >= 1:
        return
    why, options = ghost_options(s, s.morning if t[1] == 0 else s.evening)
    if why != CAPTAIN_CHOOSES:
        ev(s, s.all, E_GHOST_DIRECTION, int(why == GHOST_LAST), why)
    ask(s, K_MOVE, s.cap, (g, M_GHOST, tuple(options)), [MOVE_ACTIONS[o[0]] for o in options])


# --- the end of the round ------------------------------------------------------------------------
@task(T_ROUND_END)
def _round_end(s: BaseState, t: Task) -> None:
    if s.ending or s.rnd >= s.cfg.max_rounds:
        ev(s, s.all, E_GAME_END, 0 if s.ending else s.rnd)
        s.q = (-1, TERMINAL, ())
        s.legal = []
        s.probs = None
        return
    order = seat_order(s)
    s.cap = (s.cap + 1) % s.n
    s.stack.extend((T_DRAW, p) for p in reversed(order))


@task(T_DRAW)
def _draw(s: BaseState, t: Task) -> None:
    p = t[1]
    limit = HAND_LIMIT_WITH_MAP if s.powers[MAP] == p else HAND_LIMIT
    if s.hand[p].bit_count() >= limit:  # R10: nobody discards; no draw until below the limit
        return
    if not s.drawp[p]:
        s.drawp[p] = s.disc[p]
        s.disc[p] = 0
        s.known_in_hand[p] = s.hand[
            p
        ]  # the whole hand is known now: every other card was in the discard
        ev(s, s.all, E_RESHUFFLE, p)
    pile = s.drawp[p]
    chance(s, C_DRAW, (p,), list(_DRAWS[pile]), None)


@decision(C_DRAW)
def _drawn(s: BaseState, ctx: tuple[Any, ...], a: Action) -> None:
    p = ctx[0]
    c = a - DRAW
    s.drawp[p] &= ~(1 << c)
    s.hand[p] |= 1 << c
    ev(s, s.all, E_DRAW, p)
    ev(s, 1 << p, E_DRAW_SEEN, p, c)
    s.stack.append((T_DRAW, p))
