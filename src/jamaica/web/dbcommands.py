"""`jamaica db version|upgrade|copy`: an operator's tools for the database (see the docs' "Run a
server" pages)."""

from __future__ import annotations

import json
from typing import Any

from ..rules import Config, State
from .schema import LATEST
from .storage import HISTORY, copy_history, open_store, safe_url
from .store import SQLStore, StoreError


def upgrade(url: str) -> str:
    """Bring the database to this jamaica's schema (an empty one gets it whole)."""
    store = open_store(url, upgrade=True)
    try:
        return f"{safe_url(url)}: at schema version {store.schema_version()} (latest {LATEST})"
    finally:
        store.close()


def _final_state(store: SQLStore, table_id: str) -> dict[str, Any]:
    record = store.table(table_id)
    assert record is not None
    state = State(Config.from_dict(record.config), log=False)
    for row in store.actions(table_id):
        state.apply(row.action)
    return state.to_dict()


def verify(source: SQLStore, target: SQLStore) -> list[str]:
    """Every table replayed on both sides: the problems found (none if the copy is faithful)."""
    problems = []
    for table_id in source.table_ids():
        a, b = source.table(table_id), target.table(table_id)
        if b is None or a != b:
            problems.append(f"table {table_id}: its record differs")
            continue
        try:
            same = json.dumps(_final_state(source, table_id)) == json.dumps(
                _final_state(target, table_id)
            )
        except ValueError as e:
            problems.append(f"table {table_id}: cannot be replayed ({e})")
            continue
        if not same:
            problems.append(f"table {table_id}: replays to a different game")
    for name in ("players", "actions", "early_choices", "chat", "ratings", "results", "analyses"):
        if source.count(name) != target.count(name):
            problems.append(f"{name}: {source.count(name)} rows, copied {target.count(name)}")
    kept = f"SELECT {dict(HISTORY)['results']} FROM results ORDER BY table_id, seat"
    if source.rows(kept) != target.rows(kept):  # every column: who won, the ratings moved
        problems.append("results: the rows copied differ")
    lines = "SELECT id, summary FROM tables ORDER BY id"  # the finished tables' lobby lines
    if source.rows(lines) != target.rows(lines):
        problems.append("tables: the finished tables' lines copied differ")
    return problems


def copy(source_url: str, target_url: str) -> str:
    source = open_store(source_url, upgrade=False)
    try:
        target = open_store(target_url, upgrade=True)
        try:
            counts = copy_history(source, target)
            problems = verify(source, target)
        finally:
            target.close()
    finally:
        source.close()
    if problems:
        raise StoreError(f"the copy differs: {problems[0]} ({len(problems)} problems)")
    told = ", ".join(f"{n} {name}" for name, n in counts.items())
    return f"copied {told}; every table replays the same on both sides"
