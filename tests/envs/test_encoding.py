"""The observation vector: the old view-based vector is found unchanged inside it, the layout is
data, seats can be relative, and the pending question's parameters are there."""

from __future__ import annotations

import random

import numpy as np
import pytest

from jamaica import CHANCE, Config, State, new_game
from jamaica.envs.encoding import SHIP_SIZE, encode, observation_layout, observation_size
from jamaica.envs.legacy import encode_view
from jamaica.rules.data import CARDS, FOOD, GOLD
from jamaica.rules.progress import Question, Resolving, question, resolving

CONFIGS = [Config(players=2), Config(players=4), Config(players=3, edition="classic",
           ghost_ship=True), Config(players=6)]  # fmt: skip
NEW_PARTS = ("question.ship", "question.resource", "question.amount", "question.mode",
             "question.side", "question.firepower", "question.loser", "resolving.ship",
             "resolving.card", "resolving.half", "resolving.die")  # fmt: skip


def states(config: Config, seed: int, every: int = 1) -> list[State]:
    rng = random.Random(seed)
    s = new_game(config)
    out = []
    i = 0
    while not s.is_terminal():
        if s.current_player() != CHANCE:
            i += 1
            if i % every == 0:
                out.append(s.clone())
        s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal))
    out.append(s)
    return out


def without_new_parts(v: np.ndarray, config: Config) -> np.ndarray:
    layout = observation_layout(config)
    keep = np.ones(len(v), bool)
    for name in NEW_PARTS:
        keep[layout[name]] = False
    return v[keep]


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_the_old_vector_is_inside_the_new_one(config: Config) -> None:
    for s in states(config, 1, every=3):
        for p in [None, *range(s.n)]:
            new = encode(s, p)
            assert new.shape == (observation_size(config),) and new.dtype == np.float32
            old = encode_view(s.view(p), s.n, s.ns)
            assert np.array_equal(without_new_parts(new, config), old)


def test_layout_is_data_that_tiles_the_vector() -> None:
    for config in CONFIGS:
        layout = observation_layout(config)
        stop = 0
        for part in layout.values():
            assert part.start == stop
            stop = part.stop
        assert stop == observation_size(config)
        assert layout["ships"].stop - layout["ships"].start == config.ships * SHIP_SIZE
        layout["me"] = slice(0, 0)  # the caller's copy
        assert observation_layout(config)["me"] == slice(0, config.players)


def test_seat_relative_order_puts_the_observer_first() -> None:
    config = Config(players=4)
    layout = observation_layout(config)
    for s in states(config, 2, every=25):
        for p in range(4):
            absolute, relative = encode(s, p), encode(s, p, relative=True)
            assert relative[layout["me"]][0] == 1.0
            ships = absolute[layout["ships"]].reshape(4, SHIP_SIZE)
            mine = relative[layout["ships"]].reshape(4, SHIP_SIZE)
            for seat in range(4):
                assert np.array_equal(mine[(seat - p) % 4], ships[seat])
            cap = s.cap
            if cap >= 0:
                assert relative[layout["captain"]][(cap - p) % 4] == 1.0
            assert np.array_equal(relative[layout["hand"]], absolute[layout["hand"]])
    with pytest.raises(TypeError, match="State"):
        encode(s.view(0), 4)  # type: ignore[arg-type]


def test_the_question_is_in_the_vector() -> None:
    """'2 food still to pay', 'load 3 doubloons', the card in play and its half, the battle."""
    config = Config(players=3)
    layout = observation_layout(config)
    seen = set()
    for seed in range(4):
        for s in states(config, seed):
            if s.is_terminal():
                continue
            kind = s.decision_kind()
            v = encode(s, s.current_player())
            qp, r = question(s), resolving(s)
            # both are made from full tuples of their fields (`rules.progress`): every field there
            assert len(qp) == len(Question._fields)
            assert r is None or len(r) == len(Resolving._fields)
            if kind in ("load", "pay"):
                res = v[layout["question.resource"]]
                assert res[qp.resource - 1] == 1.0 and res.sum() == 1.0
                assert qp.resource in (FOOD, GOLD, 2)
                assert v[layout["question.amount"]][0] == pytest.approx(qp.amount / 36)
                assert v[layout["question.ship"]][qp.ship] == 1.0
                seen.add(kind)
            if kind in ("powder", "sabre"):
                assert v[layout["question.side"]][qp.side] == 1.0
                if qp.side == 1:  # the attacker has rolled: its firepower is known
                    assert v[layout["question.firepower"]][0] > 0 or qp.firepower[0] == 0
                seen.add(kind)
            if kind in ("move", "load", "pay", "attack", "powder", "spoils"):
                assert r is not None
                assert v[layout["resolving.ship"]][r.ship] == 1.0
                assert v[layout["resolving.half"]][r.half] == 1.0
                die = s.morning if r.half == 0 else s.evening
                assert v[layout["resolving.die"]][0] == pytest.approx(die / 6)
                if r.card >= 0:
                    assert v[layout["resolving.card"]][r.card] == 1.0
                    icon = CARDS[r.card][r.half]
                    if kind == "load" and qp.ship == r.ship and qp.amount == die:
                        assert icon == qp.resource or s.battle is None
            if kind in ("card", "dice_order"):
                assert r is None and not v[layout["resolving.half"]].any()
    assert {"load", "pay", "powder"} <= seen


def test_vectors_are_independent_of_the_encoders_caches() -> None:
    """Blocks come from caches keyed by what they show: a vector is the caller's own (writing
    to it changes no later vector), and a cold or warm cache gives the same values."""
    from jamaica.envs import encoding

    config = Config(players=4)
    games = states(config, 5, every=7)
    warm = [encode(s, 1) for s in games]
    for v in warm:
        v[:] = 7.0
    encoding.clear_caches()
    cold = [encode(s, 1) for s in games]
    again = [encode(s, 1) for s in games]
    for s, a, b in zip(games, cold, again, strict=True):
        assert np.array_equal(a, b) and a is not b
        assert np.array_equal(without_new_parts(a, config), encode_view(s.view(1), s.n, s.ns))


def test_holds_beyond_the_tables_and_full_caches_encode_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A count beyond the slot table (64 tokens), the sixth hold in use, and caches emptied
    whenever they fill: the same vector as the view-based encoder's."""
    from jamaica.envs import encoding
    from jamaica.rules.data import HOLD6, SLOTS

    config = Config(players=3)
    monkeypatch.setattr(encoding, "_CACHE_SIZE", 2)
    for s in states(config, 8, every=11):
        s.powers[HOLD6] = 1
        s.hold_types[SLOTS + 5], s.hold_counts[SLOTS + 5] = GOLD, 70
        s.hold_types[2 * SLOTS], s.hold_counts[2 * SLOTS] = FOOD, 99
        for p in range(3):
            v = encode(s, p)
            assert np.array_equal(without_new_parts(v, config), encode_view(s.view(p), s.n, s.ns))
        ship1 = observation_layout(config)["ships"].start + SHIP_SIZE
        holds = encoding.SHIP_LAYOUT["holds"]
        sixth = encode(s, 0)[ship1 + holds.start + 25 : ship1 + holds.stop]
        assert sixth.tolist() == [0.0, 0.0, 0.0, 1.0, np.float32(70 / 12)]
