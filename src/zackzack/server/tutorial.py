"""Tutorial tables: a scripted first deal from ``tutorials.json`` and an opponent who never plays.

The browser's tutorial (``/learn/{game}``) walks a learner through the rules on a real table
made by ``create`` with ``tutorial: true``: the learner in seat 0, the tutor in seat 1. The
tutor sits and never acts, so nothing races the learner and every step of the script comes
when the learner makes it; the table's own steps (Nichts geht mehr, a stalemate flip) come
as in any game. The deal is laid so that each step has exactly one fitting card.

>>> script = load("schnelllauf")
>>> script.options.max_rounds, [len(r) for r in script.deal.reserves]
(1, [2, 98])
>>> load("unter-spannung").deal.hands[0][0], load("unter-spannung").deal.top
(Card(value=6, spread=3), Card(value=9, spread=3))
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from zackzack.games import GAMES
from zackzack.games import schnelllauf as sl

TUTOR = "tutor"
"""The tutor's bot name: a seat that sits at the table and never plays."""


@dataclass(frozen=True, slots=True)
class Script:
    """A game's tutorial: the table's title, its options and its first deal."""

    game: str
    title: str
    options: Any
    deal: Any


class Tutor:
    """The tutor "bot": it never acts, so there is nothing to stop."""

    def stop(self) -> None:
        """Nothing runs."""


@cache
def _data() -> dict[str, Any]:
    text = resources.files("zackzack.server").joinpath("tutorials.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def games() -> tuple[str, ...]:
    """The games that have a tutorial."""
    return tuple(_data())


def load(game: str) -> Script:
    """The tutorial of ``game`` (``KeyError`` if it has none), a fresh deal each time."""
    entry = _data()[game]
    rules = GAMES[game]
    options = rules.parse_options(entry["options"])
    deal = dict(entry["deal"])
    if entry.get("rest"):  # Schnelllauf: the cards not laid out go under a reserve
        deal = _with_rest(deal, options, entry["rest"])
    return Script(game, entry["title"], options, rules.parse_deal(deal, options))


def _with_rest(deal: dict[str, Any], options: sl.Options, where: str) -> dict[str, Any]:
    """``deal`` with every card of both decks it does not name at the bottom of ``where``
    (``reserves.1``), in deck order: the data file names only the cards that matter."""
    named: Counter[sl.Card] = Counter()
    for places in deal["layouts"]:
        for place in places:
            named.update(map(sl.Card.parse, place))
    for pile in (*deal["reserves"], *deal["discard_piles"]):
        named.update(map(sl.Card.parse, pile))
    rest = sl.decks(options) - named
    cards = [str(card) for card in sorted(rest.elements(), key=lambda c: c.key)]
    key, _, index = where.partition(".")
    lists = [list(x) for x in deal[key]]
    lists[int(index)] = cards + lists[int(index)]
    return {**deal, key: lists}
