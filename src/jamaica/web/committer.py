"""Group commit: the decisions of every table that arrive while the disk is busy are stored
together in the next transaction, with one sync to disk for all of them.

A table awaits `commit(...)` and hears back only once its rows are durably stored (or why not).
If a whole batch fails, each table's rows are retried on their own, so one table's problem never
fails another's decisions.
"""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass, field

from .health import monitor_of
from .results import Outcome
from .store import KEEP, ActionRow, Keep, Store, StoreUnavailable


@dataclass
class _Pending:
    table_id: str
    rows: list[ActionRow]
    finish: bool
    done: asyncio.Future[None] = field(repr=False)
    deadline: float | Keep | None = KEEP
    outcome: Outcome | None = None  # the results of a table that finishes


class Committer:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.pending: list[_Pending] = []
        self.writer: asyncio.Task[None] | None = None

    async def commit(
        self, table_id: str, rows: list[ActionRow], finish: bool,
        deadline: float | Keep | None = KEEP, outcome: Outcome | None = None,
    ) -> None:  # fmt: skip
        """Store the rows (and mark the table finished, and the next question's deadline);
        raises what the store raised."""
        loop = asyncio.get_running_loop()
        item = _Pending(table_id, rows, finish, loop.create_future(), deadline, outcome)
        self.pending.append(item)
        if self.writer is None or self.writer.done():
            self.writer = loop.create_task(self._write())
        await item.done

    async def _write(self) -> None:
        while self.pending:
            batch, self.pending = self.pending, []
            items = [(p.table_id, p.rows, p.finish) for p in batch]
            deadlines = {p.table_id: p.deadline for p in batch if not isinstance(p.deadline, Keep)}
            outcomes = {p.table_id: p.outcome for p in batch if p.outcome is not None}
            try:
                await asyncio.to_thread(self.store.append_batch, items, deadlines, outcomes)
            except StoreUnavailable as e:  # the database is away: each table would fail alike
                for p in batch:
                    if not p.done.done():
                        p.done.set_exception(e)
                monitor_of(self.store).storage_failures.inc(len(batch))
                continue
            except Exception:
                await self._one_by_one(batch)
                continue
            for p in batch:
                if not p.done.done():
                    p.done.set_result(None)

    async def _one_by_one(self, batch: list[_Pending]) -> None:
        for p in batch:
            try:
                await asyncio.to_thread(self.store.append_many, p.table_id, p.rows,
                                        finish=p.finish, deadline=p.deadline,
                                        outcome=p.outcome)  # fmt: skip
            except Exception as e:
                monitor_of(self.store).storage_failures.inc()
                if not p.done.done():
                    p.done.set_exception(e)
            else:
                if not p.done.done():
                    p.done.set_result(None)


_COMMITTERS: weakref.WeakKeyDictionary[object, Committer] = weakref.WeakKeyDictionary()


def committer(store: Store) -> Committer:
    """The one committer of a store."""
    c = _COMMITTERS.get(store)
    if c is None:
        c = _COMMITTERS[store] = Committer(store)
    return c
