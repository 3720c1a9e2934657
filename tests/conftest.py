"""Hypothesis runs deterministically (the suite must not be flaky) and without deadlines; JAX
compiles each program once per session; real PostgreSQL and Redis servers are shared."""

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from .services import Postgres, Redis, drop_databases, start_postgres, start_redis

# --- JAX: one compilation of each program per session -------------------------------------------
# Every `train(...)` jits its optimizer steps afresh (new closures), and XLA takes some 6 s on
# 2 cores to compile each of these small programs: the PPO tests and the Ray test trained the same
# network a dozen times and spent most of it compiling. JAX's persistent compilation cache, in a
# directory of this session only (CI starts cold, and so does every run), compiles each program
# once; the tests that run `jamaica` in a subprocess, and Ray's workers, share it through the
# environment. The programs run are the same ones, bit for bit. Set before JAX is first imported.
if "JAX_COMPILATION_CACHE_DIR" not in os.environ:  # (a cache of one's own is kept)
    _jax_cache = tempfile.mkdtemp(prefix="jamaica-jax-cache-")
    os.environ["JAX_COMPILATION_CACHE_DIR"] = _jax_cache
    atexit.register(shutil.rmtree, _jax_cache, ignore_errors=True)

# --- loopback ports: a range for each pytest-xdist worker ----------------------------------------
# Every server the suite starts (`jamaica serve`, a node, PostgreSQL, Redis, in-process or in a
# subprocess, which inherits this) takes its port from `jamaica.web.services.free_port`, which
# honours JAMAICA_PORTS: each worker gets 1,600 ports of its own below the kernel's ephemeral
# range (32768 up). With `bind(0)` a server restarted on its port could find it taken by another
# worker's server in the gap, and its client then talked to that one.
if "JAMAICA_PORTS" not in os.environ:
    _worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    _first = 16000 + (int(_worker) % 10 if _worker.isdigit() else 0) * 1600
    os.environ["JAMAICA_PORTS"] = f"{_first}-{_first + 1599}"

settings.register_profile(
    "default",
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("default")


# --- real PostgreSQL and Redis servers (tests/services.py) --------------------------------------
_CLUSTER: list[Postgres] = []  # the session's cluster, once a test has started it


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    pg = start_postgres()
    _CLUSTER.append(pg)
    try:
        yield pg
    finally:
        _CLUSTER.clear()
        pg.close()


@pytest.fixture(autouse=True)
def _drop_the_test_s_databases() -> Iterator[None]:
    """The databases a test made in the session's cluster are dropped when it ends (after its own
    fixtures: its servers are stopped). Each is some 345 files; left to the end of the session,
    the 60-odd databases of a run took 20-35 s to delete (on ext4, unlinking a file the kernel
    has written back costs ~2 ms), dropped at once a few milliseconds."""
    made = _CLUSTER[0].made if _CLUSTER else 0
    yield
    if _CLUSTER and _CLUSTER[0].made != made:
        drop_databases(_CLUSTER[0])


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
