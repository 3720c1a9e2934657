"""A decision is stored before it is acknowledged: after `kill -9` and a restart every game
resumes exactly where it was."""

from __future__ import annotations

import json
from pathlib import Path

from .server import Server, hello, until


def _question(m: dict) -> bool:  # type: ignore[type-arg]
    return m["op"] == "update" and m["question"] is not None


def test_kill_9_and_the_game_goes_on_identically(tmp_path: Path) -> None:
    db = tmp_path / "jamaica.db"
    first = Server(db).start()
    try:
        t = first.table([("Ann", None), ("B", "greedy"), ("C", "greedy")])
        token = t["seats"][0]["token"]
        with first.ws(t["id"]) as me:
            hello(me, 0, token)
            m = until(me, _question)
            for _ in range(4):
                turn = m["turn"]
                me.send(json.dumps({"v": 1, "op": "act", "turn": turn,
                                    "action": m["question"]["options"][-1]["action"]}))  # fmt: skip
                m = until(me, lambda x, t=turn: x["op"] == "update" and x["turn"] > t)
                if not m["question"]:
                    m = until(me, _question)
            before = m  # acknowledged: the server asks me again
    finally:
        first.kill()  # SIGKILL: no shutdown, no flush
    second = Server(db)
    second.port = first.port  # the same address: the clients come back by themselves
    second.start()
    try:
        with second.ws(t["id"]) as me:
            hello(me, 0, token)
            again = until(me, lambda x: x["op"] == "update")
            assert again["turn"] == before["turn"]
            assert again["view"] == before["view"]
            assert again["question"] == before["question"]
            # and the game goes on from there
            me.send(json.dumps({"v": 1, "op": "act", "turn": again["turn"],
                                "action": again["question"]["options"][0]["action"]}))  # fmt: skip
            later = until(me, lambda x: x["op"] == "update" and x["turn"] > again["turn"])
            assert later["turn"] > before["turn"]
    finally:
        second.stop()
