"""The help a front end shows (rules/hints.py) holds at every question of many random games:
every payment plan is a legal sequence of answers that finishes exactly that payment."""

from __future__ import annotations

import random
from typing import Any

import pytest

from jamaica import Config, new_game
from jamaica.rules.hints import card_preview, pay_plans
from jamaica.rules.ops import K_PAY, K_PLAY
from jamaica.rules.state import State

Plans = list[dict[str, Any]]


def _sample_games(config: Config, games: int, seed: int) -> list[tuple[State, Plans]]:
    """Play random games; return (state, pay plans) at each payment question."""
    rng = random.Random(seed)
    seen: list[tuple[State, list[dict[str, Any]]]] = []
    for _ in range(games):
        s = new_game(config)
        while not s.is_terminal():
            if s.q is not None and s.q[0] == K_PAY:
                seen.append((s.clone(), pay_plans(s)))
            if s.q is not None and s.q[0] == K_PLAY:
                assert len(card_preview(s, s.current_player())) == len(s.legal)
            s.apply(rng.choice(s.legal))
    return seen


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_pay_plan_finishes_exactly_its_payment(players: int) -> None:
    seen = _sample_games(Config(players), games=30, seed=players)
    assert len(seen) > 20  # payments with a choice of holds do happen
    for s, plans in seen:
        assert plans, "a payment question always has at least one plan"
        assert s.q is not None
        owed = s.q[2][2]
        for plan in plans:
            t = s.clone()
            assert 1 <= len(plan["actions"]) <= owed
            for a in plan["actions"]:
                assert a in [str(x) for x in t.legal]
                t.apply(a)
            label = plan["label"]
            assert label.startswith("Pay ")
            parts = label.split(": ", 1)[1].split(" and ")
            assert sum(int(part.split()[0]) for part in parts) == owed
