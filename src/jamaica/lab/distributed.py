"""Games on a Ray cluster: many independent games played as Ray tasks, gathered in their order.

Every lab command that plays many games (`jamaica tournament`, `simulate`, `baseline`,
`bench-ray`, the self-play of `jamaica.lab.selfplay`) hands a list of jobs and a module-level
function to `run_jobs`; each job carries everything its game depends on (its index and its seed),
so a result never depends on which worker played it, nor when. Results come back in job order.

Where the games run is a `Cluster`:

- `Cluster.parse(None, 1)`: in this process, no Ray (the default without the `[ray]` extra);
- `Cluster.parse("local", N)` (or `--workers N` with N > 1): a Ray cluster of N CPUs started on
  this machine for the command and stopped after it;
- `Cluster.parse("auto", N)` / `Cluster.parse("HOST:PORT", N)`: a running cluster (`ray start
  --head` on one machine, `ray start --address HOST:PORT` on the others; `jamaica` must be
  installed on every node), with at most N games in flight (default: the cluster's CPUs).

A driver that already called `ray.init` (a test's fixture, a notebook) keeps its own connection:
`run_jobs` plays on it and leaves it open.
"""

from __future__ import annotations

import math
import os
import socket
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

J = TypeVar("J")
S = TypeVar("S")
R = TypeVar("R")

LOCAL = "local"
RAY_EXTRA = "pip install -e '.[ray]'"


def ray_available() -> bool:
    """Whether the `[ray]` extra is installed."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


@dataclass(frozen=True)
class Cluster:
    """Where games run. `address` None: in this process (`workers` is then 1); `"local"`: a Ray
    cluster of `workers` CPUs started here; else a running cluster's address (`"auto"`,
    `"HOST:PORT"`, `"ray://HOST:PORT"`), `workers` capping the games in flight (0: no cap but
    the cluster's CPUs)."""

    address: str | None = None
    workers: int = 1

    @classmethod
    def parse(cls, ray: str | None, workers: int | None) -> Cluster:
        """The cluster meant by `--ray` and `--workers` (None: not given). Without `--ray`,
        `--workers 1` plays in this process and more workers start a local Ray cluster; without
        either, every core with the `[ray]` extra installed, else this process."""
        if workers is not None and workers < 1:
            raise ValueError("--workers must be at least 1")
        if ray is not None and not ray.strip():
            raise ValueError("--ray needs 'auto', 'local' or a cluster's address (HOST:PORT)")
        if ray is None:
            if workers is None:
                workers = (os.cpu_count() or 1) if ray_available() else 1
            return cls(LOCAL if workers > 1 else None, workers)
        ray = ray.strip()
        if ray == LOCAL:
            return cls(LOCAL, workers or os.cpu_count() or 1)
        return cls(ray, workers or 0)

    @property
    def in_process(self) -> bool:
        return self.address is None

    def describe(self) -> str:
        """A few words for a report: where the games ran."""
        if self.address is None:
            return "1 process"
        if self.address == LOCAL:
            return f"a local Ray cluster of {self.workers} worker(s)"
        cap = f", at most {self.workers} games at once" if self.workers else ""
        return f"the Ray cluster at {self.address}{cap}"


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ValueError(f"playing on Ray needs the [ray] extra: {RAY_EXTRA}") from None
    return ray


@contextmanager
def connected(cluster: Cluster) -> Iterator[int]:
    """Connect to (or start) the cluster for the duration of the block; yield how many games
    may be in flight at once. A connection made before (`ray.is_initialized()`) is used as it
    is and left open; one made here is shut down on leaving."""
    ray = _ray()
    own = not ray.is_initialized()
    if own:
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "configure_logging": False}  # fmt: skip
        if cluster.address == LOCAL:
            # Ray lowers its workers' priority by 15 (its worker_niceness): on a busy machine
            # they would starve; here they keep the command's own priority.
            ray.init(address="local", num_cpus=cluster.workers, _node_ip_address="127.0.0.1",
                     _system_config={"worker_niceness": 0}, **options)  # fmt: skip
        else:
            _check_reachable(str(cluster.address))
            try:
                ray.init(address=cluster.address, **options)
            except ConnectionError as e:
                raise ValueError(f"no Ray cluster at {cluster.address}: {e}") from None
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        yield max(1, min(cluster.workers, cpus) if cluster.workers else cpus)
    finally:
        if own:
            ray.shutdown()


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Refuse at once a `HOST:PORT` where nothing listens (Ray itself retries for minutes)."""
    host, colon, port = address.rpartition(":")
    if not colon or "://" in address or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as e:
        raise ValueError(f"no Ray cluster answers at {address}: {e}") from None


def _play_chunk(fn: Callable[[S, J], R], shared: S, chunk: Sequence[J]) -> list[R]:
    """A Ray task: a few jobs, played one after the other by one worker."""
    return [fn(shared, job) for job in chunk]


def _alone(fn: Callable[[J], R], job: J) -> R:
    return fn(job)


def chunk_size(jobs: int, slots: int) -> int:
    """Jobs per Ray task: about eight tasks per slot (so the last tasks finish close together),
    at most 16 games each (so progress is reported often and a task's overhead — a few ms — is
    shared by several games)."""
    return max(1, min(16, math.ceil(jobs / (8 * slots))))


def run_jobs(
    fn: Callable[[J], R],
    jobs: Sequence[J],
    cluster: Cluster,
    on_result: Callable[[R], None] | None = None,
) -> list[R]:
    """`[fn(job) for job in jobs]`, played where `cluster` says; `on_result` is called as each
    result arrives (in any order on Ray); the list returned is in job order. `fn`, the jobs and
    the results travel by pickle (Ray's cloudpickle: `fn` is best a module-level function,
    imported by name on the workers)."""
    return run_shared(_alone, fn, jobs, cluster, on_result)


def run_shared(
    fn: Callable[[S, J], R],
    shared: S,
    jobs: Sequence[J],
    cluster: Cluster,
    on_result: Callable[[R], None] | None = None,
) -> list[R]:
    """`[fn(shared, job) for job in jobs]`, as `run_jobs`; `shared` (a policy's weights, say)
    goes to the cluster's object store once (`ray.put`) and every task reads it from there."""
    if cluster.in_process:
        results = []
        for job in jobs:
            r = fn(shared, job)
            results.append(r)
            if on_result is not None:
                on_result(r)
        return results
    ray = _ray()
    with connected(cluster) as slots:
        task = ray.remote(num_cpus=1, max_retries=0)(_play_chunk)
        stored = ray.put(shared)
        size = chunk_size(len(jobs), slots)
        chunks = [(i, jobs[i : i + size]) for i in range(0, len(jobs), size)]
        done: dict[int, list[R]] = {}
        pending: dict[Any, int] = {}
        queue = iter(chunks)
        while True:
            while len(pending) < slots:
                nxt = next(queue, None)
                if nxt is None:
                    break
                pending[task.remote(fn, stored, nxt[1])] = nxt[0]
            if not pending:
                break
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                start = pending.pop(ref)
                done[start] = ray.get(ref)
                if on_result is not None:
                    for r in done[start]:
                        on_result(r)
        return [r for start, _ in chunks for r in done[start]]
