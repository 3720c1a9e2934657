from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .server import Server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "jamaica.db").start()
    try:
        yield srv
    finally:
        srv.stop()
