"""One observation size for 2–6 players, seats relative to the observer, and seat-relative
actions (`encode_fixed`, `jamaica.envs.relative`)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from jamaica import CHANCE, Config, State, new_game
from jamaica.envs.encoding import (
    FIXED_LAYOUT,
    FIXED_SIZE,
    GHOST_PLACE,
    MAX_SEATS,
    SHIP_SIZE,
    encode,
    encode_fixed,
    observation_layout,
)
from jamaica.envs.relative import (
    legal_mask_relative,
    relative_actions,
    to_absolute,
    to_relative,
)
from jamaica.rules.actions import ACTION_NAMES, ATTACK, NUM_PLAYER_ACTIONS

from ..rules.strategies import ALL_CONFIGS

SEAT_PARTS = ("me", "captain", "question.decider")
SHIP_PARTS = ("question.ship", "question.loser", "resolving.ship", "scores")


def positions(config: Config, seed: int, every: int = 7) -> list[State]:
    """Decision points of a random game (every `every`-th) and its final state."""
    rng = random.Random(seed)
    s = new_game(config, log=False)
    out, i = [], 0
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            s.apply(s.sample_chance(rng))
            continue
        i += 1
        if i % every == 0:
            out.append(s.clone(log=False))
        s.apply(rng.choice(s.legal))
    return [*out, s]


def ship_place(s: State, p: int, ship: int) -> int:
    """Where `p` sees `ship` in the fixed layout: seats rotated, the Ghost Ship at 6."""
    return GHOST_PLACE if ship == s.gh else (ship - p) % s.n


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=str)
def test_every_config_has_the_same_size_and_the_relative_vector_moved_part_by_part(
    config: Config,
) -> None:
    n, k = config.players, config.ships
    rel_layout = observation_layout(config)
    for s in positions(config, seed=n, every=23):
        for p in range(n):
            v = encode_fixed(s, p)
            assert v.shape == (FIXED_SIZE,) and v.dtype == np.float32
            rel = encode(s, p, relative=True)
            for name, part in rel_layout.items():
                src, dst = rel[part], v[FIXED_LAYOUT[name]]
                if name in SEAT_PARTS:
                    assert np.array_equal(dst[:n], src) and not dst[n:].any(), name
                elif name in SHIP_PARTS:
                    assert np.array_equal(dst[:n], src[:n]), name
                    assert dst[GHOST_PLACE] == (src[n] if k > n else 0.0), name
                    assert not dst[n:GHOST_PLACE].any(), name
                elif name == "ships":
                    blocks = dst.reshape(MAX_SEATS + 1, SHIP_SIZE)
                    for ship in range(k):
                        place = ship_place(s, p, ship)
                        rel_block = src[(place if place < n else n) * SHIP_SIZE :][:SHIP_SIZE]
                        assert np.array_equal(blocks[place], rel_block)
                    padding = [b for b in range(MAX_SEATS + 1) if b not in
                               {ship_place(s, p, ship) for ship in range(k)}]  # fmt: skip
                    assert not blocks[padding].any(), "a padded ship's block is not zero"
                elif name != "battle":
                    assert np.array_equal(dst, src), name
            seats = v[FIXED_LAYOUT["seats"]]
            assert list(seats) == [1.0] * n + [0.0] * (MAX_SEATS - n) + [float(k > n)]


def test_the_observers_own_block_comes_first() -> None:
    config = Config(players=5)
    s = positions(config, seed=3)[10]
    for p in range(5):
        v = encode_fixed(s, p)
        assert v[FIXED_LAYOUT["me"]][0] == 1.0 and v[FIXED_LAYOUT["me"]].sum() == 1.0
        ships = v[FIXED_LAYOUT["ships"]].reshape(MAX_SEATS + 1, SHIP_SIZE)
        # the ship's block 0 is the observer's own: its space and its discard pile
        assert ships[0][s.pos[p]] == 1.0
        alone = encode(s, p)[observation_layout(config)["ships"]].reshape(5, SHIP_SIZE)
        assert np.array_equal(ships[0], alone[p])
        assert np.array_equal(ships[1], alone[(p + 1) % 5])
        captain = v[FIXED_LAYOUT["captain"]]
        assert captain[(s.cap - p) % 5] == 1.0


def test_it_writes_into_a_batch_row() -> None:
    batch = np.full((2, FIXED_SIZE), 9.0, np.float32)  # stale values are overwritten
    four = positions(Config(players=4), seed=2)[5]
    two = positions(Config(players=2), seed=2)[5]
    row = batch[0]
    assert encode_fixed(four, 3, out=row) is row
    encode_fixed(two, 1, out=batch[1])
    assert np.array_equal(batch[0], encode_fixed(four, 3))
    assert np.array_equal(batch[1], encode_fixed(two, 1))


def test_the_ghost_ship_has_a_fixed_place() -> None:
    for config in (Config(players=2), Config(players=4, ghost_ship=True)):
        s = positions(config, seed=5)[3]
        v = encode_fixed(s, 1)
        ships = v[FIXED_LAYOUT["ships"]].reshape(MAX_SEATS + 1, SHIP_SIZE)
        assert ships[GHOST_PLACE][s.pos[s.gh]] == 1.0
        assert not ships[config.players : GHOST_PLACE].any()


def test_the_battle_names_the_ships_by_their_fixed_places() -> None:
    config = Config(players=3, ghost_ship=True)
    for seed in range(40):
        battles = [s for s in positions(config, seed, every=1) if s.battle is not None]
        if battles:
            break
    s = battles[0]
    assert s.battle is not None
    attacker, defender = s.battle[0], s.battle[1]
    for p in range(3):
        battle = encode_fixed(s, p)[FIXED_LAYOUT["battle"]]
        assert battle[0] == 1.0
        assert list(np.flatnonzero(battle[1:8])) == [ship_place(s, p, attacker)]
        assert list(np.flatnonzero(battle[8:15])) == [ship_place(s, p, defender)]


@pytest.mark.parametrize("players", range(2, 7))
def test_the_relative_action_map_is_a_bijection_that_round_trips(players: int) -> None:
    for p in range(players):
        image = [to_relative(a, p, players) for a in range(NUM_PLAYER_ACTIONS)]
        assert sorted(image) == list(range(NUM_PLAYER_ACTIONS))
        assert all(to_absolute(r, p, players) == a for a, r in enumerate(image))
        for a in range(NUM_PLAYER_ACTIONS):  # only `attack K` changes
            if not ACTION_NAMES[a].startswith("attack"):
                assert image[a] == a
        for seat in range(players):
            assert image[ATTACK + seat] == ATTACK + (seat - p) % players
        if players < 6:
            assert image[ATTACK + players] == ATTACK + GHOST_PLACE  # the Ghost Ship


@pytest.mark.parametrize("config", ALL_CONFIGS[::2], ids=str)
def test_the_relative_mask_is_the_legal_actions_mapped(config: Config) -> None:
    attacks = 0
    for s in positions(config, seed=11, every=1)[:-1]:
        p = s.current_player()
        mask = legal_mask_relative(s, p)
        legal = [int(a) for a in s.legal]
        rel = relative_actions(legal, p, s.n)
        assert sorted(np.flatnonzero(mask)) == sorted(rel)
        assert len(set(rel)) == len(legal)
        assert [to_absolute(r, p, s.n) for r in rel] == legal
        attacks += any(ATTACK <= a < ATTACK + 7 for a in legal)
        other = (p + 1) % s.n
        assert not legal_mask_relative(s, other).any()
    print(config, attacks, "decision points with an attack")


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="player"):
        to_relative(0, 4, 4)
    with pytest.raises(ValueError, match="players"):
        to_relative(0, 0, 7)
    with pytest.raises(ValueError, match="action"):
        to_absolute(140, 0, 4)
