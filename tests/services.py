"""Real PostgreSQL and Redis servers for the tests, never mocks (`jamaica.web.services`): without
the programs the tests that need them skip on a developer's machine, and fail when
JAMAICA_REQUIRE_SERVICES is set (CI, `.ci/run`)."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

from jamaica.web import services
from jamaica.web.services import Missing, Postgres, Redis

__all__ = [
    "Missing",
    "Postgres",
    "Redis",
    "drop_databases",
    "missing",
    "start_postgres",
    "start_redis",
]


def missing(e: Missing) -> NoReturn:
    """Skip the test (or fail it, with JAMAICA_REQUIRE_SERVICES) for a program not installed."""
    if os.environ.get("JAMAICA_REQUIRE_SERVICES"):
        pytest.fail(f"{e} is required (JAMAICA_REQUIRE_SERVICES is set) but not installed")
    pytest.skip(f"{e} is not installed")


def start_postgres() -> Postgres:
    try:
        return services.start_postgres()
    except Missing as e:
        missing(e)


def start_redis(port: int | None = None) -> Redis:
    try:
        return services.start_redis(port)
    except Missing as e:
        missing(e)


def drop_databases(pg: Postgres) -> None:
    """Drop every database of the cluster but PostgreSQL's own (connections are cut off)."""
    import psycopg

    with psycopg.connect(pg.url("postgres"), autocommit=True) as db:
        rows = db.execute(
            "SELECT datname FROM pg_database"
            " WHERE datname NOT IN ('postgres', 'template0', 'template1')"
        ).fetchall()
        for (name,) in rows:
            db.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
