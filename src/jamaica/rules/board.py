"""Movement on the board, precomputed from the data in `data.py` (RULES §2, §6, §7, R2–R4, R8).

A ship's place in the race is its space plus its lap: lap 0 is the race lap, a negative lap is
"behind the start line" (R3), and lap 1 means finished. Crossing from space 49 to Port Royal
moving forward adds one lap; crossing from Port Royal to space 49 moving backward removes one.
"""

from __future__ import annotations

from typing import Final

from .data import NUM_SPACES, PORT_ROYAL, SHORTEST_LAP, SPACE_NEXT, SPACE_TYPE

Dest = tuple[int, bool]  # (destination space, crossed the start line)


def _prev_table() -> tuple[tuple[int, ...], ...]:
    prev: list[list[int]] = [[] for _ in range(NUM_SPACES)]
    for s in range(NUM_SPACES):
        for n in SPACE_NEXT[s]:
            prev[n].append(s)
    return tuple(tuple(sorted(p)) for p in prev)


SPACE_PREV: Final = _prev_table()


def _walk(start: int, steps: int, forward: bool, stop_at_finish: bool) -> tuple[Dest, ...]:
    """Every distinct end of a walk of exactly `steps` (R2), cut short at Port Royal when
    `stop_at_finish` and the walk crosses the start line (RULES §6)."""
    frontier: set[Dest] = {(start, False)}
    done: set[Dest] = set()
    for _ in range(steps):
        nxt: set[Dest] = set()
        for space, crossed in frontier:
            neighbours = SPACE_NEXT[space] if forward else SPACE_PREV[space]
            for n in neighbours:
                crossing = (forward and n == PORT_ROYAL) or (not forward and space == PORT_ROYAL)
                if crossing and forward and stop_at_finish:
                    done.add((PORT_ROYAL, True))
                else:
                    nxt.add((n, crossed or crossing))
        frontier = nxt
    return tuple(sorted(done | frontier))


def _table(forward: bool, stop: bool) -> tuple[tuple[tuple[Dest, ...], ...], ...]:
    return tuple(
        tuple(_walk(s, d, forward, stop) if d else () for d in range(7)) for s in range(NUM_SPACES)
    )


# MOVES_*[space][die] -> the distinct (destination, crossed) pairs.
MOVES_FORWARD_RACE: Final = _table(True, True)  # a ship on its race lap stops at the finish
MOVES_FORWARD_BEHIND: Final = _table(True, False)  # behind the start line it goes on (R3)
MOVES_BACKWARD: Final = _table(False, False)


def _distances() -> tuple[int, ...]:
    """Fewest forward moves from each space to Port Royal; from Port Royal itself, a lap."""
    inf = 10**6
    d = [inf] * NUM_SPACES
    d[PORT_ROYAL] = 0
    changed = True
    while changed:
        changed = False
        for s in range(1, NUM_SPACES):
            best = min(d[n] + 1 for n in SPACE_NEXT[s])
            if best < d[s]:
                d[s] = best
                changed = True
    dist = list(d)
    dist[PORT_ROYAL] = SHORTEST_LAP
    return tuple(dist)


DIST_TO_FINISH: Final = _distances()


def moves_left(space: int, lap: int) -> int:
    """R8: fewest moves to finish by the shortest route; 0 once finished; a whole shortest lap
    more for each lap behind the start line."""
    if lap >= 1:
        return 0
    return DIST_TO_FINISH[space] + SHORTEST_LAP * (-lap)


def _back_routes(start: int) -> tuple[tuple[int, ...], ...]:
    """Every backward route from `start` (exclusive) down to Port Royal (inclusive)."""
    routes: list[tuple[int, ...]] = []

    def go(space: int, path: tuple[int, ...]) -> None:
        if space == PORT_ROYAL:
            routes.append(path)
            return
        for p in SPACE_PREV[space]:
            go(p, (*path, p))

    if start == PORT_ROYAL:
        return ((),)
    go(start, ())
    return tuple(routes)


BACK_ROUTES: Final = tuple(_back_routes(s) for s in range(NUM_SPACES))


def nearest_back(start: int, space_type: int) -> tuple[int, ...]:
    """RULES §7.2: the nearest space of a type behind `start` on each route (R4: Port Royal if
    none comes first). Several results mean the player chooses the route."""
    found: set[int] = set()
    for route in BACK_ROUTES[start]:
        for s in route:
            if SPACE_TYPE[s] == space_type or s == PORT_ROYAL:
                found.add(s)
                break
        else:
            found.add(PORT_ROYAL)
    return tuple(sorted(found))


# NEAREST[space_type][space] for the four space types.
NEAREST: Final = tuple(tuple(nearest_back(s, t) for s in range(NUM_SPACES)) for t in range(4))
