"""Where each of the 50 spaces sits on the drawn board: a ring around the island, read clockwise
from Port Royal at the bottom, each fork's outer lane outside the ring and its inner channel
inside it."""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from ..rules.data import (
    NUM_SPACES,
    RED_LINE_SPACE,
    SPACE_COST,
    SPACE_NEXT,
    SPACE_SCORE,
    SPACE_TYPE,
    SPACE_TYPE_NAMES,
)

WIDTH, HEIGHT = 1000, 720
CX, CY = 500, 365
RINGS = {"main": (395, 268), "outer": (465, 318), "inner": (318, 206)}
# The race in slots (44, the longest lap): the main track, and for each fork six slots in which
# the outer lane's six spaces sit, and the inner channel's two spread out.
_STRETCHES: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("main", (0, 1, 2, 3, 4, 5, 6)),
    ("fork", (7, 8, 9, 10, 11, 12, 13, 14)),
    ("main", (15, 16, 17, 18, 19)),
    ("fork", (20, 21, 22, 23, 24, 25, 26, 27)),
    ("main", (28, 29, 30, 31, 32)),
    ("fork", (33, 34, 35, 36, 37, 38, 39, 40)),
    ("main", (41, 42, 43, 44, 45, 46, 47, 48, 49)),
)
SLOTS = 44


def _point(slot: float, ring: str) -> tuple[float, float]:
    rx, ry = RINGS[ring]
    angle = math.pi / 2 + 2 * math.pi * slot / SLOTS  # clockwise on screen from the bottom
    return (round(CX + rx * math.cos(angle), 1), round(CY + ry * math.sin(angle), 1))


@cache
def board_layout() -> dict[str, Any]:
    where: dict[int, tuple[float, float, str]] = {}
    slot = 0
    for kind, spaces in _STRETCHES:
        if kind == "main":
            for space in spaces:
                where[space] = (*_point(slot, "main"), "main")
                slot += 1
        else:
            outer, inner = spaces[:6], spaces[6:]
            for i, space in enumerate(outer):
                where[space] = (*_point(slot + i, "outer"), "outer")
            for i, space in enumerate(inner):
                where[space] = (*_point(slot + 1.25 + 2.5 * i, "inner"), "inner")
            slot += 6
    cells = [
        {
            "id": s,
            "type": SPACE_TYPE_NAMES[SPACE_TYPE[s]],
            "cost": SPACE_COST[s],
            "score": SPACE_SCORE[s] if SPACE_SCORE[s] > 0 else None,
            "next": list(SPACE_NEXT[s]),
            "x": where[s][0],
            "y": where[s][1],
            "lane": where[s][2],
        }
        for s in range(NUM_SPACES)
    ]
    x, y, _ = where[RED_LINE_SPACE]
    return {"width": WIDTH, "height": HEIGHT, "center": [CX, CY], "spaces": cells,
            "red_line_after": RED_LINE_SPACE, "red_line_at": [x, y]}  # fmt: skip
