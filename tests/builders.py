"""Builders shared by the tests: rounds laid out exactly as a scenario says."""

from __future__ import annotations

from collections import Counter
from typing import Any

from zackzack.games import schnelllauf as sl

C = sl.Card.parse
REST = "REST"


def cs(text: str) -> list[sl.Card]:
    """Space-separated cards."""
    return [C(t) for t in text.split()]


def scenario(layouts: tuple[str, str], piles: tuple[str, str],
             reserves: tuple[str, str] = ("", ""), options: sl.Options | None = None,
             **extra: Any) -> sl.State:
    """A round laid out exactly, through ``parse_deal`` (so conservation is checked).

    A layout is written place by place, separated by ``|``, each bottom to top; every list
    may contain the word ``REST``: the cards of both decks not named anywhere are shared out
    (sorted) among the ``REST`` markers, in the order they appear.
    """
    options = options or sl.Options()
    zones = {
        "layouts": [[p.split() for p in (text.split("|") + [""] * 5)[:5]] for text in layouts],
        "reserves": [r.split() for r in reserves],
        "discard_piles": [p.split() for p in piles],
    }
    lists = [*(place for places in zones["layouts"] for place in places),
             *zones["reserves"], *zones["discard_piles"]]
    named = Counter(C(text) for zone in lists for text in zone if text != REST)
    rest = sorted((sl.decks(options) - named).elements())
    markers = sum(zone.count(REST) for zone in lists)
    shares = [rest[i::markers] for i in range(markers)] if markers else []
    for zone in lists:
        while REST in zone:
            at = zone.index(REST)
            zone[at:at + 1] = [str(card) for card in sorted(shares.pop(0))]
    return sl.parse_deal({**zones, **extra}, options)


