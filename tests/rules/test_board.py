"""RULES §2 and rulings R2, R8: the board, its forks, laps and distances."""

from jamaica.rules.board import (
    DIST_TO_FINISH,
    MOVES_BACKWARD,
    MOVES_FORWARD_BEHIND,
    MOVES_FORWARD_RACE,
    NEAREST,
    moves_left,
)
from jamaica.rules.data import LAIR, PORT, SEA, SHORTEST_LAP, SPACE_NEXT


def _lap_lengths() -> set[int]:
    lengths = set()

    def walk(space: int, steps: int) -> None:
        if space == 0 and steps:
            lengths.add(steps)
            return
        for n in SPACE_NEXT[space]:
            walk(n, steps + 1)

    walk(0, 0)
    return lengths


def test_a_lap_is_32_to_44_moves() -> None:
    lengths = _lap_lengths()
    assert min(lengths) == 32 and max(lengths) == 44
    assert DIST_TO_FINISH[0] == SHORTEST_LAP == 32


def test_r2_a_fork_offers_each_distinct_destination() -> None:
    assert [d for d, _ in MOVES_FORWARD_RACE[6][1]] == [7, 13]
    assert [d for d, _ in MOVES_FORWARD_RACE[5][3]] == [8, 14]
    # Three steps from 12 or 14 both pass the merge: one destination each.
    assert [d for d, _ in MOVES_FORWARD_RACE[12][3]] == [17]
    # Backward through a merge: both lanes.
    assert [d for d, _ in MOVES_BACKWARD[16][3]] == [11, 13]


def test_the_race_lap_stops_at_port_royal_but_behind_the_start_it_goes_on() -> None:
    assert MOVES_FORWARD_RACE[48][5] == ((0, True),)
    assert MOVES_FORWARD_BEHIND[48][5] == ((3, True),)
    assert MOVES_BACKWARD[0][2] == ((48, True),)


def test_r8_moves_left_counts_the_shortest_route() -> None:
    assert moves_left(0, 0) == 32  # at the start
    assert moves_left(0, 1) == 0  # finished
    assert moves_left(49, 0) == 1
    assert moves_left(7, 0) == 29 and moves_left(13, 0) == 25
    assert moves_left(48, -1) == 2 + 32  # behind the start line: a whole lap more


def test_nearest_spaces_backward_for_the_shortage_die() -> None:
    assert NEAREST[PORT][16] == (6,)
    assert NEAREST[SEA][16] == (15,)
    assert NEAREST[SEA][42] == (38, 40)  # a route choice back through the merge at 41
    assert NEAREST[LAIR][16] == (4, 11)
    assert NEAREST[LAIR][3] == (0,)  # R4: never past Port Royal
