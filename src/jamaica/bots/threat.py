"""Rival ships as a threat: the expert's estimate of a position, less what a rival's raid could
take next round (issue 28's study of hard's losses: it parked rich ships within reach of rivals
holding gunpowder or the Sabre, and priced only the Ghost Ship's threat).

Pure functions of a world; a bot calls them on worlds drawn from its player's view.
"""

from __future__ import annotations

from typing import Final

from ..rules import State
from ..rules.data import PORT_ROYAL, SABRE
from . import expert
from .heuristics import against_best_rival

REACH: Final = ((3, 0.3), (6, 0.2), (12, 0.07))  # moves apart → odds a rival lands there


def rival_threat(s: State, ship: int) -> float:
    """Expected loss of `ship` to a raid by a rival ship during the coming round: for each rival
    that could reach it, the odds it lands there times what it would win, if attacking pays it."""
    if s.lap[ship] >= 1 or s.pos[ship] == PORT_ROYAL:
        return 0.0
    here = s.moves_left(ship)
    mine = expert.firepower_bonus(s, ship) // 2  # a defender commits about half its gunpowder
    worst = 0.0
    for r in range(s.ns):
        if r == ship or r == s.gh or s.lap[r] >= 1:
            continue
        d = abs(s.moves_left(r) - here)
        if d == 0 or d > 12:
            continue
        reach = next(odds for far, odds in REACH if d <= far)
        theirs = expert.firepower_bonus(s, r)
        if theirs == 0 and s.powers[SABRE] != r:
            continue  # no gunpowder, no Lady Beth, no Sabre: a raid is a coin toss at best
        p = expert.win_chance(theirs, mine, s.powers[SABRE] == r, s.powers[SABRE] == ship)
        gain = p * expert.best_loot(s, ship, r) - (1.0 - p) * expert.best_loot(s, r, ship)
        worst = max(worst, reach * max(0.0, gain))
    return worst


def estimate(s: State, ship: int, me: int) -> float:
    return expert.estimate(s, ship, me) - rival_threat(s, ship)


def evaluate(s: State, me: int) -> float:
    """The expert's evaluation with the threat of rival ships."""
    return against_best_rival(s, me, estimate)
