"""Match logs: the JSON record that fully describes a game, and its replay through the table.

A log names the game, its options, the table settings, a seed or an explicit first deal,
and every action that reached the table with its time. ``docs/formats.md`` documents it.

>>> log = parse_log({"format": "zackzack-log", "version": 1, "game": "unter-spannung",
...     "options": {"players": 2}, "seed": 3, "actions": [
...         {"t": 500, "seat": 1, "action": {"type": "draw"}}]})
>>> [step.outcome for step in replay(log).steps if step.action is not None]
['accepted']
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zackzack.clock import Clock, VirtualClock
from zackzack.games import game
from zackzack.games.base import Action, Event, Rules, check_keys, to_json, whole
from zackzack.games.errors import IllegalAction, LogError, OptionsError
from zackzack.table import Entry, Phase, Settings, Table

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
    data: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "game": log.game,
        "options": log.rules.options_to_json(log.options),
        "table": to_json(log.settings), "seed": log.seed,
    }
    if log.players:
        data["players"] = list(log.players)
    if log.deal is not None:
        data["deal"] = log.deal
    data["start_ms"] = log.start_ms
    data["actions"] = [{"t": e.t, "seat": e.seat, "action": to_json(e.action)}
                       for e in log.actions]
    if log.end_ms is not None:
        data["end_ms"] = log.end_ms
    if result is not None:
        data["result"] = to_json(result)
    return data


def table_log(table: Table, players: tuple[str, ...] = (), start_ms: int = 0,
              end_ms: int | None = None) -> MatchLog:
    """The log of ``table`` so far: its options, first deal and every action it received."""
    return MatchLog(table.rules.INFO.name, table.options, table.settings, table.seed,
                    table.first_deal, tuple(table.log), start_ms, end_ms, players)


@dataclass(frozen=True, slots=True)
class Step:
    """One line of a replay: an action and its outcome, or the table's own events."""

    t: int
    seat: int | None
    action: Action | None
    outcome: str
    events: tuple[Event, ...] = ()
    code: str | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The step as JSON data (one line of ``zackzack replay --json``)."""
        data: dict[str, Any] = {"t": self.t, "seat": self.seat, "outcome": self.outcome}
        if self.action is not None:
            data["action"] = to_json(self.action)
        if self.code is not None:
            data["code"], data["reason"] = self.code, self.reason
        data["events"] = [to_json(event) for event in self.events]
        return data


@dataclass(slots=True)
class Replay:
    """A replayed log: each step in order and the table as it ended."""

    table: Table
    steps: list[Step] = field(default_factory=list)


def replay(log: MatchLog, until: int | None = None,
           on_step: Callable[[Step, Table], object] | None = None) -> Replay:
    """Re-run ``log`` through a table on the virtual clock (to table time ``until``).

    ``on_step`` sees each step with the table right after it (the server's replay views).
    """
    rules = log.rules
    clock = VirtualClock()
    first = rules.parse_deal(log.deal, log.options) if log.deal is not None else None
    table = Table(rules, log.options, clock=clock, seed=log.seed, first_round=first,
                  settings=log.settings)
    result = Replay(table)
    own: list[Event] = []
    table.subscribe_all(own.extend)

    def add(step: Step) -> None:
        result.steps.append(step)
        own.clear()
        if on_step is not None:
            on_step(step, table)

    def flush(t: int) -> None:
        if own:
            add(Step(t, None, None, "table", tuple(own)))

    def run_to(t: int) -> None:
        while clock.step(t / 1000):
            flush(table.now)

    run_to(log.start_ms)
    table.start(at=log.start_ms)
    flush(log.start_ms)
    for entry in log.actions:
        if until is not None and entry.t > until:
            break
        run_to(entry.t)
        table.advance(entry.t)
        flush(entry.t)
        try:
            table.submit(entry.seat, entry.action, at=entry.t)
        except IllegalAction as error:
            add(Step(entry.t, entry.seat, entry.action, "rejected", tuple(own),
                     code=error.code, reason=str(error)))
            continue
        add(Step(entry.t, entry.seat, entry.action, "accepted", tuple(own)))
    end = log.end_ms if until is None else until
    if end is not None:
        run_to(end)
    return result


def restore(log: MatchLog, clock: Clock) -> Table:
    """A live table on ``clock`` rebuilt from ``log`` (after a restart), paused where it ends.

    Hooks such as ``on_entry`` and ``on_result`` are set by the caller afterwards, so that
    nothing is logged or stored twice; ``resume`` then continues the match.
    """
    rules = log.rules
    first = rules.parse_deal(log.deal, log.options) if log.deal is not None else None
    table = Table(rules, log.options, clock=clock, seed=log.seed, first_round=first,
                  settings=log.settings)
    table.start(at=log.start_ms)
    for entry in log.actions:
        with suppress(IllegalAction):
            table.submit(entry.seat, entry.action, at=entry.t)
    end = log.end_ms if log.end_ms is not None else max(
        [log.start_ms, *(entry.t for entry in log.actions)])
    if table.phase is not Phase.OVER:
        table.pause(at=end)
    return table


def outcome(table: Table) -> dict[str, Any]:
    """The state of the match at the end of a replay, as JSON data."""
    return {"round": table.match.number, "phase": table.phase.value,
            "results": to_json(list(table.match.results)),
            "result": to_json(table.match.result)}


def dumps(data: Mapping[str, Any]) -> str:
    """Compact, stable JSON text for a log."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
