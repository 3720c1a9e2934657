"""Issue 9 through the real server: live chance cannot be predicted from anything stored or
shown, and time-out notes have an audience like engine events."""

from __future__ import annotations

import random
import sqlite3
from typing import Any

from jamaica import Config, new_game

from .server import Server, hello, until, updates


def test_leak1_live_chance_is_not_derived_from_a_seed(server: Server) -> None:
    """The old server drew chance from random.Random(seed * 1_000_003 + move) with a 31-bit
    seed: whoever found the seed (by search, from a few public rolls) predicted every hidden
    draw. Even an attacker who knows the stored seed must now predict no better than chance."""
    t = server.table([("A", "random"), ("B", "random")])
    with server.ws(t["id"]) as watcher:
        hello(watcher)
        until(watcher, lambda x: x["op"] == "update" and x["view"]["game_over"], 120)
    db = sqlite3.connect(server.db)
    (seed,) = db.execute("SELECT seed FROM tables WHERE id = ?", (t["id"],)).fetchone()
    rows = db.execute(
        "SELECT seq, action, by FROM actions WHERE table_id = ? ORDER BY seq", (t["id"],)
    ).fetchall()
    s = new_game(Config(2))
    predicted = chances = 0
    for seq, action, by in rows:
        if by == "chance" and len(s.legal) >= 6:  # dice and draws with many outcomes
            chances += 1
            guess = s.sample_chance(random.Random(seed * 1_000_003 + seq))
            predicted += int(guess) == action
        s.apply(action)
    assert chances > 40
    assert predicted / chances < 0.4, f"{predicted} of {chances} chance outcomes predicted"


def _notes(ws: Any, seconds: float) -> list[str]:
    """Every note received in the next `seconds`."""
    return [note for m in updates(ws, seconds) for note in m["notes"]]


def test_leak2_time_out_notes_tell_only_the_seat_what_was_decided(server: Server) -> None:
    t = server.table([("Slow", None), ("Idle", None)], seconds_per_decision=1)
    with server.ws(t["id"]) as slow, server.ws(t["id"]) as idle, server.ws(t["id"]) as watcher:
        hello(slow, 0, t["seats"][0]["token"])
        hello(idle, 1, t["seats"][1]["token"])
        hello(watcher)
        seen = {"Slow": _notes(slow, 4.5), "Idle": _notes(idle, 0.5), None: _notes(watcher, 0.5)}
    public = [n for n in seen[None] if n.startswith("Time ran out for ")]
    assert len(public) >= 2 and not [n for n in seen[None] if "answered" in n]
    for me, other in (("Slow", "Idle"), ("Idle", "Slow")):
        mine = [n for n in seen[me] if n.startswith(f"For {me}, the greedy bot answered: ")]
        assert mine, f"{me} was not told what was decided for them"
        assert not [n for n in seen[me] if n.startswith(f"For {other},")]
        assert {n for n in seen[me] if n.startswith("Time ran out for ")} <= set(public)
