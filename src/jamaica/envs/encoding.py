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

**One size for every player count** (`encode_fixed(state, player)`, float32[`FIXED_SIZE`] = 969,
`fixed_layout()`): the seat-relative vector laid out as for n = 6 seats and k = 7 ships, then a
seat mask, so one network reads 2–6 players. Seats are rotated (the observer is seat 0, the next
player seat 1, ...); a part over seats (`me`, `captain`, `question.decider`) has six places, a
part over ships (`question.ship`, `question.loser`, `resolving.ship`, the `ships` blocks, the
battle's attacker and defender, `scores`) seven: the six seats, then the Ghost Ship, always at
place 6 (a ship's block at `ships` + 6 × 113). Seats that do not exist, and the Ghost Ship's
place when it does not sail, are all zeros.

| part | size | content |
|---|---|---|
| the parts above | 962 | as above, with n = 6 and k = 7 |
| seats | 7 | 1 for each seat that exists (the first n), then 1 if the Ghost Ship sails |

With seat-relative observations, actions that name a seat are seat-relative too
(`jamaica.envs.relative`: `attack K` seen from the observer; the Ghost Ship is `attack 6`).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable
from functools import cache
from typing import TYPE_CHECKING, Any, Final, TypeVar

import numpy as np

from ..rules.actions import NUM_PLAYER_ACTIONS
from ..rules.board import moves_left
from ..rules.config import Config
from ..rules.data import HOLD6, LAIR_SPACES, NUM_CARDS, NUM_POWERS, NUM_SPACES, SLOTS
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
    """The size of `encode`'s vector for `config` (`FIXED_SIZE` for `encode_fixed`)."""
    return observation_size_of(config.players, config.ships)


@cache
def _frame(n: int, k: int) -> tuple[Any, ...]:
    """Each part's offset (in the order of `_parts`), then an all-zero vector to copy and the
    ships' seats in plain order."""
    offsets = tuple(part.start for part in _layout(n, k).values())
    return (*offsets, array("f", bytes(4 * (offsets[-1] + k))), tuple(range(k)))


@cache
def _seats(n: int, k: int, me: int) -> tuple[int, ...]:
    """Where each ship's data goes when relative: seat p at (p − me) mod n; the Ghost Ship last."""
    return tuple((p - me) % n for p in range(n)) + tuple(range(n, k))


# The encoder copies blocks into the vector (a slice assignment between arrays is a memory copy)
# instead of writing value by value. A ship's hull (course, holds and powers: 88 values) and its
# face-down cards come from caches keyed by what they show; the cards in play from tables (pile
# sizes, the discard pile's bits). A block's value depends only on what the observer may see: the
# face-down cards with the observer (it sees the ones it knows). Measured choices (instruction
# counts under valgrind and interleaved timings): the caches are plain dicts emptied when
# `_CACHE_SIZE` full (a lookup costs half an `lru_cache` call); the hull key is built item by item
# (no slices); a hull missing from the cache (about one lookup in five) is joined from ready slot
# blocks.
_CACHE_SIZE: Final = 1 << 13


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


def _hull(key: tuple[int, ...]) -> array[float]:
    """A ship's course, holds and powers (its block up to the face-down cards) from (space,
    lap, powers' bits, the usable holds' types..., their counts...)."""
    h = (len(key) - 3) // 2  # usable holds: 5, or 6 with the sixth hold
    slots: tuple[bytes, ...]
    try:
        t, c = _SLOT_TABLE, key[3 + h :]
        slots = (t[key[3]][c[0]], t[key[4]][c[1]], t[key[5]][c[2]], t[key[6]][c[3]],
                 t[key[7]][c[4]], t[key[8]][c[5]] if h == 6 else _UNUSABLE)  # fmt: skip
    except IndexError:  # a count beyond the table
        slots = tuple(_slot(key[3 + i], key[3 + h + i]) for i in range(h)) + (_UNUSABLE,) * (6 - h)
    return array("f", b"".join((_course(key[0], key[1]), *slots, _BITS4[key[2]])))


def _slot(resource: int, count: int) -> bytes:
    """One hold slot: what it holds one-hot (empty, food, gunpowder, gold) and how many / 12."""
    block = [0.0] * 5
    block[resource] = 1.0
    block[4] = count / 12
    return _floats(block).tobytes()


_SLOT_TABLE: Final = tuple(tuple(_slot(t, c) for c in range(64)) for t in range(4))
_UNUSABLE: Final = bytes(4 * 5)  # the sixth slot of a ship without the sixth hold


def _face_down(key: tuple[tuple[int, ...], int]) -> array[float]:
    """The face-down count and the cards `knower` knows per type (-1: none, -2: all, at the end)
    from (cards, knower)."""
    cards, knower = key
    block = [0.0] * 11
    block[0] = len(cards) / 9
    if knower != -1:
        for c in cards:
            if knower == -2 or (c >> 6) >> knower & 1:
                block[1 + (c & 15)] += 0.5
    return _floats(block)


_SIZES: Final = tuple(tuple(_floats([hand / 4, drawn / 11]) for drawn in range(NUM_CARDS + 1))
                      for hand in range(NUM_CARDS + 1))  # fmt: skip
_HULLS: dict[tuple[int, ...], array[float]] = {}
_FACE_DOWNS: dict[tuple[tuple[int, ...], int], array[float]] = {}


K = TypeVar("K")
V = TypeVar("V")


def remember(table: dict[K, V], key: K, make: Callable[[K], V]) -> V:
    """`make(key)` for a key missing from `table`, kept there (the table is emptied when
    `_CACHE_SIZE` full)."""
    value = make(key)
    if len(table) >= _CACHE_SIZE:
        table.clear()
    table[key] = value
    return value


def clear_caches() -> None:
    """Empty the encoder's caches (the vectors and masks do not depend on them)."""
    for table in (_HULLS, _FACE_DOWNS, _MASKS):
        table.clear()


_MASKS: dict[tuple[int, ...], bytes] = {}
_NO_MASK: Final = bytes(NUM_PLAYER_ACTIONS)
_INT8: Final = np.dtype(np.int8)


def _mask_bytes(legal: tuple[int, ...]) -> bytes:
    mask = bytearray(NUM_PLAYER_ACTIONS)
    for a in legal:
        mask[a] = 1
    return bytes(mask)


def action_mask(legal: Iterable[int] = ()) -> np.ndarray:
    """int8[140]: 1 at each of the `legal` player-action ids (none: all zeros). Every call
    returns the caller's own writable array, copied from bytes kept per set of legal actions."""
    key = tuple(legal)
    ready = (_MASKS.get(key) or remember(_MASKS, key, _mask_bytes)) if key else _NO_MASK
    return np.frombuffer(bytearray(ready), _INT8)


_FACE_DOWN_AT: Final = SHIP_LAYOUT["face_down"].start
_PLAYER_AT: Final = SHIP_LAYOUT["hand_size"].start


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
     o_game, o_ships, o_hand, o_chosen, o_battle, o_scores, zeros, seat) = _frame(n, k)  # fmt: skip
    v = zeros[:]  # a copy; item and slice assignment are fast on an array
    if relative and player is not None:
        seat = _seats(n, k, player)
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
    if s.ending:
        v[o_game] = 1.0
    if over:
        v[o_game + 1] = 1.0
    pos, lap, ht, hn, pw, fd = s.pos, s.lap, s.hold_types, s.hold_counts, s.powers, s.face_down
    gh = s.gh
    powers = [0] * k  # per ship: the bits of the powers it holds
    for t in range(NUM_POWERS):
        if pw[t] >= 0:
            powers[pw[t]] |= 1 << t
    knower = -2 if over else -1 if me is None else me  # who knows face-down cards (-2: all)
    hand, drawp, disc, chosen = s.hand, s.drawp, s.disc, s.chosen
    sixth = pw[HOLD6]
    hulls, downs = _HULLS, _FACE_DOWNS
    for ship in range(k):
        i = o_ships + seat[ship] * SHIP_SIZE
        h = ship * SLOTS
        hull: tuple[int, ...]  # the key of the block of course, holds and powers
        if ship == sixth:
            hull = (pos[ship], lap[ship], powers[ship],
                    ht[h], ht[h + 1], ht[h + 2], ht[h + 3], ht[h + 4], ht[h + 5],
                    hn[h], hn[h + 1], hn[h + 2], hn[h + 3], hn[h + 4], hn[h + 5])  # fmt: skip
        else:
            hull = (pos[ship], lap[ship], powers[ship],
                    ht[h], ht[h + 1], ht[h + 2], ht[h + 3], ht[h + 4],
                    hn[h], hn[h + 1], hn[h + 2], hn[h + 3], hn[h + 4])  # fmt: skip
        v[i : i + _FACE_DOWN_AT] = hulls.get(hull) or remember(hulls, hull, _hull)
        down = fd[ship]
        if down:
            j = i + _FACE_DOWN_AT
            seen = (down, knower)
            v[j : j + 11] = downs.get(seen) or remember(downs, seen, _face_down)
        if ship != gh:  # hand size (with a chosen card), draw pile, discard pile, has chosen
            j = i + _PLAYER_AT
            if chosen[ship] >= 0:
                v[j : j + 2] = _SIZES[hand[ship].bit_count() + 1][drawp[ship].bit_count()]
                v[j + 13] = 1.0
            else:
                v[j : j + 2] = _SIZES[hand[ship].bit_count()][drawp[ship].bit_count()]
            v[j + 2 : j + 13] = _BITS11[disc[ship]]
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


# --- One size for every player count ---------------------------------------------------------
MAX_SEATS: Final = 6  # the players' seats of the fixed layout; the Ghost Ship's block comes next
GHOST_PLACE: Final = MAX_SEATS  # the Ghost Ship's place among the fixed layout's ships
FIXED_PARTS: Final = (*_parts(MAX_SEATS, MAX_SEATS + 1), ("seats", MAX_SEATS + 1))
FIXED_LAYOUT: Final = _slices(FIXED_PARTS)
FIXED_SIZE: Final = FIXED_LAYOUT["seats"].stop
_SEAT_PARTS: Final = ("me", "captain", "question.decider")
_SHIP_PARTS: Final = ("question.ship", "question.loser", "resolving.ship", "scores")


def fixed_layout() -> dict[str, slice]:
    """Each named part of the fixed vector and its slice (a fresh dict): the parts of
    `observation_layout` for six seats and seven ships, then `"seats"`."""
    return dict(FIXED_LAYOUT)


@cache
def _fixed_frame(n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Where each value of the relative vector goes in the fixed one, and the fixed vector's
    template: zeros but for the seat mask."""
    ship = [*range(n), *([GHOST_PLACE] if k > n else [])]  # a ship's place: seats, then Ghost
    src, dst = _layout(n, k), FIXED_LAYOUT
    where = np.empty(observation_size_of(n, k), np.intp)
    for name, part in src.items():
        at = dst[name].start
        if name in _SEAT_PARTS:  # a one-hot over the seats
            where[part] = range(at, at + n)
        elif name in _SHIP_PARTS:  # a one-hot over the ships
            where[part] = [at + j for j in ship]
        elif name == "ships":
            for i in range(k):
                j = part.start + i * SHIP_SIZE
                where[j : j + SHIP_SIZE] = range(at + ship[i] * SHIP_SIZE,
                                                 at + (ship[i] + 1) * SHIP_SIZE)  # fmt: skip
        elif name == "battle":  # on; attacker; defender; the rest
            where[part.start] = at
            where[part.start + 1 : part.start + 1 + k] = [at + 1 + j for j in ship]
            where[part.start + 1 + k : part.start + 1 + 2 * k] = [at + 8 + j for j in ship]
            rest = part.stop - part.start - 1 - 2 * k
            where[part.start + 1 + 2 * k : part.stop] = range(at + 15, at + 15 + rest)
        else:
            where[part] = range(at, at + part.stop - part.start)
    template = np.zeros(FIXED_SIZE, np.float32)
    seats = FIXED_LAYOUT["seats"].start
    template[seats + np.array(ship, np.intp)] = 1.0
    where.setflags(write=False)
    template.setflags(write=False)
    return where, template


def observation_size_of(n: int, k: int) -> int:
    """The size of `encode`'s vector for n players and k ships."""
    stop: int = _layout(n, k)["scores"].stop
    return stop


def encode_fixed(s: State, player: int | None, *, out: np.ndarray | None = None) -> np.ndarray:
    """The float32[`FIXED_SIZE`] vector `player` observes in `s`, one size for 2–6 players:
    `encode(s, player, relative=True)` with seat blocks padded to six seats (zeros for seats
    that do not exist), the Ghost Ship's block at its fixed place (ship 6), and a seat mask
    (`"seats"`: 1 for each seat that exists, then 1 if the Ghost Ship sails). Written into
    `out` if given (a row of a batch, say) and returned."""
    where, template = _fixed_frame(s.n, s.ns)
    if out is None:
        out = template.copy()
    else:
        out[:] = template
    out[where] = encode(s, player, relative=True)
    return out
