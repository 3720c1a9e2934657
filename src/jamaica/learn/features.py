"""What the `learned` bot's policy reads: a player's view as a fixed-size vector, and the output
row of each legal action.

The vector does not depend on the number of players, so the one set of weights plays every
configuration: the ships are listed from the player's seat (the player first, then the next seats
in turn order, the Ghost Ship in the last slot), and every ship named by an action (`attack K`)
is renamed by its slot the same way. It holds what the player may see and nothing more: it is
computed from `State.view(player)`, the one function that decides secrecy.
"""

from __future__ import annotations

from array import array
from typing import Any, Final

import numpy as np

from ..rules import State
from ..rules.actions import ATTACK
from ..rules.data import CARD_NAMES, LAIR_SPACES, NUM_SPACES, RESOURCE_SHORT, TREASURE_NAMES
from ..rules.ops import KIND_NAMES

SLOTS_SHIPS: Final = 6  # the most ships in a game (6 players, or 5 and the Ghost Ship)
GHOST_SLOT: Final = SLOTS_SHIPS - 1
_KIND = {name: i for i, name in enumerate(KIND_NAMES)}
_CARD = {name: i for i, name in enumerate(CARD_NAMES)}
_RES = {name: i for i, name in enumerate(RESOURCE_SHORT)}
_TREASURE = {name: i for i, name in enumerate(TREASURE_NAMES)}
_LAIR = {space: i for i, space in enumerate(LAIR_SPACES)}
_POWER = {"map": 0, "sabre": 1, "beth": 2, "hold6": 3}
_NCARDS, _NKINDS = len(CARD_NAMES), len(KIND_NAMES)

# global: round, Captain's slot, morning and evening die, the roll, question kind, mine, lairs, end
GLOBAL: Final = 1 + SLOTS_SHIPS + 7 + 7 + 2 + _NKINDS + 1 + len(LAIR_SPACES) + 1
# per ship: present, space, lap, moves left, holds, powers, face-down, known, hand, pile, discard,
# has chosen
SHIP: Final = 1 + NUM_SPACES + 3 + 1 + 30 + 4 + 1 + len(TREASURE_NAMES) + 1 + 1 + _NCARDS + 1
MINE: Final = _NCARDS + _NCARDS + 1  # my hand, my chosen card (0 = none)
BATTLE: Final = 1 + 2 * SLOTS_SHIPS + 2 + 7 + 7 + 1
FEATURES: Final = GLOBAL + SLOTS_SHIPS * SHIP + MINE + BATTLE


def slots(n: int, ghost: bool, me: int) -> list[int]:
    """The slot of each ship (index = ship) as `me` sees the table."""
    out = [(k - me) % n for k in range(n)]
    if ghost:
        out.append(GHOST_SLOT)
    return out


def features(view: dict[str, Any]) -> np.ndarray:
    """The policy's input for a player's view (`State.view(player)`)."""
    v = array("f", bytes(4 * FEATURES))
    me = view["player"]
    ships = view["ships"]
    n = view["config"]["players"]
    slot = slots(n, len(ships) > n, me)
    v[0] = view["round"] / 100
    if view["captain"] >= 0:
        v[1 + slot[view["captain"]]] = 1.0
    i = 1 + SLOTS_SHIPS
    dice = view["dice"]
    v[i + dice["morning"]] = 1.0
    v[i + 7 + dice["evening"]] = 1.0
    roll = dice["roll"]
    if roll:
        v[i + 14], v[i + 15] = roll[0] / 6, roll[1] / 6
    i += 16
    pending = view["pending"]
    kind = _KIND.get(pending["kind"])
    if kind is not None:
        v[i + kind] = 1.0
    v[i + _NKINDS] = float(pending["player"] == me)
    i += _NKINDS + 1
    for space in view["lair_tokens"]:
        v[i + _LAIR[space]] = 1.0
    i += len(LAIR_SPACES)
    v[i] = float(view["ending"])
    i += 1
    for ship in ships:
        j = i + slot[ship["ship"]] * SHIP
        v[j] = 1.0
        v[j + 1 + ship["space"]] = 1.0
        lap = ship["lap"]
        j += 1 + NUM_SPACES
        v[j + (0 if lap < 0 else 1 if lap == 0 else 2)] = 1.0
        v[j + 3] = ship["moves_left"] / 76
        j += 4
        for h, hold in enumerate(ship["holds"]):
            v[j + 5 * h + _RES[hold["type"]]] = 1.0
            v[j + 5 * h + 4] = hold["count"] / 12
        j += 30
        for p in ship["powers"]:
            v[j + _POWER[p]] = 1.0
        v[j + 4] = ship["face_down"] / 9
        j += 5
        known = ship["face_down_known"]
        for name in set(known):
            v[j + _TREASURE[name]] = known.count(name) / 2
        j += len(TREASURE_NAMES)
        if not ship["ghost"]:
            v[j] = ship["hand_size"] / 4
            v[j + 1] = ship["draw_pile"] / 11
            for c in ship["discard"]:
                v[j + 2 + _CARD[c]] = 1.0
            v[j + 2 + _NCARDS] = float(ship["has_chosen"])
    i += SLOTS_SHIPS * SHIP
    for c in view.get("hand", ()):
        v[i + _CARD[c]] = 1.0
    chosen = view.get("chosen")
    v[i + _NCARDS + (0 if chosen is None else _CARD[chosen] + 1)] = 1.0
    i += MINE
    b = view["battle"]
    if b is not None:
        v[i] = 1.0
        v[i + 1 + slot[b["attacker"]]] = 1.0
        v[i + 1 + SLOTS_SHIPS + slot[b["defender"]]] = 1.0
        j = i + 1 + 2 * SLOTS_SHIPS
        v[j], v[j + 1] = b["attacker_powder"] / 36, b["defender_powder"] / 36
        v[j + 2 + b["attacker_die"] + 1] = 1.0
        v[j + 9 + b["defender_die"] + 1] = 1.0
        v[j + 16] = float(b["sabre_used"])
    return np.frombuffer(v, dtype=np.float32)


def outputs(state: State, player: int) -> list[int]:
    """The policy's output index for each legal action (`attack K` renamed by K's slot)."""
    slot = slots(state.n, state.ns > state.n, player)
    out = []
    for a in state.legal:
        k = a - ATTACK
        out.append(ATTACK + slot[k] if 0 <= k < 7 else int(a))
    return out
