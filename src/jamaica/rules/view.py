"""What one player may see (RULES §11): the only place that decides secrecy.

`view(state, player)` is JSON-safe. `player=None` is a spectator: public information only.
At the end of the game every face-down treasure is revealed for scoring.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .data import (
    CARD_NAMES,
    GHOST_NAME,
    HAND_LIMIT,
    HAND_LIMIT_WITH_MAP,
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
from .holds import slot_count
from .ops import CHANCE, KIND_NAMES, TERMINAL

if TYPE_CHECKING:
    from .state import State


def cards(mask: int) -> list[str]:
    return [CARD_NAMES[c] for c in range(NUM_CARDS) if mask >> c & 1]


def can_see(audience: int, player: int | None, everyone: int) -> bool:
    return audience == everyone if player is None else bool(audience >> player & 1)


def _ship(s: State, k: int, me: int | None, over: bool) -> dict[str, Any]:
    base = k * SLOTS
    holds = [
        {"type": RESOURCE_SHORT[s.ht[base + h]], "count": s.hn[base + h]}
        for h in range(slot_count(s, k))
    ]
    face_down = s.fd[k]
    known = [
        TREASURE_NAMES[c & 15] for c in face_down if over or (me is not None and (c >> 6) >> me & 1)
    ]
    ship: dict[str, Any] = {
        "ship": k,
        "name": GHOST_NAME if k == s.gh else PIRATES[k],
        "ghost": k == s.gh,
        "space": s.pos[k],
        "lap": s.lap[k],
        "finished": s.lap[k] >= 1,
        "moves_left": s.moves_left(k),
        "holds": holds,
        "powers": [TREASURE_NAMES[t] for t in range(NUM_POWERS) if s.pw[t] == k],
        "face_down": len(face_down),
        "face_down_known": sorted(known),
    }
    if k != s.gh:
        ship.update(
            hand_size=s.hand[k].bit_count() + (1 if s.chosen[k] >= 0 else 0),
            hand_limit=HAND_LIMIT_WITH_MAP if s.pw[MAP] == k else HAND_LIMIT,
            draw_pile=s.drawp[k].bit_count(),
            discard=cards(s.disc[k]),
            has_chosen=s.chosen[k] >= 0,
        )
    return ship


def view(s: State, player: int | None) -> dict[str, Any]:
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
    out: dict[str, Any] = {
        "player": player,
        "config": s.cfg.to_dict(),
        "round": s.rnd,
        "captain": s.cap,
        "dice": {"roll": list(s.roll), "morning": s.morning, "evening": s.evening},
        "ships": [_ship(s, k, player, over) for k in range(s.ns)],
        "lair_tokens": [space for space in LAIR_SPACES if s.tokens >> space & 1],
        "treasure_pile": sum(1 for space in LAIR_SPACES if s.tokens >> space & 1),
        "overboard": len(s.ob),
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
            for sc in s.scores()
        ]
        out["winners"] = s.winners()
    return out


def _battle(s: State) -> dict[str, Any] | None:
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
    s: State, player: int | None, names: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    if s.events is None:
        return []
    out = []
    for e in s.events:
        if can_see(e[0], player, s.all):
            text = describe(e, s.n, names)
            out.append({"kind": EVENT_NAMES[e[1]], "args": list(e[2:]), "text": text})
    return out
