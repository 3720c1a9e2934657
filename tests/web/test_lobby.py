"""The lobby and the social side of a table over real sockets (issue 12, docs/lobby.md): players
without passwords, open seats, my tables, presence, chat, a bot standing in for an absent player,
and rematches."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jamaica import CHANCE, Config, new_game
from jamaica.web.players import key_hash
from jamaica.web.results import outcome_of
from jamaica.web.store import ActionRow, PlayerRecord, TableRecord
from jamaica.web.store_sqlite import SQLiteStore

from .server import Server, recv, send, until


def _hello_key(ws: Any, key: str) -> dict[str, Any]:
    send(ws, op="hello", key=key)
    welcome = recv(ws)
    assert welcome["op"] == "welcome", welcome
    return welcome


def _create(server: Server, key: str | None, seats: list[dict[str, Any]], **options: Any) -> Any:
    status, d = server.post("/api/tables", {"players": len(seats), "seats": seats, **options}, key)
    assert status == 201, d
    return d


def _line(server: Server, table_id: str) -> dict[str, Any]:
    return next(x for x in server.get("/api/tables") if x["id"] == table_id)


def test_a_player_is_a_name_and_a_key_the_server_keeps_only_hashed(server: Server) -> None:
    ann = server.player("  Ann \u0007 Bonny  ")
    assert ann["name"] == "Ann Bonny" and len(ann["key"]) >= 40
    for bad in ({"name": ""}, {"name": "   "}, {"name": 5}, [], b"{"):
        status, d = server.post("/api/players", bad)
        assert status == 400 and d["error"], bad
    me = server.get("/api/me", ann["key"])
    assert me["name"] == "Ann Bonny" and me["tables"] == [] and me["stats"]["games"] == 0
    for key in (None, "", "x" * 43, ann["key"] + "x"):
        status, d = server.post("/api/me", {"name": "Eve"}, key)
        assert status == 401 and "key" in d["error"]
    status, d = server.post("/api/me", {"name": "Anne"}, ann["key"])
    assert status == 200 and d["name"] == "Anne"
    with contextlib.closing(sqlite3.connect(server.db)) as db:
        dump = "\n".join(db.iterdump())
    assert ann["key"] not in dump and key_hash(ann["key"]) in dump


def test_find_a_table_in_the_lobby_take_an_open_seat_and_play(server: Server) -> None:
    ann, ben = server.player("Ann"), server.player("Ben")
    t = _create(server, ann["key"], [{"kind": "me"}, {"kind": "open"},
                                     {"kind": "bot", "bot": "greedy", "name": "Gil"}])  # fmt: skip
    line = _line(server, t["id"])
    assert line["status"] == "waiting" and line["open_seats"] == 1
    assert [s["kind"] for s in line["seats"]] == ["player", "open", "bot"]
    text = json.dumps(server.get("/api/tables"))
    for secret in (ann["id"], ann["key"], ben["id"], ben["key"]):
        assert secret not in text  # the lobby names players, never their ids or keys
    with server.ws(t["id"]) as a:
        assert _hello_key(a, ann["key"])["seat"] == 0
        send(a, op="act", action="play fwd-fwd", turn=0)
        assert until(a, lambda m: m["op"] == "error")["code"] == "waiting"
        assert server.post(f"/api/tables/{t['id']}/sit", {"seat": 1})[0] == 401
        assert server.post(f"/api/tables/{t['id']}/sit", {"seat": 2}, ben["key"])[0] == 409
        assert server.post(f"/api/tables/{t['id']}/sit", {"seat": 9}, ben["key"])[0] == 400
        assert server.post(f"/api/tables/{t['id']}/sit", {"seat": 1}, ann["key"])[0] == 409
        assert server.post(f"/api/tables/{t['id']}/sit", {"seat": 1}, ben["key"]) == (
            200, {"seat": 1})  # fmt: skip
        seats = until(a, lambda m: m["op"] == "seats" and m["status"] == "playing")
        assert [s["name"] for s in seats["seats"]] == ["Ann", "Ben", "Gil"]
        with server.ws(t["id"]) as b:
            assert _hello_key(b, ben["key"])["seat"] == 1
            asked = _until_asked(a, b)
            if asked["question"]["kind"] == "dice_order":  # Ben is the Captain
                option = asked["question"]["options"][0]["action"]
                send(b, op="act", action=option, turn=asked["turn"])
                asked = _until_asked(a, b)
            assert asked["question"]["kind"] == "card"
    assert server.post(f"/api/tables/{t['id']}/sit", {"seat": 1}, ann["key"])[0] == 409
    assert server.get("/api/me", ann["key"])["tables"][0]["creator"] is True
    mine = server.get("/api/me", ben["key"])["tables"]
    assert mine[0]["creator"] is False
    assert [(x["id"], x["seat"], x["status"]) for x in mine] == [(t["id"], 1, "playing")]
    assert mine[0]["your_turn"] is True  # the card choice waits for Ben


def _until_asked(a: Any, b: Any, timeout: float = 60) -> dict[str, Any]:
    """Answer `a`'s questions (the first option) until `b` is asked one; that update."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with contextlib.suppress(TimeoutError):
            m = recv(b, 0.05)
            if m["op"] == "update" and m["question"] is not None:
                return m
        with contextlib.suppress(TimeoutError):
            m = recv(a, 0.05)
            if m["op"] == "update" and m["question"] is not None and not m["question"]["early"]:
                send(a, op="act", action=m["question"]["options"][0]["action"], turn=m["turn"])
    raise AssertionError("b was never asked")


def test_the_creator_can_start_early_with_bots(server: Server) -> None:
    ann, ben = server.player("Ann"), server.player("Ben")
    t = _create(server, ann["key"], [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}])
    path = f"/api/tables/{t['id']}/start"
    assert server.post(path, {}, ben["key"])[0] == 403
    assert server.post(path, {"bot": "wizard"}, ann["key"])[0] == 400
    assert server.post(path, {"bot": "random"}, ann["key"]) == (200, {"status": "playing"})
    assert server.post(path, {}, ann["key"])[0] == 409
    line = _line(server, t["id"])
    assert [s["kind"] for s in line["seats"]] == ["player", "bot", "bot"] and line["round"] >= 1


def test_a_seat_is_kept_across_pages_and_devices(server: Server) -> None:
    """Reconnecting with the key (a reload, another device with the carried key) gets the seat;
    another player with a key watches by name."""
    ann, eve = server.player("Ann"), server.player("Eve")
    t = _create(server, ann["key"], [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}])
    for _ in range(2):  # a reload, then "another device"
        with server.ws(t["id"]) as ws:
            welcome = _hello_key(ws, ann["key"])
            assert welcome["seat"] == 0 and welcome["you"] == {"name": "Ann"}
            update = until(ws, lambda m: m["op"] == "update")
            assert "hand" in update["view"]
    with server.ws(t["id"]) as ws:
        welcome = _hello_key(ws, eve["key"])
        assert welcome["seat"] is None and welcome["you"] == {"name": "Eve"}
        send(ws, op="hello", key=eve["key"])
        assert until(ws, lambda m: m["op"] == "error")["code"] == "already"
    with server.ws(t["id"]) as ws:
        send(ws, op="hello", key="k" * 43)
        assert until(ws, lambda m: m["op"] == "error")["code"] == "bad_key"


def test_presence_and_watchers(server: Server) -> None:
    ann, ben = server.player("Ann"), server.player("Ben")
    t = _create(server, ann["key"], [{"kind": "me"}, {"kind": "open"}])
    server.post(f"/api/tables/{t['id']}/sit", {"seat": 1}, ben["key"])
    with server.ws(t["id"]) as a:
        _hello_key(a, ann["key"])
        first = until(a, lambda m: m["op"] == "seats")
        assert [s["connected"] for s in first["seats"]] == [True, False]
        with server.ws(t["id"]) as b:
            _hello_key(b, ben["key"])
            both = until(a, lambda m: m["op"] == "seats" and m["seats"][1]["connected"])
            assert both["watchers"] == 0  # players are not watchers
            with server.ws(t["id"]) as spectator:
                send(spectator, op="hello")
                m = until(a, lambda m: m["op"] == "seats" and m["watchers"] == 1)
                assert [s["connected"] for s in m["seats"]] == [True, True]
                assert _line(server, t["id"])["watchers"] == 1
        gone = until(a, lambda m: m["op"] == "seats" and not m["seats"][1]["connected"])
        assert gone["watchers"] == 0
        send(a, op="chat", text="hello")
        heard = json.dumps(until(a, lambda m: m["op"] == "chat" and m["messages"]))
        for secret in (ben["id"], ben["key"], ann["id"], ann["key"]):
            assert secret not in json.dumps([first, both, m, gone]) and secret not in heard
        assert _line(server, t["id"])["seats"][1]["connected"] is False


def test_chat_between_players_and_a_spectator(server: Server) -> None:
    ann, ben = server.player("Ann"), server.player("Ben")
    t = _create(server, ann["key"], [{"kind": "me"}, {"kind": "open"}])
    server.post(f"/api/tables/{t['id']}/sit", {"seat": 1}, ben["key"])
    attack = '<script>alert(1)</script><img src=x onerror="alert(2)">'
    with server.ws(t["id"]) as a, server.ws(t["id"]) as b, server.ws(t["id"]) as s:
        _hello_key(a, ann["key"])
        _hello_key(b, ben["key"])
        send(s, op="hello")
        send(a, op="chat", text="  good luck\n  Ben ")
        first = until(s, lambda m: m["op"] == "chat" and m["messages"])["messages"]
        send(s, op="chat", text=attack)
        for ws, got in ((a, []), (b, []), (s, list(first))):
            while len(got) < 2:
                got += until(ws, lambda m: m["op"] == "chat" and m["messages"])["messages"]
            lines = got[:2]
            assert [(x["name"], x["seat"], x["spectator"], x["text"]) for x in lines] == [
                ("Ann", 0, False, "good luck Ben"),
                ("A spectator", None, True, attack),
            ]
        for text in ("", "x" * 301):
            send(b, op="chat", text=text)
            assert until(b, lambda m: m["op"] == "error")["code"] in ("chat_empty", "chat_long")
        codes = []
        for k in range(8):  # a flood: five go through, the rest are refused
            send(b, op="chat", text=f"spam {k}")
        while len(codes) < 8:
            m = until(
                b,
                lambda m: (
                    m["op"] == "error"
                    or (m["op"] == "chat" and m["messages"] and m["messages"][0]["seat"] == 1)
                ),
            )
            codes.append("ok" if m["op"] == "chat" else m["code"])
        assert codes.count("ok") == 5 and codes.count("chat_limit") == 3
    kept = server.get(f"/api/tables/{t['id']}/chat")["messages"]
    assert [x["text"] for x in kept] == ["good luck Ben", attack] + [f"spam {k}" for k in range(5)]


@pytest.fixture
def quick_grace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    monkeypatch.setenv("JAMAICA_SEAT_GRACE", "1")
    srv = Server(tmp_path / "jamaica.db").start()
    try:
        yield srv
    finally:
        srv.stop()


def test_a_player_who_leaves_is_replaced_by_a_bot_and_takes_the_seat_back(
    quick_grace: Server,
) -> None:
    server = quick_grace
    ann, ben = server.player("Ann"), server.player("Ben")
    t = _create(server, ann["key"], [{"kind": "me"}, {"kind": "open"}])
    server.post(f"/api/tables/{t['id']}/sit", {"seat": 1}, ben["key"])
    with server.ws(t["id"]) as a:
        _hello_key(a, ann["key"])
        with server.ws(t["id"]) as b:
            _hello_key(b, ben["key"])
            until(b, lambda m: m["op"] == "update")
        note = until(a, lambda m: m["op"] == "update" and any("Ben has left" in n
                                                                for n in m["notes"]))  # fmt: skip
        assert "the greedy bot plays for them" in " ".join(note["notes"])
        assert _line(server, t["id"])["seats"][1]["replaced"] is True
        # the game goes on: Ben's cards are played by the bot while Ann plays hers
        if note["question"] is None:  # else Ann's question is in that very update
            note = until(a, lambda m: m["op"] == "update" and m["question"] is not None)
        assert note["question"] is not None
        with server.ws(t["id"]) as b:
            _hello_key(b, ben["key"])  # coming back takes the seat back
            back = until(a, lambda m: m["op"] == "update" and "Ben is back." in m["notes"])
            assert back["notes"]
            assert _line(server, t["id"])["seats"][1]["replaced"] is False
            send(b, op="back")
            assert until(b, lambda m: m["op"] == "error")["code"] == "not_replaced"


def test_running_out_of_time_three_times_hands_the_seat_to_a_bot(server: Server) -> None:
    ann = server.player("Ann")
    t = _create(server, ann["key"], [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}],
                seconds_per_decision=1)  # fmt: skip
    with server.ws(t["id"]) as a:
        _hello_key(a, ann["key"])
        replaced = until(a, lambda m: m["op"] == "update" and m.get("replaced"), timeout=30)
        assert any("ran out of time three times" in n for n in replaced["notes"])
        send(a, op="act", action="play fwd-fwd")
        assert until(a, lambda m: m["op"] == "error")["code"] == "replaced"
        send(a, op="back")
        back = until(a, lambda m: m["op"] == "update" and "Ann is back." in m["notes"])
        assert back["replaced"] is False


def _finished_table(db: Path, keys: dict[str, str], seed: int = 3) -> str:
    """A stored, finished 2-player game between two players (and their records)."""
    store = SQLiteStore(db)
    ids = {}
    for name, key in keys.items():
        ids[name] = f"id-{name}"
        store.create_player(PlayerRecord(ids[name], name, key_hash(key), time.time()))
    config, rng = Config(2), random.Random(seed)
    s = new_game(config)
    while not s.is_terminal():
        s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal))
    seats = [{"kind": "player", "name": n, "bot": None, "token_hash": None, "player": ids[n]}
             for n in keys]  # fmt: skip
    store.create_table(TableRecord("done", config.to_dict(), seats, 0, None, time.time()))
    rows = [ActionRow(i, int(a), "player") for i, a in enumerate(s.history)]
    outcome = outcome_of(s, seats, rated=False)  # finished as a live table finishes it
    store.append_batch([("done", rows, True)], outcomes={"done": outcome})
    store.close()
    return "done"


def test_a_rematch_seats_the_same_players_rotated(tmp_path: Path) -> None:
    db = tmp_path / "jamaica.db"
    keys = {"Ann": "a" * 43, "Ben": "b" * 43}
    old = _finished_table(db, keys)
    server = Server(db).start()
    try:
        kept = server.get("/api/status")["tables"]  # the finished game is not in memory
        assert kept["live"] == 0 and kept["archived"] == 1, kept
        ann = server.get("/api/me", keys["Ann"])  # yet it is Ann's, with its result
        assert ann["stats"]["games"] == 1 and ann["tables"][0]["result"] is not None
        assert ann["tables"][0]["status"] == "finished"
        assert [t["status"] for t in server.get("/api/tables") if t["id"] == old] == ["finished"]
        with server.ws(old) as b:
            _hello_key(b, keys["Ben"])
            status, d = server.post(f"/api/tables/{old}/rematch", {}, keys["Ann"])
            assert status == 200
            offer = until(b, lambda m: m["op"] == "rematch")
            assert offer == {"op": "rematch", "v": 1, "table": d["id"], "by": "Ann"}
        assert server.post(f"/api/tables/{old}/rematch", {}, keys["Ben"]) == (200, d)
        new = _line(server, d["id"])
        # seats rotated by one: Ben first, then Ann (who asked, and sits at once)
        assert [(s["name"], s["kind"]) for s in new["seats"]] == [("Ben", "reserved"),
                                                                  ("Ann", "player")]  # fmt: skip
        pending = server.get("/api/me", keys["Ben"])["tables"][0]
        assert pending["id"] == d["id"] and pending["pending"] is True
        assert server.post(f"/api/tables/{d['id']}/sit", {"seat": 1}, keys["Ben"])[0] == 409
        assert server.post(f"/api/tables/{d['id']}/sit", {"seat": 0}, keys["Ben"])[0] == 200
        started = _line(server, d["id"])
        assert started["status"] == "playing"
        assert [s["kind"] for s in started["seats"]] == ["player", "player"]
        assert _line(server, old)["rematch"] == d["id"]
    finally:
        server.stop()


def test_declining_a_rematch_opens_the_seat(tmp_path: Path) -> None:
    db = tmp_path / "jamaica.db"
    keys = {"Ann": "a" * 43, "Ben": "b" * 43}
    old = _finished_table(db, keys)
    server = Server(db).start()
    try:
        status, d = server.post(f"/api/tables/{old}/rematch", {}, keys["Ben"])
        assert status == 200
        assert server.post(f"/api/tables/{d['id']}/decline", {}, keys["Ann"])[0] == 200
        assert _line(server, d["id"])["open_seats"] == 1
        assert server.post(f"/api/tables/{d['id']}/decline", {}, keys["Ann"])[0] == 400
    finally:
        server.stop()


def test_seats_and_chat_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "jamaica.db"
    server = Server(db).start()
    ann, ben = server.player("Ann"), server.player("Ben")
    t = _create(server, ann["key"], [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}])
    server.post(f"/api/tables/{t['id']}/sit", {"seat": 2}, ben["key"])
    with server.ws(t["id"]) as a:
        _hello_key(a, ann["key"])
        send(a, op="chat", text="back soon")
        until(a, lambda m: m["op"] == "chat" and m["messages"])
    server.kill()
    server = Server(db).start()
    try:
        line = _line(server, t["id"])
        assert line["status"] == "waiting" and [s["kind"] for s in line["seats"]] == [
            "player", "open", "player"]  # fmt: skip
        assert server.get(f"/api/tables/{t['id']}/chat")["messages"][0]["text"] == "back soon"
        assert server.get("/api/me", ben["key"])["tables"][0]["seat"] == 2
    finally:
        server.stop()


def test_when_the_ghost_ship_wins_no_player_is_shown_as_the_winner(tmp_path: Path) -> None:
    """RULES §10: the Ghost Ship scores like a player and can win. A review saw the table page
    say "Winner: the Ghost Ship" while the lobby said "★ Reviewer 16 · Mary Read 12 — you came
    first" and counted a win: the lobby ranked the players' ships only."""
    keys = {"Ann": "a" * 43, "Ben": "b" * 43}
    old = _finished_table(tmp_path / "jamaica.db", keys, seed=4)  # the Ghost Ship wins, 23–21
    server = Server(tmp_path / "jamaica.db").start()
    try:
        ann = server.get("/api/me", keys["Ann"])
        result = ann["tables"][0]["result"]
        assert [(r["name"], r["score"], r["rank"]) for r in result] == [
            ("Ann", 21, 2), ("Ben", 11, 3), ("the Ghost Ship", 23, 1)]  # fmt: skip
        assert result[2]["ghost"] is True and not result[0].get("ghost")
        assert ann["stats"] == {"games": 1, "wins": 0, "mean_score": 21.0}
        listed = [t for t in server.get("/api/tables") if t["id"] == old]
        assert [r["rank"] for r in listed[0]["result"]] == [2, 3, 1]
        profile = server.get("/api/players/id-Ann")  # the profile agrees: no win
        assert profile["by_players"][0]["games"] == 1 and profile["by_players"][0]["won"] == 0
        assert profile["recent"][0]["won"] is False
    finally:
        server.stop()
