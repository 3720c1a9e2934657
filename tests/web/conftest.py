from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .server import Server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "jamaica.db").start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def rated_server(tmp_path: Path) -> Iterator[Server]:
    """A server whose ladder lists a player from their first rated game (issue 25's tests)."""
    srv = Server(tmp_path / "rated.db", args=("--ladder-games", "1")).start()
    try:
        yield srv
    finally:
        srv.stop()


CHROMIUM = os.environ.get("JAMAICA_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    *("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"),
    *("--disable-background-networking", "--disable-component-update", "--disable-sync"),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium through Playwright; without it the browser tests skip on a user's
    machine, and fail when JAMAICA_REQUIRE_BROWSER is set (CI)."""
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        if os.environ.get("JAMAICA_REQUIRE_BROWSER"):
            pytest.fail(f"Chromium is required (JAMAICA_REQUIRE_BROWSER) but {CHROMIUM} is missing")
        pytest.skip("Chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new store's URL, on each back-end: a SQLite file, then a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'jamaica.db'}"
    return str(request.getfixturevalue("pg_url"))
