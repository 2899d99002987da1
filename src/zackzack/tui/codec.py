"""JSON from the server back into the typed views and events the boards and ``describe`` read.

The server encodes with ``games.base.to_json``; this is its inverse, driven by the
dataclasses' type hints, so a new field or event needs no code here.

>>> from zackzack.games import unter_spannung as us
>>> decode_event(us, {"type": "played", "seat": 1, "card": "7±2", "version": 4})
Played(seat=1, card=Card(value=7, spread=2), version=4)
>>> decode_event(us, {"type": "a_future_event"}) is None
True
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
from typing import Any, Union, cast, get_args, get_origin, get_type_hints

from zackzack import table
from zackzack.games import game
from zackzack.games.base import Event, Rules
from zackzack.table import TableView


def decode(kind: Any, data: Any) -> Any:
    """``data`` (plain JSON) as a value of type ``kind``; cards from their notation."""
    origin, args = get_origin(kind), get_args(kind)
    if origin in (Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        return decode(next(a for a in args if a is not type(None)), data)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], item) for item in data)
        return tuple(decode(a, item) for a, item in zip(args, data, strict=True))
    if origin in (frozenset, set):
        return frozenset(decode(args[0], item) for item in data)
    if origin is list:
        return [decode(args[0], item) for item in data]
    if not isinstance(kind, type):
        return data
    if getattr(kind, "NOTATION", False):
        return kind.parse(data)  # type: ignore[attr-defined]
    if issubclass(kind, enum.Enum):
        return kind(data)
    if dataclasses.is_dataclass(kind):
        hints = _hints(kind)
        return kind(**{field.name: decode(hints[field.name], data[field.name])
                       for field in dataclasses.fields(kind) if field.init and field.name in data})
    return data


@functools.cache
def _hints(kind: type) -> dict[str, Any]:
    return get_type_hints(kind)


@functools.cache
def _events(name: str) -> dict[str, type[Event]]:
    """Every event class of the table and of the game called ``name``, by its ``type``."""
    found: dict[str, type[Event]] = {}
    for module in (table, game(name)):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Event) and value is not Event:
                found[value.kind] = value
    return found


def decode_event(rules: Rules, data: Any) -> Event | None:
    """An event of ``rules``' game or the table (``None``: a type this client does not know)."""
    kind = _events(rules.INFO.name).get(str(data.get("type"))) if isinstance(data, dict) else None
    event: Event | None = decode(kind, data) if kind is not None else None
    return event


def decode_view(rules: Rules, data: Any) -> TableView:
    """A table view; its ``state`` is the game's ``View``."""
    view: TableView = decode(TableView, data)
    if data.get("state") is not None:
        view = dataclasses.replace(view, state=decode(cast(Any, rules).View, data["state"]))
    return view
