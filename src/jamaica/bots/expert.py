"""The knowledge the levels (`medium`, `hard`) play with, beyond the rules of thumb of
`heuristics.py`: a card is planned whole (the morning, then the evening with what the morning
left), a space is judged by what it will cost and by what a shortage there would cost (the
fall-back the shortage die or the classic rule gives), a battle by its odds with gunpowder, Lady
Beth and the Sabre, resources by what the coming spaces will ask, and the Ghost Ship by the threat
it is to a ship near it.

Like `heuristics.py`, everything here reads a state only through what the deciding player may
know: it is called on a determinized world, and values face-down cards it does not know by their
public class.
"""

from __future__ import annotations

import random
from functools import cache, lru_cache
from typing import Final

from ..rules import Action, State
from ..rules.actions import MOVE, PLAY
from ..rules.board import (
    BACK_ROUTES,
    MOVES_BACKWARD,
    MOVES_FORWARD_BEHIND,
    MOVES_FORWARD_RACE,
    NEAREST,
    moves_left,
)
from ..rules.data import (
    BACKWARD,
    CARDS,
    COMBAT_FACES,
    FOOD,
    FORWARD,
    GOLD,
    GUNPOWDER,
    HOLD6,
    LADY_BETH,
    LAIR,
    NUM_SPACES,
    PORT,
    PORT_ROYAL,
    SABRE,
    SEA,
    SHORT_LAIR,
    SHORT_PORT,
    SHORT_SEA,
    SHORT_STAY,
    SHORTAGE_SYMBOLS,
    SLOTS,
    SPACE_COST,
    SPACE_TYPE,
    STAR,
)
from ..rules.ops import T_ACTION, T_TURN
from .heuristics import (
    LAIR_BONUS,
    POWER_VALUE,
    SPACE_VALUE,
    against_best_rival,
    holds_of,
    treasure_value,
)
from .heuristics import quick as basic_quick

# --- the board ahead ----------------------------------------------------------------------------


def _ahead(space: int) -> tuple[float, float]:
    """Mean food and doubloons one forward landing from `space` costs (over dice 1–6 and every
    branch)."""
    food = gold = 0.0
    for die in range(1, 7):
        options = MOVES_FORWARD_BEHIND[space][die]
        for dest, _ in options:
            kind, cost = SPACE_TYPE[dest], SPACE_COST[dest]
            food += cost / len(options) if kind == SEA else 0.0
            gold += cost / len(options) if kind == PORT else 0.0
    return food / 6, gold / 6


AHEAD: Final = tuple(_ahead(space) for space in range(NUM_SPACES))
LANDINGS: Final = 2.0  # forward landings to keep supplies for (about two rounds)
_SHORT_TO_TYPE: Final = {SHORT_PORT: PORT, SHORT_SEA: SEA, SHORT_LAIR: LAIR}


def _shortage_2021(space: int) -> tuple[tuple[int, float], ...]:
    """(space, probability) where a 2021 shortage on `space` leaves the ship (the best route when
    the player may choose)."""
    out: dict[int, float] = {}
    for symbol in SHORTAGE_SYMBOLS:
        if symbol == SHORT_STAY:
            dest = space
        else:
            options = NEAREST[_SHORT_TO_TYPE[symbol]][space]
            dest = min(options, key=lambda d: (moves_left(d, 0), d))
        out[dest] = out.get(dest, 0.0) + 1 / 6
    return tuple(sorted(out.items()))


SHORTAGE_2021: Final = tuple(_shortage_2021(space) for space in range(NUM_SPACES))

# --- resources ------------------------------------------------------------------------------------
FOOD_NEEDED: Final = 0.6  # a token of food the coming spaces will ask for
FOOD_SPARE: Final = 0.12  # one beyond that
POWDER_VALUE: Final = (0.0, 0.4, 0.75, 1.05, 1.3, 1.5, 1.65, 1.75, 1.85)  # 0..8 tokens
DEFICIT: Final = 0.8  # per token short of what the coming spaces will ask


def needs(space: int, lap: int) -> tuple[float, float]:
    """Food and doubloons the next two forward landings will probably ask of a ship."""
    if lap >= 1:
        return 0.0, 0.0
    food, gold = AHEAD[space]
    return LANDINGS * food, LANDINGS * gold


@lru_cache(maxsize=1 << 16)  # a pure function of small numbers, asked again and again in search
def supplies(space: int, lap: int, food: int, gold: int, powder: int) -> float:
    """What a ship's food, doubloons and gunpowder are worth where it is: doubloons score, food
    and gunpowder count for what they will pay or fight for, and running short costs."""
    if lap >= 1:
        return float(gold)
    need_food, need_gold = needs(space, lap)
    v = float(gold)
    enough = need_food * 1.5
    v += FOOD_NEEDED * min(food, enough) + FOOD_SPARE * max(0.0, min(food, 10) - enough)
    v -= DEFICIT * (max(0.0, need_food - food) + max(0.0, need_gold - gold))
    return v + POWDER_VALUE[min(powder, 8)]


@lru_cache(maxsize=1 << 10)
def position_value(space: int, lap: int) -> float:
    """Progress, valued evenly from −5 at the start to 15 at the finish."""
    if lap >= 1:
        return 15.0
    return 15.0 - SPACE_VALUE * min(moves_left(space, lap), 45)


# The printed score of a space this many moves before the finish (RULES §2: 49 → 10 … 41 → 2).
_SCORE_AT: Final = (15.0, 10.0, 9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0)
PACE: Final = (0.6, 1.0, 1.4)  # a ship's speed against the leader's, from slow to fast
PROJECTED: Final = 0.5  # the weight of the projection against even progress


def _score_at(m: float) -> float:
    if m <= 0:
        return 15.0
    i = int(m)
    if i >= 9:
        return 2.0 - 7.0 * min(1.0, m - 9)  # −5 beyond the red line, smoothed
    lo, hi = _SCORE_AT[i], _SCORE_AT[i + 1]
    return lo + (hi - lo) * (m - i)


@lru_cache(maxsize=1 << 14)
def projected_value(m: int, leader: int) -> float:
    """A ship `m` moves from the finish, when the leading ship is `leader` moves from it: its
    position score when the leader finishes (the game's end), at a pace slower, equal to or
    faster than the leader's, blended with even progress."""
    if m <= 0:
        return 15.0
    even = 15.0 - SPACE_VALUE * min(m, 45)
    at_end = sum(_score_at(m - leader * pace) for pace in PACE) / len(PACE)
    return PROJECTED * at_end + (1 - PROJECTED) * even


# --- battles --------------------------------------------------------------------------------------
@cache
def win_chance(mine: int, theirs: int, my_sabre: bool = False, their_sabre: bool = False) -> float:
    """P(the attacker wins) with `mine` and `theirs` added to the combat dice (gunpowder, Lady
    Beth); the star wins; a Sabre rerolls a die once, when it helps its owner."""
    faces = COMBAT_FACES
    total = 0.0
    for a in faces:
        for d in faces:
            won = _outcome(a, d, mine, theirs)
            if my_sabre and won < 1.0:
                won = max(won, sum(_outcome(a, x, mine, theirs) for x in faces) / 6)
            elif their_sabre and won > 0.0:
                won = min(won, sum(_outcome(x, d, mine, theirs) for x in faces) / 6)
            total += won
    return total / 36


def _outcome(a: int, d: int, mine: int, theirs: int) -> float:
    """1 the attacker wins, 0 the defender wins, 0.5 a tie (nothing happens: half as good)."""
    if a == STAR:
        return 1.0
    if d == STAR:
        return 0.0
    x, y = a + mine, d + theirs
    return 1.0 if x > y else 0.0 if x < y else 0.5


def firepower_bonus(s: State, ship: int, powder: int | None = None) -> int:
    """Gunpowder a ship can spend (all of it, at most 6) and Lady Beth's 2."""
    have = holds_of(s, ship, GUNPOWDER) if powder is None else powder
    return min(have, 6) + (2 if s.powers[LADY_BETH] == ship else 0)


def best_loot(s: State, loser: int, me: int) -> float:
    """What winning against `loser` is worth: its best hold, a power or a face-down card."""
    base = loser * SLOTS
    best = 0.0
    for i in range(base, base + SLOTS):
        kind, count = s.hold_types[i], s.hold_counts[i]
        best = max(best, count * (1.0 if kind == GOLD else 0.5 if kind == FOOD else 0.3))
    for t in range(4):
        if s.powers[t] == loser and t != LADY_BETH:
            best = max(best, 2 * POWER_VALUE[t])
    n = len(s.face_down[loser])
    if n:
        best = max(best, treasure_value(s, loser, me) / n)
    return best


def battle_value(s: State, me: int, foe: int, powder: int) -> float:
    """Expected gain of `me` attacking `foe` with `powder` gunpowder in its holds."""
    mine = firepower_bonus(s, me, powder)
    beth = 2 if s.powers[LADY_BETH] == foe else 0
    theirs = 2 if foe == s.gh else min(holds_of(s, foe, GUNPOWDER), 6) // 2 + beth
    p = win_chance(mine, theirs, s.powers[SABRE] == me, s.powers[SABRE] == foe)
    spent = min(powder, 4)
    gain = best_loot(s, foe, me)
    loss = best_loot(s, me, foe) + (1.0 if foe == s.gh else 0.0)
    return p * gain - (1.0 - p) * loss - 0.2 * spent


# --- the estimate of a position ---------------------------------------------------------------
def ghost_threat(s: State, ship: int) -> float:
    """Expected loss from the Ghost Ship landing on `ship` during the coming round."""
    g = s.gh
    if g < 0 or s.lap[ship] >= 1 or s.pos[ship] == PORT_ROYAL:
        return 0.0
    d = abs(s.moves_left(ship) - s.moves_left(g))
    if d == 0 or d > 12:
        return 0.0
    reach = 0.25 if d <= 6 else 0.1
    mine = firepower_bonus(s, ship)
    p_lose = 1.0 - win_chance(2, mine, False, s.powers[SABRE] == ship)  # the Ghost Ship attacks
    return reach * p_lose * (best_loot(s, ship, g) + 1.0)


def estimate(s: State, ship: int, me: int) -> float:
    """Roughly the final score `ship` is heading for, as player `me` can judge it."""
    food = holds_of(s, ship, FOOD)
    gold = holds_of(s, ship, GOLD)
    powder = holds_of(s, ship, GUNPOWDER)
    powers = sum(POWER_VALUE[t] for t in range(4) if s.powers[t] == ship)
    leader = 0 if s.ending else min(s.moves_left(k) for k in range(s.ns))
    v = projected_value(s.moves_left(ship), leader) + treasure_value(s, ship, me) + powers
    if ship == s.gh:
        return v + gold
    return v + supplies(s.pos[ship], s.lap[ship], food, gold, powder) - ghost_threat(s, ship)


def evaluate(s: State, me: int) -> float:
    """How good the position is for player `me`: their estimate against the best rival's (at the
    end: the real scores, and a bonus for winning)."""
    return against_best_rival(s, me, estimate)


# --- plans: a card, a move -------------------------------------------------------------------
Ship = tuple[int, int, int, int, int]  # space, lap, food, gold, gunpowder


def _land(s: State, me: int, at: Ship, dest: int, crossed: int, forward: int) -> tuple[Ship, float]:
    """Where a move leaves the ship and what it found on the way (a treasure, a battle, a
    shortage beyond its fall-back), the space's cost paid."""
    _, lap, food, gold, powder = at
    if crossed:
        lap += 1 if forward else -1
    if lap >= 1:
        return (PORT_ROYAL, 1, food, gold, powder), 3.0  # finished: the game ends this round
    extra = 0.0
    if dest != PORT_ROYAL and dest in s.pos:  # `in` first: a ship there is the rare case
        foes = [k for k in range(s.ns) if k != me and s.pos[k] == dest]
        if foes:
            extra += max(battle_value(s, me, k, powder) for k in foes)
            powder = max(0, powder - 4)
    kind, cost = SPACE_TYPE[dest], SPACE_COST[dest]
    if kind == LAIR:
        extra += LAIR_BONUS if s.tokens >> dest & 1 else 0.0
    elif kind == PORT or kind == SEA:
        have = gold if kind == PORT else food
        if have >= cost:
            if kind == PORT:
                gold -= cost
            else:
                food -= cost
        else:
            if kind == PORT:
                gold = 0
            else:
                food = 0
            return _shortage(s, (dest, lap, food, gold, powder), extra)
    return (dest, lap, food, gold, powder), extra


def _shortage(s: State, at: Ship, extra: float) -> tuple[Ship, float]:
    space, lap, food, gold, powder = at
    here = position_value(space, lap)
    if s.classic:
        dest = _classic_fallback(space, food, gold)
        return (dest, lap, food, gold, powder), extra - 0.5 + position_value(dest, lap) - here
    likely, expected, likely_value = _fallback_2021(space, lap)
    # the plan goes on from the likeliest space; the value counts the expected fall-back
    return (likely, lap, food, gold, powder), extra - 0.5 + expected - likely_value


@lru_cache(maxsize=1 << 10)
def _fallback_2021(space: int, lap: int) -> tuple[int, float, float]:
    """A 2021 shortage on `space`: the likeliest fall-back, the expected position value after
    the shortage die and the likeliest space's value."""
    outcomes = SHORTAGE_2021[space]
    expected = sum(p * position_value(d, lap) for d, p in outcomes)
    likely = max(outcomes, key=lambda o: (o[1], -o[0]))[0]
    return likely, expected, position_value(likely, lap)


def _classic_fallback(space: int, food: int, gold: int) -> int:
    best = PORT_ROYAL
    for route in BACK_ROUTES[space]:
        for d in route:
            kind, cost = SPACE_TYPE[d], SPACE_COST[d]
            if (
                d == PORT_ROYAL
                or kind == LAIR
                or (kind == PORT and gold >= cost)
                or (kind == SEA and food >= cost)
            ):
                if moves_left(d, 0) < moves_left(best, 0):
                    best = d
                break
    return best


def _options(at: Ship, die: int, forward: bool) -> tuple[tuple[int, bool], ...]:
    space, lap = at[0], at[1]
    if forward:
        table = MOVES_FORWARD_RACE if lap == 0 else MOVES_FORWARD_BEHIND
    else:
        table = MOVES_BACKWARD
    return table[space][die]


def _load(s: State, me: int, at: Ship, kind: int, die: int) -> tuple[Ship, float]:
    space, lap, food, gold, powder = at
    base = me * SLOTS
    free = 0 in s.hold_types[base : base + 5] or s.powers[HOLD6] == me
    cost = 0.0 if free else 0.6  # a hold emptied to make room
    if kind == FOOD:
        food += die
    elif kind == GOLD:
        gold += die
    else:
        powder += die
    return (space, lap, food, gold, powder), -cost


def _value(at: Ship, extra: float) -> float:
    space, lap, food, gold, powder = at
    return position_value(space, lap) + supplies(space, lap, food, gold, powder) + extra


def _half(s: State, me: int, at: Ship, icon: int, die: int) -> list[tuple[Ship, float]]:
    """Every way one half of a card can go (a move: each destination)."""
    if icon == FORWARD or icon == BACKWARD:
        if at[1] >= 1:
            return [(at, 0.0)]
        forward = icon == FORWARD
        return [_land(s, me, at, d, int(c), int(forward)) for d, c in _options(at, die, forward)]
    return [_load(s, me, at, icon, die)]


def ship_now(s: State, me: int) -> Ship:
    return (
        s.pos[me],
        s.lap[me],
        holds_of(s, me, FOOD),
        holds_of(s, me, GOLD),
        holds_of(s, me, GUNPOWDER),
    )


def plan_card(
    s: State, me: int, card: int, morning: int, evening: int, now: Ship | None = None
) -> float:
    """The value of playing `card` with these dice: the best morning, then the best evening from
    where the morning left the ship (`now`: the ship as it is, if known)."""
    m_icon, e_icon = CARDS[card]
    best = float("-inf")
    for at, extra in _half(s, me, ship_now(s, me) if now is None else now, m_icon, morning):
        for end, more in _half(s, me, at, e_icon, evening):
            best = max(best, _value(end, extra + more))
    return best


def _evening_left(s: State, me: int) -> tuple[int, int] | None:
    """The evening half (icon, die) of `me`'s turn in progress, if it is still to come."""
    for t in reversed(s.stack):
        if t[0] == T_ACTION and t[1] == me:
            return (t[2], t[3]) if t[4] == 1 else None
        if t[0] == T_TURN:
            return None
    return None


def _hand(s: State, p: int) -> list[int]:
    return [c for c in range(11) if s.hand[p] >> c & 1]


def quick(s: State, p: int, rng: random.Random) -> Action:
    """The rules-of-thumb answer with the expert's plans for cards, dice and moves."""
    kind = s.decision_kind()
    legal = s.legal
    assert s.q is not None
    ctx = s.q[2]
    if kind == "card":
        now = ship_now(s, p)
        return max(legal, key=lambda a: plan_card(s, p, a - PLAY, s.morning, s.evening, now))
    if kind == "dice_order":
        lo, hi = ctx
        cards = _hand(s, p)
        if not cards:
            return legal[0]
        now = ship_now(s, p)

        def best(m: int, e: int) -> float:
            return max(plan_card(s, p, c, m, e, now) for c in cards)

        return legal[0] if best(lo, hi) >= best(hi, lo) else legal[1]
    if kind == "move":
        ship, mode, options = ctx
        if ship == p and mode == 0:
            return _move(s, p, legal, options)
    return basic_quick(s, p, rng)


def _move(
    s: State, p: int, legal: list[Action], options: tuple[tuple[int, int, int], ...]
) -> Action:
    by_dest = {o[0]: o for o in options}
    evening = _evening_left(s, p)
    at0 = ship_now(s, p)

    def value(a: Action) -> float:
        dest, crossed, forward = by_dest[a - MOVE]
        at, extra = _land(s, p, at0, dest, crossed, forward)
        if evening is None:
            return _value(at, extra)
        return max(_value(end, extra + more) for end, more in _half(s, p, at, *evening))

    return max(legal, key=value)
