"""Damaged copies of real save data, for the loaders' fuzz tests: a Hypothesis strategy that
changes a JSON-like document at random places (a value replaced by junk or nudged, a key dropped
or added, a list cut short, grown or reordered)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

# Values a damaged or hand-edited file might hold where something else was meant.
SPECIAL: list[Any] = [None, True, False, 0, 1, -1, 2, 3, 5, 6, 7, 10, 11, 12, 36, 37, 49, 50]
SPECIAL += [255, 256, 2**11, 2**40 - 1, -(2**40), 2**64, 10**30, "", "0", "food", 0.5, 1.0]
SPECIAL += [float("nan"), float("inf"), [], {}, [0], [[]], [None]]

_junk = st.one_of(
    st.sampled_from(SPECIAL),
    st.integers(-3, 60),
    st.integers(),
    st.text(max_size=3),
    st.lists(st.integers(-1, 12), max_size=7),
    st.lists(st.one_of(st.none(), st.booleans(), st.integers(-1, 8)), max_size=4),
    st.dictionaries(st.sampled_from(["x", "players", "format"]), st.integers(-1, 7), max_size=2),
)

# A fresh copy each time: a later change must not alter the shared lists and objects above.
junk = _junk.map(copy.deepcopy)

OPERATIONS = ("replace", "nudge", "nudge", "drop", "add", "truncate", "swap")


def _place(data: st.DataObject, root: Any) -> tuple[Any, Any]:
    """A random (container, key or index) inside `root`: one step down at least, then deeper
    at random."""
    parent: Any = root
    while True:
        keys = list(parent) if isinstance(parent, dict) else list(range(len(parent)))
        key = data.draw(st.sampled_from(keys)) if len(keys) < 50 else keys[
            data.draw(st.integers(0, len(keys) - 1))
        ]
        child = parent[key]
        if isinstance(child, dict | list) and child and data.draw(st.integers(0, 9)) < 7:
            parent = child
            continue
        return parent, key


def mutate(data: st.DataObject, doc: dict[str, Any]) -> list[str]:
    """Change `doc` in place 1–3 times; returns what was done (for the failure report)."""
    done = []
    for _ in range(data.draw(st.integers(1, 3))):
        parent, key = _place(data, doc)
        op = data.draw(st.sampled_from(OPERATIONS))
        value = parent[key]
        if op == "nudge" and isinstance(value, int) and not isinstance(value, bool):
            parent[key] = value + data.draw(st.sampled_from([-2, -1, 1, 2, 5, 64, -value - 1]))
        elif op == "drop":
            del parent[key]
        elif op == "add":
            if isinstance(parent, dict):
                parent[data.draw(st.sampled_from(["x", "events ", "format", "seat"]))] = data.draw(
                    junk
                )
            else:
                parent.insert(key, data.draw(junk))
        elif op == "truncate" and isinstance(value, list) and value:
            parent[key] = value[: data.draw(st.integers(0, len(value) - 1))]
        elif op == "swap" and isinstance(value, list) and len(value) >= 2:
            i = data.draw(st.integers(0, len(value) - 2))
            value[i], value[i + 1] = value[i + 1], value[i]
        else:
            parent[key] = data.draw(junk)
        done.append(f"{op} at {key!r}")
    return done
