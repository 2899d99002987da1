"""Match logs: the JSON record that fully describes a game (its format, not its replay).

A log names the game, its options, the table settings, a seed or an explicit first deal,
and every action that reached the table with its time. ``docs/formats.md`` documents it;
``zackzack.engine.replay`` re-runs a log through a live table.

>>> log = parse_log({"format": "zackzack-log", "version": 1, "game": "unter-spannung",
...     "options": {"players": 2}, "seed": 3, "actions": [
...         {"t": 500, "seat": 1, "action": {"type": "draw"}}]})
>>> [entry.action for entry in log.actions]
[Draw()]
>>> log_to_json(log)["actions"]
[{'t': 500, 'seat': 1, 'action': {'type': 'draw'}}]
"""

from __future__ import annotations

import functools
import json
import operator
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Generic, Literal

import msgspec

from zackzack.engine.table import Entry, Settings
from zackzack.games import game
from zackzack.games.base import ActionT, OptionsT, Rules, convert, plain
from zackzack.games.errors import LogError

FORMAT = "zackzack-log"
VERSION = 1
MAX_ACTIONS = 1_000_000

Ms = Annotated[int, msgspec.Meta(ge=0, le=1 << 40)]
"""A table time in a log: whole milliseconds."""


class MatchLog(msgspec.Struct, Generic[OptionsT, ActionT], frozen=True):
    """A parsed, validated match log."""

    game: str
    options: OptionsT
    settings: Settings
    seed: int
    deal: dict[str, Any] | None
    actions: tuple[Entry[ActionT], ...]
    start_ms: int = 0
    end_ms: int | None = None
    players: tuple[str, ...] = ()

    @property
    def rules(self) -> Rules:
        """The rules module of the log's game."""
        return game(self.game)


class LogEntry(msgspec.Struct, Generic[ActionT], frozen=True, forbid_unknown_fields=True):
    """One action of a log as it is written: ``{"t": 500, "seat": 1, "action": {...}}``."""

    t: Ms
    seat: Annotated[int, msgspec.Meta(ge=0)]
    action: ActionT


class LogFile(msgspec.Struct, Generic[OptionsT, ActionT], frozen=True,
              forbid_unknown_fields=True):
    """A log as it is written (``docs/formats.md``), for the game whose types it is made with."""

    game: str
    actions: Annotated[list[LogEntry[ActionT]], msgspec.Meta(max_length=MAX_ACTIONS)]
    format: Literal["zackzack-log"] = "zackzack-log"
    version: Literal[1] = 1
    options: OptionsT | None = None
    table: dict[str, Any] | None = None
    seed: Annotated[int, msgspec.Meta(ge=-(1 << 63), le=(1 << 63) - 1)] = 0
    deal: dict[str, Any] | None = None
    start_ms: Ms = 0
    end_ms: Ms | None = None
    players: list[str] | None = None
    result: Any = None


OLD_SETTINGS = {"compensation_ms": 0, "revision": 1}
"""What a log's table settings were before the settings existed (logs leave them out)."""

_FILE_TYPES: dict[str, Any] = {}


def _file_type(rules: Rules) -> Any:
    """``LogFile`` for the game of ``rules`` (its options and actions), made once per game."""
    found = _FILE_TYPES.get(rules.INFO.name)
    if found is None:
        generic: Any = LogFile  # made into LogFile[Options, Play | Draw | …] at run time
        actions = functools.reduce(operator.or_, rules.ACTIONS)
        found = _FILE_TYPES[rules.INFO.name] = generic[rules.Options, actions]
    return found


def parse_log(data: Any) -> MatchLog:
    """A ``MatchLog`` from JSON data; anything wrong raises ``LogError`` saying where."""
    name = data.get("game") if isinstance(data, dict) else None
    if not isinstance(name, str):
        raise LogError("log: expected an object with a game name in \"game\"")
    try:
        rules = game(name)
    except ValueError as error:
        raise LogError(f"log.game: {error}") from None
    log = convert(data, _file_type(rules), LogError, "log")
    options = log.options if log.options is not None else rules.parse_options({})
    settings = convert({**OLD_SETTINGS, **(log.table or {})}, Settings, LogError, "log.table")
    if log.deal is not None:
        rules.parse_deal(log.deal, options)  # validates: raises LogError naming the problem
    last = log.start_ms
    for i, item in enumerate(log.actions):
        if item.seat >= options.players:
            raise LogError(f"log.actions[{i}]: seat must be 0 to {options.players - 1}, "
                           f"got {item.seat}")
        if item.t < last:
            raise LogError(f"log.actions[{i}]: t={item.t} is earlier than the action before it "
                           f"({last}); actions must be in time order")
        last = item.t
    actions = tuple(Entry(item.t, item.seat, item.action) for item in log.actions)
    if log.end_ms is not None and actions and log.end_ms < actions[-1].t:
        raise LogError("log.end_ms: earlier than the last action")
    return MatchLog(rules.INFO.name, options, settings, log.seed, log.deal, actions,
                    log.start_ms, log.end_ms, tuple(log.players or ()))


def load_log(path: str | Path) -> MatchLog:
    """Read and validate the log in the file at ``path``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise LogError(f"{path}: cannot read: {error.strerror}") from None
    except UnicodeDecodeError:
        raise LogError(f"{path}: not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LogError(f"{path}: not JSON: {error.msg} at line {error.lineno}, "
                       f"column {error.colno}") from None
    return parse_log(data)


def log_to_json(log: MatchLog, result: Any = None) -> dict[str, Any]:
    """The log as JSON data that ``parse_log`` reads back (``result`` is informative only)."""
    return log_data(
        log.game, log.rules.options_to_json(log.options), plain(log.settings), log.seed,
        plain(log.actions), players=list(log.players) or None, deal=log.deal,
        start_ms=log.start_ms, end_ms=log.end_ms, result=None if result is None else plain(result))


def log_data(game: str, options: Any, table: Any, seed: int, actions: list[Any], *,
             players: Sequence[str] | None = None, deal: Any = None, start_ms: int = 0,
             end_ms: int | None = None, result: Any = None) -> dict[str, Any]:
    """A log as JSON data from parts that already are JSON (the store keeps them so).

    The one place that lays out a log's fields, in the order ``docs/formats.md`` shows;
    ``players``, ``deal``, ``end_ms`` and ``result`` are left out when ``None``.
    """
    data: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "game": game, "options": options,
        "table": table, "seed": seed,
    }
    if players is not None:
        data["players"] = list(players)
    if deal is not None:
        data["deal"] = deal
    data["start_ms"] = start_ms
    data["actions"] = actions
    if end_ms is not None:
        data["end_ms"] = end_ms
    if result is not None:
        data["result"] = result
    return data
