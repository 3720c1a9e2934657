"""Hypothesis strategies and a random-game walker shared by the property tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import strategies as st

from jamaica import CHANCE, Config, State, new_game


def _valid(players: int, edition: str, ghost: bool | None) -> bool:
    return not ((players == 2 and ghost is False) or (players == 6 and ghost is True))


# Every configuration: 2–6 players × both editions × Ghost Ship default/on/off.
configs = (
    st.tuples(
        st.integers(2, 6),
        st.sampled_from(["2021", "classic"]),
        st.sampled_from([None, True, False]),
    )
    .filter(lambda t: _valid(*t))
    .map(lambda t: Config(players=t[0], edition=t[1], ghost_ship=t[2]))
)
seeds = st.integers(0, 2**32 - 1)

ALL_CONFIGS = [
    Config(players=p, edition=e, ghost_ship=g)
    for p in range(2, 7)
    for e in ("2021", "classic")
    for g in (None, True, False)
    if _valid(p, e, g)
]


def random_walk(config: Config, seed: int) -> Iterator[State]:
    """Yield the state before every action of a random game, and the final state."""
    rng = random.Random(seed)
    s = new_game(config)
    while not s.is_terminal():
        yield s
        if s.current_player() == CHANCE:
            s.apply(s.sample_chance(rng))
        else:
            s.apply(rng.choice(s.legal_actions()))
    yield s
