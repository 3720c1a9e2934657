"""Hand-written knowledge of the game for the bots: an evaluation of a position, and a quick
policy (no lookahead) for every kind of question.

Both read a state only through what the deciding player may know: the bots call them on a
determinized world (`State.resample`), and face-down cards the player does not know are valued
by what the public knows of them (their class), never by their sampled value.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from ..rules import Action, State
from ..rules.actions import (
    ACCEPT,
    ATTACK,
    GIVE,
    LOAD,
    MOVE,
    NOTHING,
    PAY,
    PLAY,
    POWDER,
    REROLL,
    STEAL,
    STEAL_BLIND,
    TAKE,
)
from ..rules.board import MOVES_BACKWARD, MOVES_FORWARD_BEHIND, MOVES_FORWARD_RACE, moves_left
from ..rules.data import (
    BACKWARD,
    CARDS,
    CLASS_CURSED,
    CLASS_TREASURE,
    COMBAT_FACES,
    CURSED,
    EMPTY,
    FOOD,
    FORWARD,
    GOLD,
    GUNPOWDER,
    HOLD6,
    LADY_BETH,
    LAIR,
    MAP,
    PORT,
    SABRE,
    SEA,
    SLOTS,
    SPACE_COST,
    SPACE_TYPE,
    STAR,
    TREASURE_VALUES,
)
from ..rules.scoring import score

SPACE_VALUE: Final = 0.62  # points per move of progress: from −5 at the start to 15 at the finish
POWER_VALUE: Final = (1.0, 1.2, 1.5, 0.8)  # map, sabre, beth, 6th hold
RESOURCE_VALUE: Final = {FOOD: 0.45, GUNPOWDER: 0.3, GOLD: 1.0}
_UNKNOWN_TREASURE = sum(TREASURE_VALUES[4:]) / 6  # a player's unknown face-down card
_UNKNOWN_ANY = sum(TREASURE_VALUES) / 10  # one of the Ghost Ship's
_UNKNOWN_CURSED = sum(TREASURE_VALUES[t] for t in CURSED) / 3
LAIR_BONUS: Final = 1.8  # an untaken treasure token: a card worth about this on average


def holds_of(s: State, ship: int, kind: int) -> int:
    base = ship * SLOTS
    ht, hn = s.hold_types, s.hold_counts
    total = 0
    for i in range(base, base + SLOTS):  # a loop, not sum() over a generator: a hot spot
        if ht[i] == kind:
            total += hn[i]
    return total


def treasure_value(s: State, ship: int, me: int) -> float:
    total = 0.0
    for card in s.face_down[ship]:
        if (card >> 6) >> me & 1:
            total += TREASURE_VALUES[card & 15]
        else:
            klass = (card >> 4) & 3
            total += (
                _UNKNOWN_CURSED
                if klass == CLASS_CURSED
                else _UNKNOWN_TREASURE
                if klass == CLASS_TREASURE
                else _UNKNOWN_ANY
            )
    return total


def estimate(s: State, ship: int, me: int) -> float:
    """Roughly the final score `ship` is heading for, as player `me` can judge it."""
    if s.lap[ship] >= 1:
        position = 15.0
    else:
        position = 15.0 - SPACE_VALUE * min(moves_left(s.pos[ship], s.lap[ship]), 45)
    gold = holds_of(s, ship, GOLD)
    food = min(holds_of(s, ship, FOOD), 9)
    powder = min(holds_of(s, ship, GUNPOWDER), 8)
    powers = sum(POWER_VALUE[t] for t in range(4) if s.powers[t] == ship)
    return position + gold + treasure_value(s, ship, me) + 0.45 * food + 0.3 * powder + powers


def evaluate(s: State, me: int) -> float:
    """How good the position is for player `me`: their estimated score against the best rival's
    (at the end: the real scores, and a bonus for winning)."""
    return against_best_rival(s, me, estimate)


def against_best_rival(s: State, me: int, estimate: Callable[[State, int, int], float]) -> float:
    """`me`'s `estimate(s, ship, me)` less the best rival's; at the end, the real scores and a
    bonus for winning. Shared by every evaluation that only changes the estimate."""
    if s.is_terminal():
        totals = [score(s, k).total for k in range(s.ns)]
        best_rival = max(t for k, t in enumerate(totals) if k != me)
        win = 10.0 / len(s.winners()) if me in s.winners() else 0.0
        return totals[me] - best_rival + win
    mine = estimate(s, me, me)
    rival = max(estimate(s, k, me) for k in range(s.ns) if k != me)
    return mine - rival


# --- quick policy: one look at the question, no lookahead -----------------------------------
def _space_value(s: State, ship: int, space: int, food: int, gold: int) -> float:
    """What arriving on a space is worth beyond the progress: its cost, a shortage, a treasure,
    a battle."""
    kind = SPACE_TYPE[space]
    v = 0.0
    if kind == LAIR:
        v += LAIR_BONUS if s.tokens >> space & 1 else 0.0
    elif kind == PORT:
        cost = SPACE_COST[space]
        v -= cost if gold >= cost else 6.0 + gold
    elif kind == SEA:
        cost = SPACE_COST[space]
        v -= 0.45 * cost if food >= cost else 6.0 + 0.45 * food
    if space and any(s.pos[k] == space for k in range(s.ns) if k != ship):
        v -= 0.5  # a battle: a gamble
    return v


def _move_value(s: State, ship: int, dest: int, crossed: int, forward: int) -> float:
    food, gold = holds_of(s, ship, FOOD), holds_of(s, ship, GOLD)
    lap = s.lap[ship] + (0 if not crossed else (1 if forward else -1))
    if forward and crossed and s.lap[ship] == 0:
        return 15.0 - estimate(s, ship, ship) + 3.0  # finishing
    progress = moves_left(s.pos[ship], s.lap[ship]) - moves_left(dest, lap)
    return SPACE_VALUE * progress + _space_value(s, ship, dest, food, gold)


def _best_move(s: State, ship: int, die: int, forward: bool) -> float:
    if forward:
        table = MOVES_FORWARD_RACE if s.lap[ship] == 0 else MOVES_FORWARD_BEHIND
    else:
        table = MOVES_BACKWARD
    options = table[s.pos[ship]][die]
    return max(_move_value(s, ship, d, int(c), int(forward)) for d, c in options)


def _load_value(s: State, ship: int, kind: int, amount: int) -> float:
    have = holds_of(s, ship, kind)
    base = ship * SLOTS
    free = any(s.hold_types[base + h] == EMPTY for h in range(5))
    worth = RESOURCE_VALUE[kind] * amount
    if kind == FOOD and have > 8:
        worth *= 0.4
    if kind == GUNPOWDER and have > 6:
        worth *= 0.4
    return worth if free else worth - 1.0


def card_value(s: State, p: int, card: int, morning: int, evening: int) -> float:
    total = 0.0
    for icon, die in zip(CARDS[card], (morning, evening), strict=True):
        if icon == FORWARD or icon == BACKWARD:
            total += _best_move(s, p, die, icon == FORWARD)
        else:
            total += _load_value(s, p, icon, die)
    return total


def _hand_cards(s: State, p: int) -> list[int]:
    return [c for c in range(11) if s.hand[p] >> c & 1]


def _win_chance(mine: int, theirs: int) -> float:
    """P(my die + mine > theirs, or my star) — the opponent's roll already known (`theirs`)."""
    wins = sum(1 for f in COMBAT_FACES if f == STAR or f + mine > theirs)
    return wins / 6


def quick(s: State, p: int, rng: random.Random) -> Action:
    """A sensible answer to the pending question of player `p`, by rules of thumb."""
    legal = s.legal
    kind = s.decision_kind()
    assert s.q is not None
    ctx = s.q[2]
    if kind == "dice_order":
        lo, hi = ctx
        cards = _hand_cards(s, p)

        def best(m: int, e: int) -> float:
            return max(card_value(s, p, c, m, e) for c in cards)

        return legal[0] if best(lo, hi) >= best(hi, lo) else legal[1]
    if kind == "card":
        return max(legal, key=lambda a: card_value(s, p, a - PLAY, s.morning, s.evening))
    if kind == "move":
        ship, _, options = ctx
        by_dest = {o[0]: o for o in options}
        if ship != p:
            return _ghost_move(s, p, legal, by_dest)
        return max(legal, key=lambda a: _move_value(s, ship, *by_dest[a - MOVE]))
    if kind == "load":
        ship = ctx[0]
        return min(legal, key=lambda a: _hold_worth(s, ship, a - LOAD))
    if kind == "pay":
        ship = ctx[0]
        return min(legal, key=lambda a: s.hold_counts[ship * SLOTS + a - PAY])
    if kind == "attack":
        attacker = ctx[0]
        return min(
            legal, key=lambda a: _defence(s, a - ATTACK) - 0.1 * _loot(s, attacker, a - ATTACK)
        )
    if kind == "powder":
        return _powder(s, p, legal, ctx[0])
    if kind == "sabre":
        return _sabre(s, p, ctx[0])
    if kind == "spoils":
        winner, loser = ctx
        return max(legal, key=lambda a: _spoils_value(s, winner, loser, a))
    return legal[int(rng.random() * len(legal))]


def _ghost_move(
    s: State, p: int, legal: list[Action], by_dest: dict[int, tuple[int, int, int]]
) -> Action:
    """The Captain moves the Ghost Ship: towards a rival with loot, away from my ship."""
    g = s.gh

    def value(a: Action) -> float:
        dest = a - MOVE
        v = 0.0
        for k in range(s.n):
            if s.pos[k] == dest and dest:
                v += -3.0 if k == p else 1.0
        if SPACE_TYPE[dest] == LAIR and s.tokens >> dest & 1:
            v -= 0.5  # a treasure lost to the Ghost Ship
        _, crossed, forward = by_dest[dest]
        lap = s.lap[g] + (0 if not crossed else (1 if forward else -1))
        # keep the Ghost Ship from racing ahead of me to the finish
        if moves_left(dest, lap) < s.moves_left(p):
            v -= 0.3
        return v

    return max(legal, key=value)


def _hold_worth(s: State, ship: int, h: int) -> float:
    i = ship * SLOTS + h
    if s.hold_types[i] == EMPTY:
        return -1.0 if h != 5 else -0.5
    return RESOURCE_VALUE[s.hold_types[i]] * s.hold_counts[i]


def _defence(s: State, ship: int) -> float:
    beth = 2 if s.powers[LADY_BETH] == ship else 0
    return holds_of(s, ship, GUNPOWDER) + beth


def _loot(s: State, winner: int, loser: int) -> float:
    base = loser * SLOTS
    best = max(
        (
            RESOURCE_VALUE.get(s.hold_types[i], 0.0) * s.hold_counts[i]
            for i in range(base, base + SLOTS)
        ),
        default=0.0,
    )
    return best + sum(POWER_VALUE[t] for t in range(4) if s.powers[t] == loser)


def _powder(s: State, p: int, legal: list[Action], side: int) -> Action:
    b = s.battle
    assert b is not None
    ship = b[side]
    beth = 2 if s.powers[LADY_BETH] == ship else 0
    at_stake = 4.0 + 0.5 * _loot(s, b[1 - side], ship)
    if side == 1:  # the defender knows the attacker's firepower
        face = b[3]
        theirs = COMBAT_FACES[face] + b[2] + (2 if s.powers[LADY_BETH] == b[0] else 0)
        return max(
            legal,
            key=lambda a: at_stake * _win_chance(a - POWDER + beth, theirs) - 0.3 * (a - POWDER),
        )
    # The attacker guesses the defender will roll an average 6 plus some gunpowder.
    guess = 6 + min(holds_of(s, b[1], GUNPOWDER), 3) + (2 if s.powers[LADY_BETH] == b[1] else 0)
    return max(
        legal, key=lambda a: at_stake * _win_chance(a - POWDER + beth, guess) - 0.3 * (a - POWDER)
    )


def _sabre(s: State, p: int, side: int) -> Action:
    b = s.battle
    assert b is not None
    face = COMBAT_FACES[b[3 + 2 * side]]
    mine = b[side] == p
    if mine:
        good = face == STAR or face >= 6
        return Action(ACCEPT) if good else Action(REROLL)
    bad_for_me = face == STAR or face >= 8
    return Action(REROLL) if bad_for_me else Action(ACCEPT)


def _spoils_value(s: State, winner: int, loser: int, a: Action) -> float:
    if TAKE <= a < TAKE + SLOTS:
        i = loser * SLOTS + a - TAKE
        kind, count = s.hold_types[i], s.hold_counts[i]
        if winner == s.gh:
            return count if kind == GOLD else 0.1 * count
        full = all(s.hold_types[winner * SLOTS + h] == kind for h in range(5))
        return 0.0 if full else (RESOURCE_VALUE[kind] + (0.3 if kind != GUNPOWDER else 0.0)) * count
    if STEAL <= a < STEAL + 4:
        t = a - STEAL
        value = POWER_VALUE[t] * 2  # I gain it and they lose it
        if t == HOLD6:
            i = loser * SLOTS + 5
            value += RESOURCE_VALUE.get(s.hold_types[i], 0.0) * s.hold_counts[i]
        if t == MAP or t == SABRE:
            value += 0.3
        return value
    if a == STEAL_BLIND:
        n = len(s.face_down[loser])
        return 2 * treasure_value(s, loser, winner) / n if n else 0.0
    if GIVE <= a < GIVE + 3:
        return -2 * TREASURE_VALUES[CURSED[a - GIVE]]
    assert a == NOTHING
    return 0.0
