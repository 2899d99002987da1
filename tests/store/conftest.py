"""Fixtures of the store tests: a store (SQLite in a temporary file, and PostgreSQL) on a clock
the test sets."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pg import fresh_database, postgres_server
from store.kit import Wall
from zackzack.store import Store, database_url


@pytest.fixture
def wall() -> Wall:
    """The store's clock."""
    return Wall()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A throwaway PostgreSQL server for the store tests (started when first needed)."""
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path, wall: Wall) -> Iterator[Store]:
    """A fresh store on the clock ``wall``: SQLite in a temporary file, or a new database on
    the PostgreSQL server."""
    if request.param == "sqlite":
        url = database_url(str(tmp_path / "zackzack.db"))
    else:
        url = fresh_database(request.getfixturevalue("pg_server"))
    opened = Store(url, wall=wall)
    yield opened
    opened.close()
