"""The observation encoder as it was before issue 14, kept as the baseline `jamaica.envs.bench`
measures the direct encoder against, and as an oracle in the tests: every part of the old vector
(built from `State.view(player)`) is found unchanged in the new one.

Layout: the old table of `encoding` without the question's parameters and the half-turn in
progress (`question.ship` … `resolving.die`).
"""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np

from ..rules.config import Config
from ..rules.data import CARD_NAMES, LAIR_SPACES, NUM_SPACES, RESOURCE_SHORT, TREASURE_NAMES
from ..rules.ops import KIND_NAMES

_KIND = {name: i for i, name in enumerate(KIND_NAMES)}
_CARD = {name: i for i, name in enumerate(CARD_NAMES)}
_RES = {name: i for i, name in enumerate(RESOURCE_SHORT)}
_TREASURE = {name: i for i, name in enumerate(TREASURE_NAMES)}
_LAIR_INDEX = {space: i for i, space in enumerate(LAIR_SPACES)}
_POWER = {"map": 0, "sabre": 1, "beth": 2, "hold6": 3}
SHIP_SIZE = NUM_SPACES + 3 + 1 + 30 + 4 + 1 + 10 + 14


def observation_size_view(config: Config) -> int:
    n, k = config.players, config.ships
    return n + 1 + n + 16 + 16 + n + 9 + 2 + k * SHIP_SIZE + 23 + (1 + 2 * k + 2 + 14 + 1) + k


def encode_view(view: dict[str, Any], n: int, k: int, out: np.ndarray | None = None) -> np.ndarray:
    """The float32 vector for a view (`State.view(player)`) of a game of n players and k ships;
    written into `out` if given."""
    size = n + 1 + n + 16 + 16 + n + 9 + 2 + k * SHIP_SIZE + 23 + (1 + 2 * k + 2 + 14 + 1) + k
    v = array("f", bytes(4 * size))  # zeros; plain item assignment is fast on an array
    me = view["player"]
    if me is not None:
        v[me] = 1.0
    i = n
    v[i] = view["round"] / 100
    i += 1
    if view["captain"] >= 0:
        v[i + view["captain"]] = 1.0
    i += n
    dice = view["dice"]
    v[i + dice["morning"]] = 1.0
    v[i + 7 + dice["evening"]] = 1.0
    roll = dice["roll"]
    if roll:
        v[i + 14] = roll[0] / 6
        v[i + 15] = roll[1] / 6
    i += 16
    pending = view["pending"]
    kind = _KIND.get(pending["kind"])
    if kind is not None:
        v[i + kind] = 1.0
    who = pending["player"]
    if who is not None:
        if who == me:
            v[i + 15] = 1.0
        v[i + 16 + who] = 1.0
    i += 16 + n
    for space in view["lair_tokens"]:
        v[i + _LAIR_INDEX[space]] = 1.0
    i += 9
    v[i] = float(view["ending"])
    v[i + 1] = float(view["game_over"])
    i += 2
    for ship in view["ships"]:
        v[i + ship["space"]] = 1.0
        lap = ship["lap"]
        v[i + NUM_SPACES + (0 if lap < 0 else 1 if lap == 0 else 2)] = 1.0
        j = i + NUM_SPACES + 3
        v[j] = ship["moves_left"] / 76
        j += 1
        for h, hold in enumerate(ship["holds"]):
            v[j + 5 * h + _RES[hold["type"]]] = 1.0
            v[j + 5 * h + 4] = hold["count"] / 12
        j += 30
        for p in ship["powers"]:
            v[j + _POWER[p]] = 1.0
        j += 4
        v[j] = ship["face_down"] / 9
        j += 1
        known = ship["face_down_known"]
        for name in set(known):
            v[j + _TREASURE[name]] = known.count(name) / 2
        j += 10
        if not ship["ghost"]:
            v[j] = ship["hand_size"] / 4
            v[j + 1] = ship["draw_pile"] / 11
            for c in ship["discard"]:
                v[j + 2 + _CARD[c]] = 1.0
            v[j + 13] = float(ship["has_chosen"])
        i += SHIP_SIZE
    for c in view.get("hand", ()):
        v[i + _CARD[c]] = 1.0
    i += 11
    chosen = view.get("chosen")
    v[i + (0 if chosen is None else _CARD[chosen] + 1)] = 1.0
    i += 12
    b = view["battle"]
    if b is not None:
        v[i] = 1.0
        v[i + 1 + b["attacker"]] = 1.0
        v[i + 1 + k + b["defender"]] = 1.0
        j = i + 1 + 2 * k
        v[j] = b["attacker_powder"] / 36
        v[j + 1] = b["defender_powder"] / 36
        v[j + 2 + b["attacker_die"] + 1] = 1.0
        v[j + 9 + b["defender_die"] + 1] = 1.0
        v[j + 16] = float(b["sabre_used"])
    i += 1 + 2 * k + 2 + 14 + 1
    scores = view.get("scores")
    if scores:
        for s, sc in enumerate(scores):
            v[i + s] = sc["total"] / 50
    vector = np.frombuffer(v, dtype=np.float32)
    if out is None:
        return vector
    out[:] = vector
    return out
