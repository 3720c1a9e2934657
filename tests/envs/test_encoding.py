"""The observation vector: it shows what `State.view` shows, part by part; recorded vectors of
fixed states are reproduced; the layout is data, seats can be relative, and the pending
question's parameters are there."""

from __future__ import annotations

import base64
import json
import random
import sys
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from jamaica import CHANCE, Config, State, new_game
from jamaica.envs.encoding import (
    SHIP_LAYOUT,
    SHIP_SIZE,
    encode,
    observation_layout,
    observation_size,
)
from jamaica.rules.data import (
    CARD_NAMES,
    CARDS,
    FOOD,
    GOLD,
    HOLD6,
    LAIR_SPACES,
    RESOURCE_SHORT,
    SLOTS,
    TREASURE_NAMES,
)
from jamaica.rules.ops import KIND_NAMES
from jamaica.rules.progress import Question, Resolving, question, resolving

CONFIGS = [Config(players=2), Config(players=4), Config(players=3, edition="classic",
           ghost_ship=True), Config(players=6)]  # fmt: skip
RECORDED = Path(__file__).with_name("recorded_encodings.json")


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


def hot(part: np.ndarray) -> int | None:
    """The index of a one-hot part (None: all zeros); fails on anything else."""
    on = np.flatnonzero(part)
    assert len(on) <= 1 and all(part[on] == 1.0), part
    return int(on[0]) if len(on) else None


def ones(part: np.ndarray) -> list[int]:
    """The indices of a part of flags; fails unless every value is 0 or 1."""
    on = np.flatnonzero(part)
    assert all(part[on] == 1.0), part
    return [int(i) for i in on]


def ratio(x: float, scale: float) -> np.float32:
    return np.float32(x / scale)


def check_shows_the_view(v: np.ndarray, view: dict[str, Any], config: Config) -> None:
    """Every part of `v` (seats absolute) but the question's parameters and the half-turn in
    progress, read back by its layout and compared with what `view` says."""
    k = config.ships
    part = {name: v[at] for name, at in observation_layout(config).items()}
    assert hot(part["me"]) == view["player"]
    assert part["round"][0] == ratio(view["round"], 100)
    assert hot(part["captain"]) == (None if view["captain"] < 0 else view["captain"])
    dice = view["dice"]
    assert hot(part["dice.morning"]) == dice["morning"]
    assert hot(part["dice.evening"]) == dice["evening"]
    assert part["dice.roll"].tolist() == ([ratio(d, 6) for d in dice["roll"]] or [0.0, 0.0])
    pending = view["pending"]
    kind = KIND_NAMES.index(pending["kind"]) if pending["kind"] else None
    assert hot(part["question.kind"]) == kind
    assert hot(part["question.decider"]) == pending["player"]
    mine = view["player"] is not None and pending["player"] == view["player"]
    assert part["question.mine"][0] == float(mine)
    assert [LAIR_SPACES[i] for i in ones(part["lairs"])] == view["lair_tokens"]
    assert part["game"].tolist() == [float(view["ending"]), float(view["game_over"])]
    ships = part["ships"].reshape(k, SHIP_SIZE)
    for ship in view["ships"]:
        row = ships[ship["ship"]]
        block = {name: row[at] for name, at in SHIP_LAYOUT.items()}
        lap = ship["lap"]
        assert hot(block["space"]) == ship["space"]
        assert hot(block["lap"]) == (0 if lap < 0 else 1 if lap == 0 else 2)  # behind, racing, done
        assert block["moves_left"][0] == ratio(ship["moves_left"], 76)
        slots = block["holds"].reshape(SLOTS, 5)  # empty, food, gunpowder, gold; count / 12
        holds = ship["holds"]
        assert [(hot(slot[:4]), slot[4]) for slot in slots[: len(holds)]] == [
            (RESOURCE_SHORT.index(hold["type"]), ratio(hold["count"], 12)) for hold in holds
        ]
        assert not slots[len(holds) :].any()  # the sixth slot without the sixth hold
        assert [TREASURE_NAMES[i] for i in ones(block["powers"])] == ship["powers"]
        assert block["face_down"][0] == ratio(ship["face_down"], 9)
        known = {TREASURE_NAMES[i]: 2 * x for i, x in enumerate(block["face_down_known"]) if x}
        assert known == Counter(ship["face_down_known"])
        if ship["ghost"]:
            assert not row[SHIP_LAYOUT["hand_size"].start :].any()
        else:
            assert block["hand_size"][0] == ratio(ship["hand_size"], 4)
            assert block["draw_pile"][0] == ratio(ship["draw_pile"], 11)
            assert [CARD_NAMES[i] for i in ones(block["discard"])] == ship["discard"]
            assert block["has_chosen"][0] == float(ship["has_chosen"])
    assert [CARD_NAMES[i] for i in ones(part["hand"])] == view.get("hand", [])
    chosen = view.get("chosen")
    assert hot(part["chosen"]) == (0 if chosen is None else CARD_NAMES.index(chosen) + 1)
    b, battle = view["battle"], part["battle"]
    if b is None:
        assert not battle.any()
    else:
        j = 1 + 2 * k
        assert battle[0] == 1.0
        assert hot(battle[1 : 1 + k]) == b["attacker"]
        assert hot(battle[1 + k : j]) == b["defender"]
        powder = [ratio(b["attacker_powder"], 36), ratio(b["defender_powder"], 36)]
        assert battle[j : j + 2].tolist() == powder
        assert hot(battle[j + 2 : j + 9]) == b["attacker_die"] + 1  # 0: not rolled
        assert hot(battle[j + 9 : j + 16]) == b["defender_die"] + 1
        assert battle[j + 16] == float(b["sabre_used"])
    scores = [ratio(sc["total"], 50) for sc in view.get("scores", ())]
    assert part["scores"].tolist() == (scores or [0.0] * k)


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_the_vector_shows_what_the_view_shows(config: Config) -> None:
    for s in states(config, 1, every=3):
        for p in [None, *range(s.n)]:
            v = encode(s, p)
            assert v.shape == (observation_size(config),) and v.dtype == np.float32
            check_shows_the_view(v, s.view(p), config)


def recorded_states(config: Config, seed: int = 1) -> list[tuple[str, State]]:
    """From a seeded random game, the first state showing each thing not shown yet (each kind of
    question, a battle, the sixth hold in use, face-down cards, the end triggered), and the last."""
    rng = random.Random(seed)
    s = new_game(config)
    shown: set[str] = set()
    out = []
    while not s.is_terminal():
        if s.current_player() != CHANCE:
            things = [s.decision_kind()]
            things += ["battle"] if s.battle is not None else []
            things += ["sixth hold"] if s.powers[HOLD6] >= 0 else []
            things += ["face-down cards"] if any(s.face_down) else []
            things += ["ending"] if s.ending else []
            new = [thing for thing in things if thing not in shown]
            if new:
                shown.update(new)
                out.append((", ".join(new), s.clone()))
        s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal))
    out.append(("game over", s))
    return out


def _pack(v: np.ndarray) -> str:
    return base64.b64encode(zlib.compress(v.astype("<f4").tobytes(), 9)).decode("ascii")


def _unpack(text: str) -> np.ndarray:
    return np.frombuffer(zlib.decompress(base64.b64decode(text)), "<f4")


def record() -> None:
    """Rewrite the recorded vectors from today's encoder (after a deliberate change only)."""
    entries = []
    for config in CONFIGS:
        name = f"{config.players}p {config.edition}" + (" ghost" if config.ghost else "")
        for what, s in recorded_states(config):
            state = s.to_dict()
            state["events"], state["history"] = None, []  # the encoder reads neither
            vectors = [_pack(encode(s, p)) for p in [None, *range(s.n)]]
            entries.append({"what": f"{name}: {what}", "state": state, "vectors": vectors})
    text = "[\n" + ",\n".join(json.dumps(entry) for entry in entries) + "\n]\n"
    RECORDED.write_text(text, encoding="utf-8")


def test_recorded_vectors_are_reproduced() -> None:
    """Fixed states (tests/envs/recorded_encodings.json: each kind of question, battles, the sixth
    hold, face-down cards, the end, in four configurations) and their vectors for every observer,
    recorded when the encoder was last checked against the view-based encoder it replaced (which
    is gone: `python -m jamaica.envs.bench --against-commit 1fe44fe` times the old code from
    git). A deliberate change of the layout re-records them: `python tests/envs/test_encoding.py
    --record`."""
    entries = json.loads(RECORDED.read_text(encoding="utf-8"))
    whats = " ".join(entry["what"] for entry in entries)
    for thing in ("pay", "load", "powder", "sabre", "spoils", "battle", "sixth hold", "game over"):
        assert thing in whats
    for entry in entries:
        s = State.from_dict(entry["state"])
        layout = observation_layout(s.cfg)
        for p, packed in zip([None, *range(s.n)], entry["vectors"], strict=True):
            want, got = _unpack(packed), encode(s, p)
            differ = [name for name, at in layout.items() if not np.array_equal(got[at], want[at])]
            assert not differ, f"{entry['what']}, observer {p}: {differ} differ"
            check_shows_the_view(want, s.view(p), s.cfg)


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
        check_shows_the_view(a, s.view(1), config)


def test_holds_beyond_the_tables_and_full_caches_encode_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A count beyond the slot table (64 tokens), the sixth hold in use, and caches emptied
    whenever they fill: what the view shows, and the same vector as with roomy caches."""
    from jamaica.envs import encoding

    config = Config(players=3)
    games = states(config, 8, every=11)
    for s in games:
        s.powers[HOLD6] = 1
        s.hold_types[SLOTS + 5], s.hold_counts[SLOTS + 5] = GOLD, 70
        s.hold_types[2 * SLOTS], s.hold_counts[2 * SLOTS] = FOOD, 99
    roomy = [[encode(s, p) for p in range(3)] for s in games]
    monkeypatch.setattr(encoding, "_CACHE_SIZE", 2)
    for s, vectors in zip(games, roomy, strict=True):
        for p in range(3):
            v = encode(s, p)
            assert np.array_equal(v, vectors[p])
            check_shows_the_view(v, s.view(p), config)
        ship1 = observation_layout(config)["ships"].start + SHIP_SIZE
        holds = encoding.SHIP_LAYOUT["holds"]
        sixth = encode(s, 0)[ship1 + holds.start + 25 : ship1 + holds.stop]
        assert sixth.tolist() == [0.0, 0.0, 0.0, 1.0, np.float32(70 / 12)]


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("python tests/envs/test_encoding.py --record: rewrite the recorded vectors")
    record()
