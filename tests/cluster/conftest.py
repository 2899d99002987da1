"""Fixtures of the cluster tests: a PostgreSQL server per test process (a fresh database per
test), a Redis per test, and the ``zackzack serve`` nodes a test starts (stopped after it; the
end of each node's log is printed, so a failure's report shows what the servers said)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cluster.harness import Cluster
from pg import fresh_database, postgres_server
from redis_server import Redis, redis_server


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A throwaway PostgreSQL server for the cluster tests (started when first needed)."""
    with postgres_server() as url:
        yield url


@pytest.fixture
def redis() -> Iterator[Redis]:
    """A fresh Redis."""
    with redis_server() as server:
        yield server


@pytest.fixture
def cluster(tmp_path: Path, redis: Redis, pg_server: str) -> Iterator[Cluster]:
    """No nodes yet (``await cluster.start("A", "B")``) on a Redis and a new database."""
    started = Cluster(tmp_path, redis, fresh_database(pg_server))
    yield started
    started.close()
    for node in started.nodes:
        print(f"--- node {node.name} ({node.url}), the end of its log:\n{node.tail()}")
