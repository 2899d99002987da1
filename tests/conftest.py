"""Shared test settings: hypothesis profiles (CI runs the thorough one)."""

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=200, deadline=None)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects: it may name ``waits``
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests that mostly wait on real servers ``waits`` (``scripts/test.sh`` runs
    them in a lane of their own) and put the long tests first, the quick ones last: the two
    workers of ``pytest -n 2`` then end together, the quick tests filling the gaps, instead
    of one worker running a minute-long outage test alone at the end."""
    for item in items:
        if _lane(item) == 0:
            item.add_marker("waits")
    items.sort(key=_lane)


def _lane(item: pytest.Item) -> int:
    """0: waits on real servers (``cluster``, or ``wallclock`` outside the browser);
    1: a browser (``e2e``); 2: the rest."""
    if item.get_closest_marker("cluster") or (
            item.get_closest_marker("wallclock") and not item.get_closest_marker("e2e")):
        return 0
    return 1 if item.get_closest_marker("e2e") else 2
