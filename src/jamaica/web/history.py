"""Finished tables, read from the database: the lobby's newest, a player's own and their record
(issue 28 review). A finished table is never rebuilt to be listed: its lobby line is stored with
it (`tables.summary`, written when it leaves memory), and a line missing there (a table stored by
an older release, or left by a server that stopped first) is worked out once by replaying the
game and written. So a restart reads no finished game, and every node of a cluster lists the
same history, whichever node the table finished on.

Every read is bounded by a LIMIT (or reads one player's results by their index); run these in a
thread (`asyncio.to_thread`), never on the event loop. Nothing here is secret: a line is the
lobby's public summary (`LiveTable.summary`), and a record counts public results.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .results import outcome_of, record
from .standings import WON
from .store import Store
from .tables import LiveTable

log = logging.getLogger("jamaica.web")
MINE = 50  # a player's finished tables listed in /api/me (all of them count in the record)
VOLATILE = ("watchers", "rematch", "archived", "available", "storage_error")  # read fresh


@dataclass(frozen=True)
class Record:
    """A player's finished games: how many, how many won (not when the Ghost Ship won), and
    the mean score."""

    games: int
    wins: int
    mean_score: float | None

    def to_dict(self) -> dict[str, Any]:
        return {"games": self.games, "wins": self.wins, "mean_score": self.mean_score}


def stored(line: dict[str, Any]) -> str:
    """What is kept of a finished table's lobby line: all but what changes after the game."""
    return json.dumps({k: v for k, v in line.items() if k not in VOLATILE}, separators=(",", ":"))


def lines(store: Store, ids: list[str], known: Mapping[str, dict[str, Any]] | None = None,
          ) -> dict[str, dict[str, Any]]:  # fmt: skip
    """The lobby lines of these finished tables (at most a few dozen), by id; one missing from
    the database is taken from `known` (lines not written yet), else worked out by replaying
    its game, and written. A table that cannot be rebuilt is left out (logged)."""
    known = {} if known is None else known
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    rows = store.read(f"SELECT id, summary, rematch FROM tables WHERE finished = 1 AND id IN "
                      f"({marks})", ids)  # fmt: skip
    out = {}
    for table_id, summary, rematch in rows:
        line = _read(summary) if summary is not None else known.get(str(table_id))
        if line is None:  # not written yet (or spoilt): worked out again, and written
            line = _line(store, str(table_id))
        if line is not None:
            out[str(table_id)] = {**line, "rematch": rematch, "watchers": 0, "archived": True,
                                  "available": True, "storage_error": False}  # fmt: skip
    return out


def _read(summary: str) -> dict[str, Any] | None:
    try:
        line = json.loads(summary)
    except ValueError:
        return None
    return line if isinstance(line, dict) else None


def _rebuilt(store: Store, table_id: str) -> LiveTable | None:
    """A stored table replayed (closed: no timers, no clients), or None if it is not stored."""
    found = store.table(table_id)
    if found is None:
        return None
    table = LiveTable.restore(found, store)
    table.close()
    return table


def _line(store: Store, table_id: str) -> dict[str, Any] | None:
    try:
        table = _rebuilt(store, table_id)
        if table is None:
            return None
        line = table.summary()
        text = stored(line)
        store.save_summary(table_id, text)
        kept: dict[str, Any] = json.loads(text)
        return kept
    except Exception as e:  # one bad table must not hide the others
        log.error("finished table %s cannot be listed: %s", table_id, e)
        return None


def newest(store: Store, limit: int) -> list[dict[str, Any]]:
    """The newest `limit` finished tables' lines, newest first."""
    rows = store.read("SELECT id FROM tables WHERE finished = 1 ORDER BY created DESC, id "
                      "LIMIT ?", (limit,))  # fmt: skip
    ids = [str(r[0]) for r in rows]
    found = lines(store, ids)
    return [found[t] for t in ids if t in found]


def mine(store: Store, player_id: str, limit: int = MINE,
         known: Mapping[str, dict[str, Any]] | None = None,
         ) -> tuple[list[dict[str, Any]], Record]:  # fmt: skip
    """A player's newest `limit` finished tables (lines with their `seat`), newest first, and
    their record over every finished game (`known`: as for `lines`)."""
    rows = store.read("SELECT table_id, seat FROM results WHERE player_id = ? ORDER BY at DESC, "
                      "table_id LIMIT ?", (player_id, limit))  # fmt: skip
    seats: dict[str, int] = {}
    for table_id, seat in rows:
        seats.setdefault(str(table_id), int(seat))
    found = lines(store, list(seats), known)
    listed = [{**found[t], "seat": seat} for t, seat in seats.items() if t in found]
    games, wins, mean = store.read(f"SELECT count(*), sum(CASE WHEN {WON} THEN 1 ELSE 0 END), "
                                   "avg(score) FROM results WHERE player_id = ?",
                                   (player_id,))[0]  # fmt: skip
    shown = None if mean is None else round(float(mean), 1)
    return listed, Record(int(games), int(wins or 0), shown)


def backfill(store: Store) -> int:
    """Results for the finished tables that have none (stored before results were kept), so
    that they are in their players' history: once each, at start. Returns how many."""
    rows = store.read("SELECT t.id FROM tables t WHERE t.finished = 1 AND NOT EXISTS "
                      "(SELECT 1 FROM results r WHERE r.table_id = t.id)")  # fmt: skip
    done = 0
    for (table_id,) in rows:
        try:
            table = _rebuilt(store, str(table_id))
            if table is None or not table.session.state.is_terminal():
                continue
            outcome = outcome_of(table.session.state, table.record.seats, rated=False)
            with store.write() as db:
                record(db, table.record.id, outcome, table.record.created)
            done += 1
        except Exception as e:
            log.error("finished table %s has no results and cannot be rebuilt: %s", table_id, e)
    return done
