"""JSON from the server back into the typed views and events the boards and ``describe`` read.

The server encodes with msgspec (``games.base.encode``); this decodes with the game's own
declared types: its ``View`` inside the table's ``TableView``, its ``EVENTS`` beside the table's.

>>> from zackzack.games import unter_spannung as us
>>> decode_event(us, {"type": "played", "seat": 1, "card": "7±2", "version": 4})
Played(seat=1, card=Card(value=7, spread=2), version=4)
>>> decode_event(us, {"type": "a_future_event"}) is None
True
"""

from __future__ import annotations

from typing import Any

from zackzack.engine import table
from zackzack.engine.table import TableView
from zackzack.games.base import Event, Rules, convert

_EVENTS: dict[Any, dict[str, type[Event]]] = {}
_VIEWS: dict[Any, Any] = {}


def _events(rules: Rules) -> dict[str, type[Event]]:
    """Every event class of the table and of the game ``rules``, by its ``type`` (kept by
    the rules themselves, not their name: a name registered again brings its own)."""
    found = _EVENTS.get(rules)
    if found is None:
        found = _EVENTS[rules] = {kind.kind: kind for kind in (*table.EVENTS, *rules.EVENTS)}
    return found


def _view_type(rules: Rules) -> Any:
    """``TableView[View]`` for the game ``rules``, made at run time (kept like ``_events``)."""
    found = _VIEWS.get(rules)
    if found is None:
        generic: Any = TableView
        found = _VIEWS[rules] = generic[rules.View]
    return found


def decode_event(rules: Rules, data: Any) -> Event | None:
    """An event of ``rules``' game or the table (``None``: a type this client does not know)."""
    kind = _events(rules).get(str(data.get("type"))) if isinstance(data, dict) else None
    return None if kind is None else convert(data, kind)


def decode_view(rules: Rules, data: Any) -> TableView:
    """A table view whose ``state`` is the game's ``View``."""
    view: TableView = convert(data, _view_type(rules))
    return view
