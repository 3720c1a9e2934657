"""The game server over a real socket: tables, seats and tokens, acknowledged decisions, bots,
time limits, and nothing hidden ever sent to the wrong seat."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import time
from typing import Any

from websockets.sync.client import ClientConnection

from jamaica import Config, new_game
from jamaica.rules.events import EVENT_NAMES, describe
from jamaica.rules.view import can_see

from .server import Server, first_question, hello, recv, send, until


def _question(m: dict[str, Any]) -> bool:
    return m["op"] == "update" and m["question"] is not None


def test_create_a_table_take_a_seat_and_play(server: Server) -> None:
    t = server.table([("Ann", None), ("Bot", "greedy")])
    assert t["seats"][0]["token"] and t["seats"][1]["token"] is None
    assert t["seats"][0]["url"].endswith(f"#seat=0&token={t['seats'][0]['token']}")
    listed = server.get("/api/tables")
    assert [x["id"] for x in listed] == [t["id"]]
    with server.ws(t["id"]) as me, server.ws(t["id"]) as watcher:
        welcome = hello(me, 0, t["seats"][0]["token"])
        assert welcome["seat"] == 0 and welcome["names"] == ["Ann", "Bot", "the Ghost Ship"]
        hello(watcher)
        m = until(me, _question)
        for _ in range(5):
            turn = m["turn"]
            assert "hand" in m["view"]
            send(me, op="act", action=m["question"]["options"][0]["action"], turn=turn)
            ack = until(me, lambda x, t=turn: x["op"] == "update" and x["turn"] > t)
            assert ack["turn"] >= turn + 1  # stored, applied and acknowledged
            m = ack if ack["question"] else until(me, _question)
        seen = until(watcher, lambda x: x["op"] == "update" and x["turn"] >= ack["turn"])
        assert "hand" not in seen["view"] and seen["question"] is None


def test_seats_are_guarded_by_their_tokens(server: Server) -> None:
    t = server.table([("Ann", None), ("Bob", None)])
    token0, token1 = t["seats"][0]["token"], t["seats"][1]["token"]
    with server.ws(t["id"]) as ws:
        send(ws, op="act", action="morning 3")
        assert recv(ws)["code"] == "no_hello"
        for seat, token, code in [(0, token1, "bad_token"), (0, None, "bad_token"),
                                  (7, token0, "bad_seat"), (1, "x" * 40, "bad_token")]:  # fmt: skip
            send(ws, op="hello", seat=seat, token=token)
            assert recv(ws)["code"] == code
    for _ in range(20):  # a first question that is not a card (doubles skip the dice order)
        with server.ws(t["id"]) as a, server.ws(t["id"]) as b:
            hello(a, 0, token0)
            hello(b, 1, token1)
            i, q = first_question([a, b])
        if q["question"]["kind"] != "card":
            break
        t = server.table([("Ann", None), ("Bob", None)])
        token0, token1 = t["seats"][0]["token"], t["seats"][1]["token"]
    with server.ws(t["id"]) as a, server.ws(t["id"]) as b:
        hello(a, 0, token0)
        hello(b, 1, token1)
        i, q = first_question([a, b])
        mover, idle = (a, b) if i == 0 else (b, a)
        send(idle, op="act", action=q["question"]["options"][0]["action"])
        assert until(idle, lambda x: x["op"] == "error")["code"] == "not_your_turn"
        send(mover, op="act", action=q["question"]["options"][0]["action"], turn=q["turn"] - 1)
        assert until(mover, lambda x: x["op"] == "error")["code"] == "stale"
        send(mover, op="act", action="play fwd-fwd", turn=q["turn"])  # a card: no answer here
        err = until(mover, lambda x: x["op"] == "error")
        assert err["code"] == "illegal" and "legal:" in err["message"]
    with server.ws(t["id"]) as watcher:
        hello(watcher)
        send(watcher, op="act", action="morning 3")
        assert until(watcher, lambda x: x["op"] == "error")["code"] == "not_seated"


def test_a_table_of_bots_plays_itself_to_the_end_and_can_be_replayed(server: Server) -> None:
    t = server.table([("A", "greedy"), ("B", "random"), ("C", "greedy")], edition="classic")
    with server.ws(t["id"]) as watcher:
        hello(watcher)
        last = until(watcher, lambda x: x["op"] == "update" and x["view"]["game_over"], 120)
    assert len(last["view"]["scores"]) == 3 and last["view"]["winners"]
    start = server.get(f"/api/tables/{t['id']}/replay?step=0")
    end = server.get(f"/api/tables/{t['id']}/replay")
    assert start["step"] == 0 and end["step"] == end["steps"] == last["turn"]
    assert end["view"]["game_over"] and end["view"]["scores"] == last["view"]["scores"]
    assert server.get("/api/tables")[0]["finished"] is True


def test_the_clock_lets_greedy_decide_for_a_player_out_of_time(server: Server) -> None:
    t = server.table([("Slow", None), ("Bot", "greedy")], seconds_per_decision=1)
    with server.ws(t["id"]) as me:
        hello(me, 0, t["seats"][0]["token"])
        q = until(me, _question)
        later = until(me, lambda x: x["op"] == "update" and x["notes"], timeout=10)
        assert later["turn"] > q["turn"]
        assert later["notes"][0] == "Time ran out for Slow: the greedy bot decides."
        assert later["notes"][1].startswith("For Slow, the greedy bot answered: ")


def test_bad_requests_change_nothing(server: Server) -> None:
    for body in (b"{", b"[]", {"players": 9, "seats": []}, {"seats": [{"name": "a"}]},
                 {"players": 2, "seats": [{"name": 1}, {"name": "b"}]},
                 {"players": 2, "seats": [{"name": "a"}, {"name": "b", "bot": "wizard"}]},
                 {"players": 2, "seats": [{"name": "a"}, {"name": "b"}], "seconds_per_decision": 0},
                 b"x" * 20_000):  # fmt: skip
        status, d = server.post("/api/tables", body)
        assert status in (400, 413) and "error" in d
    assert server.get("/api/tables") == []


def _drive(
    conns: dict[int, ClientConnection], rng: random.Random
) -> dict[int, list[dict[str, Any]]]:
    """Play every seat from the messages alone (random answers); record what each seat got."""
    got: dict[int, list[dict[str, Any]]] = {p: [] for p in conns}
    over = False
    deadline = time.monotonic() + 240
    while not over and time.monotonic() < deadline:
        for p, ws in conns.items():
            try:
                m = recv(ws, 0.02)
            except TimeoutError:
                continue
            got[p].append(m)
            if m["op"] == "update":
                over = over or m["view"]["game_over"]
                if m["question"]:
                    choice = rng.choice(m["question"]["options"])["action"]
                    send(ws, op="act", action=choice, turn=m["turn"])
    tails = {p: [(m["op"], m.get("turn"), m.get("message")) for m in ms[-4:]]
             for p, ms in got.items()}  # fmt: skip
    assert over, f"the game did not finish: {tails}"
    return got


def test_no_seat_ever_receives_hidden_information_of_another(server: Server) -> None:
    """Every update a seat receives is exactly that seat's view at that moment, and its events
    are exactly those it may see (RULES §11) — nothing more."""
    for config, names in ((Config(3), ["A", "B", "C"]), (Config(2), ["A", "B"])):
        t = server.table([(n, None) for n in names], edition=config.edition)
        with contextlib.ExitStack() as stack:
            conns = {p: stack.enter_context(server.ws(t["id"])) for p in range(config.players)}
            for p, ws in conns.items():
                hello(ws, p, t["seats"][p]["token"])
            got = _drive(conns, random.Random(7))
        db = sqlite3.connect(server.db)
        actions = [a for (a,) in db.execute(
            "SELECT action FROM actions WHERE table_id = ? ORDER BY seq", (t["id"],))]  # fmt: skip
        states = [new_game(config)]
        for a in actions:
            s = states[-1].clone()
            s.apply(a)
            states.append(s)
        all_names = [*names, "the Ghost Ship"][: states[0].ns]
        for p, messages in got.items():
            updates = [m for m in messages if m["op"] == "update"]
            assert updates
            texts: list[str] = []
            for m in updates:
                s = states[m["turn"]]
                assert m["view"] == json.loads(json.dumps(s.view(p)))
                texts += [e["text"] for e in m["events"]]
                # Asked when the engine asks this seat, or early for a card (simultaneous choice).
                early = m["question"] is not None and m["question"]["early"]
                assert (m["question"] is not None and not early) == (s.current_player() == p)
                assert not early or (s.decision_kind() == "card" and s.chosen[p] < 0)
            final = states[updates[-1]["turn"]]
            assert texts == [describe(e, final.n, all_names) for e in final.events or []
                             if can_see(e[0], p)]  # fmt: skip
            kinds = {EVENT_NAMES[e[1]] for e in final.events or [] if not can_see(e[0], None)}
            assert "draw_seen" in kinds  # there were private events — and they were filtered
