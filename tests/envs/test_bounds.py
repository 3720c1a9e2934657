"""The bound on a game's length (`envs.bounds`): its ingredients hold in random games of every
configuration, and OpenSpiel's `max_game_length` is that bound."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from jamaica import CHANCE, Config, new_game
from jamaica.envs.bounds import BATTLE_DECISIONS, MAX_TOKENS_PER_HOLD, bound
from jamaica.rules.events import E_BATTLE
from jamaica.rules.ops import C_DRAW, K_ATTACK, K_LOAD, K_PAY, K_POWDER, K_SABRE, K_SPOILS

CONFIGS = [
    Config(players=p, edition=e, ghost_ship=g)
    for p in range(2, 7)
    for e in ("2021", "classic")
    for g in (None, True, False)
    if not (p == 6 and g) and not (p == 2 and g is False)
]
BATTLE_KINDS = {K_ATTACK, K_POWDER, K_SABRE, K_SPOILS}


def play(config: Config, seed: int) -> tuple[Counter[tuple[int, str]], int, int]:
    """A random game's counts per (round, what), its decisions and its chance nodes."""
    rng = random.Random(seed)
    s = new_game(config)
    counts: Counter[tuple[int, str]] = Counter()
    decisions = chance = 0
    while not s.is_terminal():
        assert s.q is not None
        kind, who, _ = s.q
        r = s.rnd
        assert all(hn <= MAX_TOKENS_PER_HOLD for hn in s.hold_counts)
        seen = len(s.events or ())
        if who == CHANCE:
            chance += 1
            counts[r, "chance"] += 1
            counts[r, "draws"] += kind == C_DRAW
            s.apply(s.sample_chance(rng))
        else:
            decisions += 1
            counts[r, "decisions"] += 1
            counts[r, "payments"] += kind == K_PAY
            s.apply(rng.choice(s.legal))
        counts[r, "battles"] += sum(e[1] == E_BATTLE for e in (s.events or ())[seen:])
    return counts, decisions, chance


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_random_games_stay_within_every_ingredient_of_the_bound(config: Config) -> None:
    b = bound(config)
    for seed in range(3):
        counts, decisions, chance = play(config, seed)
        rounds = {r for r, _ in counts}
        assert max(rounds) <= config.max_rounds
        for r in rounds - {0}:
            assert counts[r, "decisions"] <= b.decisions
            assert counts[r, "chance"] <= b.chance
            assert counts[r, "battles"] <= b.battles
            assert counts[r, "payments"] <= b.payments
            assert counts[r, "draws"] <= b.draws
        assert counts[0, "decisions"] == 0 and counts[0, "chance"] <= b.setup_chance
        assert decisions <= b.max_game_length and chance <= b.max_chance_nodes


def test_a_battle_asks_at_most_seven_questions() -> None:
    """Which ship to attack, gunpowder and the Sabre for each side, the spoils and the hold they
    are loaded into."""
    worst = 0
    for seed in range(30):
        rng = random.Random(seed)
        s = new_game(Config(players=3, ghost_ship=True))
        asked, previous = 0, -1
        while not s.is_terminal():
            assert s.q is not None
            kind, who, _ = s.q
            seen = len(s.events or ())
            if who != CHANCE and (
                kind in BATTLE_KINDS or (kind == K_LOAD and previous == K_SPOILS)
            ):
                asked += 1
            s.apply(s.sample_chance(rng) if who == CHANCE else rng.choice(s.legal))
            if any(e[1] == E_BATTLE for e in (s.events or ())[seen:]):
                asked = int(kind == K_ATTACK)  # a new battle (attacked without asking: 0)
            worst = max(worst, asked)
            if who != CHANCE:
                previous = kind
    assert 4 <= worst <= BATTLE_DECISIONS


def test_openspiel_max_game_length_is_the_bound() -> None:
    import pyspiel

    import jamaica.envs.openspiel  # noqa: F401  (registers python_jamaica)

    for params, config in [
        ({"players": 2}, Config(players=2)),
        ({"players": 6, "edition": "classic", "max_rounds": 30},
         Config(players=6, edition="classic", max_rounds=30)),
    ]:  # fmt: skip
        game = pyspiel.load_game("python_jamaica", params)
        assert game.max_game_length() == bound(config).max_game_length
