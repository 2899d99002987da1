"""Fixtures of the server tests: a store in a temporary file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from zackzack.store import Store, database_url


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A fresh SQLite store in a temporary file."""
    opened = Store(database_url(str(tmp_path / "zackzack.db")))
    yield opened
    opened.close()
