"""Issue 25: a finished table's results are stored in the transaction that finishes it, and a
rated table moves its players' ratings there — once, whatever happens after (a retried commit, a
node that takes the table over and replays it). On both back-ends."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from jamaica import Config
from jamaica.ratings import Key, Rating, rate_game
from jamaica.web import results
from jamaica.web.results import outcome_of
from jamaica.web.storage import open_store
from jamaica.web.store import ActionRow, PlayerRecord, SQLStore, TableRecord

from ..ratings.test_places import finished

IDS = ["pa", "pb", "pc", "pd"]


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> SQLStore:
    url = (f"sqlite:///{tmp_path / 'jamaica.db'}" if request.param == "sqlite"
           else str(request.getfixturevalue("pg_url")))  # fmt: skip
    s = open_store(url)
    for p in IDS:
        s.create_player(PlayerRecord(p, p.upper(), "hash-" + p, time.time()))
    assert isinstance(s, SQLStore)
    return s


def _seats(replaced: int | None = None) -> list[dict[str, object]]:
    return [{"name": p.upper(), "bot": None, "kind": "player", "player": p, "token_hash": None,
             **({"replaced": True} if i == replaced else {})}
            for i, p in enumerate(IDS)]  # fmt: skip


def _table(store: SQLStore, table_id: str, rated: bool) -> None:
    store.create_table(TableRecord(table_id, Config(4).to_dict(), _seats(), 0, 60.0, time.time(),
                                   rated=rated))  # fmt: skip


def _ratings(store: SQLStore) -> dict[str, tuple[float, float, int]]:
    rows = store.rows("SELECT player_id, mu, sigma, games FROM ratings ORDER BY player_id")
    return {str(p): (float(mu), float(sigma), int(n)) for p, mu, sigma, n in rows}


def test_r8_a_rated_four_player_game_with_a_tie_moves_the_ratings_once(store: SQLStore) -> None:
    game = finished((11, 0, 4), (13, 0, 4), (0, 0, 1), (0, 0, 1))  # places 1, 1, 3, 3 (R8)
    outcome = outcome_of(game, _seats(), rated=True)
    assert [s.place for s in outcome.seats] == [1, 1, 3, 3]
    _table(store, "t1", rated=True)
    store.append_many("t1", [ActionRow(0, 140, "chance")], finish=True, outcome=outcome)
    got = _ratings(store)
    keys = {p: Key(p, "2021") for p in IDS}
    want = rate_game({keys[p]: Rating() for p in IDS},
                     {keys[p]: place for p, place in zip(IDS, [1, 1, 3, 3], strict=True)})
    for p in IDS:
        assert got[p] == pytest.approx((want[keys[p]].mu, want[keys[p]].sigma, 1))
    assert got["pa"] == got["pb"] and got["pc"] == got["pd"]  # tied, equal before: equal after
    assert got["pa"][0] > 25 > got["pc"][0]
    # The same finished game again (a retried commit, a takeover's replay): nothing changes.
    with store.write() as db:
        results.record(db, "t1", outcome, time.time(), store._FOR_UPDATE)
    assert _ratings(store) == got
    rows = store.rows("SELECT seat, player_id, place, score, rated, mu_before, mu_after "
                      "FROM results WHERE table_id = 't1' ORDER BY seat")  # fmt: skip
    assert [(r[0], r[1], r[2], r[4]) for r in rows] == [
        (0, "pa", 1, 1), (1, "pb", 1, 1), (2, "pc", 3, 1), (3, "pd", 3, 1)]
    assert rows[0][5] == 25.0 and rows[0][6] == pytest.approx(got["pa"][0])


def test_a_casual_game_keeps_its_results_and_moves_no_rating(store: SQLStore) -> None:
    game = finished((44, 0, 9), (49, 0, 3), (45, 0, 0), (0, 0, 3))
    _table(store, "t2", rated=False)
    store.append_batch([("t2", [ActionRow(0, 140, "chance")], True)], {},
                       {"t2": outcome_of(game, _seats(), rated=False)})  # fmt: skip
    assert _ratings(store) == {}
    rows = store.rows("SELECT place, score, rated FROM results WHERE table_id = 't2' ORDER BY seat")
    assert rows == [(1, 14, 0), (2, 13, 0), (3, 6, 0), (4, -2, 0)]


def test_a_player_who_abandoned_a_rated_game_is_rated_last(store: SQLStore) -> None:
    game = finished((44, 0, 9), (49, 0, 3), (45, 0, 0), (0, 0, 3))  # pa's ship scored most
    _table(store, "t3", rated=True)
    outcome = outcome_of(game, _seats(replaced=0), rated=True)
    assert [(s.place, s.abandoned) for s in outcome.seats] == [
        (4, True), (1, False), (2, False), (3, False)]
    store.append_many("t3", [ActionRow(0, 140, "chance")], finish=True, outcome=outcome)
    got = _ratings(store)
    assert got["pa"][0] < got["pd"][0] < got["pc"][0] < got["pb"][0]
