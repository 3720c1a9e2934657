"""Issue 25, rated play on a real server over real sockets: who may make and join a rated table,
a finished rated game moving both players' ratings once, the profile, head-to-head and the ladder,
"play now", and the bots' ratings."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from .server import Server, recv, send

ME_AND_OPEN = [{"kind": "me", "name": ""}, {"kind": "open", "name": ""}]


@pytest.fixture
def server(rated_server: Server) -> Server:
    return rated_server


def _rated(server: Server, key: str | None, **more: Any) -> tuple[int, Any]:
    body = {"players": 2, "seats": ME_AND_OPEN, "rated": True, "seconds_per_decision": 60,
            **more}  # fmt: skip
    return server.post("/api/tables", body, key)


def play_out(server: Server, table_id: str, keys: list[str], seed: int = 5) -> dict[str, Any]:
    """Both players answer every question they are asked (a random option) until the game ends;
    the last update."""
    rng = random.Random(seed)
    socks = [server.ws(table_id) for _ in keys]
    try:
        for ws, key in zip(socks, keys, strict=True):
            send(ws, op="hello", key=key)
            assert recv(ws)["op"] == "welcome"
        answered: list[tuple[int, bool] | None] = [None] * len(keys)
        end = time.monotonic() + 180
        while time.monotonic() < end:
            for i, ws in enumerate(socks):
                try:
                    m = recv(ws, 0.02)
                except TimeoutError:
                    continue
                if m["op"] != "update":
                    continue
                if m["view"]["game_over"]:
                    return m
                q = m["question"]
                if q is None or answered[i] == (m["turn"], q["early"]):
                    continue
                answered[i] = (m["turn"], q["early"])
                send(ws, op="act", action=rng.choice(q["options"])["action"], turn=m["turn"])
        raise AssertionError("the game did not end")
    finally:
        for ws in socks:
            ws.close()


def _line(server: Server, table_id: str) -> dict[str, Any]:
    return next(x for x in server.get("/api/tables") if x["id"] == table_id)


def test_a_rated_table_is_made_by_a_player_for_people_with_a_clock(server: Server) -> None:
    ann = server.player("Ann")
    assert _rated(server, None)[0] == 400  # no player key
    status, d = _rated(server, ann["key"], seconds_per_decision=None)
    assert status == 400 and "time limit" in d["error"]
    bot = [{"kind": "me", "name": ""}, {"kind": "bot", "name": "", "bot": "greedy"}]
    status, d = _rated(server, ann["key"], seats=bot)
    assert status == 400 and "no bots" in d["error"]
    status, d = server.post("/api/tables", {"players": 2, "seats": ME_AND_OPEN, "within": 100},
                            ann["key"])  # fmt: skip
    assert status == 400 and "only a rated table" in d["error"]
    status, made = _rated(server, ann["key"])
    assert status == 201
    line = _line(server, made["id"])
    assert line["rated"] is True and line["range"] is None
    assert line["ratings"][0]["id"] == ann["id"] and line["ratings"][0]["provisional"] is True
    assert line["ratings"][1] is None  # open
    status, d = server.post(f"/api/tables/{made['id']}/start", {"bot": "greedy"}, ann["key"])
    assert status == 409 and "bots do not play rated games" in d["error"]


def test_a_finished_rated_game_moves_both_ratings_and_shows_everywhere(server: Server) -> None:
    ann, ben = server.player("Ann"), server.player("Ben")
    _, made = _rated(server, ann["key"])
    assert server.post(f"/api/tables/{made['id']}/sit", {"seat": 1}, ben["key"])[0] == 200
    last = play_out(server, made["id"], [ann["key"], ben["key"]])
    assert last["view"]["game_over"] is True
    ships = _line(server, made["id"])["result"]  # the players' ships by seat, then the Ghost's
    assert len(ships) == 3 and ships[2]["ghost"] is True
    won = {ann["id"]: ships[0]["rank"] == 1, ben["id"]: ships[1]["rank"] == 1}  # not if it won
    profiles = {p["id"]: server.get(f"/api/players/{p['id']}") for p in (ann, ben)}
    for p in (ann, ben):
        prof = profiles[p["id"]]
        assert prof["name"] == p["name"]
        rating = prof["ratings"]["2021"]
        assert rating["games"] == 1 and rating["provisional"] is True
        assert [h["table"] for h in rating["history"]] == [None, made["id"]]  # from the start
        game = prof["recent"][0]
        assert game["table"] == made["id"] and game["rated"] is True
        assert game["rating"]["before"] != game["rating"]["after"]
        assert prof["by_players"] == [{"players": 2, "games": 1, "won": int(won[p["id"]]),
                                       "mean_score": pytest.approx(prof["by_players"][0]
                                                                   ["mean_score"]),
                                       "mean_place": float(game["place"])}]  # fmt: skip
    places = {p["id"]: profiles[p["id"]]["recent"][0]["place"] for p in (ann, ben)}
    # places are among the players (the Ghost Ship left out, as the ratings compare players)
    a, b = ships[0]["rank"], ships[1]["rank"]
    assert [places[ann["id"]], places[ben["id"]]] == [1 + (b < a), 1 + (a < b)]
    shown = {p: profiles[p]["ratings"]["2021"]["display"] for p in places}
    if places[ann["id"]] != places[ben["id"]]:
        winner = min(places, key=lambda p: places[p])
        assert shown[winner] == max(shown.values()) and len(set(shown.values())) == 2
    ladder = server.get("/api/ladder?edition=2021")
    assert {p["id"] for p in ladder["players"]} == {ann["id"], ben["id"]}
    assert [p["rank"] for p in ladder["players"]] == [1, 2]
    assert {b["bot"] for b in ladder["bots"]} >= {"easy", "medium", "hard"}
    versus = server.get(f"/api/players/{ann['id']}/versus/{ben['id']}")
    assert versus["games"] == 1 and versus["ahead"] + versus["level"] + versus["behind"] == 1
    line = _line(server, made["id"])
    assert {r["display"] for r in line["ratings"]} == set(shown.values())  # the lobby, updated
    # A rematch is rated too, and nothing counts twice: the finished table is counted once.
    status, again = server.post(f"/api/tables/{made['id']}/rematch", {}, ann["key"])
    assert status in (200, 201) and _line(server, again["id"])["rated"] is True
    assert server.get(f"/api/players/{ann['id']}")["ratings"]["2021"]["games"] == 1


def test_play_now_seats_a_player_at_a_table_of_their_level_or_makes_one(server: Server) -> None:
    ann, ben, cy = server.player("Ann"), server.player("Ben"), server.player("Cy")
    status, first = server.post("/api/play-now", {"edition": "classic"}, ann["key"])
    assert status == 201 and first["created"] is True and first["seat"] == 0
    status, joined = server.post("/api/play-now", {"edition": "classic"}, ben["key"])
    assert status == 200 and joined == {"id": first["id"], "seat": 1, "created": False}
    line = _line(server, first["id"])
    assert line["status"] != "waiting" and line["rated"] is True and line["edition"] == "classic"
    status, other = server.post("/api/play-now", {"edition": "classic"}, cy["key"])
    assert status == 201 and other["id"] != first["id"]  # the first table is full
    assert server.post("/api/play-now", {"edition": "2007"}, cy["key"])[0] == 400
    assert server.post("/api/play-now", {"players": 7}, cy["key"])[0] == 400
    assert server.post("/api/play-now", {}, None)[0] == 401


def test_a_table_for_players_near_my_level_turns_others_away(server: Server) -> None:
    ann, ben = server.player("Ann"), server.player("Ben")
    mine = server.get("/api/me", ann["key"])["ratings"]["2021"]["display"]
    _, made = _rated(server, ann["key"], within=25)
    assert _line(server, made["id"])["range"] == [mine - 25, mine + 25]
    # Ben is a newcomer too, at the same shown rating: he may sit.
    assert server.post(f"/api/tables/{made['id']}/sit", {"seat": 1}, ben["key"])[0] == 200
    assert _rated(server, ann["key"], within=5)[0] == 400  # too narrow to mean anything


def test_a_player_who_leaves_a_rated_game_is_rated_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ben sits, says hello and leaves; after the grace period a bot plays his seat to the end,
    and he is not back: the game counts as his last place, whatever his ship scored."""
    monkeypatch.setenv("JAMAICA_SEAT_GRACE", "1")
    server = Server(tmp_path / "left.db", args=("--ladder-games", "1")).start()
    try:
        ann, ben = server.player("Ann"), server.player("Ben")
        _, made = _rated(server, ann["key"])
        assert server.post(f"/api/tables/{made['id']}/sit", {"seat": 1}, ben["key"])[0] == 200
        with server.ws(made["id"]) as ws:
            send(ws, op="hello", key=ben["key"])
            assert recv(ws)["op"] == "welcome"
        play_out(server, made["id"], [ann["key"]])
        game = server.get(f"/api/players/{ben['id']}")["recent"][0]
        assert game["place"] == 2 and game["rated"] is True
        assert [s["abandoned"] for s in game["seats"]] == [False, True]
        ratings = {p["id"]: server.get(f"/api/players/{p['id']}")["ratings"]["2021"]["display"]
                   for p in (ann, ben)}  # fmt: skip
        assert ratings[ann["id"]] > ratings[ben["id"]]
    finally:
        server.stop()


def test_a_burst_of_profile_and_ladder_reads_is_answered_and_bounded(server: Server) -> None:
    """A hostile reader's burst of the new read endpoints: each is answered (the data, or 503
    with Retry-After when the few readers are busy for long), none waits unbounded, and a
    player's request right after is answered at once."""
    import concurrent.futures
    import urllib.error
    import urllib.request

    ann = server.player("Ann")

    def get(path: str) -> tuple[int, float]:
        start = time.monotonic()
        try:
            with urllib.request.urlopen(server.url + path, timeout=30) as r:
                return r.status, time.monotonic() - start
        except urllib.error.HTTPError as e:
            assert e.code == 404 or (e.code == 503 and e.headers["Retry-After"])
            return e.code, time.monotonic() - start

    paths = [f"/api/players/{ann['id']}", "/api/ladder?edition=2021",
             f"/api/players/{ann['id']}/versus/{ann['id']}x"] * 40  # fmt: skip
    with concurrent.futures.ThreadPoolExecutor(40) as pool:
        answers = list(pool.map(get, paths))
    assert {status for status, _ in answers} <= {200, 404, 503}
    assert max(took for _, took in answers) < 10  # 5 s of waiting for a reader, at the most
    assert get(f"/api/players/{ann['id']}")[0] == 200
    assert server.get("/api/me", ann["key"])["name"] == "Ann"
