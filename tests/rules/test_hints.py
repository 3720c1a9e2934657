"""The help a front end shows (rules/hints.py) holds at every question of many random games:
every payment plan is a legal sequence of answers that finishes exactly that payment."""

from __future__ import annotations

import random
from typing import Any

import pytest

from jamaica import Action, Config, new_game
from jamaica.rules.actions import MOVE
from jamaica.rules.data import SEA, SLOTS, SPACE_COST, SPACE_TYPE
from jamaica.rules.events import E_BATTLE, E_FALLBACK, E_MOVE, E_SHORTAGE
from jamaica.rules.hints import card_preview, move_hints, pay_plans
from jamaica.rules.holds import pay_answer
from jamaica.rules.ops import K_ATTACK, K_MOVE, K_PAY, K_PLAY, M_FALLBACK_2021, M_GHOST
from jamaica.rules.state import State

from ..soak import soak
from .helpers import holds, start

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


@pytest.mark.soak
@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_pay_plan_finishes_exactly_its_payment(players: int) -> None:
    seen = _sample_games(Config(players), games=soak(6, 30), seed=players)
    assert len(seen) > 20  # payments with a choice of holds do happen
    for s, plans in seen:
        assert plans, "a payment question always has at least one plan"
        assert s.q is not None
        owed = s.q[2][2]
        for plan in plans:
            t = s.clone()
            assert 1 <= len(plan["actions"]) <= owed
            for a in plan["actions"]:
                assert t.q is not None and t.q[0] == K_PAY and t.q[2][:2] == s.q[2][:2], (
                    "the plan's answers outlast its payment", plan)  # fmt: skip
                assert a in [str(x) for x in t.legal]
                t.apply(a)
            # the payment is over — not asked again, even after the engine took tokens itself
            # (holds alike: one way left) between two answers
            assert not (t.q is not None and t.q[0] == K_PAY and t.q[2][:2] == s.q[2][:2]
                        and t.stack == s.stack), ("the plan leaves the payment unfinished", plan)
            # and what it takes from each hold is the engine's: its answers paid by the engine
            # alone (`holds.pay_answer`: nothing after the payment runs), hold by hold
            u = s.clone()
            for a in plan["actions"]:
                assert u.q is not None
                ctx, u.q = u.q[2], None
                pay_answer(u, ctx, int(Action.parse(a)))
            assert u.q is None, plan
            base, kind = s.q[1] * SLOTS, s.q[2][1]
            engine = [[h, s.hold_counts[base + h] - (u.hold_counts[base + h]
                                                      if u.hold_types[base + h] == kind else 0)]
                      for h in range(SLOTS) if s.hold_types[base + h] == kind]  # fmt: skip
            assert plan["taken"] == [x for x in engine if x[1]], plan
            label = plan["label"]
            assert label.startswith("Pay ")
            parts = label.split(": ", 1)[1].split(" and ")
            assert sum(int(part.split()[0]) for part in parts) == owed


def _previews_after_roll(food: int) -> dict[str, dict[str, Any]]:
    s = start(Config(2), hands=[("food-fwd", "fwd-fwd", "fwd-food"), ("fwd-fwd", "gold-gold",
                                                                       "food-gun")])  # fmt: skip
    holds(s, 0, [("food", food)] if food else [])
    s.apply("roll 3-4")
    s.apply("morning 4")  # morning 4, evening 3
    return {p["card"]: p for p in card_preview(s, 0)}


def test_the_evening_preview_counts_what_the_morning_loaded_and_paid() -> None:
    """A card's evening move is judged with what the ship holds after its morning: 4 food loaded
    in the morning pay an evening sea space (the old preview called it a shortage)."""
    empty = _previews_after_roll(food=0)
    evening = empty["food-fwd"]["steps"][1]
    assert evening["what"] == "move" and evening["destinations"]
    for d in evening["destinations"]:
        cost = SPACE_COST[d["space"]] if SPACE_TYPE[d["space"]] == SEA else 0
        assert d["shortage"] == (cost > 4), d
    # fwd-food: the morning move pays first; with no food at all, a sea space is a shortage and
    # the evening's load happens wherever the ship fell back
    morning = empty["fwd-fwd"]["steps"][0]
    seas = [d for d in morning["destinations"] if SPACE_TYPE[d["space"]] == SEA]
    assert all(d["shortage"] for d in seas)
    if seas:  # then the evening starts from an unknown place
        assert empty["fwd-fwd"]["steps"][1]["after_shortage"] is True
    rich = _previews_after_roll(food=12)
    for card in ("food-fwd", "fwd-fwd"):
        for step in rich[card]["steps"]:
            assert not any(d["shortage"] for d in step.get("destinations", []))
            assert not step.get("after_shortage")


@pytest.mark.parametrize("config", [Config(2), Config(3, edition="classic", ghost_ship=True),
                                    Config(5)], ids=str)  # fmt: skip
def test_move_hints_say_where_a_move_ends_and_what_it_costs(config: Config) -> None:
    """At every move question of random games: one hint per answer, in order, and what it says
    happens when that answer is applied — a battle on arrival (or the question which ship to
    attack), else a shortage exactly when the ship cannot pay (unpaid moves never run short)."""
    rng = random.Random(7)
    checked = {"battle": 0, "shortage": 0, "paid": 0}
    for _ in range(soak(4, 20)):
        s = new_game(config)
        while not s.is_terminal():
            if s.q is not None and s.q[0] == K_MOVE:
                _check_move_hints(s, checked)
            s.apply(rng.choice(s.legal))
    assert min(checked.values()) > 0, checked  # each case was met


MOVES = (E_MOVE, E_FALLBACK)  # the events of a ship's move: (ship, from, to, …)


def _check_move_hints(s: State, checked: dict[str, int]) -> None:
    assert s.q is not None
    ship, mode, _ = s.q[2]
    hints = move_hints(s)
    assert [h["space"] for h in hints] == [a - MOVE for a in s.legal]
    for a, h in zip(s.legal, hints, strict=True):
        t = s.clone()
        assert t.events is not None
        seen = len(t.events)
        t.apply(a)
        new = t.events[seen:]
        moved = next(i for i, e in enumerate(new) if e[1] in MOVES and e[2] == ship)
        assert new[moved][4] == h["space"]
        after = []
        for e in new[moved + 1 :]:
            if e[1] in MOVES and e[2] == ship:
                break  # the next move of the turn (a fall-back, the evening)
            after.append(e)
        attacked = any(e[1] == E_BATTLE and e[2] == ship for e in after) or (
            t.q is not None and t.q[0] == K_ATTACK and not after
        )
        assert attacked == h["battle"], (h, after)
        if h["battle"] or h["finish"]:
            checked["battle"] += h["battle"]
            continue
        short = any(e[1] == E_SHORTAGE and e[2] == ship for e in after)
        assert short == h["shortage"], (h, after)
        if mode in (M_GHOST, M_FALLBACK_2021):
            assert not short and h["cost"] == "not paid"
        checked["shortage" if short else "paid"] += 1
