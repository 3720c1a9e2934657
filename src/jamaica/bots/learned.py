"""The `learned` bot: a small policy network trained by `jamaica train` (numpy only).

The policy reads `features(state.view(player))`, a fixed-size vector that does not depend on the
number of players, so the one set of weights plays every configuration: the ships are listed
from the player's seat (the player first, then the next seats in turn order, the Ghost Ship in the
last slot), and every ship named by an action (`attack K`) is renamed by its slot the same way.
A hidden layer of `tanh` units gives one logit per player action; the bot plays the legal action
with the highest logit (or samples it, for training). It sees what its player may see and nothing
more: the view is the one function that decides secrecy.

The weights ship as `learned.npz` beside this module (package data). `load()` checks that their
shape matches `FEATURES` and the 140 actions, so a change to the features fails loudly.
"""

from __future__ import annotations

import contextlib
import math
import random
from array import array
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

import numpy as np

from ..rules import Action, State
from ..rules.actions import ACTIONS, ATTACK, NUM_PLAYER_ACTIONS
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
HIDDEN: Final = 64
WEIGHTS_FILE: Final = "learned.npz"


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


@dataclass
class Policy:
    """logits = W2 · tanh(W1 · x + b1) + b2, one logit per player action."""

    w1: np.ndarray  # (HIDDEN, FEATURES)
    b1: np.ndarray
    w2: np.ndarray  # (NUM_PLAYER_ACTIONS, HIDDEN)
    b2: np.ndarray

    @staticmethod
    def initial(seed: int, hidden: int = HIDDEN) -> Policy:
        rng = np.random.default_rng(seed)
        return Policy(
            (rng.standard_normal((hidden, FEATURES)) / math.sqrt(FEATURES)).astype(np.float32),
            np.zeros(hidden, np.float32),
            (rng.standard_normal((NUM_PLAYER_ACTIONS, hidden)) * 0.01).astype(np.float32),
            np.zeros(NUM_PLAYER_ACTIONS, np.float32),
        )

    def params(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.w2, self.b2]

    def check(self) -> None:
        h = self.b1.shape[0]
        want = [(h, FEATURES), (h,), (NUM_PLAYER_ACTIONS, h), (NUM_PLAYER_ACTIONS,)]
        got = [p.shape for p in self.params()]
        if got != want:
            raise ValueError(f"learned weights have shapes {got}, the features need {want}")

    def logits(self, x: np.ndarray, rows: list[int]) -> np.ndarray:
        h = np.tanh(self.w1 @ x + self.b1)
        return self.w2[rows] @ h + self.b2[rows]  # type: ignore[no-any-return]

    def save(self, path: str) -> None:
        """Half-precision weights, compressed (about 100 kB)."""
        half = [p.astype(np.float16) for p in self.params()]
        np.savez_compressed(path, w1=half[0], b1=half[1], w2=half[2], b2=half[3])

    @staticmethod
    def load(path: Any = None) -> Policy:
        """The weights at `path`, or the shipped ones."""
        if path is None:
            where: Any = resources.as_file(resources.files(__package__) / WEIGHTS_FILE)
        else:
            where = contextlib.nullcontext(path)
        with where as file, np.load(file) as data:
            policy = Policy(*(data[k].astype(np.float32) for k in ("w1", "b1", "w2", "b2")))
        policy.check()
        return policy


_SHIPPED: list[Policy] = []


def shipped() -> Policy:
    """The shipped weights, loaded once."""
    if not _SHIPPED:
        _SHIPPED.append(Policy.load())
    return _SHIPPED[0]


class LearnedBot:
    """Plays the legal action the policy rates highest (`sample=True`: draws one with the
    policy's probabilities, from its seeded generator)."""

    def __init__(
        self, seed: int | None = None, policy: Policy | None = None, sample: bool = False
    ) -> None:
        self.rng = random.Random(seed)
        self.policy = policy if policy is not None else shipped()
        self.sample = sample

    def act(self, state: State, player: int) -> Action:
        legal = state.legal
        if len(legal) == 1:
            return legal[0]
        logits = self.policy.logits(features(state.view(player)), outputs(state, player))
        if not self.sample:
            return ACTIONS[int(legal[int(np.argmax(logits))])]
        p = np.exp(logits - logits.max())
        x = self.rng.random() * float(p.sum())
        return ACTIONS[int(legal[min(int(np.searchsorted(np.cumsum(p), x)), len(legal) - 1)])]
