"""`State.to_dict()` / `State.from_dict()`: JSON-safe, exact round trip, validated on the way in."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import ACTIONS, NUM_ACTIONS
from .config import Config
from .invariants import check_invariants
from .ops import PUBLIC

if TYPE_CHECKING:
    from .state import State

FORMAT_VERSION = 2  # 2: public events carry the PUBLIC mark (R16)


def _lists(x: Any) -> Any:
    if isinstance(x, tuple | list):
        return [_lists(v) for v in x]
    return x


def _tuples(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(_tuples(v) for v in x)
    return x


def state_to_dict(s: State) -> dict[str, Any]:
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
        "hold_type": list(s.ht),
        "hold_count": list(s.hn),
        "powers": list(s.pw),
        "treasure_pile": list(s.pile),
        "face_down": [list(cards) for cards in s.fd],
        "overboard": list(s.ob),
        "lair_tokens": s.tokens,
        "hand": list(s.hand),
        "draw_pile": list(s.drawp),
        "discard": list(s.disc),
        "known_in_hand": list(s.kh),
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


def _ints(d: dict[str, Any], key: str, length: int | None = None) -> list[int]:
    v = d[key]
    if not isinstance(v, list) or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in v
    ):
        raise ValueError(f"corrupt state: {key!r} must be a list of integers")
    if length is not None and len(v) != length:
        raise ValueError(f"corrupt state: {key!r} must have {length} entries, not {len(v)}")
    return list(v)


def _int(d: dict[str, Any], key: str) -> int:
    v = d[key]
    if not isinstance(v, int) or isinstance(v, bool):
        raise ValueError(f"corrupt state: {key!r} must be an integer")
    return v


def _nested_ints(x: Any, key: str) -> None:
    if isinstance(x, list):
        for v in x:
            _nested_ints(v, key)
    elif not (isinstance(x, int) and not isinstance(x, bool)):
        raise ValueError(f"corrupt state: {key!r} may hold only integers and lists")


def state_from_dict(d: Any) -> State:
    from .state import State

    if not isinstance(d, dict):
        raise ValueError(f"corrupt state: expected an object, not {type(d).__name__}")
    try:
        if d.get("format") != FORMAT_VERSION:
            raise ValueError(f"unsupported state format {d.get('format')!r}")
        cfg = Config.from_dict(d["config"])
        s = object.__new__(State)
        n, ns = cfg.players, cfg.ships
        s.cfg, s.n, s.ns = cfg, n, ns
        s.gh = n if cfg.ghost else -1
        s.classic = cfg.classic
        s.all = ((1 << n) - 1) | PUBLIC
        s.rnd, s.cap = _int(d, "round"), _int(d, "captain")
        s.roll = tuple(_ints(d, "roll"))
        s.morning, s.evening = _int(d, "morning"), _int(d, "evening")
        s.pos, s.lap = _ints(d, "position", ns), _ints(d, "lap", ns)
        s.ht, s.hn = _ints(d, "hold_type", ns * 6), _ints(d, "hold_count", ns * 6)
        s.pw, s.pile = _ints(d, "powers", 4), _ints(d, "treasure_pile", 10)
        fd = d["face_down"]
        if not isinstance(fd, list) or len(fd) != ns:
            raise ValueError("corrupt state: 'face_down' must list every ship")
        s.fd = [tuple(_ints({"face_down": cards}, "face_down")) for cards in fd]
        s.ob = tuple(_ints(d, "overboard"))
        s.tokens = _int(d, "lair_tokens")
        s.hand, s.drawp = _ints(d, "hand", n), _ints(d, "draw_pile", n)
        s.disc, s.kh = _ints(d, "discard", n), _ints(d, "known_in_hand", n)
        s.chosen = _ints(d, "chosen", n)
        if not isinstance(d["ending"], bool):
            raise ValueError("corrupt state: 'ending' must be true or false")
        s.ending = d["ending"]
        s.battle = None if d["battle"] is None else _ints(d, "battle", 7)
        for key in ("stack", "pending", "events"):
            if d[key] is not None:
                _nested_ints(d[key], key)
        if not isinstance(d["stack"], list) or not all(isinstance(t, list) for t in d["stack"]):
            raise ValueError("corrupt state: 'stack' must be a list of tasks")
        s.stack = [_tuples(t) for t in d["stack"]]
        q = d["pending"]
        if not isinstance(q, list) or len(q) != 3 or not isinstance(q[2], list):
            raise ValueError("corrupt state: 'pending' must be [kind, player, context]")
        s.q = (q[0], q[1], _tuples(q[2]))
        legal = _ints(d, "legal")
        if any(not 0 <= a < NUM_ACTIONS for a in legal):
            raise ValueError("corrupt state: 'legal' holds an unknown action id")
        s.legal = [ACTIONS[a] for a in legal]
        probs = d["probs"]
        if probs is not None and (
            not isinstance(probs, list)
            or len(probs) != len(legal)
            or not all(isinstance(p, float | int) and not isinstance(p, bool) for p in probs)
        ):
            raise ValueError("corrupt state: 'probs' must match 'legal'")
        s.probs = None if probs is None else [float(p) for p in probs]
        events = d["events"]
        if events is not None and not all(isinstance(e, list) and len(e) >= 2 for e in events):
            raise ValueError("corrupt state: 'events' must be a list of events")
        s.events = None if events is None else [tuple(e) for e in events]
        s.history = _ints(d, "history")
    except KeyError as e:
        raise ValueError(f"corrupt state: missing {e.args[0]!r}") from None
    except (TypeError, AttributeError) as e:
        raise ValueError(f"corrupt state: {e}") from None
    check_invariants(s)
    return s
