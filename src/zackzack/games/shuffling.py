"""Shuffling as ``random.Random.shuffle`` does it, draw for draw, for the compiled build.

``random.shuffle`` is Python, and dealing is a good part of a simulated round's cost; here the
same loop is compiled with the rules (``setup.py``). Given the same ``rng`` it makes the same
permutation and leaves ``rng`` in the same state (``tests/games/test_shuffling.py`` holds it
to that), so match logs and seeds keep their meaning.

>>> import random
>>> cards = list(range(10))
>>> shuffle(random.Random(7), cards)
>>> expected = list(range(10))
>>> random.Random(7).shuffle(expected)
>>> cards == expected
True
"""

from __future__ import annotations

import random
from typing import Any


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` would."""
    bits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        items[i], items[j] = items[j], items[i]
