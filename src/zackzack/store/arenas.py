"""Arenas: each as one row, its whole state written at every change (``server/arenas.py``)."""

from __future__ import annotations

import enum
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import or_, select, update

from zackzack.ratings import places
from zackzack.store.database import Database
from zackzack.store.matches import Status, _once
from zackzack.store.schema import arenas, matches


class ArenaStatus(enum.StrEnum):
    """Where an arena is in its life: to come, running (from its start until its last table
    ended), over."""

    UPCOMING, RUNNING, OVER = "upcoming", "running", "over"


@dataclass(frozen=True, slots=True)
class ArenaRecord:
    """An arena as stored: what lists show of it, and its whole ``state`` (``None``: not
    read, for a list)."""

    id: str
    game: str
    title: str
    seats: int
    rated: bool
    creator: str
    """The public id of the player who made it ("": an operator's)."""
    private: bool
    start_at: float
    """Wall seconds."""
    end_at: float
    every: int
    """Seconds to the next arena of its series (0: none)."""
    status: ArenaStatus
    players: int
    state: str | None = field(default=None, compare=False)
    """The hall's JSON (``server/arenas.py``), as written: never decoded to write it."""


_LISTED = [column for column in arenas.c if column.name not in ("state", "updated_at")]


def _record(row: Any) -> ArenaRecord:
    state = getattr(row, "state", None)
    return ArenaRecord(row.id, row.game, row.title, row.seats, row.rated, row.creator,
                       row.private, row.start_at, row.end_at, row.every,
                       ArenaStatus(row.status), row.players, state)


def _placed(row: Any) -> list[int] | None:
    """The places of an ended match's row (``None``: abandoned, or a result without them)."""
    if row.status != Status.OVER.value:
        return None
    try:
        return places(row.result, len(row.seats), row.abandoned or ())
    except (ValueError, KeyError, TypeError):
        return None


class Arenas(Database):
    """The store's arenas."""

    def add_arena(self, record: ArenaRecord, host: str = "") -> bool:
        """Store a new arena, written by ``host`` from now on; ``False`` (and nothing written)
        if its id is taken: the next of a series is added once however many add it."""
        with self.engine.begin() as conn:
            added = conn.execute(_once(arenas, self.engine.dialect.name).values(
                **self._values(record), host=host)).rowcount
        return bool(added)

    def save_arena(self, record: ArenaRecord, host: str = "") -> bool:
        """Write an arena's status, number of players and state, if ``host`` hosts it (a
        process that lost it to another writes nothing): whether it did."""
        with self.engine.begin() as conn:
            written = conn.execute(update(arenas).where(
                arenas.c.id == record.id, arenas.c.host == host).values(
                status=record.status.value, players=record.players, state=record.state,
                updated_at=self._ms())).rowcount
        return bool(written)

    def host_arena(self, arena_id: str, host: str) -> ArenaRecord | None:
        """Make ``host`` the process that writes arena ``arena_id`` (from now on another's
        writes change nothing), and read it with its state (``None``: no such arena)."""
        with self.engine.begin() as conn:
            conn.execute(update(arenas).where(arenas.c.id == arena_id).values(host=host))
        return self.arena(arena_id)

    def arena(self, arena_id: str) -> ArenaRecord | None:
        """The arena ``arena_id`` with its state, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(arenas).where(arenas.c.id == arena_id)).first()
        return None if row is None else _record(row)

    def arenas(self, *, over_since: float,
               statuses: Collection[ArenaStatus] = (ArenaStatus.UPCOMING,
                                                    ArenaStatus.RUNNING)) -> list[ArenaRecord]:
        """The arenas of ``statuses`` and those over that ended at ``over_since`` or later,
        soonest first, without their states."""
        query = select(*_LISTED).where(or_(
            arenas.c.status.in_([status.value for status in statuses]),
            (arenas.c.status == ArenaStatus.OVER.value) & (arenas.c.end_at >= over_since)))
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(arenas.c.start_at, arenas.c.id)).all()
        return [_record(row) for row in rows]

    def ended(self, match_ids: Collection[str]) -> dict[str, list[int] | None]:
        """Of ``match_ids``, the matches that ended: each seat's place (abandoned seats last),
        or ``None`` for one abandoned by everyone. Unfinished and unknown ones are left out."""
        if not match_ids:
            return {}
        query = select(matches.c.id, matches.c.status, matches.c.result, matches.c.seats,
                       matches.c.abandoned).where(
            matches.c.id.in_(list(match_ids)),
            matches.c.status.in_([Status.OVER.value, Status.ABANDONED.value]))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return {row.id: _placed(row) for row in rows}

    def _values(self, record: ArenaRecord) -> dict[str, Any]:
        return {"id": record.id, "game": record.game, "title": record.title,
                "seats": record.seats, "rated": record.rated,
                "creator": record.creator, "private": record.private,
                "start_at": record.start_at, "end_at": record.end_at, "every": record.every,
                "status": record.status.value, "players": record.players,
                "state": record.state or "{}", "updated_at": self._ms()}
