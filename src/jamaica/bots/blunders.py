"""Plain blunders, kept out of the answers `hard` searches (issue 15): a card, a move or a load
that may run short and end the turn no further along the race (a load: by emptying the hold the
evening's space needs), or that attacks the Ghost Ship with less than an even chance.

A card is judged by the worst case of what its player cannot choose — every face of the
shortage die (the player still choosing the route back where it may) and, when a battle is more
than a little risky, losing it and the hold it takes — and by the best branch of what the player
will choose (a fork). Only when no answer is sound that way are the battles left aside, then the
shortages; when no answer passes even that, nothing is kept out.

Like the rest of the expert's knowledge this reads a state only through its player's view: the
board, the holds, the powers, the dice and its own hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from ..rules import Action, State
from ..rules.actions import LOAD, MOVE, PLAY
from ..rules.board import moves_left
from ..rules.data import (
    BACKWARD,
    CARDS,
    FOOD,
    FORWARD,
    GOLD,
    GUNPOWDER,
    LADY_BETH,
    NUM_SPACES,
    PORT,
    PORT_ROYAL,
    SABRE,
    SEA,
    SLOTS,
    SPACE_COST,
    SPACE_TYPE,
)
from ..rules.holds import load_options
from ..rules.progress import EVENING_HALF, resolving
from .expert import (
    SHORTAGE_2021,
    Ship,
    _classic_fallback,
    _evening_left,
    _options,
    firepower_bonus,
    ship_now,
    win_chance,
)
from .heuristics import _hold_worth, holds_of

EVEN: Final = 0.5  # an attack on the Ghost Ship with less than this chance is a blunder
RISKY_BATTLE: Final = 0.2  # a battle lost at least this often may cost a hold
Half = tuple[int, int]  # icon, die
Care = tuple[bool, bool]  # what a plan is judged on: lost battles, fruitless shortages
STRICT: Final[Care] = (True, True)
# The judges tried in turn until one passes an answer: the worst case, battles left aside, then
# the Ghost Ship alone (a shortage leaving the ship where it ran short, as the mistake check
# has it).
CARES: Final[tuple[Care, ...]] = (STRICT, (False, True), (False, False))


def ghost_odds(s: State, me: int, powder: int) -> float:
    """P(`me` beats the Ghost Ship attacking it with all `powder`; a tie counts half)."""
    mine = powder + (2 if s.powers[LADY_BETH] == me else 0)
    theirs = 2 if s.powers[LADY_BETH] == s.gh else 0
    return win_chance(mine, theirs, s.powers[SABRE] == me, False)


def weak_ghost_attack(s: State, me: int, dest: int, powder: int) -> bool:
    g = s.gh
    return g >= 0 and dest != PORT_ROYAL and s.pos[g] == dest and ghost_odds(s, me, powder) < EVEN


def _loss_risk(s: State, me: int, dest: int, powder: int) -> float:
    """P(`me` does not win the battle that landing on `dest` starts; 0 with nobody there)."""
    foes = [k for k in range(s.ns) if k != me and s.pos[k] == dest]
    if dest == PORT_ROYAL or not foes:
        return 0.0
    mine = firepower_bonus(s, me, powder)
    risk = 0.0
    for k in foes:
        beth = 2 if s.powers[LADY_BETH] == k else 0
        theirs = 2 if k == s.gh else min(holds_of(s, k, GUNPOWDER), 6) + beth
        won = win_chance(mine, theirs, s.powers[SABRE] == me, s.powers[SABRE] == k)
        risk = max(risk, 1.0 - won)
    return risk


def fallbacks(s: State, at: Ship, dest: int) -> list[int]:
    """Every space a shortage on `dest` may leave the ship on (the best route for each face of
    the shortage die; the classic edition's one space)."""
    if s.classic:
        return [_classic_fallback(dest, at[2], at[3])]
    return [d for d, _ in SHORTAGE_2021[dest]]


def landings(
    s: State, me: int, at: Ship, move: tuple[int, int, int], battles: bool, falls: bool = True
) -> list[tuple[Ship, bool]] | None:
    """Every way a move (destination, crossed the start line, forward) may leave the ship, with
    whether it ran short: each shortage fall-back (without `falls`: where it ran short), and with
    `battles` a lost battle's loss of its food or its doubloons. None when the move attacks the
    Ghost Ship weakly."""
    dest, crossed, forward = move
    _, lap, food, gold, powder = at
    if crossed:
        lap += 1 if forward else -1
    if lap >= 1:
        return [((PORT_ROYAL, 1, food, gold, powder), False)]
    if weak_ghost_attack(s, me, dest, powder):
        return None
    holds = [(food, gold)]
    if battles and _loss_risk(s, me, dest, powder) >= RISKY_BATTLE:
        holds += [(0, gold), (food, 0)]
        powder = 0
    kind, cost = SPACE_TYPE[dest], SPACE_COST[dest]
    out: list[tuple[Ship, bool]] = []
    for f, g in holds:
        if dest == PORT_ROYAL or (kind != SEA and kind != PORT):
            out.append(((dest, lap, f, g, powder), False))
        elif kind == SEA and f >= cost:
            out.append(((dest, lap, f - cost, g, powder), False))
        elif kind == PORT and g >= cost:
            out.append(((dest, lap, f, g - cost, powder), False))
        else:
            f, g = (0, g) if kind == SEA else (f, 0)
            fell = fallbacks(s, (dest, lap, f, g, powder), dest) if falls else [dest]
            out += [((d, lap, f, g, powder), True) for d in fell]
    return out


def sound(
    s: State, me: int, at: Ship, halves: Sequence[Half], start_left: int, short: bool = False,
    care: Care = STRICT,
) -> bool:  # fmt: skip
    """Whether the ship, at `at`, can play the rest of its turn (`halves`) so that whatever the
    dice (and, caring for battles, a lost battle) do, it never attacks the Ghost Ship weakly and
    (caring for shortages) never ends the turn short and no further along than `start_left` moves
    from the finish."""
    battles, shortages = care
    if not halves:
        return not (shortages and short and moves_left(at[0], at[1]) >= start_left)
    (icon, die), rest = halves[0], halves[1:]
    if at[1] >= 1:
        return sound(s, me, at, rest, start_left, short, care)
    if icon != FORWARD and icon != BACKWARD:
        loads = _loads(s, me, at, icon, die)
        return any(sound(s, me, after, rest, start_left, short, care) for after in loads)
    forward = icon == FORWARD
    for dest, crossed in _options(at, die, forward):
        outs = landings(s, me, at, (dest, int(crossed), int(forward)), battles, shortages)
        if outs is not None and all(
            sound(s, me, end, rest, start_left, short or ran_short, care) for end, ran_short in outs
        ):
            return True
    return False


def turn_starts(s: State, p: int, now: Ship) -> list[tuple[int, bool]]:
    """Where `p`'s turn may have begun (moves from the finish) and whether its morning ran short:
    the ship as it is, unless `p` plays the evening half of a card whose morning moved it. The
    rules keep no record of it, so it is read back from the morning's move: every space from
    which that move ends where the ship is, or, when none does, every space from which it ends
    where a shortage falls back to the ship's space (its food or its doubloons all paid)."""
    here = [(moves_left(now[0], now[1]), False)]
    r = resolving(s)
    if r is None or r.ship != p or r.half != EVENING_HALF or r.card < 0:
        return here
    icon = CARDS[r.card][0]
    if icon != FORWARD and icon != BACKWARD:
        return here
    forward = icon == FORWARD
    space, lap, food, gold, _ = now
    direct: set[tuple[int, bool]] = set()
    short: set[tuple[int, bool]] = set()
    for lap0 in (-1, 0):
        for x in range(NUM_SPACES):
            for dest, crossed in _options((x, lap0, 0, 0, 0), s.morning, forward):
                if lap0 + ((1 if forward else -1) if crossed else 0) != lap:
                    continue
                left = moves_left(x, lap0)
                if dest == space:
                    direct.add((left, False))
                kind = SPACE_TYPE[dest]
                emptied = (kind == SEA and food == 0) or (kind == PORT and gold == 0)
                if emptied and dest != PORT_ROYAL and space in fallbacks(s, now, dest):
                    short.add((left, True))
    return sorted(direct or short) or here


def _first_sound(legal: list[Action], judges: Sequence[Callable[[Action], bool]]) -> list[Action]:
    """The answers the first judge that passes any keeps (all of them: nothing kept out)."""
    for judge in judges:
        keep = [a for a in legal if judge(a)]
        if keep:
            return keep
    return legal


def sound_actions(s: State, p: int) -> list[Action] | None:
    """The answers to `p`'s question (a card, or its own move) that are no plain blunder, when
    some are; None when nothing is to be kept out."""
    kind = s.decision_kind()
    legal = s.legal
    now = ship_now(s, p)
    start_left = moves_left(now[0], now[1])
    keep = legal
    if kind == "card":

        def card(care: Care) -> Callable[[Action], bool]:
            def judge(a: Action) -> bool:
                halves = tuple(zip(CARDS[a - PLAY], (s.morning, s.evening), strict=True))
                return sound(s, p, now, halves, start_left, False, care)

            return judge

        keep = _first_sound(legal, [card(care) for care in CARES])
    elif kind == "move":
        assert s.q is not None
        ship, mode, options = s.q[2]
        if ship != p or mode != 0:
            return None
        by_dest = {o[0]: o for o in options}
        evening = _evening_left(s, p)
        rest = () if evening is None else (evening,)
        starts = turn_starts(s, p, now)  # the evening: where the morning may have begun

        def move(care: Care) -> Callable[[Action], bool]:
            def judge(a: Action) -> bool:
                outs = landings(s, p, now, by_dest[a - MOVE], *care)
                return outs is not None and all(
                    sound(s, p, end, rest, left, was_short or short, care)
                    for end, short in outs
                    for left, was_short in starts
                )

            return judge

        keep = _first_sound(legal, [move(care) for care in CARES])
    elif kind == "load":
        assert s.q is not None
        ship, resource, amount = s.q[2]
        evening = _evening_left(s, p)
        if ship != p or evening is None:
            return None

        def load(care: Care) -> Callable[[Action], bool]:
            def judge(a: Action) -> bool:
                after = _loaded(s, p, now, a - LOAD, resource, amount)
                return sound(s, p, after, (evening,), start_left, False, care)

            return judge

        keep = _first_sound(legal, [load(care) for care in CARES])
    return keep if len(keep) < len(legal) else None


def _loaded(s: State, p: int, at: Ship, hold: int, resource: int, amount: int) -> Ship:
    """The ship once `amount` of `resource` is loaded into `hold` (emptied first)."""
    space, lap, *cargo = at
    i = p * SLOTS + hold
    for k, kind in enumerate((FOOD, GOLD, GUNPOWDER)):
        cargo[k] = max(0, cargo[k] - (s.hold_counts[i] if s.hold_types[i] == kind else 0))
        cargo[k] += amount if resource == kind else 0
    return (space, lap, cargo[0], cargo[1], cargo[2])


def _loads(s: State, p: int, at: Ship, resource: int, amount: int) -> list[Ship]:
    """Every way a load may leave the ship, one per hold the player may load into (with every
    hold full, a hold of another type is emptied first; the holds as they are now)."""
    options = load_options(s, p, resource)
    if not options:
        return [at]  # every hold holds this type: the load is ignored
    return [_loaded(s, p, at, a - LOAD, resource, amount) for a in options]


def mend(s: State, p: int, answer: Action) -> Action:
    """`answer` (of the rules of thumb), or, if it is a blunder another answer avoids, the sound
    answer the rules of thumb like best (a load: the hold worth least)."""
    keep = sound_actions(s, p)
    if keep is None or answer in keep:
        return answer
    if s.decision_kind() == "load":
        return min(keep, key=lambda a: _hold_worth(s, p, a - LOAD))
    return keep[0]
