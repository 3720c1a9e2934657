"""A local Ray cluster for the lab's tests: 2 CPUs on loopback, no dashboard, shut down after."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[None]:
    import ray

    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False, _node_ip_address="127.0.0.1")  # fmt: skip
    try:
        yield
    finally:
        ray.shutdown()
