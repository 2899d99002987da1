"""Replay and restore: a match log re-run through a live table.

The log itself (its fields, parsing and JSON) is ``zackzack.engine.matchlog``; this module is what
needs the ``Table``: ``replay`` on the virtual clock, step by step, ``restore`` after a
restart, and ``table_log``, the log of a live table.

>>> from zackzack.engine.matchlog import parse_log
>>> log = parse_log({"format": "zackzack-log", "version": 1, "game": "unter-spannung",
...     "options": {"players": 2}, "seed": 3, "actions": [
...         {"t": 500, "seat": 1, "action": {"type": "draw"}}]})
>>> [step.outcome for step in replay(log).steps if step.action is not None]
['accepted']
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

import msgspec

from zackzack.engine.clock import Clock, VirtualClock
from zackzack.engine.matchlog import MatchLog
from zackzack.engine.table import Phase, Table
from zackzack.games.base import Action, Event, plain
from zackzack.games.errors import IllegalAction


def table_log(table: Table, players: tuple[str, ...] = (), start_ms: int = 0,
              end_ms: int | None = None) -> MatchLog:
    """The log of ``table`` so far: its options, first deal and every action it received."""
    return MatchLog(table.rules.INFO.name, table.options, table.settings, table.seed,
                    table.first_deal, tuple(table.log), start_ms, end_ms, players)


class Step(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One line of a replay (``zackzack replay --json``): an action and its outcome, or the
    table's own events; ``action``, ``code`` and ``reason`` are left out when ``None``."""

    t: int
    seat: int | None
    outcome: str
    action: Action | None = None
    code: str | None = None
    reason: str | None = None
    events: tuple[Event, ...]


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
            add(Step(t=t, seat=None, outcome="table", events=tuple(own)))

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
            add(Step(t=entry.t, seat=entry.seat, action=entry.action, outcome="rejected",
                     events=tuple(own), code=error.code, reason=str(error)))
            continue
        add(Step(t=entry.t, seat=entry.seat, action=entry.action, outcome="accepted",
                 events=tuple(own)))
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
            "results": plain(table.match.results), "result": plain(table.match.result)}
