"""One transaction of a store's back-end, as the SQL that runs in it sees it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class Tx(Protocol):
    """One transaction of a back-end: queries with `?` marks; `run` returns the rows, if any."""

    def run(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...
    def run_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...
