"""Match logs: the JSON record that fully describes a game (its format, not its replay).

A log names the game, its options, the table settings, a seed or an explicit first deal,
and every action that reached the table with its time. ``docs/formats.md`` documents it;
``zackzack.replay`` re-runs a log through a live table.

>>> log = parse_log({"format": "zackzack-log", "version": 1, "game": "unter-spannung",
...     "options": {"players": 2}, "seed": 3, "actions": [
...         {"t": 500, "seat": 1, "action": {"type": "draw"}}]})
>>> [entry.action for entry in log.actions]
[Draw()]
>>> log_to_json(log)["actions"]
[{'t': 500, 'seat': 1, 'action': {'type': 'draw'}}]
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zackzack.games import game
from zackzack.games.base import Rules, check_keys, to_json, whole
from zackzack.games.errors import IllegalAction, LogError, OptionsError
from zackzack.table import Entry, Settings

FORMAT = "zackzack-log"
VERSION = 1
MAX_ACTIONS = 1_000_000


@dataclass(frozen=True, slots=True)
class MatchLog:
    """A parsed, validated match log."""

    game: str
    options: Any
    settings: Settings
    seed: int
    deal: dict[str, Any] | None
    actions: tuple[Entry, ...]
    start_ms: int = 0
    end_ms: int | None = None
    players: tuple[str, ...] = ()

    @property
    def rules(self) -> Rules:
        """The rules module of the log's game."""
        return game(self.game)


def parse_log(data: Any) -> MatchLog:
    """A ``MatchLog`` from JSON data; anything wrong raises ``LogError`` saying where."""
    allowed = {"format", "version", "game", "options", "table", "seed", "deal", "actions",
               "start_ms", "end_ms", "players", "result"}
    try:
        check_keys(data, "log", allowed, {"game", "actions"})
        if data.get("format", FORMAT) != FORMAT:
            raise LogError(f"log.format: expected {FORMAT!r}, got {data.get('format')!r}")
        if data.get("version", VERSION) != VERSION:
            raise LogError(f"log.version: this zackzack reads version {VERSION}")
        rules = game(data["game"]) if isinstance(data["game"], str) else None
        if rules is None:
            raise LogError("log.game: expected a game name")
        options = rules.parse_options(data.get("options") or {})
        settings = _settings(data.get("table") or {})
        seed = whole(data, "seed", "log", -(1 << 63), (1 << 63) - 1, 0)
        start_ms = whole(data, "start_ms", "log", 0, 1 << 40, 0)
        end_ms = whole(data, "end_ms", "log", 0, 1 << 40) if data.get("end_ms") is not None \
            else None
        players = data.get("players") or []
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise LogError("log.players: expected a list of names")
    except OptionsError as error:
        raise LogError(f"log.options: {error}") from None
    except LogError:
        raise
    except ValueError as error:
        raise LogError(str(error)) from None
    deal = data.get("deal")
    if deal is not None:
        rules.parse_deal(deal, options)  # validates: raises LogError naming the problem
    actions = tuple(_entries(data["actions"], rules, options.players, start_ms))
    if end_ms is not None and actions and end_ms < actions[-1].t:
        raise LogError("log.end_ms: earlier than the last action")
    return MatchLog(rules.INFO.name, options, settings, seed, deal, actions, start_ms, end_ms,
                    tuple(players))


def _settings(data: Any) -> Settings:
    where = "log.table"
    check_keys(data, where, {"start_ms", "between_rounds_ms", "late_grace_ms",
                             "compensation_ms", "revision"})
    return Settings(  # a log without the newer settings was made before they existed
        start_ms=whole(data, "start_ms", where, 0, 600_000, 0),
        between_rounds_ms=whole(data, "between_rounds_ms", where, 0, 600_000, 0),
        late_grace_ms=whole(data, "late_grace_ms", where, 0, 600_000, 1000),
        compensation_ms=whole(data, "compensation_ms", where, 0, 600_000, 0),
        revision=whole(data, "revision", where, 1, 2, 1),
    )


def _entries(data: Any, rules: Rules, players: int, start_ms: int) -> Iterator[Entry]:
    if not isinstance(data, list):
        raise LogError("log.actions: expected a list")
    if len(data) > MAX_ACTIONS:
        raise LogError(f"log.actions: more than {MAX_ACTIONS} actions")
    last = start_ms
    for i, item in enumerate(data):
        where = f"log.actions[{i}]"
        try:
            check_keys(item, where, {"t", "seat", "action"}, {"t", "seat", "action"})
            t = whole(item, "t", where, 0, 1 << 40)
            seat = whole(item, "seat", where, 0, players - 1)
            action = rules.action_from_json(item["action"])
        except IllegalAction as error:
            raise LogError(f"{where}.action: {error}") from None
        except ValueError as error:
            raise LogError(str(error)) from None
        if t < last:
            raise LogError(f"{where}: t={t} is earlier than the action before it ({last}); "
                           "actions must be in time order")
        last = t
        yield Entry(t, seat, action)


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
        log.game, log.rules.options_to_json(log.options), to_json(log.settings), log.seed,
        [{"t": e.t, "seat": e.seat, "action": to_json(e.action)} for e in log.actions],
        players=list(log.players) or None, deal=log.deal, start_ms=log.start_ms,
        end_ms=log.end_ms, result=None if result is None else to_json(result))


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
