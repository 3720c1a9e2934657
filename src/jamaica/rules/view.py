"""What one player may see (RULES §11): the only place that decides secrecy.

`view(state, player)` is JSON-safe. `player=None` is a spectator: public information only.
At the end of the game every face-down treasure is revealed for scoring.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .board import moves_left
from .data import (
    CARD_NAMES,
    GHOST_NAME,
    HAND_LIMIT,
    HAND_LIMIT_WITH_MAP,
    HOLD6,
    HOLDS,
    LAIR_SPACES,
    MAP,
    NUM_CARDS,
    NUM_POWERS,
    PIRATES,
    RESOURCE_SHORT,
    SLOTS,
    TREASURE_NAMES,
)
from .events import EVENT_NAMES, describe
from .ops import CHANCE, KIND_NAMES, PUBLIC_BIT, TERMINAL
from .scoring import score, winners

if TYPE_CHECKING:
    from .base import BaseState


_CARD_LISTS = tuple(
    tuple(CARD_NAMES[c] for c in range(NUM_CARDS) if mask >> c & 1)
    for mask in range(1 << NUM_CARDS)
)


def cards(mask: int) -> list[str]:
    return list(_CARD_LISTS[mask])


def can_see(audience: int, player: int | None) -> bool:
    """Whether `player` (None: a spectator) may see an event or a note with this audience.
    Spectators see only what is marked PUBLIC (R16), whoever else is in the audience."""
    return bool(audience >> (PUBLIC_BIT if player is None else player) & 1)


def _ship(s: BaseState, k: int, me: int | None, over: bool) -> dict[str, Any]:
    base = k * SLOTS
    ht, hn, pw = s.hold_types, s.hold_counts, s.powers
    holds = [
        {"type": RESOURCE_SHORT[ht[i]], "count": hn[i]}
        for i in range(base, base + (SLOTS if pw[HOLD6] == k else HOLDS))
    ]
    face_down = s.face_down[k]
    if over:
        known = sorted(TREASURE_NAMES[c & 15] for c in face_down)
    elif me is None or not face_down:
        known = []
    else:
        known = sorted(TREASURE_NAMES[c & 15] for c in face_down if (c >> 6) >> me & 1)
    lap = s.lap[k]
    ghost = k == s.gh
    ship: dict[str, Any] = {
        "ship": k,
        "name": GHOST_NAME if ghost else PIRATES[k],
        "ghost": ghost,
        "space": s.pos[k],
        "lap": lap,
        "finished": lap >= 1,
        "moves_left": moves_left(s.pos[k], lap),
        "holds": holds,
        "powers": [TREASURE_NAMES[t] for t in range(NUM_POWERS) if pw[t] == k],
        "face_down": len(face_down),
        "face_down_known": known,
    }
    if not ghost:
        chosen = s.chosen[k] >= 0
        ship["hand_size"] = s.hand[k].bit_count() + chosen
        ship["hand_limit"] = HAND_LIMIT_WITH_MAP if pw[MAP] == k else HAND_LIMIT
        ship["draw_pile"] = s.drawp[k].bit_count()
        ship["discard"] = list(_CARD_LISTS[s.disc[k]])
        ship["has_chosen"] = chosen
    return ship


def view(s: BaseState, player: int | None) -> dict[str, Any]:
    if player is not None and (
        not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < s.n
    ):
        raise ValueError(f"player must be 0..{s.n - 1} or None, not {player!r}")
    assert s.q is not None
    kind, who, _ = s.q
    over = who == TERMINAL
    pending: dict[str, Any] = {"player": None if who < 0 else who, "chance": who == CHANCE}
    pending["kind"] = "" if over else KIND_NAMES[kind]
    if player is not None and who == player:
        pending["legal"] = [str(a) for a in s.legal]
    tokens = [space for space in LAIR_SPACES if s.tokens >> space & 1]
    out: dict[str, Any] = {
        "player": player,
        "config": s.cfg.to_dict(),
        "round": s.rnd,
        "captain": s.cap,
        "dice": {"roll": list(s.roll), "morning": s.morning, "evening": s.evening},
        "ships": [_ship(s, k, player, over) for k in range(s.ns)],
        "lair_tokens": tokens,
        "treasure_pile": len(tokens),
        "overboard": len(s.overboard),
        "battle": _battle(s),
        "ending": s.ending,
        "pending": pending,
        "game_over": over,
    }
    if player is not None:
        out["hand"] = cards(s.hand[player])
        c = s.chosen[player]
        out["chosen"] = CARD_NAMES[c] if c >= 0 else None
    if over:
        out["scores"] = [
            {
                "position": sc.position,
                "doubloons": sc.doubloons,
                "treasures": sc.treasures,
                "total": sc.total,
            }
            for sc in (score(s, k) for k in range(s.ns))
        ]
        out["winners"] = winners(s)
    return out


def _battle(s: BaseState) -> dict[str, Any] | None:
    b = s.battle
    if b is None:
        return None
    return {
        "attacker": b[0],
        "defender": b[1],
        "attacker_powder": b[2],
        "attacker_die": b[3],
        "defender_powder": b[4],
        "defender_die": b[5],
        "sabre_used": bool(b[6]),
    }


def events_for(
    s: BaseState, player: int | None, names: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    if s.events is None:
        return []
    out = []
    for e in s.events:
        if can_see(e[0], player):
            text = describe(e, s.n, names)
            out.append({"kind": EVENT_NAMES[e[1]], "args": list(e[2:]), "text": text})
    return out


def answer_seen_by(s: BaseState, action: int, player: int | None) -> bool:
    """Whether `player` (None: a spectator) sees `action` answer the pending question of `s`
    (ask before applying it). The player who decides always sees their own answer. Secret
    answers (§11): a card choice ("card") only its decider; a card draw ("draw_card") only the
    drawing player; a treasure draw ("draw_treasure") everyone when a player draws a power (it
    goes face up), else only the drawing ship's player — nobody for the Ghost Ship, whose cards,
    powers included, stay face down; a blind steal ("blind_steal") only the thief and the loser
    (players only); a cursed treasure given as spoils ("give …") only the winner and the loser.
    Every other answer (dice, dice order, the first Captain, moves, loads, payments, attacks,
    gunpowder, the Sabre, other spoils) is public: seen by everyone, spectators included (R16);
    a spectator sees only those."""
    if player is not None and (
        not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < s.n
    ):
        raise ValueError(f"player must be 0..{s.n - 1} or None, not {player!r}")
    q = s.q
    if q is None or q[1] == TERMINAL:
        raise ValueError("no question is pending: the game is over")
    kind, who, ctx = q
    if player is not None and who == player:
        return True
    name = KIND_NAMES[kind]
    if name == "card":
        return False
    if name == "draw_card":
        return player is not None and player == ctx[0]
    if name == "draw_treasure":
        from .actions import TREASURE

        ship = ctx[0]
        if ship == s.gh:
            return False
        return action - TREASURE < NUM_POWERS or (player is not None and player == ship)
    if name == "spoils":
        from .actions import GIVE
        from .data import CURSED

        if not GIVE <= action < GIVE + len(CURSED):
            return True
    elif name != "blind_steal":
        return True
    return player is not None and player in ctx[:2]  # (winner, loser); the Ghost Ship is n
