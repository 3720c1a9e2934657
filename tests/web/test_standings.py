"""Issue 25, the new public channels (results, profiles, head-to-head, the ladder) the two-worlds
way: two finished games that differ only in what was hidden (the cards left in hands and in the
draw pile) give identical results, profiles, head-to-head and ladder — a result carries nothing of
any hand."""

from __future__ import annotations

import random
from pathlib import Path

from jamaica import CHANCE, Config, State, new_game
from jamaica.web import results, standings
from jamaica.web.results import outcome_of
from jamaica.web.store import PlayerRecord, TableRecord
from jamaica.web.store_sqlite import SQLiteStore

IDS = ["pa", "pb", "pc"]
SEATS = [{"name": p.upper(), "bot": None, "kind": "player", "player": p, "token_hash": None}
         for p in IDS]  # fmt: skip
NOW = 1_760_000_000.0


def _finished(seed: int) -> State:
    rng = random.Random(seed)
    s = new_game(Config(3))
    while not s.is_terminal():
        s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal))
    return s


def _other_world(s: State, seed: int) -> State:
    """The same game with what was hidden changed: which of each player's own cards are in their
    hand and which still in their draw pile (those nobody was shown), swapped around."""
    t = s.clone()
    rng = random.Random(seed)
    for p in range(t.n):
        known = t.known_in_hand[p]
        free = (t.hand[p] | t.drawp[p]) & ~known
        in_hand = bin(t.hand[p] & free).count("1")
        bits = [b for b in range(64) if free >> b & 1]
        rng.shuffle(bits)
        hand = sum(1 << b for b in bits[:in_hand])
        t.hand[p] = (t.hand[p] & known) | hand
        t.drawp[p] = (t.drawp[p] & known) | (free & ~hand)
    return t


def _world(folder: Path, games: list[State]) -> dict[str, object]:
    store = SQLiteStore(folder / "w.db")
    for p in IDS:
        store.create_player(PlayerRecord(p, p.upper(), "hash-" + p, NOW))
    for i, game in enumerate(games):
        table_id = f"t{i}"
        store.create_table(TableRecord(table_id, Config(3).to_dict(), [dict(x) for x in SEATS],
                                       0, 60.0, NOW, rated=True))  # fmt: skip
        with store.write() as db:
            results.record(db, table_id, outcome_of(game, SEATS, rated=True), NOW + i)
    seen = {"profiles": [standings.profile(store, p) for p in IDS],
            "versus": standings.versus(store, "pa", "pb"),
            "ladder": standings.ladder(store, "2021", min_games=1)}
    store.close()
    return seen


def test_two_worlds_results_profiles_and_the_ladder(tmp_path: Path) -> None:
    games = [_finished(seed) for seed in (1, 2, 3)]
    others = [_other_world(g, 10 + i) for i, g in enumerate(games)]
    assert any(a.hand != b.hand or a.drawp != b.drawp for a, b in zip(games, others, strict=True))
    for a, b in zip(games, others, strict=True):
        assert outcome_of(a, SEATS, True) == outcome_of(b, SEATS, True)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    seen = _world(tmp_path / "a", games)
    assert seen == _world(tmp_path / "b", others)
    profile = seen["profiles"][0]  # type: ignore[index]
    assert profile["ratings"]["2021"]["games"] == 3 and len(profile["recent"]) == 3


def test_a_result_has_nothing_but_public_fields() -> None:
    outcome = outcome_of(_finished(4), SEATS, rated=True)
    fields = {f for s in outcome.seats for f in vars(s)}
    assert fields == {"seat", "player", "bot", "name", "place", "score", "abandoned", "won"}
