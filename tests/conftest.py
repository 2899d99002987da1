"""Shared test settings: hypothesis profiles (CI runs the thorough one)."""

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=200, deadline=None)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests that wait on real servers and browsers first, the quick ones last: the two
    workers of ``pytest -n 2`` then end together, the quick tests filling the gaps, instead
    of one worker running a minute-long outage test alone at the end."""
    items.sort(key=_lane)


def _lane(item: pytest.Item) -> int:
    if item.get_closest_marker("cluster") or (
            item.get_closest_marker("wallclock") and not item.get_closest_marker("e2e")):
        return 0
    return 1 if item.get_closest_marker("e2e") else 2
