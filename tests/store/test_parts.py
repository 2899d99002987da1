"""``Store`` is its parts at once (players, ratings, matches, profiles, arenas): no part may hide
another's method, which inheritance would do without a word."""

from __future__ import annotations

import itertools

from zackzack.store import Store
from zackzack.store.database import Database

COOPERATIVE = {"__init__", "dispose"}
"""What a part may define over ``Database`` and call on with ``super()``."""


def own(part: type) -> set[str]:
    """The names a part defines itself: its methods, and of the dunders the cooperative ones."""
    return {name for name in vars(part)
            if name in COOPERATIVE or not (name.startswith("__") and name.endswith("__"))}


def test_store_is_every_part_and_no_part_hides_another() -> None:
    parts = [base for base in Store.__mro__[1:] if base is not Database
             and issubclass(base, Database)]
    assert {part.__name__ for part in parts} == {"Players", "Ratings", "Matches", "Profiles",
                                                 "Arenas"}
    assert not vars(Store).keys() - {"__doc__", "__module__", "__qualname__", "__slots__",
                                      "__firstlineno__", "__static_attributes__"}
    for one, other in itertools.combinations(parts, 2):
        assert own(one) & own(other) <= COOPERATIVE, (one.__name__, other.__name__)
    for part in parts:
        shared = own(part) & set(vars(Database))
        assert shared <= COOPERATIVE, part.__name__
        for name in shared:  # each one calls on: ``Database`` sets up and closes the engine
            assert "super" in getattr(part, name).__code__.co_names, (part.__name__, name)
