"""The information state tensor of `python_jamaica`: a fixed-size float32 vector of everything one
player knows — the view now, and what the game showed them that the view no longer shows.

OpenSpiel's `information_state_string` (envs/openspiel.py) defines what a player knows: where
the game stands, their secrets, and every event and answer they saw, in order. A fixed size
cannot hold that order (a game has ~1,000 of them), so the tensor keeps its *content*. Its
parts, in order (n players, k ships; a count c is written c / scale):

- `view` (the observation size): `encoding.encode(state, player)`, the observation tensor — the
  board, the question, my hand;
- `known_in_hand` (n × 11): per player, the cards everyone knows to be in that hand (their hand
  when they last reshuffled, less what they have played since);
- `places` ((k + 1) × 13 × (1 + n)): per ship, then the cards thrown overboard; per row — the 10
  treasure types of the face-down cards I know, then the 3 public classes (any card, not a
  power, cursed) of those I do not — the number of such cards, then how many of them each
  player knows (/ 4);
- `pool` (10): per treasure type, the cards whose place I do not know: the pile and the
  face-down cards I do not know (/ 2);
- `recall` (2): the events and the answers I have seen (/ 1024);
- `events` (42): per kind of event (`rules.events.EVENT_NAMES`), how many I have seen (/ 64);
- `own_actions` (140): per player action id, how many times I chose it (/ 64);
- `reveals` (n × 11): per player and action card, how many times I saw it revealed (/ 16);
- `treasures_seen` (10): per treasure type, how many times I saw a card of that type (drawn face
  up, or drawn, stolen or given face down before my eyes) (/ 4).

Seats are absolute, as in the observation tensor. Sizes: 878 values for 2 players and the Ghost
Ship, 1,216 for 4, 1,816 for 6.

**What the tensor knows, precisely.** Whatever the history, it is a function of the information
state alone (two histories with the same information state string give the same tensor: it
reads only the events and answers the player saw, and the state the player can see), and it
loses nothing of what that information implies about the game now and to come:

1. The view and the question (part *view*), as the observation tensor has them.
2. *The set of worlds consistent with what the player saw, and their weights* — what
   `State.resample(player, rng)` draws from. The engine records the public knowledge of the
   rules (RULES §11, R15, R16): the cards known to be in each hand since its reshuffle; per
   face-down card, who knows its value and, for the others, its public class; the rest of each
   player's cards is uniformly unknown. Given the view, these fix the worlds: each opponent's
   hidden cards are drawn from what is neither discarded nor known in hand (*known_in_hand*);
   each face-down card the player does not know is drawn from the *pool* within its class
   (*places*). Who else knows a card is public, and a card is known by at most its ship's
   player and one other (the giver of a cursed treasure, or the player robbed by a blind
   steal; nobody for the Ghost Ship's own draws), so the per-player counts of *places* give the
   multiset of each place's cards exactly — as far as the order of a ship's cards matters to
   nobody (a blind steal draws one uniformly).
3. A summary of the history: how much was seen (*recall*: along one game a player's recall
   only grows, so two of their information states with different recalls differ in it, and
   two with the same recall differ in the view), per kind of event, the player's own past
   choices, every card revealed since the game began (the discard piles show them only since the
   last reshuffle), and every treasure the player saw — including those whose place was lost
   when a blind steal or a gift left a ship's cards indistinguishable (R16: the engine then
   forgets which is which, and so does `resample`).

What is dropped is the *order* of the events and answers beyond those counts: two information
states with the same tensor describe the same position, the same worlds with the same weights
and the same counts, reached in a different order. (A fixed-size vector can always be made
injective by packing the history into floats, but no network could read it.)
tests/envs/test_infostate.py checks each claim: equal strings give equal tensors (resampled
worlds, and the two-worlds test in tests/secrecy); within a game different strings give
different tensors; and across random games, equal tensors always come with equal knowledge — the
same view, the same worlds (as `resample` sees them) and the same counts — computed independently
from the engine and the player's recall.

`information_state_layout(config)` names each part's slice and shape (OpenSpiel's observer exposes
them in its `dict`); `tensor(...)` builds it from the engine and the player's history counts
(which `envs/openspiel.py` keeps per player and extends as the game goes). A call of
`information_state_tensor` costs 29–44 µs of CPU with 2 players, 35–47 with 4, 46–57 with 6
(`python -m jamaica.envs.bench --infostate`, on the shared 2-core machine under load): about a
third is the encoder, a half the list of floats pyspiel's API returns (12 ns a value).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Final

import numpy as np

from ..rules.actions import NUM_PLAYER_ACTIONS
from ..rules.config import Config
from ..rules.data import NUM_CARDS, NUM_TREASURE_TYPES
from ..rules.events import (
    E_FACE_DOWN_SEEN,
    E_GIVE_SEEN,
    E_POWER,
    E_REVEAL,
    E_STEAL_SEEN,
    EVENT_NAMES,
)
from .encoding import encode, observation_size

if TYPE_CHECKING:
    from ..rules.state import State

NUM_CLASSES: Final = 3  # CLASS_ANY, CLASS_TREASURE, CLASS_CURSED (rules.data)
ROWS: Final = NUM_TREASURE_TYPES + NUM_CLASSES  # per place: known types, then unknown classes

# Scales: a count c is written c / scale (powers of two, so sums of increments stay exact).
PLACE_SCALE: Final = 4.0
POOL_SCALE: Final = 2.0
RECALL_SCALE: Final = 1024.0
EVENT_SCALE: Final = 64.0
ACTION_SCALE: Final = 64.0
REVEAL_SCALE: Final = 16.0
TREASURE_SCALE: Final = 4.0


def _parts(config: Config) -> list[tuple[str, tuple[int, ...]]]:
    n, k = config.players, config.ships
    return [
        ("view", (observation_size(config),)),
        ("known_in_hand", (n, NUM_CARDS)),
        ("places", (k + 1, ROWS, 1 + n)),
        ("pool", (NUM_TREASURE_TYPES,)),
        ("recall", (2,)),
        ("events", (len(EVENT_NAMES),)),
        ("own_actions", (NUM_PLAYER_ACTIONS,)),
        ("reveals", (n, NUM_CARDS)),
        ("treasures_seen", (NUM_TREASURE_TYPES,)),
    ]


@cache
def _layout(config: Config) -> tuple[tuple[str, slice, tuple[int, ...]], ...]:
    out = []
    i = 0
    for name, shape in _parts(config):
        size = int(np.prod(shape))
        out.append((name, slice(i, i + size), shape))
        i += size
    return tuple(out)


def information_state_layout(config: Config) -> dict[str, tuple[slice, tuple[int, ...]]]:
    """Each part of the tensor, in order: its slice and its shape (a fresh dict)."""
    return {name: (part, shape) for name, part, shape in _layout(config)}


def information_state_size(config: Config) -> int:
    stop: int = _layout(config)[-1][1].stop
    return stop


# --- the history part: counts kept per player, extended from where they were last read --------
def history_size(n: int) -> int:
    """recall, events, own_actions, reveals, treasures_seen."""
    return 2 + len(EVENT_NAMES) + NUM_PLAYER_ACTIONS + n * NUM_CARDS + NUM_TREASURE_TYPES


@cache
def _history_zeros(n: int) -> array[float]:
    return array("f", bytes(4 * history_size(n)))


def new_history(n: int) -> array[float]:
    """The history counts of a player who has seen nothing yet (a fresh array)."""
    return _history_zeros(n)[:]


_O_EVENTS: Final = 2
_O_ACTIONS: Final = _O_EVENTS + len(EVENT_NAMES)
_O_REVEALS: Final = _O_ACTIONS + NUM_PLAYER_ACTIONS
_SEEN_TREASURE: Final = {E_POWER: 1, E_FACE_DOWN_SEEN: 1, E_STEAL_SEEN: 2, E_GIVE_SEEN: 2}
_EVENT_STEP: Final = 1 / EVENT_SCALE
_ACTION_STEP: Final = 1 / ACTION_SCALE
_REVEAL_STEP: Final = 1 / REVEAL_SCALE
_TREASURE_STEP: Final = 1 / TREASURE_SCALE
_RECALL_STEP: Final = 1 / RECALL_SCALE


def add_events(
    h: array[float], n: int, player: int, events: Sequence[tuple[int, ...]], start: int
) -> None:
    """Count into `h` the events from `start` on that `player` saw."""
    o_treasures = _O_REVEALS + n * NUM_CARDS
    seen = 0
    for i in range(start, len(events)):
        e = events[i]
        if not e[0] >> player & 1:
            continue
        seen += 1
        code = e[1]
        h[_O_EVENTS + code] += _EVENT_STEP
        if code == E_REVEAL:
            h[_O_REVEALS + e[2] * NUM_CARDS + e[3]] += _REVEAL_STEP
        else:
            arg = _SEEN_TREASURE.get(code)
            if arg is not None:
                h[o_treasures + e[2 + arg]] += _TREASURE_STEP
    h[0] += seen * _RECALL_STEP


def add_answer(h: array[float], own: bool, action: int) -> None:
    """Count into `h` one answer the player saw (`own`: the player's decision)."""
    h[1] += _RECALL_STEP
    if own:
        h[_O_ACTIONS + action] += _ACTION_STEP


# --- the whole tensor --------------------------------------------------------------------------
@cache
def _bits(width: int, mask: int) -> array[float]:
    return array("f", [float(mask >> i & 1) for i in range(width)])


_CARD_BITS: Final = tuple(_bits(NUM_CARDS, m) for m in range(1 << NUM_CARDS))


_FRAMES: dict[tuple[int, int], tuple[int, int, int, int, array[float]]] = {}


def _frame(s: State) -> tuple[int, int, int, int, array[float]]:
    """The offsets of known_in_hand, places, pool and the history counts, and the tensor's
    zeros (kept per number of players and ships: the layout depends on nothing else)."""
    frame = _FRAMES.get((s.n, s.ns))
    if frame is None:
        parts = {name: part for name, part, _ in _layout(s.cfg)}
        zeros = array("f", bytes(4 * information_state_size(s.cfg)))
        starts = [parts[name].start for name in ("known_in_hand", "places", "pool", "recall")]
        frame = _FRAMES[s.n, s.ns] = (starts[0], starts[1], starts[2], starts[3], zeros)
    return frame


_PLACE_STEP: Final = 1 / PLACE_SCALE
_POOL_STEP: Final = 1 / POOL_SCALE
_FLOAT32: Final = np.dtype(np.float32)


def tensor(s: State, player: int, history: array[float]) -> array[float]:
    """The tensor of `player` in `s`, with their `history` counts (`add_events`, `add_answer`),
    as a fresh array of floats."""
    n = s.n
    o_known, o_places, o_pool, o_history, zeros = _frame(s)
    v = zeros[:]
    view = encode(s, player)
    source = getattr(view.base, "obj", None)  # the encoder's own array: copied as memory
    if isinstance(source, array) and source.typecode == "f" and len(source) == o_known:
        v[:o_known] = source
    else:
        np.frombuffer(v, _FLOAT32)[:o_known] = view
    known = s.known_in_hand
    for q in range(n):
        if known[q]:
            i = o_known + q * NUM_CARDS
            v[i : i + NUM_CARDS] = _CARD_BITS[known[q]]
    width = 1 + n
    pool = s.pile[:]
    places = s.face_down
    for where in range(s.ns + 1):
        cards = places[where] if where < s.ns else s.overboard
        if not cards:
            continue
        block = o_places + where * ROWS * width
        for c in cards:
            knowers = c >> 6
            if knowers >> player & 1:
                i = block + (c & 15) * width
            else:
                pool[c & 15] += 1
                i = block + (NUM_TREASURE_TYPES + (c >> 4 & 3)) * width
            v[i] += _PLACE_STEP
            q = 0
            while knowers:
                if knowers & 1:
                    v[i + 1 + q] += _PLACE_STEP
                knowers >>= 1
                q += 1
    for t in range(NUM_TREASURE_TYPES):
        if pool[t]:
            v[o_pool + t] = pool[t] * _POOL_STEP
    v[o_history:] = history
    return v


def write(s: State, player: int, history: array[float], out: np.ndarray) -> np.ndarray:
    """The tensor written into `out` (and returned)."""
    out[:] = np.frombuffer(tensor(s, player, history), _FLOAT32)
    return out


def as_list(s: State, player: int, history: array[float]) -> list[float]:
    """The tensor as a list of floats (what pyspiel's `information_state_tensor` returns)."""
    values: list[float] = tensor(s, player, history).tolist()
    return values
