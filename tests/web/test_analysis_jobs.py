"""Issue 28: the analysis's worker and queue in the server's process — a job answers its progress
then the analysis, is kept (a bounded LRU) and not worked out again, at most WAITING jobs wait
(Busy), a job that fails says why once and starts again when asked, the worker stops a game
past its deadline, and a result the store could not keep is never answered before it is stored
(and is stored at the next request, not searched again)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from jamaica import Config
from jamaica.bots import GreedyBot
from jamaica.rules.driver import play_game
from jamaica.web import analysis
from jamaica.web.analysis import Analyses, Busy, Game, Ready
from jamaica.web.protocol import ProtocolError
from jamaica.web.store import TableRecord
from jamaica.web.store_sqlite import SQLiteStore

CONFIG = Config(players=2, max_rounds=2)
NAMES = ["Ann", "Ben", "Ghost"]


def game(seed: int) -> list[int]:
    return list(play_game(CONFIG, [GreedyBot(0), GreedyBot(1)], seed=seed).actions)


async def until_done(
    jobs: Analyses, table: str, history: list[int], lang: str = "en", address: str | None = None
) -> bytes:
    for _ in range(600):
        got = jobs.answer(table, 0, CONFIG, NAMES, history, lang, address=address)
        if isinstance(got, Ready):
            return got.body
        done, total = got
        assert 0 <= done <= total or (done, total) == (0, 0)
        await asyncio.sleep(0.1)
    raise AssertionError("the analysis never came")


async def test_a_job_answers_progress_then_the_analysis_and_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(analysis, "KEPT", 2)
    jobs = Analyses(iterations=16)
    try:
        history = game(1)
        assert jobs.answer("a", 0, CONFIG, NAMES, history, "en") == (0, 0)  # started
        en = await until_done(jobs, "a", history)
        fr = await until_done(jobs, "a", history, "fr")
        assert jobs.computed == 1  # both languages from one analysis
        assert json.loads(en)["verdicts"] and json.loads(fr)["verdicts"][0]["text"].startswith(
            "Manche")  # fmt: skip
        for t in ("b", "c"):  # two more: "a" is forgotten (KEPT = 2)
            await until_done(jobs, t, game(2))
        assert jobs.computed == 3
        await until_done(jobs, "a", history)
        assert jobs.computed == 4
    finally:
        jobs.close()


async def test_at_most_waiting_jobs_then_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis, "WAITING", 2)
    jobs = Analyses(iterations=16)
    try:
        history = game(1)
        jobs.answer("a", 0, CONFIG, NAMES, history, "en")
        jobs.answer("b", 0, CONFIG, NAMES, history, "en")
        assert jobs.waiting == 2
        with pytest.raises(Busy):
            jobs.answer("c", 0, CONFIG, NAMES, history, "en")
        assert jobs.answer("a", 0, CONFIG, NAMES, history, "en") is not None  # polling is fine
        await until_done(jobs, "b", history)
        await until_done(jobs, "c", history)  # room again
    finally:
        jobs.close()


async def test_a_failed_job_says_why_once_then_starts_again() -> None:
    jobs = Analyses(iterations=16)
    try:
        bad = [10_000]  # not a legal first action: the worker fails
        jobs.answer("x", 0, CONFIG, NAMES, bad, "en")
        for _ in range(300):
            await asyncio.sleep(0.1)
            try:
                jobs.answer("x", 0, CONFIG, NAMES, bad, "en")
            except ProtocolError as e:
                assert e.code == "failed" and "try again" in e.message
                break
        else:
            raise AssertionError("the failure was never said")
        assert jobs.answer("x", 0, CONFIG, NAMES, bad, "en") == (0, 0)  # asked again: restarted
    finally:
        jobs.close()


def test_the_worker_stops_a_game_past_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis, "DEADLINE", -1.0)
    with pytest.raises(TimeoutError):
        analysis._work(1, CONFIG.to_dict(), tuple(game(1)), 0, tuple(NAMES), 8)


async def test_a_result_the_store_refused_is_stored_when_asked_again_not_searched_again(
    tmp_path: Path,
) -> None:
    store = SQLiteStore(str(tmp_path / "jamaica.db"))
    store.create_table(TableRecord("a", CONFIG.to_dict(), [], 0, None, 1.0, finished=True))
    with store.write() as db:  # the store cannot keep analyses for a while
        db.run("ALTER TABLE analyses RENAME TO away")
    jobs = Analyses(iterations=16, store=store)
    try:
        history = game(1)
        assert jobs.answer("a", 0, CONFIG, NAMES, history, "en") == (0, 0)
        for _ in range(300):
            await asyncio.sleep(0.1)
            try:
                got = jobs.answer("a", 0, CONFIG, NAMES, history, "en")
            except ProtocolError as e:  # never a 200 that was not stored
                assert e.code == "failed" and e.message == "this table is unavailable"
                break
            assert not isinstance(got, Ready)
        else:
            raise AssertionError("the failure was never said")
        with store.write() as db:
            db.run("ALTER TABLE away RENAME TO analyses")
        en = await until_done(jobs, "a", history)
        assert jobs.computed == 1  # stored at the next request, not searched again
        again = Analyses(iterations=16, store=store)  # a restarted server
        kept = again.recall("a", 0, Game(CONFIG.to_dict(), tuple(NAMES), tuple(history), ()))
        assert kept is not None and kept.said["en"] == en
        assert isinstance(again.answer("a", 0, CONFIG, NAMES, history, "en", stored=kept), Ready)
        assert again.computed == 0 and again.recalled == 1
    finally:
        jobs.close()
        store.close()


# --- fairness: one address cannot hold the queue, and a refused request keeps its place --------
async def test_one_address_holds_at_most_its_share_of_the_queue(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An attack held all four places from one address by asking for a new seat every 0.25 s:
    the players' pages, asking again after 30 s, got 503 for minutes."""
    monkeypatch.setattr(analysis, "DEADLINE", 600.0)
    jobs = Analyses(iterations=4000)  # the worker stays busy for the test
    try:
        history = game(1)
        for t in ("a", "b"):
            jobs.answer(t, 0, CONFIG, NAMES, history, "en", address="6.6.6.6")
        with pytest.raises(Busy) as refused:
            jobs.answer("c", 0, CONFIG, NAMES, history, "en", address="6.6.6.6")
        assert refused.value.reason == "crowded"
        assert jobs.answer("d", 0, CONFIG, NAMES, history, "en", address="7.7.7.7") == (0, 0)
        assert jobs.waiting == 3 < analysis.WAITING
    finally:
        jobs.close()


async def test_refused_requests_start_in_the_order_they_were_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whoever asked first after a place freed took it: an attacker asking four times a second
    always beat a page that asks again after 30 s. A refused request now has a place in line."""
    monkeypatch.setattr(analysis, "WAITING", 1)
    jobs = Analyses(iterations=16)
    try:
        history = game(1)
        jobs.answer("a", 0, CONFIG, NAMES, history, "en", address="1.1.1.1")
        with pytest.raises(Busy):  # the page: first in line
            jobs.answer("page", 0, CONFIG, NAMES, history, "en", address="2.2.2.2")
        with pytest.raises(Busy):  # the attacker: second
            jobs.answer("x", 0, CONFIG, NAMES, history, "en", address="6.6.6.6")
        await until_done(jobs, "a", history, address="1.1.1.1")
        for _ in range(20):  # the attacker asks again and again: the place is the page's
            with pytest.raises(Busy) as refused:
                jobs.answer("x", 0, CONFIG, NAMES, history, "en", address="6.6.6.6")
            assert refused.value.reason == "full" and refused.value.ahead == 1
        assert jobs.answer("page", 0, CONFIG, NAMES, history, "en", address="2.2.2.2") == (0, 0)
        await until_done(jobs, "page", history, address="2.2.2.2")
        assert jobs.answer("x", 0, CONFIG, NAMES, history, "en", address="6.6.6.6") == (0, 0)
    finally:
        jobs.close()


async def test_a_place_in_line_not_asked_for_again_is_given_up_and_the_line_is_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(analysis, "WAITING", 1)
    monkeypatch.setattr(analysis, "LINE_SECONDS", 0.3)
    jobs = Analyses(iterations=16)
    try:
        history = game(1)
        jobs.answer("a", 0, CONFIG, NAMES, history, "en", address="1.1.1.1")
        with pytest.raises(Busy):  # a page closed after this: it never asks again
            jobs.answer("gone", 0, CONFIG, NAMES, history, "en", address="2.2.2.2")
        for t in range(5):  # one address keeps at most its share of places in line
            with pytest.raises(Busy):
                jobs.answer(f"x{t}", 0, CONFIG, NAMES, history, "en", address="6.6.6.6")
        assert jobs.in_line() == 1 + analysis.PER_ADDRESS
        await until_done(jobs, "a", history, address="1.1.1.1")
        await asyncio.sleep(0.4)  # every place not asked for again is given up
        assert jobs.answer("c", 0, CONFIG, NAMES, history, "en", address="3.3.3.3") == (0, 0)
        assert jobs.in_line() == 0
    finally:
        jobs.close()
