"""`State.to_dict()` / `State.from_dict()`: JSON-safe, exact round trip, validated on the way in.

`from_dict` reads every field with its type, length and range (a `FieldError` names the first bad
one by its path, e.g. "corrupt state: events[12][3]: …"), then checks how the fields fit together
(`invariants`, `flow`): a state it returns can be viewed, described, copied, saved and played on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from .actions import ACTIONS, MAX_POWDER, NUM_ACTIONS
from .config import Config
from .data import (
    ALL_CARDS_MASK,
    COMBAT_FACES,
    EMPTY,
    GOLD,
    MAX_HOLD,
    NUM_CARDS,
    NUM_POWERS,
    NUM_SPACES,
    NUM_TREASURE_TYPES,
    SLOTS,
    TREASURE_COUNTS,
)
from .fields import FieldError, Reader, is_int, json_type, show
from .invariants import LAIR_MASK, check_events, check_invariants
from .ops import CHANCE, KIND_NAMES, PUBLIC, TERMINAL

if TYPE_CHECKING:
    from .base import BaseState

S = TypeVar("S", bound="BaseState")

FORMAT_VERSION = 2  # 2: public events carry the PUBLIC mark (R16)


def _lists(x: Any) -> Any:
    if isinstance(x, tuple | list):
        return [_lists(v) for v in x]
    return x


def state_to_dict(s: BaseState) -> dict[str, Any]:
    return {
        "format": FORMAT_VERSION,
        "config": s.cfg.to_dict(),
        "round": s.rnd,
        "captain": s.cap,
        "roll": list(s.roll),
        "morning": s.morning,
        "evening": s.evening,
        "position": list(s.pos),
        "lap": list(s.lap),
        "hold_type": list(s.hold_types),
        "hold_count": list(s.hold_counts),
        "powers": list(s.powers),
        "treasure_pile": list(s.pile),
        "face_down": [list(cards) for cards in s.face_down],
        "overboard": list(s.overboard),
        "lair_tokens": s.tokens,
        "hand": list(s.hand),
        "draw_pile": list(s.drawp),
        "discard": list(s.disc),
        "known_in_hand": list(s.known_in_hand),
        "chosen": list(s.chosen),
        "ending": s.ending,
        "battle": None if s.battle is None else list(s.battle),
        "stack": _lists(s.stack),
        "pending": _lists(s.q),
        "legal": [int(a) for a in s.legal],
        "probs": None if s.probs is None else list(s.probs),
        "events": None if s.events is None else _lists(s.events),
        "history": list(s.history),
    }


KEYS = ("format", "config", "round", "captain", "roll", "morning", "evening", "position", "lap",
        "hold_type", "hold_count", "powers", "treasure_pile", "face_down", "overboard",
        "lair_tokens", "hand", "draw_pile", "discard", "known_in_hand", "chosen", "ending",
        "battle", "stack", "pending", "legal", "probs", "events", "history")  # fmt: skip
CONFIG_KEYS = ("players", "edition", "ghost_ship", "max_rounds")
_R = Reader("corrupt state")
_ARG = max(MAX_HOLD, NUM_SPACES)  # the largest number in a task or a question's context


def state_from_dict(d: Any, cls: type[S]) -> S:
    """A `cls` (`State`) read from `d`, validated; `FieldError` names the first bad field."""
    r = _R
    if not isinstance(d, dict):
        raise r.fail("state", f"must be an object, not {json_type(d)}")
    fmt = d.get("format")
    if not is_int(fmt) or fmt != FORMAT_VERSION:
        why = f"this version reads format {FORMAT_VERSION}, not {show(fmt)}"
        raise FieldError("unsupported state", "format", why)
    r.obj(d, "", KEYS)
    try:
        cfg = Config.from_dict(r.obj(d["config"], "config", CONFIG_KEYS))  # every key: exact
    except FieldError:
        raise
    except ValueError as e:
        raise r.fail("config", str(e)) from None
    s = cls.__new__(cls)  # without __init__: every field is set here
    n, ns = cfg.players, cfg.ships
    s.cfg, s.n, s.ns = cfg, n, ns
    s.gh = n if cfg.ghost else -1
    s.classic = cfg.classic
    s.all = ((1 << n) - 1) | PUBLIC
    s.rnd = r.integer(d["round"], "round", 0, cfg.max_rounds)
    s.cap = r.integer(d["captain"], "captain", -1, n - 1, "a player")
    s.roll = tuple(r.integers(d["roll"], "roll", 1, 6, meaning="a die"))
    if len(s.roll) not in (0, 2) or s.roll[:1] > s.roll[1:]:
        raise r.fail("roll", "must be [] or two dice, the lower first")
    s.morning = r.integer(d["morning"], "morning", 0, 6, "a die")
    s.evening = r.integer(d["evening"], "evening", 0, 6, "a die")
    s.pos = r.integers(d["position"], "position", 0, NUM_SPACES - 1, ns, "a space")
    s.lap = r.integers(d["lap"], "lap", -2 * cfg.max_rounds, 1, ns)
    s.hold_types = r.integers(d["hold_type"], "hold_type", EMPTY, GOLD, ns * SLOTS, "a resource")
    s.hold_counts = r.integers(d["hold_count"], "hold_count", 0, MAX_HOLD, ns * SLOTS)
    s.powers = r.integers(d["powers"], "powers", -2, ns - 1, NUM_POWERS, "an owner")
    s.pile = r.integers(d["treasure_pile"], "treasure_pile", 0, max(TREASURE_COUNTS),
                        NUM_TREASURE_TYPES)  # fmt: skip
    card = (1 << (6 + n)) - 1  # a face-down card: its type, class and knowers (the players)
    face_down = r.array(d["face_down"], "face_down", ns)
    s.face_down = [tuple(r.integers(cards, f"face_down[{k}]", 0, card, meaning="a face-down card"))
            for k, cards in enumerate(face_down)]  # fmt: skip
    s.overboard = tuple(
        r.integers(d["overboard"], "overboard", 0, card, meaning="a face-down card")
    )
    s.tokens = r.integer(d["lair_tokens"], "lair_tokens", 0, LAIR_MASK, "a mask of lairs")
    cards = ALL_CARDS_MASK
    s.hand = r.integers(d["hand"], "hand", 0, cards, n, "a mask of cards")
    s.drawp = r.integers(d["draw_pile"], "draw_pile", 0, cards, n, "a mask of cards")
    s.disc = r.integers(d["discard"], "discard", 0, cards, n, "a mask of cards")
    s.known_in_hand = r.integers(
        d["known_in_hand"], "known_in_hand", 0, cards, n, "a mask of cards"
    )
    s.chosen = r.integers(d["chosen"], "chosen", -1, NUM_CARDS - 1, n, "a card")
    s.ending = r.flag(d["ending"], "ending")
    s.battle = None if d["battle"] is None else _battle(d["battle"], ns)
    s.stack = [_task(t, f"stack[{i}]") for i, t in enumerate(r.array(d["stack"], "stack"))]
    s.q = _pending(d["pending"], n)
    s.legal = [ACTIONS[a] for a in r.integers(d["legal"], "legal", 0, NUM_ACTIONS - 1)]
    s.probs = None if d["probs"] is None else _probs(d["probs"], len(s.legal))
    s.history = [ACTIONS[a] for a in r.integers(d["history"], "history", 0, NUM_ACTIONS - 1)]
    check_invariants(s)  # before the log: its ranges depend on the game
    s.events = None if d["events"] is None else _events(d["events"], s)
    return s


def _battle(v: Any, ships: int) -> list[int]:
    b = _R.array(v, "battle", 7)  # attacker, defender, then each one's gunpowder and die face
    los = (0, 0, 0, -1, 0, -1, 0)
    face = len(COMBAT_FACES) - 1
    his = (ships - 1, ships - 1, MAX_POWDER, face, MAX_POWDER, face, 1)
    return [_R.integer(x, f"battle[{i}]", los[i], his[i]) for i, x in enumerate(b)]


def _task(v: Any, path: str) -> tuple[int, ...]:
    t = _R.integers(v, path, 0, _ARG)
    if not 1 <= len(t) <= 5:
        raise _R.fail(path, f"a task is a code and up to 4 arguments, not {len(t)} values")
    return tuple(t)


def _pending(v: Any, players: int) -> tuple[int, int, tuple[Any, ...]]:
    r = _R
    kind_, who, ctx = r.array(v, "pending", 3)
    r.integer(kind_, "pending[0]", -1, len(KIND_NAMES) - 1, "a question")
    if who not in (CHANCE, TERMINAL):
        r.integer(who, "pending[1]", 0, players - 1, f"a player, {CHANCE} or {TERMINAL}")
    items: list[Any] = []
    for i, x in enumerate(r.array(ctx, "pending[2]")):  # integers, lists of them, of triples
        path = f"pending[2][{i}]"
        if x.__class__ is not list:
            items.append(r.integer(x, path, 0, _ARG))
            continue
        items.append(tuple(
            tuple(r.integers(y, f"{path}[{j}]", 0, _ARG)) if y.__class__ is list
            else r.integer(y, f"{path}[{j}]", 0, _ARG)
            for j, y in enumerate(x)
        ))  # fmt: skip
    return kind_, who, tuple(items)


def _probs(v: Any, size: int) -> list[float]:
    probs = _R.array(v, "probs", size)
    for i, p in enumerate(probs):
        if not isinstance(p, float | int) or isinstance(p, bool) or not 0 < p <= 1:
            raise _R.fail(f"probs[{i}]", f"must be a probability, not {show(p)}")
    return [float(p) for p in probs]


def _events(v: Any, s: BaseState) -> list[tuple[int, ...]]:
    events = _R.array(v, "events")
    check_events(events, s)
    return [tuple(e) for e in events]
