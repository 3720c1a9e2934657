"""The observation vector: a fixed-size float32 vector of what one player may see (RULES §11).

`encode(state, player)` writes it straight from the engine's state, reading exactly what
`State.view(player)` shows (the two-worlds test in tests/secrecy checks that two worlds the player
cannot tell apart give the same vector) plus the pending question's public parameters
(`rules.progress`), so an agent without memory knows what it is answering. `player=None` is a
spectator. With `relative=True` the seats are rotated so that the observing player comes first
(seat p is written at (p − player) mod n; the Ghost Ship stays last).

`observation_layout(config)` gives each part's slice; `SHIP_LAYOUT` the slices inside one ship's
block. Every value lies in [0, 1] except moves left (up to ~1.4 for a ship a lap behind).

| part | size | content |
|---|---|---|
| me | n | one-hot: the observing player (zeros for a spectator) |
| round | 1 | round / 100 |
| captain | n | one-hot |
| dice.morning, dice.evening | 7 + 7 | die one-hot (0 = not placed, 1–6) |
| dice.roll | 2 | the roll / 6 (low, high) |
| question.kind | 15 | kind of the pending question one-hot (`ops.KIND_NAMES`) |
| question.mine | 1 | the observer decides |
| question.decider | n | who decides, one-hot |
| question.ship | k | the ship the question is about (moves, loads, pays, attacks, fights, wins) |
| question.resource | 3 | food, gunpowder, doubloons: what is loaded or paid |
| question.amount | 1 | tokens to load, or still due / 36 |
| question.mode | 4 | a move: normal, the Ghost Ship's, a 2021 fall-back, a classic fall-back |
| question.side | 2 | a battle question: attacker's or defender's |
| question.firepower | 2 | each side's firepower so far / 48 (0 before its die is rolled) |
| question.loser | k | spoils: the ship that lost |
| resolving.ship | k | whose half-turn is being played (the Ghost Ship's moves too) |
| resolving.card | 11 | the action card in play |
| resolving.half | 2 | morning, evening |
| resolving.die | 1 | that half's die / 6 |
| lairs | 9 | a treasure token still on each lair (spaces 4 9 11 19 22 25 33 37 44) |
| game | 2 | the end was triggered, the game is over |
| ships | k × 113 | per ship, see `SHIP_LAYOUT` |
| hand | 11 | my hand (zeros for a spectator) |
| chosen | 12 | my chosen card one-hot (0 = none, 1–11) |
| battle | 1 + k + k + 2 + 7 + 7 + 1 | a battle is on; attacker one-hot; defender one-hot; gunpowder spent / 36 (both); dice one-hot (0 = not rolled, then 2 4 6 8 10 star); Sabre used |
| scores | k | at the end only: each ship's score / 50 |

Per ship (`SHIP_LAYOUT`, 113): space one-hot (50); lap one-hot (behind, racing, finished); moves
left / 76; 6 hold slots × (empty, food, gunpowder, gold one-hot, count / 12); powers (map, sabre,
Beth, 6th hold); face-down cards / 9; known face-down cards per type / 2; for a player: hand size
/ 4, draw pile / 11, discard pile (11 cards), has chosen (zeros for the Ghost Ship).
"""

from __future__ import annotations

from array import array
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Final

import numpy as np

from ..rules.board import moves_left
from ..rules.config import Config
from ..rules.data import HOLD6, HOLDS, LAIR_SPACES, NUM_CARDS, NUM_POWERS, NUM_SPACES, SLOTS
from ..rules.ops import KIND_NAMES, TERMINAL
from ..rules.progress import question, resolving

if TYPE_CHECKING:
    from ..rules.state import State

_LAIR_INDEX: Final = {space: i for i, space in enumerate(LAIR_SPACES)}

SHIP_PARTS: Final = (
    ("space", NUM_SPACES),
    ("lap", 3),
    ("moves_left", 1),
    ("holds", 5 * SLOTS),
    ("powers", NUM_POWERS),
    ("face_down", 1),
    ("face_down_known", 10),
    ("hand_size", 1),
    ("draw_pile", 1),
    ("discard", NUM_CARDS),
    ("has_chosen", 1),
)


def _slices(parts: list[tuple[str, int]] | tuple[tuple[str, int], ...]) -> dict[str, slice]:
    out: dict[str, slice] = {}
    i = 0
    for name, size in parts:
        out[name] = slice(i, i + size)
        i += size
    return out


SHIP_LAYOUT: Final = _slices(SHIP_PARTS)
SHIP_SIZE: Final = sum(size for _, size in SHIP_PARTS)


def _parts(n: int, k: int) -> list[tuple[str, int]]:
    return [
        ("me", n),
        ("round", 1),
        ("captain", n),
        ("dice.morning", 7),
        ("dice.evening", 7),
        ("dice.roll", 2),
        ("question.kind", len(KIND_NAMES)),
        ("question.mine", 1),
        ("question.decider", n),
        ("question.ship", k),
        ("question.resource", 3),
        ("question.amount", 1),
        ("question.mode", 4),
        ("question.side", 2),
        ("question.firepower", 2),
        ("question.loser", k),
        ("resolving.ship", k),
        ("resolving.card", NUM_CARDS),
        ("resolving.half", 2),
        ("resolving.die", 1),
        ("lairs", len(LAIR_SPACES)),
        ("game", 2),
        ("ships", k * SHIP_SIZE),
        ("hand", NUM_CARDS),
        ("chosen", NUM_CARDS + 1),
        ("battle", 1 + 2 * k + 2 + 14 + 1),
        ("scores", k),
    ]


@cache
def _layout(n: int, k: int) -> dict[str, slice]:
    return _slices(_parts(n, k))


def observation_layout(config: Config) -> dict[str, slice]:
    """Each named part of the vector and its slice, in order (`"ships"` is k blocks of
    `SHIP_LAYOUT`); a fresh dict, the caller may keep it."""
    return dict(_layout(config.players, config.ships))


def observation_size(config: Config) -> int:
    stop: int = _layout(config.players, config.ships)["scores"].stop
    return stop


@cache
def _offsets(n: int, k: int) -> tuple[int, ...]:
    return tuple(part.start for part in _layout(n, k).values())  # in the order of `_parts`


@cache
def _seats(n: int, k: int, me: int | None, relative: bool) -> tuple[int, ...]:
    """Where each ship's data goes: seat p at (p − me) mod n when relative; the Ghost Ship last."""
    if not relative or me is None:
        return tuple(range(k))
    return tuple((p - me) % n for p in range(n)) + tuple(range(n, k))


# The encoder copies blocks into the vector (a slice assignment between arrays is a memory copy)
# instead of writing value by value: a ship's course, holds, face-down cards and cards in play come
# from small caches keyed by what they show, bit masks from tables. A key holds only what the
# observer may see: the face-down cards with the observer (it sees the ones it knows), a hand by
# its size. Each cache keeps its `_CACHE_SIZE` most recent blocks.
_CACHE_SIZE: Final = 1 << 12


def _floats(values: list[float]) -> array[float]:
    return array("f", values)


def _bits(width: int) -> tuple[array[float], ...]:
    return tuple(_floats([float(m >> i & 1) for i in range(width)]) for m in range(1 << width))


_BITS4: Final = _bits(NUM_POWERS)
_BITS11: Final = _bits(NUM_CARDS)
_CHOSEN: Final = tuple(_floats([float(i == c + 1) for i in range(NUM_CARDS + 1)])
                       for c in range(-1, NUM_CARDS))  # fmt: skip


@cache
def _course(pos: int, lap: int) -> array[float]:
    """A ship's space, lap and moves left (the block's first 54 values)."""
    block = [0.0] * (NUM_SPACES + 4)
    block[pos] = 1.0
    block[NUM_SPACES + (0 if lap < 0 else 1 if lap == 0 else 2)] = 1.0
    block[NUM_SPACES + 3] = moves_left(pos, lap) / 76
    return _floats(block)


@lru_cache(maxsize=_CACHE_SIZE)
def _holds(key: tuple[int, ...]) -> array[float]:
    """Hold slots from the types then the counts of the ship's usable holds (5 or 6)."""
    h = len(key) // 2
    block = [0.0] * (5 * SLOTS)
    for i in range(h):
        block[5 * i + key[i]] = 1.0
        block[5 * i + 4] = key[h + i] / 12
    return _floats(block)


@lru_cache(maxsize=_CACHE_SIZE)
def _face_down(cards: tuple[int, ...], knower: int) -> array[float]:
    """The face-down count and the cards `knower` knows per type (-1: none, -2: all, at the end)."""
    block = [0.0] * 11
    block[0] = len(cards) / 9
    if knower != -1:
        for c in cards:
            if knower == -2 or (c >> 6) >> knower & 1:
                block[1 + (c & 15)] += 0.5
    return _floats(block)


@lru_cache(maxsize=_CACHE_SIZE)
def _player(key: int) -> array[float]:
    """Hand size, draw pile, discard pile and has-chosen from a player's key in `encode`."""
    disc, rest = key & 2047, key >> 11
    chosen, rest = rest & 1, rest >> 1
    drawn, hand = rest % 16, rest // 16
    return _floats([hand / 4, drawn / 11]) + _BITS11[disc] + _floats([float(chosen)])


_HOLDS_AT: Final = SHIP_LAYOUT["holds"].start
_POWERS_AT: Final = SHIP_LAYOUT["powers"].start
_FACE_DOWN_AT: Final = SHIP_LAYOUT["face_down"].start
_PLAYER_AT: Final = SHIP_LAYOUT["hand_size"].start


_ZEROS: dict[int, bytes] = {}
_FLOAT32: Final = np.dtype(np.float32)  # a dtype object: `frombuffer` looks a name up each call
_LAIRS: dict[int, array[float]] = {}


def _lairs(tokens: int) -> array[float]:
    return _floats([float(tokens >> space & 1) for space in LAIR_SPACES])


def encode(
    s: State, player: int | None, *, relative: bool = False, out: np.ndarray | None = None
) -> np.ndarray:
    """The float32 vector `player` (None: a spectator) observes in `s`; written into `out` if
    given (and returned)."""
    if isinstance(s, dict):
        raise TypeError("encode() takes the State itself now: encode(state, player)")
    n, k = s.n, s.ns
    if player is not None and not (isinstance(player, int) and 0 <= player < n):
        raise ValueError(f"player must be 0..{n - 1} or None, not {player!r}")
    (o_me, o_round, o_cap, o_morning, o_evening, o_roll, o_kind, o_mine, o_decider, o_qship,
     o_res, o_amount, o_mode, o_side, o_fire, o_loser, o_rship, o_rcard, o_half, o_die, o_lairs,
     o_game, o_ships, o_hand, o_chosen, o_battle, o_scores) = _offsets(n, k)  # fmt: skip
    size = o_scores + k
    zeros = _ZEROS.get(size)
    if zeros is None:
        zeros = _ZEROS[size] = bytes(4 * size)
    v = array("f", zeros)  # item and slice assignment are fast on an array
    seat = _seats(n, k, player, relative)
    me = player
    if me is not None:
        v[o_me + seat[me]] = 1.0
    v[o_round] = s.rnd / 100
    if s.cap >= 0:
        v[o_cap + seat[s.cap]] = 1.0
    v[o_morning + s.morning] = 1.0
    v[o_evening + s.evening] = 1.0
    roll = s.roll
    if roll:
        v[o_roll] = roll[0] / 6
        v[o_roll + 1] = roll[1] / 6
    q = s.q
    assert q is not None
    over = q[1] == TERMINAL
    if not over:
        v[o_kind + q[0]] = 1.0
        who = q[1]
        if who >= 0:
            if who == me:
                v[o_mine] = 1.0
            v[o_decider + seat[who]] = 1.0
            qp = question(s)
            if qp.ship >= 0:
                v[o_qship + seat[qp.ship]] = 1.0
            if qp.resource > 0:
                v[o_res + qp.resource - 1] = 1.0
                v[o_amount] = qp.amount / 36
            if qp.mode >= 0:
                v[o_mode + qp.mode] = 1.0
            if qp.side >= 0:
                v[o_side + qp.side] = 1.0
                f0, f1 = qp.firepower
                if f0 >= 0:
                    v[o_fire] = f0 / 48
                if f1 >= 0:
                    v[o_fire + 1] = f1 / 48
            if qp.other >= 0:
                v[o_loser + seat[qp.other]] = 1.0
        r = resolving(s)
        if r is not None:
            v[o_rship + seat[r.ship]] = 1.0
            if r.card >= 0:
                v[o_rcard + r.card] = 1.0
            v[o_half + r.half] = 1.0
            v[o_die] = r.die / 6
    tokens = s.tokens
    block = _LAIRS.get(tokens)
    if block is None:
        block = _LAIRS[tokens] = _lairs(tokens)
    v[o_lairs : o_lairs + len(LAIR_SPACES)] = block
    v[o_game] = float(s.ending)
    v[o_game + 1] = float(over)
    pos, lap, ht, hn, pw, fd = s.pos, s.lap, s.ht, s.hn, s.pw, s.fd
    gh = s.gh
    powers = [0] * k  # per ship: the bits of the powers it holds
    for t in range(NUM_POWERS):
        if pw[t] >= 0:
            powers[pw[t]] |= 1 << t
    knower = -2 if over else -1 if me is None else me  # who knows face-down cards (-2: all)
    hand, drawp, disc, chosen = s.hand, s.drawp, s.disc, s.chosen
    for ship in range(k):
        i = o_ships + seat[ship] * SHIP_SIZE
        v[i : i + _HOLDS_AT] = _course(pos[ship], lap[ship])
        base = ship * SLOTS
        top = base + (SLOTS if pw[HOLD6] == ship else HOLDS)
        v[i + _HOLDS_AT : i + _POWERS_AT] = _holds((*ht[base:top], *hn[base:top]))
        v[i + _POWERS_AT : i + _FACE_DOWN_AT] = _BITS4[powers[ship]]
        down = fd[ship]
        if down:
            v[i + _FACE_DOWN_AT : i + _PLAYER_AT] = _face_down(down, knower)
        if ship != gh:
            picked = chosen[ship] >= 0
            cards = ((((hand[ship].bit_count() + picked) << 4 | drawp[ship].bit_count()) << 1
                      | picked) << NUM_CARDS) | disc[ship]  # fmt: skip
            v[i + _PLAYER_AT : i + SHIP_SIZE] = _player(cards)
    if me is not None:
        v[o_hand : o_hand + NUM_CARDS] = _BITS11[hand[me]]
        v[o_chosen : o_chosen + NUM_CARDS + 1] = _CHOSEN[chosen[me] + 1]
    else:
        v[o_chosen] = 1.0
    b = s.battle
    if b is not None:
        v[o_battle] = 1.0
        v[o_battle + 1 + seat[b[0]]] = 1.0
        v[o_battle + 1 + k + seat[b[1]]] = 1.0
        j = o_battle + 1 + 2 * k
        v[j] = b[2] / 36
        v[j + 1] = b[4] / 36
        v[j + 2 + b[3] + 1] = 1.0
        v[j + 9 + b[5] + 1] = 1.0
        v[j + 16] = float(b[6])
    if over:
        for ship, sc in enumerate(s.scores()):
            v[o_scores + seat[ship]] = sc.total / 50
    vector = np.frombuffer(v, _FLOAT32)
    if out is None:
        return vector
    out[:] = vector
    return out
