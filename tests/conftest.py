"""Hypothesis runs deterministically (the suite must not be flaky) and without deadlines."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("default")


# --- real PostgreSQL and Redis servers (tests/services.py) --------------------------------------
from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402

from .services import Postgres, Redis, start_postgres, start_redis  # noqa: E402


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    pg = start_postgres()
    try:
        yield pg
    finally:
        pg.close()


@pytest.fixture
def pg_url(postgres: Postgres) -> str:
    """A fresh, empty PostgreSQL database."""
    return postgres.database()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    r = start_redis()
    try:
        yield r
    finally:
        r.close()
