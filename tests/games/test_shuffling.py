"""The games' shuffle is ``random.Random.shuffle``, draw for draw (seeds and logs depend on it)."""

from __future__ import annotations

import random

from zackzack.games.shuffling import shuffle


def test_shuffle_makes_randoms_permutation_and_leaves_the_same_state() -> None:
    for seed in range(60):
        for size in (0, 1, 2, 3, 5, 8, 13, 40, 52, 73, 110):
            ours, theirs = random.Random(seed), random.Random(seed)
            mine, expected = list(range(size)), list(range(size))
            shuffle(ours, mine)
            theirs.shuffle(expected)
            assert mine == expected, (seed, size)
            assert ours.getstate() == theirs.getstate()
