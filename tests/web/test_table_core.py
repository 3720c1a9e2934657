"""Issue 10, inside one table (a real SQLite store, the real table, a recording wire): a bot that
fails or hangs is replaced by the fallback, a decision that cannot be stored is refused and
changes nothing, and a table whose disk comes back resumes by itself."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from jamaica import Config, State
from jamaica.rules import new_game
from jamaica.rules.view import cards as cards_of
from jamaica.web import history
from jamaica.web import tables as tables_module
from jamaica.web.outbox import Outbox
from jamaica.web.protocol import Act, Hello, ProtocolError
from jamaica.web.store import ActionRow, StoreError
from jamaica.web.store_sqlite import SQLiteStore
from jamaica.web.tables import LiveTable


class Wire:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    async def close(self, code: int) -> None:
        pass


class FlakyStore(SQLiteStore):
    """A real store whose writes can be made to fail, like a full or vanished disk."""

    failing = False

    def append_batch(
        self, batch: list[tuple[str, list[ActionRow], bool]],
        deadlines: dict[str, float | None] | None = None,
        outcomes: dict[str, Any] | None = None,
    ) -> None:  # fmt: skip
        if self.failing:  # append_many goes through here too
            raise StoreError("cannot write to the database: disk I/O error")
        super().append_batch(batch, deadlines, outcomes)


async def _until(pred: Any, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < end, "the table stalled"
        await asyncio.sleep(0.01)


async def test_a_failing_bot_is_replaced_and_the_table_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    real = tables_module._decide

    def broken(spec: str, state: State, seat: int) -> Any:
        if spec == "random":
            raise RuntimeError("the bot crashed")
        return real(spec, state, seat)

    monkeypatch.setattr(tables_module, "_decide", broken)
    store = SQLiteStore(tmp_path / "j.db")
    table, _ = LiveTable.create(store, Config(2), [("A", "random"), ("B", "random")])
    table.kick()
    await _until(lambda: table.session.state.is_terminal())
    assert "the random bot failed to decide" in caplog.text
    assert len(store.actions(table.id)) == len(table.session.state.history)
    table.close()


async def test_a_hanging_bot_gives_way_after_the_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = tables_module._decide
    slow: list[float] = []

    def hangs(spec: str, state: State, seat: int) -> Any:
        if spec == "random":
            time.sleep(0.3)
            slow.append(1)
        return real(spec, state, seat)

    monkeypatch.setattr(tables_module, "_decide", hangs)
    monkeypatch.setattr(tables_module, "BOT_DEADLINE", 0.05)
    store = SQLiteStore(tmp_path / "j.db")
    table, _ = LiveTable.create(store, Config(2), [("A", "random"), ("B", "greedy")])
    table.kick()
    await _until(lambda: len(table.session.state.history) > 60)
    table.close()


async def test_an_answer_that_cannot_be_stored_is_refused_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables_module, "STORAGE_RETRY", 0.05)
    store = FlakyStore(tmp_path / "j.db")
    table, tokens = LiveTable.create(store, Config(2), [("A", None), ("B", "greedy")])
    wire = Wire()
    outbox = Outbox(wire)
    outbox.start()
    client = await table.join(outbox, Hello(0, tokens[0]))
    await _until(lambda: table.session.human_to_move() == 0)
    s = table.session.state
    before, stored = s.to_dict(), len(store.actions(table.id))
    store.failing = True
    act = Act(str(s.legal[0]), len(s.history))
    with pytest.raises(ProtocolError) as refused:
        await table.act(client, act)
    assert refused.value.code == "not_stored"
    assert table.session.state.to_dict() == before
    assert len(store.actions(table.id)) == stored
    assert table.summary()["storage_error"]
    store.failing = False
    await table.act(client, act)  # the same answer, once the disk works again
    assert len(store.actions(table.id)) > stored
    assert not table.summary()["storage_error"]
    table.close()


async def test_a_bot_table_waits_for_its_disk_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables_module, "STORAGE_RETRY", 0.05)
    store = FlakyStore(tmp_path / "j.db")
    store.failing = True
    table, _ = LiveTable.create(store, Config(2), [("A", "greedy"), ("B", "greedy")])
    table.kick()
    await asyncio.sleep(0.3)
    assert table.session.state.history == [] and table.summary()["storage_error"]
    store.failing = False
    await _until(lambda: len(table.session.state.history) > 30)
    assert [r.seq for r in store.actions(table.id)][:30] == list(range(30))
    table.close()


async def test_idle_untimed_tables_are_archived_and_come_back_when_visited(tmp_path: Path) -> None:
    from jamaica.web.players import Players
    from jamaica.web.registry import Tables

    store = SQLiteStore(tmp_path / "j.db")
    tables = Tables(store)
    table, _ = LiveTable.create(store, Config(2), [("A", None), ("B", "greedy")])
    timed, _ = LiveTable.create(store, Config(2), [("A", None), ("B", "greedy")], 60)
    ann, _ = await Players(store).create("Ann")
    seats = [{"kind": "me"}, {"kind": "open"}]
    waiting, _ = LiveTable.create(store, Config(2), seats, 60, creator=ann)  # nobody came
    tables.live[table.id], tables.live[timed.id] = table, timed
    tables.live[waiting.id] = waiting
    table.kick()
    await _until(lambda: table.session.human_to_move() == 0)
    history = list(table.session.state.history)
    assert tables.archive_idle(now=time.time() + tables.archive_after - 60) == []
    later = time.time() + tables.archive_after + 60
    assert sorted(tables.archive_idle(now=later)) == sorted([table.id, waiting.id])
    assert table.id not in tables.live and timed.id in tables.live  # a timed table plays on
    listed = {t["id"]: t for t in tables.summaries()}
    assert listed[table.id]["archived"] is True and listed[waiting.id]["status"] == "archived"
    assert tables.archived_seats[waiting.id] == {ann.id: 0}  # still among Ann's tables
    back = await tables.get(table.id)  # a player comes back: rebuilt from the store
    assert back is not None and back.session.state.history == history
    assert table.id in tables.live and table.id not in tables.archived
    assert [t for _, t in tables.paused_order] == [waiting.id]  # out of the lobby's index too
    assert table.id not in tables.archive_idle()  # a visit counts: not unloaded at once again
    back.close()
    timed.close()
    again = Tables(store)  # a restart long after: the idle untimed ones are not loaded at all
    again.archive_after = 0.0
    again.restore_all()
    assert set(again.live) == {timed.id} and again.archived == {table.id, waiting.id}


async def test_a_restored_table_keeps_the_clock_of_the_pending_question(tmp_path: Path) -> None:
    """The deadline is stored with the decisions (issue 23: a takeover or a restart keeps the
    clock): restored, the question runs out when it would have, or after a short grace."""
    store = SQLiteStore(tmp_path / "j.db")
    table, tokens = LiveTable.create(store, Config(2), [("A", None), ("B", "greedy")],
                                     seconds_per_decision=600)  # fmt: skip
    outbox = Outbox(Wire())
    outbox.start()
    client = await table.join(outbox, Hello(0, tokens[0]))
    await _until(lambda: table.session.human_to_move() == 0)
    await asyncio.sleep(0.05)
    first = table.deadline_at
    assert first is not None
    s = table.session.state
    await table.act(client, Act(str(s.legal[0]), len(s.history)))
    await _until(lambda: table.session.human_to_move() == 0 and table.deadline_at != first)
    await asyncio.sleep(0.05)
    stored = store.table(table.id)
    assert stored is not None and stored.deadline is not None
    assert abs(stored.deadline * 1000 - table.deadline_at) < 5  # type: ignore[operator]
    kept = table.deadline_at
    table.close()
    time.sleep(1.1)
    again = LiveTable.restore(stored, store)
    again.kick()
    await _until(lambda: again.deadline_at is not None)
    assert again.deadline_at == kept  # not 600 s from now: the same moment
    stored.deadline = time.time() - 60  # ran out while no node held it: a grace, not zero
    late = LiveTable.restore(stored, store)
    late.kick()
    await _until(lambda: late.deadline_at is not None)
    grace = late.deadline_at / 1000 - time.time()  # type: ignore[operator]
    assert tables_module.RESTORED_GRACE - 1 < grace <= tables_module.RESTORED_GRACE
    again.close()
    late.close()


async def test_a_note_is_placed_among_the_events_where_it_happened(tmp_path: Path) -> None:
    """Issue 24: `notes_at` tells the page how many of an update's events come before each note
    (a time-out is told before the events its answer caused), and a replaced seat is asked
    nothing."""
    store = SQLiteStore(tmp_path / "j.db")
    table, tokens = LiveTable.create(store, Config(2), [("A", None), ("B", "greedy")],
                                     seconds_per_decision=1)  # fmt: skip
    wire = Wire()
    outbox = Outbox(wire)
    outbox.start()
    client = await table.join(outbox, Hello(0, tokens[0]))
    await _until(lambda: table.session.human_to_move() == 0)
    before = len(table.session.state.events or ())
    await _until(lambda: any("Time ran out" in text["en"] for _, text, _ in table.notes), 10)
    audience, texts, at = next(n for n in table.notes if "Time ran out" in n[1]["en"])
    text = texts["en"]
    assert texts["fr"].startswith("Le temps d’A est écoulé")  # each reader's language
    assert at == before  # placed before the events of the answer the bot gave for A
    await _until(lambda: any(text in m.get("notes", ()) for m in wire.sent), 10)
    update = next(m for m in wire.sent if text in m.get("notes", ()))
    placed = dict(zip(update["notes"], update["notes_at"], strict=True))
    # the page had every event from before (it was asked a second ago): the note comes first,
    # then the events its answer caused, in the same update
    assert placed[text] == 0 and len(update["events"]) > 0
    assert any("For A, the" in n for n in update["notes"])  # what was answered, to A only
    await asyncio.sleep(0.3)
    table.note(audience, {"en": "late", "fr": "tard"}, at=len(table.session.state.events or ()))
    again = table.update_for(client)
    assert again["notes_at"] == [len(again["events"])]
    table._set_seat(0, replaced=True)
    assert table.update_for(client)["question"] is None
    table.close()
    outbox.stop()


async def test_finished_tables_leave_memory_and_stay_listed_with_their_results(
    tmp_path: Path,
) -> None:
    """A finished table stayed in memory for ever (about 1.2 MB for six players; an attack added
    12 MB a minute), and every table ever played was rebuilt at start; the lobby's requests went
    through all of them. Now a finished table nobody looks at is archived after
    `finished_after`, never loaded at start, and listed from its summary."""
    from jamaica.web.players import Players
    from jamaica.web.registry import Tables

    store = SQLiteStore(tmp_path / "j.db")
    tables = Tables(store)
    ann, _ = await Players(store).create("Ann")
    short = Config(2, max_rounds=2)
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]
    done, _ = LiveTable.create(store, short, seats, creator=ann)
    watched, _ = LiveTable.create(store, short, [("A", "greedy"), ("B", "greedy")])
    for t in (done, watched):
        tables.live[t.id] = t
    outbox = Outbox(Wire())
    outbox.start()
    client = await done.join(outbox, Hello(None, None, key="Ann's"), player=ann)
    done.kick()
    watched.kick()
    while not done.session.state.is_terminal():  # Ann answers with her first option
        s = done.session.state
        if done.session.human_to_move() == 0:
            await done.act(client, Act(str(s.legal[0]), len(s.history)))
        await asyncio.sleep(0.01)
    await _until(lambda: watched.record.finished and done.record.finished)
    result = done.summary()["result"]
    assert tables.archive_idle(now=time.time() + tables.finished_after + 60) == [watched.id]
    done.leave(client)  # Ann leaves the table: nobody looks at it any more
    assert tables.archive_idle(now=time.time() + tables.finished_after - 60) == []
    assert tables.archive_idle(now=time.time() + tables.finished_after + 60) == [done.id]
    line = {t["id"]: t for t in tables.summaries()}[done.id]
    assert line["status"] == "finished" and line["archived"] is True and line["result"] == result
    assert tables.archived_by_player == {}  # Ann's finished tables: read from the database
    mine, record = history.mine(store, ann.id, known=tables.archived_summaries)
    assert [(t["id"], t["seat"], t["result"]) for t in mine] == [(done.id, 0, result)]
    assert record.games == 1
    await tables.save_summaries()  # the lines are written: never rebuilt to be listed
    assert store.read("SELECT count(*) FROM tables WHERE summary IS NOT NULL")[0][0] == 2
    shared = tables.shared_lines()[done.id]  # the other nodes' lobbies still list it
    assert shared["status"] == "finished" and shared["holders"] == {}

    class Node:  # another node, which lists the same table: archived there too, or kept there
        lines: list[dict[str, Any]] = []

        def others(self, local: set[str]) -> list[dict[str, Any]]:
            return [x for x in self.lines if x["id"] not in local]

    tables.elsewhere = other = Node()
    for copy in ({**shared, "watchers": 3}, {**shared, "archived": False, "watchers": 3}):
        other.lines = [copy]
        listed = [t for t in tables.summaries() if t["id"] == done.id]
        assert len(listed) == 1, listed  # once: from here, or from the node that keeps it
        assert listed[0]["watchers"] == (3 if not copy["archived"] else 0)
    tables.elsewhere = None
    back = await tables.get(done.id)  # opened again: rebuilt, out of the archive's indexes
    assert back is not None and back.session.state.is_terminal()
    assert [t for _, t in tables.finished_order] == [watched.id]
    back.close()
    again = Tables(store)  # a restart: no finished game is read, let alone replayed
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(LiveTable, "restore", _never)
        again.restore_all()
        assert again.live == {} and again.archived == {done.id, watched.id}
        assert {t for _, t in again.finished_order} == {done.id, watched.id}
        assert again.finished_stored == 2 and again.archived_by_player == {}
        listed = {t["id"]: t for t in again.summaries()}
        assert listed[done.id]["result"] == result and listed[done.id]["archived"] is True
        assert [t["id"] for t in history.mine(store, ann.id)[0]] == [done.id]


def _never(*args: Any, **kwargs: Any) -> LiveTable:
    raise AssertionError("a finished table was rebuilt")


async def test_a_card_answer_of_an_earlier_round_is_stale(tmp_path: Path) -> None:
    """A card choice is taken whatever happened since it was offered — within its round. A late
    resend of an earlier round's card (its old turn) is refused as stale and changes nothing,
    whether the engine asks the seat now or it could choose early (a review replayed turn 23's
    card at turn 120 and it was played)."""
    store = SQLiteStore(tmp_path / "j.db")
    table, tokens = LiveTable.create(store, Config(2), [("A", None), ("B", None)])
    outboxes = [Outbox(Wire()), Outbox(Wire())]
    for o in outboxes:
        o.start()
    clients = [await table.join(outboxes[k], Hello(k, tokens[k])) for k in (0, 1)]
    first: dict[int, int] = {}  # round -> the turn of its first card question
    tried = set()
    while len(tried) < 2:
        await _until(lambda: table.session.human_to_move() is not None)
        s = table.session.state
        who = s.current_player()
        kind = s.decision_kind()
        if kind == "card":
            first.setdefault(s.rnd, len(s.history))
            other = 1 - who
            for seat in (who, other):  # asked now, or offered early
                if s.rnd > 1 and seat not in tried and s.chosen[seat] < 0:
                    card = next(str(a) for a in table.session.state.legal) if seat == who else (
                        f"play {next(iter(cards_of(s.hand[seat])))}")  # fmt: skip
                    before = (s.to_dict(), dict(table.early))
                    old = Act(card, first[s.rnd - 1])
                    with pytest.raises(ProtocolError) as refused:
                        await table.act(clients[seat], old)
                    assert refused.value.code == "stale", (seat == who, refused.value.code)
                    assert (table.session.state.to_dict(), dict(table.early)) == before
                    tried.add(seat)
        await table.act(clients[who], Act(str(s.legal[0]), len(s.history)))
    assert tried == {0, 1}
    table.close()


@pytest.mark.parametrize("edition", ["2021", "classic"])
def test_a_round_s_cards_are_asked_one_after_another_with_nothing_between(edition: str) -> None:
    """What `LiveTable._cards_asked_at` stands on: at every card question of a round, the turn
    less the cards chosen so far is the turn of the round's first card question (2–6 players,
    with and without the Ghost Ship)."""
    for seed in range(60):
        rng = random.Random(seed)
        players = 2 + seed % 5
        ghost = players == 2 or (players < 6 and seed % 3 == 0)
        s = new_game(Config(players, edition, ghost_ship=ghost), log=False)
        first: dict[int, int] = {}
        while not s.is_terminal():
            if s.current_player() >= 0 and s.decision_kind() == "card":
                first.setdefault(s.rnd, len(s.history))
                assert len(s.history) - sum(c >= 0 for c in s.chosen) == first[s.rnd]
            s.apply(s.sample_chance(rng) if s.current_player() < 0 else rng.choice(s.legal))
        assert len(first) >= 5


async def test_finished_tables_in_memory_are_bounded_whatever_the_rate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finished tables used to stay in memory for `finished_after` (10 minutes) however many
    there were: bot tables finish in seconds, so clients spread over many addresses grew a node
    by 117 kB a finished 6-bot table (a review: 156 MB to 677 MB). A new table now makes room:
    beyond FINISHED_KEPT finished tables nobody watches, the least recently touched leave memory
    (archived, listed and replayable as after 10 minutes)."""
    from jamaica.web import registry
    from jamaica.web.registry import Tables

    monkeypatch.setattr(registry, "FINISHED_KEPT", 3)
    store = SQLiteStore(tmp_path / "j.db")
    tables = Tables(store)
    short = Config(2, max_rounds=1)
    made = []
    for k in range(6):
        t, _ = LiveTable.create(store, short, [("A", "greedy"), ("B", "greedy")])
        t.kick()
        await _until(lambda: t.record.finished)  # noqa: B023  (awaited here, in the loop)
        t.touched = 1000.0 + k
        tables.add(t)
        made.append(t.id)
    assert sorted(tables.live) == sorted(made[3:])  # the three most recent stay
    assert all(tables.archived_summaries[i]["archived"] for i in made[:3])
    for table_id in made[:3]:  # visited again (a replay, a chat read): room made for each too
        found = await tables.find(table_id)
        assert found is not None and found.id == table_id and table_id in tables.live
        assert len(tables.live) == 3
    for t in tables.live.values():  # finished since the last new table: the sweep trims them
        t.touched = 0.0
    monkeypatch.setattr(registry, "FINISHED_KEPT", 1)
    tables.make_room()
    assert len(tables.live) == 1
    for t in tables.live.values():
        t.close()
