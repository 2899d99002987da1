"""A stored match as the browser replays it: each step of the log with the table after it."""

from __future__ import annotations

from typing import Any

from zackzack.games.base import plain
from zackzack.matchlog import MatchLog
from zackzack.replay import Step, replay
from zackzack.table import Table


def replay_json(match_id: str, log: MatchLog, result: Any) -> dict[str, Any]:
    """The replay of ``log``: every step (``zackzack replay --json``) plus a spectator's view."""
    steps: list[dict[str, Any]] = []

    def keep(step: Step, table: Table) -> None:
        steps.append({**plain(step), "view": plain(table.view(None))})

    replay(log, on_step=keep)
    return {"id": match_id, "game": log.game, "players": list(log.players),
            "options": log.rules.options_to_json(log.options), "start_ms": log.start_ms,
            "end_ms": log.end_ms, "result": result, "steps": steps}
