"""Issue 11 on the server side, over real sockets: humans choose their cards at the same time,
a payment is one answer, a card shows where it would take the ship, events carry their
arguments, and a timed question's deadline survives a reload."""

from __future__ import annotations

import contextlib
import time
from typing import Any

from .server import Server, hello, recv, send, until


def _update(m: dict[str, Any]) -> bool:
    return bool(m["op"] == "update")


def _card_question(m: dict[str, Any]) -> bool:
    return _update(m) and m["question"] is not None and m["question"]["kind"] == "card"


def _to_the_cards(a: Any, b: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Answer until both seats are asked for their card; returns both questions."""
    asked: dict[int, dict[str, Any]] = {}
    end = time.monotonic() + 30
    while len(asked) < 2 and time.monotonic() < end:
        for i, ws in enumerate((a, b)):
            try:
                m = recv(ws, 0.05)
            except TimeoutError:
                continue
            if not _update(m) or m["question"] is None:
                continue
            if m["question"]["kind"] == "card":
                asked[i] = m
            else:
                send(ws, op="act", action=m["question"]["options"][0]["action"], turn=m["turn"])
    assert len(asked) == 2, "both humans must be asked for their card at once"
    return asked[0], asked[1]


def test_two_humans_choose_their_cards_at_the_same_time(server: Server) -> None:
    t = server.table([("Ann", None), ("Bob", None)])
    with server.ws(t["id"]) as a, server.ws(t["id"]) as b:
        hello(a, 0, t["seats"][0]["token"])
        hello(b, 1, t["seats"][1]["token"])
        qa, qb = _to_the_cards(a, b)
        early = qa if qa["question"]["early"] else qb
        first = qb if early is qa else qa
        assert early["question"]["early"] and not first["question"]["early"]
        assert set(early["waiting_for"]) == {0, 1}
        for q in (qa, qb):
            preview = q["question"]["preview"]
            assert [p["action"] for p in preview] == [o["action"] for o in q["question"]["options"]]
            assert all(p["steps"][0]["time"] == "morning" and p["summary"] for p in preview)
        # The seat asked second answers first: it is kept secret, then applied in order.
        ws_early, ws_first = (a, b) if early is qa else (b, a)
        card = early["question"]["options"][0]["action"]
        send(ws_early, op="act", action=card, turn=early["turn"])
        mine = until(ws_early, lambda m: _update(m) and m.get("early_choice"))
        assert f"play {mine['early_choice']}" == card
        theirs = until(ws_first, lambda m: _update(m) and m["turn"] == early["turn"], 5)
        assert theirs["early_choice"] is None and theirs["question"] is not None
        send(ws_first, op="act", action=first["question"]["options"][0]["action"])
        after = until(ws_early, lambda m: _update(m) and m["turn"] > early["turn"] + 1, 10)
        chosen = after["view"]["chosen"]  # the engine has it now (or it is already revealed)
        revealed = [e["text"] for e in after["events"] if e["kind"] == "reveal"]
        assert f"play {chosen}" == card or revealed


def _latest(ws: Any, m: dict[str, Any]) -> dict[str, Any]:
    """`m`, or the newest update that came within half a second after it."""
    with contextlib.suppress(TimeoutError):
        while True:
            nxt = recv(ws, 0.5)
            m = nxt if _update(nxt) else m
    return m


def test_a_card_sent_again_is_answered_and_changes_nothing(server: Server) -> None:
    """A double click or a resend after a reconnection sends a chosen card again: every message
    is answered (an `error` the page keeps quiet about) and nothing changes."""
    t = server.table([("Ann", None), ("Bob", None)])
    with server.ws(t["id"]) as a, server.ws(t["id"]) as b:
        hello(a, 0, t["seats"][0]["token"])
        hello(b, 1, t["seats"][1]["token"])
        end = time.monotonic() + 60
        while time.monotonic() < end:  # answer everything until a seat holds its card, unasked
            for i, ws in enumerate((a, b)):
                try:
                    m = recv(ws, 0.1)
                except TimeoutError:
                    continue
                if not _update(m):
                    continue
                q, pending, chosen = m["question"], m["view"]["pending"], m["view"]["chosen"]
                waiting = pending["player"] == 1 - i and pending["kind"] != "card"
                newest = _latest(ws, m) if q is None and chosen and waiting else m
                if newest is not m:  # it was about to change: look again at the newest
                    m, q = newest, newest["question"]
                elif q is None and chosen and waiting:
                    steps = server.get(f"/api/tables/{t['id']}/replay")["steps"]
                    send(ws, op="act", action=f"play {chosen}", turn=m["turn"])
                    again = until(ws, lambda x: x["op"] == "error", 5)
                    assert again["code"] == "chosen", again
                    assert "chosen this card already" in again["message"]
                    assert server.get(f"/api/tables/{t['id']}/replay")["steps"] == steps
                    return
                if q is not None:
                    send(ws, op="act", action=q["options"][0]["action"], turn=m["turn"])
    raise AssertionError("no seat ever held its chosen card while the other was asked")


def test_a_payment_is_one_answer_and_events_carry_their_arguments(server: Server) -> None:
    paid = moves = 0
    for _ in range(4):  # a game without a choice of holds to pay from is possible: play another
        t = server.table([("Ann", None), ("Bot", "greedy")])
        with server.ws(t["id"]) as me:
            hello(me, 0, t["seats"][0]["token"])
            end = time.monotonic() + 60
            while time.monotonic() < end and not paid:
                m = until(me, _update)
                moves += sum(1 for e in m["events"] if e["kind"] == "move" and len(e["args"]) == 5)
                q = m["question"]
                if m["view"]["game_over"]:
                    break
                if q is None:
                    continue
                if q["kind"] == "pay":
                    plan = max(q["plans"], key=lambda p: len(p["actions"]))
                    assert plan["label"].startswith("Pay ")
                    send(me, op="act", actions=plan["actions"], turn=m["turn"])
                    ack = until(me, lambda x, n=m["turn"]: _update(x) and x["turn"] > n)
                    assert ack["turn"] >= m["turn"] + len(plan["actions"])
                    paid += 1
                else:
                    if q["kind"] == "move":  # each option with what the rules say it means
                        spaces = [int(o["action"].split()[1]) for o in q["options"]]
                        assert [x["space"] for x in q["moves"]] == spaces
                        assert all(x["cost"] for x in q["moves"])
                    send(me, op="act", action=q["options"][-1]["action"], turn=m["turn"])
        if paid:
            break
    assert paid and moves


def test_the_deadline_does_not_restart_on_a_reload(server: Server) -> None:
    t = server.table([("Ann", None), ("Bot", "greedy")], seconds_per_decision=30)
    with server.ws(t["id"]) as me:
        hello(me, 0, t["seats"][0]["token"])
        q = until(me, lambda m: _update(m) and m["question"] is not None)
        deadline = q["question"]["deadline_at"]
        assert abs(deadline / 1000 - (time.time() + 30)) < 5
    time.sleep(1.2)
    with server.ws(t["id"]) as again:
        hello(again, 0, t["seats"][0]["token"])
        q2 = until(again, lambda m: _update(m) and m["question"] is not None)
        assert q2["question"]["deadline_at"] == deadline
