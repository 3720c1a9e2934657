"""The drawn board: an island map of our own, and where each of the 50 spaces sits on it.

The race runs clockwise from Port Royal, at the bottom, round the main island. The shortest lap
(every inner channel, 32 spaces) is a smooth ring round the main island; at each fork the outer
lane (six spaces) leaves the ring, swings out round one of three outer islands and comes back,
so each outer island lies between its outer lane and its inner channel. The islands' coastlines
are found from the track: each is as large as it can be without touching a space or a link.

`board_layout()` is everything a client needs to draw it (served at /api/board): the spaces with
their positions, sizes, shapes, lanes and next spaces, the coastlines as SVG path data, the red
−5 line, the printed scores, Port Royal and its 15, and a few decorations. Pure and cached."""

from __future__ import annotations

import itertools
import math
from functools import cache
from typing import Any

from ..rules.data import (
    FINISH_SCORE,
    NO_SCORE,
    NUM_SPACES,
    PORT,
    PORT_ROYAL,
    RED_LINE_SPACE,
    SPACE_COST,
    SPACE_NEXT,
    SPACE_SCORE,
    SPACE_TYPE,
    SPACE_TYPE_NAMES,
)

Point = tuple[float, float]

WIDTH, HEIGHT = 1000, 800
SPACE_R = 30  # a sea space's radius (lairs are rocks about as big; ports, squares)
PORT_HALF = 28.0  # a port's half side: a square with well rounded corners
CORNER = {PORT_ROYAL: 12.0, PORT: 15.0}  # the corners' radius (other spaces are round)
PR_HALF = (66.0, 46.0)  # Port Royal's harbour: half width, half height
# The ring of the shortest lap: a superellipse round the main island.
RING_CENTER = (513.0, 432.0)
RING_AXES = (430.0, 235.0)
RING_POWER = 2.8
RING_START = -0.06  # where on the ring Port Royal sits (0 is straight below the centre)
DENTS = (0.13, 0.12, 0.13)  # how deep each fork's bay cuts into the main island (of the ring)
DENT_WIDTH = 0.045  # and how wide (of the ring's length)
LANE_STRETCH = 1.12  # the outer lanes' pitch, of the ring's
FORKS = ((6, 13, 15), (19, 26, 28), (32, 39, 41))  # (fork, first inner space, merge)
ISLAND_NAMES = ("Jamaica", "Tortuga", "Isla de Oro", "Cayo Calavera")
# The ring, in race order, and how far each gap is, in pitches (Port Royal needs more room).
RING = (
    0,
    1,
    2,
    3,
    4,
    5,
    6,
    13,
    14,
    15,
    16,
    17,
    18,
    19,
    26,
    27,
    28,
    29,
    30,
    31,
    32,
    39,
    40,
    41,
    42,
    43,
    44,
    45,
    46,
    47,
    48,
    49,
)
GAP = 6.0  # the least sea between two spaces
BADGE_R = 16  # a printed score's disc
# Gaps wider than a pitch, in units: round Port Royal, and before the red line.
_WIDE_GAPS = {
    (49, 0): PR_HALF[0] + SPACE_R + 2 * GAP,
    (0, 1): PR_HALF[0] + SPACE_R + 2 * GAP,
    (40, 41): 2 * SPACE_R + 18,
}
# The outer lanes' gaps, in pitches (fork 3's lane ends at the red line).
LANE_GAPS = ((1.0,) * 7, (1.0,) * 7, (1.0,) * 6 + (1.25,))


def _round(p: Point) -> list[float]:
    return [round(p[0], 1), round(p[1], 1)]


def _add(a: Point, b: Point, k: float = 1.0) -> Point:
    return (a[0] + k * b[0], a[1] + k * b[1])


def _sub(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1])


def _len(a: Point) -> float:
    return math.hypot(a[0], a[1])


def _unit(a: Point) -> Point:
    n = _len(a)
    return (a[0] / n, a[1] / n)


def _outward(t: Point) -> Point:
    """The outward normal of a clockwise (on screen, y down) loop whose tangent is `t`."""
    return (t[1], -t[0])


def _ring_point(u: float, dents: tuple[tuple[float, float], ...] = ()) -> Point:
    """The ring at parameter u in [0, 1), clockwise on screen from the bottom: a superellipse
    with a bay dented in at each fork (u of the bay's middle, depth)."""
    a = math.pi / 2 + 2 * math.pi * (u + RING_START)
    c, s = math.cos(a), math.sin(a)
    e = 2 / RING_POWER
    k = 1.0
    for mid, depth in dents:
        d = (u - mid + 0.5) % 1 - 0.5
        k -= depth * math.exp(-((d / DENT_WIDTH) ** 2))
    return (
        RING_CENTER[0] + k * RING_AXES[0] * math.copysign(abs(c) ** e, c),
        RING_CENTER[1] + k * RING_AXES[1] * math.copysign(abs(s) ** e, s),
    )


def _walk(points: list[Point], gaps: list[float]) -> list[tuple[Point, Point, float]] | None:
    """From the first point along a polyline, the points at these straight-line distances
    one from the next, each with its unit tangent and arc length (None if the line runs out)."""
    out = [(points[0], _unit(_sub(points[1], points[0])), 0.0)]
    i, here, acc = 0, points[0], 0.0
    for gap in gaps:
        prev = out[-1][0]
        while True:
            if i >= len(points) - 1:
                return None
            a, b = here, points[i + 1]
            if _len(_sub(b, prev)) >= gap:
                lo, hi = 0.0, 1.0
                for _ in range(40):
                    mid = (lo + hi) / 2
                    if _len(_sub(_add(a, _sub(b, a), mid), prev)) < gap:
                        lo = mid
                    else:
                        hi = mid
                here = _add(a, _sub(b, a), lo)
                acc += _len(_sub(here, a))
                out.append((here, _unit(_sub(points[i + 1], points[i])), acc))
                break
            acc += _len(_sub(b, a))
            here = b
            i += 1
    return out


def _length(points: list[Point]) -> float:
    return sum(_len(_sub(b, a)) for a, b in itertools.pairwise(points))


def _arc(f: Point, m: Point, out: Point, length: float) -> tuple[Point, float, float, float]:
    """The circle arc from f to m, swinging out (towards `out`) the long way round, `length`
    long: its centre, radius, first angle and signed sweep."""
    chord = _len(_sub(m, f))
    lo, hi = math.pi, 2 * math.pi - 1e-6
    for _ in range(60):
        phi = (lo + hi) / 2
        if chord / (2 * math.sin(phi / 2)) * phi < length:
            lo = phi
        else:
            hi = phi
    radius = chord / (2 * math.sin(phi / 2))
    mid = _add(f, _sub(m, f), 0.5)
    t = _unit(_sub(m, f))
    n = (-t[1], t[0]) if -t[1] * out[0] + t[0] * out[1] > 0 else (t[1], -t[0])
    centre = _add(mid, n, math.sqrt(max(radius * radius - chord * chord / 4, 0.0)))
    a0 = math.atan2(f[1] - centre[1], f[0] - centre[0])
    far = math.atan2(n[1], n[0])
    sweep = phi if abs(((a0 + phi / 2) - far + math.pi) % (2 * math.pi) - math.pi) < 1e-3 else -phi
    return centre, radius, a0, sweep


def _spaced(ring: list[Point]) -> tuple[list[tuple[Point, Point, float]], float]:
    """The ring's spaces, from Port Royal round, and the pitch at which the last one is as far
    from Port Royal as it should be."""
    pairs = list(zip(RING, (*RING[1:], RING[0]), strict=True))

    def walk(pitch: float) -> list[tuple[Point, Point, float]] | None:
        return _walk(ring, [_WIDE_GAPS.get(pair, pitch) for pair in pairs[:-1]])

    lo, hi = 20.0, 200.0
    for _ in range(50):
        pitch = (lo + hi) / 2
        placed = walk(pitch)
        if placed is None or _len(_sub(ring[0], placed[-1][0])) < _WIDE_GAPS[pairs[-1]]:
            hi = pitch
        else:
            lo = pitch
    placed = walk(lo)
    assert placed is not None
    return placed, lo


def _place_track() -> tuple[dict[int, Point], dict[int, Point], float, list[tuple[Point, float]]]:
    """Every space's centre, the outward normal at each space, the pitch, and each outer
    lane's arc (centre and radius)."""
    dents: tuple[tuple[float, float], ...] = ()
    for _ in range(4):  # centre each bay on its inner channel
        ring = [_ring_point(i / 4000, dents) for i in range(4001)]
        placed, pitch = _spaced(ring)
        total = _length(ring)
        mids = [
            (placed[RING.index(inner)][2] + placed[RING.index(inner + 1)][2]) / 2 / total
            for _, inner, _ in FORKS
        ]
        dents = tuple((u, d) for u, d in zip(mids, DENTS, strict=True))
    pos: dict[int, Point] = {}
    normal: dict[int, Point] = {}
    for space, (p, _, _) in zip(RING, placed, strict=True):
        pos[space] = p
    for i, space in enumerate(RING):  # the ring's direction at a space: from the one before it
        before, after = RING[i - 1], RING[(i + 1) % len(RING)]  # to the one after it
        normal[space] = _outward(_unit(_sub(pos[after], pos[before])))
    centres: list[tuple[Point, float]] = []
    for (fork, inner, merge), weights in zip(FORKS, LANE_GAPS, strict=True):
        f, m = pos[fork], pos[merge]
        out = _unit(_add(normal[fork], normal[merge]))
        centre, radius, a0, sweep = _arc(f, m, out, sum(weights) * pitch * LANE_STRETCH)
        centres.append((centre, radius))
        for k, space in enumerate(range(fork + 1, inner), start=1):
            a = a0 + sweep * sum(weights[:k]) / sum(weights)
            pos[space] = (centre[0] + radius * math.cos(a), centre[1] + radius * math.sin(a))
            normal[space] = (math.cos(a), math.sin(a))
    return pos, normal, pitch, centres


def _links() -> list[tuple[int, int]]:
    return [(s, n) for s in range(NUM_SPACES) for n in SPACE_NEXT[s]]


def _half(space: int) -> Point:
    if SPACE_TYPE[space] == PORT_ROYAL:
        return PR_HALF
    return (PORT_HALF, PORT_HALF) if SPACE_TYPE[space] == PORT else (SPACE_R, SPACE_R)


def _obstacles(pos: dict[int, Point], clearance: float) -> list[tuple[Point, float]]:
    """Discs an island must keep out of: every space but Port Royal (a town on the main island's
    shore), and every link's length, with a margin."""
    discs = [(pos[s], SPACE_R + clearance) for s in range(1, NUM_SPACES)]
    for a, b in _links():
        d = _sub(pos[b], pos[a])
        steps = max(1, int(_len(d) / 6))
        discs += [(_add(pos[a], d, i / steps), 6 + clearance) for i in range(steps + 1)]
    return discs


def _ray(c: Point, u: Point, discs: list[tuple[Point, float]], cap: float) -> float:
    """How far from `c` along `u` before the ray enters a disc (at most `cap`)."""
    best = cap
    for p, r in discs:
        w = _sub(p, c)
        along = w[0] * u[0] + w[1] * u[1]
        if along <= 0:
            continue
        off2 = w[0] * w[0] + w[1] * w[1] - along * along
        if off2 < r * r:
            best = min(best, along - math.sqrt(r * r - off2))
    return max(best, 0.0)


def _island(c: Point, discs: list[tuple[Point, float]], cap: float, seed: int) -> list[Point]:
    """A coastline round `c`: the reach of rays in 72 directions, eroded, smoothed and made a
    little ragged (deterministically: the same board every time)."""
    n = 120
    reach = [
        _ray(c, (math.cos(2 * math.pi * i / n), math.sin(2 * math.pi * i / n)), discs, cap)
        for i in range(n)
    ]
    eroded = [min(reach[(i + k) % n] for k in range(-5, 6)) for i in range(n)]
    for _ in range(3):
        eroded = [
            min(eroded[i], (eroded[i - 1] + 2 * eroded[i] + eroded[(i + 1) % n]) / 4)
            for i in range(n)
        ]
    pts = []
    for i in range(0, n, 2):
        a = 2 * math.pi * i / n
        wobble = 1 - 0.06 * (1 + math.sin(seed * 1.7 + i * 0.55) * math.cos(seed + i * 0.23))
        r = eroded[i] * wobble
        pts.append((c[0] + r * math.cos(a), c[1] + r * math.sin(a)))
    return pts


def _pole(c: Point, discs: list[tuple[Point, float]], span: float) -> Point:
    """The point within `span` of `c` farthest from every disc (where an island has most room)."""

    def room(p: Point) -> float:
        if _len(_sub(p, c)) > span:
            return -1e9
        return min(_len(_sub(p, q)) - r for q, r in discs)

    best, step = c, span / 4
    while step > 1:
        cands = [
            (best[0] + i * step, best[1] + j * step) for i in range(-4, 5) for j in range(-4, 5)
        ]
        best = max(cands, key=room)
        step /= 2
    return best


def _smooth_path(pts: list[Point]) -> str:
    """A closed Catmull-Rom curve through the points, as SVG cubic Béziers."""
    n = len(pts)
    out = [f"M{pts[0][0]:.1f},{pts[0][1]:.1f}"]
    for i in range(n):
        p0, p1, p2, p3 = pts[i - 1], pts[i], pts[(i + 1) % n], pts[(i + 2) % n]
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        out.append(f"C{c1[0]:.1f},{c1[1]:.1f} {c2[0]:.1f},{c2[1]:.1f} {p2[0]:.1f},{p2[1]:.1f}")
    return "".join(out) + "Z"


def _lane(space: int) -> tuple[str, int | None]:
    for k, (fork, inner, merge) in enumerate(FORKS, start=1):
        if fork < space < inner:
            return "outer", k
        if inner <= space < merge:
            return "inner", k
    return "main", None


def _describe(space: int) -> str:
    kind = SPACE_TYPE_NAMES[SPACE_TYPE[space]]
    if SPACE_TYPE[space] == 0:
        return "Port Royal, the start and finish"
    lane, fork = _lane(space)
    if fork is None:
        return kind
    return f"{kind}, fork {fork} {lane} {'lane' if lane == 'outer' else 'channel'}"


def _red_line(pos: dict[int, Point], normal: dict[int, Point]) -> dict[str, Any]:
    """The red line just before the first scoring space: an arc round that space's upstream
    side, across both lanes that lead into it, and where its −5 is printed."""
    first = SPACE_NEXT[RED_LINE_SPACE][0]
    c = pos[first]
    angles = [
        math.atan2(pos[p][1] - c[1], pos[p][0] - c[0])
        for p in range(NUM_SPACES)
        if first in SPACE_NEXT[p]
    ]
    mid = math.atan2(sum(math.sin(a) for a in angles), sum(math.cos(a) for a in angles))
    half = max(abs((a - mid + math.pi) % (2 * math.pi) - math.pi) for a in angles) + 0.5
    r = SPACE_R + GAP + 1
    a0, a1 = mid - half, mid + half
    p0 = (c[0] + r * math.cos(a0), c[1] + r * math.sin(a0))
    p1 = (c[0] + r * math.cos(a1), c[1] + r * math.sin(a1))
    label = _add(pos[RED_LINE_SPACE], normal[RED_LINE_SPACE], SPACE_R + 27)
    return {
        "before": first,
        "path": f"M{p0[0]:.1f},{p0[1]:.1f}A{r},{r} 0 0 1 {p1[0]:.1f},{p1[1]:.1f}",
        "label_at": _round(label),
        "score": NO_SCORE,
    }


def _main_island(pos: dict[int, Point], discs: list[tuple[Point, float]]) -> list[Point]:
    """The main island, reaching out to Port Royal, its town, on a headland between the spaces
    on either side of it."""
    pts = _island(RING_CENTER, discs, 1000, 1)
    pr = pos[0]
    d = _len(_sub(pr, RING_CENTER))
    toward = math.atan2(pr[1] - RING_CENTER[1], pr[0] - RING_CENTER[0])
    span = math.atan2(PR_HALF[0] * 0.7, d)
    out = []
    for p in pts:
        a = math.atan2(p[1] - RING_CENTER[1], p[0] - RING_CENTER[0])
        off = abs((a - toward + math.pi) % (2 * math.pi) - math.pi)
        r = _len(_sub(p, RING_CENTER))
        if off < span:
            r = max(r, d - PR_HALF[1] * 0.3)
        out.append((RING_CENTER[0] + r * math.cos(a), RING_CENTER[1] + r * math.sin(a)))
    return out


@cache
def board_layout() -> dict[str, Any]:
    pos, normal, pitch, centres = _place_track()
    spaces = []
    badges: list[tuple[Point, float]] = []
    for s in range(NUM_SPACES):
        lane, fork = _lane(s)
        half = _half(s)
        score = SPACE_SCORE[s]
        badge = _add(pos[s], normal[s], -(SPACE_R + BADGE_R + 6)) if score > 0 else None
        if badge is not None:
            badges.append((badge, BADGE_R))
        spaces.append(
            {
                "id": s,
                "type": SPACE_TYPE_NAMES[SPACE_TYPE[s]],
                "cost": SPACE_COST[s],
                "score": score if score > 0 else None,
                "next": list(SPACE_NEXT[s]),
                "prev": [a for a, b in _links() if b == s],
                "x": round(pos[s][0], 1),
                "y": round(pos[s][1], 1),
                "w": 2 * half[0],
                "h": 2 * half[1],
                "r": half[0] if SPACE_TYPE[s] else None,
                "rx": CORNER.get(SPACE_TYPE[s], half[0]),
                "shape": ("harbour", "circle", "square", "rock")[SPACE_TYPE[s]],
                "lane": lane,
                "fork": fork,
                "outward": _round(normal[s]),
                "score_at": None if badge is None else _round(badge),
                "describe": _describe(s),
            }
        )
    discs = _obstacles(pos, 12)
    main = _main_island(pos, discs + [(b, r + 10) for b, r in badges])
    islands: list[dict[str, Any]] = [
        {
            "name": ISLAND_NAMES[0],
            "kind": "main",
            "path": _smooth_path(main),
            "center": _round(RING_CENTER),
        }
    ]
    for k, (centre, radius) in enumerate(centres, start=1):
        c = _pole(centre, discs, radius - SPACE_R)
        pts = _island(c, discs, 400, k + 1)
        islands.append(
            {
                "name": ISLAND_NAMES[k],
                "kind": "outer",
                "fork": k,
                "path": _smooth_path(pts),
                "center": _round(c),
            }
        )
    x, y = pos[RED_LINE_SPACE]
    cx, cy = RING_CENTER
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "viewBox": f"0 0 {WIDTH} {HEIGHT}",
        "center": _round(RING_CENTER),
        "pitch": round(pitch, 1),
        "space_r": SPACE_R,
        "badge_r": BADGE_R,
        "spaces": spaces,
        "islands": islands,
        "forks": [
            {
                "fork": k,
                "at": f,
                "outer": list(range(f + 1, i)),
                "inner": list(range(i, m)),
                "merge": m,
            }
            for k, (f, i, m) in enumerate(FORKS, start=1)
        ],
        "red_line": _red_line(pos, normal),
        "red_line_after": RED_LINE_SPACE,
        "red_line_at": [round(x, 1), round(y, 1)],
        "port_royal": {
            "space": 0,
            "x": round(pos[0][0], 1),
            "y": round(pos[0][1], 1),
            "w": 2 * PR_HALF[0],
            "h": 2 * PR_HALF[1],
            "score": FINISH_SCORE,
        },
        "no_score": NO_SCORE,
        "finish_score": FINISH_SCORE,
        "title_at": [cx, cy - 112],
        "legend": {"x": cx - 140, "y": cy - 78, "w": 280, "row": 28},
        "compass": [round(cx - 70, 1), 88.0, 44],
    }
