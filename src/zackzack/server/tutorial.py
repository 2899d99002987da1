"""Tutorial tables: a scripted first deal (the game's ``tutorial.json``), a tutor who never plays.

The browser's tutorial (``/learn/{game}``) walks a learner through the rules on a real table
made by ``create`` with ``tutorial: true``: the learner in seat 0, the tutor in seat 1. The
tutor sits and never acts, so nothing races the learner and every step of the script comes
when the learner makes it; the table's own steps (Nichts geht mehr, a stalemate flip) come
as in any game. The deal is laid so that each step has exactly one fitting card. A game
brings its tutorial in its folder: ``tutorial.json`` (title, options, the whole first deal).

>>> script = load("schnelllauf")
>>> script.options.max_rounds, [len(r) for r in script.deal.reserves]
(1, [2, 98])
>>> load("unter-spannung").deal.hands[0][0], load("unter-spannung").deal.top
(Card(value=6, spread=3), Card(value=9, spread=3))
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from zackzack.games import entry, registered

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
    """Each registered game's ``tutorial.json`` (from its folder), by game name."""
    found = {}
    for game in registered():
        path = game.folder / "tutorial.json"
        if path.is_file():
            found[game.name] = json.loads(path.read_text("utf-8"))
    return found


def games() -> tuple[str, ...]:
    """The games that have a tutorial."""
    return tuple(_data())


def load(game: str) -> Script:
    """The tutorial of ``game`` (``KeyError`` if it has none), a fresh deal each time."""
    data = _data()[game]
    rules = entry(game).rules
    options = rules.parse_options(data["options"])
    return Script(game, data["title"], options, rules.parse_deal(data["deal"], options))
