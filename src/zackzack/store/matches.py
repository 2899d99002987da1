"""Matches: each written as it is played (the start, every action, each round, the result with
the places, statistics and rating changes it made) and read back as records and logs; in a
cluster every write of a match is fenced by its epoch (``Matches.take_match``)."""

from __future__ import annotations

import enum
import functools
import json
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlalchemy import (
    ColumnElement,
    Connection,
    Table,
    bindparam,
    func,
    insert,
    select,
    text,
    update,
)

from zackzack.engine.matchlog import MatchLog, log_data, parse_log
from zackzack.ratings import RatingChange, places
from zackzack.store.connecting import StoreError, conflict_insert, reconnecting
from zackzack.store.database import Database
from zackzack.store.ratings import StoredChange, change_row, stored_change, upsert_ratings
from zackzack.store.schema import actions, match_players, matches, rating_changes, rounds


class ActionRow(NamedTuple):
    """One stored action: number ``n`` of match ``match_id``, at table time ``t``."""

    match_id: str
    n: int
    t: int
    seat: int
    action: dict[str, Any]


class Status(enum.Enum):
    """Where a stored match is in its life."""

    PLAYING = "playing"
    """Started, not finished: its log grows with every action."""
    OVER = "over"
    """The match ended with a result."""
    ABANDONED = "abandoned"
    """Everybody left the running table; the log stops where they left."""


FINISHED = (Status.OVER.value, Status.ABANDONED.value)


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """Who sat at a seat: a person (``player``) or a bot (``bot``, its spec); ``deleted``: a
    person who has since deleted their account (their name is then "")."""

    seat: int
    name: str
    player: str | None = None
    bot: str | None = None
    deleted: bool = False

    def to_json(self) -> dict[str, Any]:
        """The seat as JSON data (``deleted`` only when true)."""
        data: dict[str, Any] = {"seat": self.seat, "name": self.name, "player": self.player,
                                "bot": self.bot}
        if self.deleted:
            data["deleted"] = True
        return data


@dataclass(frozen=True, slots=True)
class MatchStart:
    """What the store needs at the start signal to replay the match later."""

    id: str
    code: str
    game: str
    title: str
    options: dict[str, Any]
    settings: dict[str, Any]
    seed: int
    deal: dict[str, Any] | None
    seats: tuple[SeatRecord, ...]
    private: bool
    start_ms: int
    rated: bool = False


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One finished round: winner (``None``: nobody), reason, scores and running totals."""

    number: int
    winner: int | None
    reason: str
    scores: tuple[int, ...]
    totals: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The round as JSON data."""
        return {"number": self.number, "winner": self.winner, "reason": self.reason,
                "scores": list(self.scores), "totals": list(self.totals)}


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A stored match; ``rounds`` is filled only when one match is read. ``abandoned``: the
    seats whose people had left at the end; ``stats``: each seat's statistics, if stored."""

    id: str
    code: str
    game: str
    title: str
    options: dict[str, Any]
    seats: tuple[SeatRecord, ...]
    private: bool
    status: Status
    started_at: int
    ended_at: int | None
    start_ms: int
    end_ms: int | None
    result: dict[str, Any] | None
    rounds: tuple[RoundRecord, ...] = ()
    rated: bool = False
    abandoned: tuple[int, ...] = ()
    stats: list[dict[str, Any]] | None = None

    def to_json(self) -> dict[str, Any]:
        """The match summary as JSON data (docs/protocol.md)."""
        return {
            "id": self.id, "code": self.code, "game": self.game, "title": self.title,
            "options": self.options, "players": [seat.to_json() for seat in self.seats],
            "status": self.status.value, "started_at": self.started_at,
            "ended_at": self.ended_at,
            "duration_ms": None if self.end_ms is None else self.end_ms - self.start_ms,
            "result": self.result, "rated": self.rated,
        }


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """A finished match that changed ratings, with its changes in the order they were made."""

    id: str
    game: str
    rated: bool
    status: Status
    seats: tuple[SeatRecord, ...]
    result: dict[str, Any] | None
    abandoned: tuple[int, ...]
    ended_at: int | None
    changes: tuple[StoredChange, ...]


class Fenced(StoreError):
    """Another process took these matches over (``Store.take_match``): this one must not write
    them any more."""

    def __init__(self, match_ids: Iterable[str]) -> None:
        self.match_ids = frozenset(match_ids)
        super().__init__("taken over by another process: " + ", ".join(sorted(self.match_ids)))


def seat_records(data: Sequence[Mapping[str, Any]]) -> tuple[SeatRecord, ...]:
    """The seats as stored in ``matches.seats``."""
    return tuple(SeatRecord(s["seat"], s["name"], s.get("player"), s.get("bot"),
                            bool(s.get("deleted", False))) for s in data)


def match_record(row: Any, played: Sequence[RoundRecord] = ()) -> MatchRecord:
    """The match of a row of ``matches``, with its rounds ``played``."""
    return MatchRecord(
        id=row.id, code=row.code, game=row.game, title=row.title, options=row.options,
        seats=seat_records(row.seats), private=row.private, status=Status(row.status),
        started_at=row.started_at, ended_at=row.ended_at, start_ms=row.start_ms,
        end_ms=row.end_ms, result=row.result, rounds=tuple(played), rated=bool(row.rated),
        abandoned=tuple(row.abandoned or ()), stats=row.stats)


def _rated_match(row: Any, changes: Sequence[StoredChange]) -> RatedMatch:
    return RatedMatch(row.match_id, row.match_game, bool(row.rated), Status(row.status),
                      seat_records(row.seats), row.result, tuple(row.abandoned or ()),
                      row.ended_at, tuple(changes))


_FINISH = update(matches).where(
    matches.c.id == bindparam("m"), matches.c.status == Status.PLAYING.value).values(
    status=bindparam("status"), ended_at=bindparam("ended_at"), end_ms=bindparam("end_ms"),
    result=bindparam("result", type_=matches.c.result.type),
    stats=bindparam("stats", type_=matches.c.stats.type),
    abandoned=bindparam("abandoned", type_=matches.c.abandoned.type))
"""A playing match finished: a match finished already is left as it is (``finish_match``
applies its ratings once, also when it is tried again after a lost commit)."""
_EPOCHS = select(matches.c.id, matches.c.epoch).where(
    matches.c.id.in_(bindparam("ids", expanding=True))).with_for_update(read=True)


def _once(table: Table, dialect: str) -> Any:
    """An insert into ``table`` that skips a row whose key is there already: a write that is
    tried again after a commit whose answer was lost stores nothing twice (``_idempotent``)."""
    insert_of = conflict_insert(dialect)
    return insert(table) if insert_of is None else insert_of(table).on_conflict_do_nothing()


_ACTION_FIELDS = ActionRow._fields
"""The columns of ``actions`` an ``ActionRow`` fills, in its order."""


@functools.cache
def _fenced_action(dialect: str) -> Any:
    """One action, stored only if its match still has the writer's epoch (locked against a
    takeover to the commit): the fence and the write in one statement (``rowcount`` 0:
    fenced)."""
    return _once(actions, dialect).from_select(
        list(_ACTION_FIELDS),
        select(*(bindparam(f"{name}_", type_=actions.c[name].type)
                 for name in _ACTION_FIELDS))
        .where(select(matches.c.id).where(matches.c.id == bindparam("match_id_"),
                                          matches.c.epoch == bindparam("epoch_"))
               .with_for_update(read=True).exists())).execution_options(preserve_rowcount=True)

_ONE_TRIP = text("""
WITH held AS (
    SELECT matches.id FROM matches
    JOIN unnest(CAST(:fenced AS varchar[]), CAST(:epochs AS bigint[])) AS f(id, epoch)
        ON matches.id = f.id AND matches.epoch = f.epoch
    FOR SHARE OF matches)
INSERT INTO actions (match_id, n, t, seat, action)
SELECT r.match_id, r.n, r.t, r.seat, CAST(r.action AS json)
FROM unnest(CAST(:match_ids AS varchar[]), CAST(:ns AS integer[]), CAST(:ts AS bigint[]),
            CAST(:seats AS integer[]), CAST(:actions AS text[]))
    AS r(match_id, n, t, seat, action)
WHERE (SELECT count(*) FROM held) = :held
ON CONFLICT (match_id, n) DO NOTHING
""").execution_options(preserve_rowcount=True)
"""PostgreSQL: a batch of actions in one statement, committed on its own (no ``BEGIN`` and
``COMMIT`` round trips), all of it only if every fenced match still has the writer's epoch
(locked against a takeover to the commit)."""
_SEATS = select(matches.c.seats).where(matches.c.id == bindparam("m"))
_STAT_KEYS = ("played", "wrong", "late", "reaction_ms")
_SEAT_STATS = update(match_players).where(
    match_players.c.match_id == bindparam("m"), match_players.c.seat == bindparam("s")).values(
    place=bindparam("place"), rounds=bindparam("rounds"),
    **{key: bindparam(key) for key in _STAT_KEYS})


_SQLITE_APPEND = (f"INSERT INTO {actions.name} ({', '.join(_ACTION_FIELDS)}) "
                  f"VALUES ({', '.join('?' for _ in _ACTION_FIELDS)}) ON CONFLICT DO NOTHING")
"""SQLite: a batch of actions as the driver takes it. The journal's hot path (one batch
per loop turn): SQLAlchemy's statement building was a quarter of the server's CPU per action
(``docs/operations.md``, *Load*); what it stores is what ``_once(actions)`` stores."""


def _fence(conn: Connection, fences: Mapping[str, int]) -> None:
    """Raise ``Fenced`` unless every match of ``fences`` still has the writer's epoch; the
    rows stay locked against a takeover (``FOR SHARE``; SQLite has one writer at a time
    anyway) to the end of the transaction, so a takeover waits for this write."""
    if not fences:
        return
    found = dict(conn.execute(_EPOCHS, {"ids": list(fences)}).all())
    lost = [match_id for match_id, epoch in fences.items() if found.get(match_id) != epoch]
    if lost:
        raise Fenced(lost)


class Matches(Database):
    """The store's matches, written as they happen and read back."""

    def __init__(self, url: str, *, wall: Callable[[], float] = time.time) -> None:
        super().__init__(url, wall=wall)
        self._by_statement = self.engine.dialect.name == "postgresql"
        """PostgreSQL: actions go on a connection of their own that commits each statement
        by itself (``_ONE_TRIP``)."""
        self._one_trip: Connection | None = None

    def dispose(self) -> None:
        """Close every connection without a checkpoint, the actions' own too."""
        if self._one_trip is not None:
            self._one_trip.close()
        super().dispose()

    def begin_match(self, start: MatchStart) -> None:
        """The match has started: store everything but its actions."""
        row = insert(matches).values(
            id=start.id, code=start.code, game=start.game, title=start.title,
            options=start.options, settings=start.settings, seed=start.seed, deal=start.deal,
            seats=[seat.to_json() for seat in start.seats], private=start.private,
            status=Status.PLAYING.value, started_at=self._ms(), start_ms=start.start_ms,
            rated=start.rated)
        people = [{"match_id": start.id, "seat": s.seat, "player_id": s.player}
                  for s in start.seats if s.player is not None]
        self._write(row, *([insert(match_players).values(people)] if people else []))

    @reconnecting
    def append_actions(self, rows: Sequence[ActionRow],
                       fences: Mapping[str, int] | None = None) -> None:
        """Store actions (``match_id``, ``n``, ``t``, ``seat``, ``action``) in one transaction;
        with ``fences`` (match id: epoch), only while those matches have those epochs
        (``Fenced`` otherwise, and nothing is stored)."""
        if not rows:
            return
        held = {row.match_id: fences[row.match_id] for row in rows
                if fences and row.match_id in fences}
        conn = self._actions_connection()
        with conn.begin():  # on PostgreSQL no BEGIN is sent (autocommit): one round trip
            if len(rows) == 1 and held:  # the usual batch: the fence and the write in one
                row = rows[0]
                stored = conn.execute(_fenced_action(conn.dialect.name), {
                    "match_id_": row.match_id, "n_": row.n, "t_": row.t, "seat_": row.seat,
                    "action_": row.action, "epoch_": held[row.match_id]})
            elif len(rows) > 1 and self._by_statement:
                stored = conn.execute(_ONE_TRIP, {
                    "fenced": list(held), "epochs": list(held.values()), "held": len(held),
                    "match_ids": [row.match_id for row in rows], "ns": [row.n for row in rows],
                    "ts": [row.t for row in rows], "seats": [row.seat for row in rows],
                    "actions": [json.dumps(row.action) for row in rows]})
            elif not held and conn.dialect.name == "sqlite":  # the one-process default
                conn.exec_driver_sql(_SQLITE_APPEND, [
                    (row.match_id, row.n, row.t, row.seat, json.dumps(row.action))
                    for row in rows])
                return
            else:
                _fence(conn, held)
                conn.execute(_once(actions, conn.dialect.name),
                             [row._asdict() for row in rows] if len(rows) > 1
                             else rows[0]._asdict())
                return
            if stored.rowcount != len(rows):  # fenced, or some were stored already (a replay)
                _fence(conn, held)  # raises, naming the matches taken over

    def _actions_connection(self) -> Connection:
        """Where actions are written: on PostgreSQL a connection in autocommit, opened anew
        once it broke (SQLAlchemy would reconnect it without its autocommit)."""
        if not self._by_statement:
            return self._writer
        if self._one_trip is None or self._one_trip.invalidated or self._one_trip.closed:
            if self._one_trip is not None:
                self._one_trip.close()
            self._one_trip = self.engine.connect().execution_options(
                isolation_level="AUTOCOMMIT")
        return self._one_trip

    def append_action(self, match_id: str, n: int, t: int, seat: int,
                      action: dict[str, Any]) -> None:
        """Action number ``n`` reached the table at table time ``t`` (committed at once)."""
        self.append_actions([ActionRow(match_id, n, t, seat, action)])

    @reconnecting
    def record_round(self, match_id: str, record: RoundRecord, *,
                     epoch: int | None = None) -> None:
        """A round ended (committed before anyone is told; with ``epoch``: fenced as in
        ``append_actions``)."""
        with self._writer.begin():
            if epoch is not None:
                _fence(self._writer, {match_id: epoch})
            self._writer.execute(_once(rounds, self._writer.dialect.name).values(
                match_id=match_id, number=record.number, winner=record.winner,
                reason=record.reason, scores=list(record.scores), totals=list(record.totals),
                ended_at=self._ms()))

    @reconnecting
    def take_match(self, match_id: str) -> int | None:
        """Take a playing match over: its epoch one higher (every write of the process that
        had it fails from now on); the new epoch, or ``None`` if it is not playing."""
        with self._writer.begin():
            found = self._writer.execute(
                update(matches).where(matches.c.id == match_id,
                                      matches.c.status == Status.PLAYING.value)
                .values(epoch=matches.c.epoch + 1).returning(matches.c.epoch)).first()
        return None if found is None else int(found[0])

    def playing(self, code: str | None = None) -> dict[str, str]:
        """The matches being played (or left playing by a crash), or the one of table
        ``code``: match id by table code."""
        query = select(matches.c.code, matches.c.id).where(
            matches.c.status == Status.PLAYING.value)
        if code is not None:
            query = query.where(matches.c.code == code)
        with self.engine.connect() as conn:
            found = conn.execute(query).all()
        return {code: match_id for code, match_id in found}

    @reconnecting
    def finish_match(self, match_id: str, status: Status, end_ms: int,
                     result: dict[str, Any] | None, *,
                     stats: Sequence[Mapping[str, Any]] | None = None,
                     abandoned: Sequence[int] = (),
                     rated: Sequence[RatingChange] | None = None,
                     at: int | None = None, epoch: int | None = None) -> bool:
        """The match ended (``OVER``, with its result) or was abandoned, in one transaction:
        the match, each person's place (abandoned seats last) and statistics (``stats``: per
        seat ``{seat, played, wrong, late, reaction_ms}``), and the rating changes it made
        (``rated``) with the ratings they lead to. ``at``: the wall time (ms) to record, if
        the caller read it already (the ratings drifted to it); ``epoch``: fenced as in
        ``append_actions``. Only a playing match is finished (whether this call did): tried
        again after a commit whose answer was lost, nothing is applied twice."""
        now = self._ms() if at is None else at
        left = sorted(set(abandoned))
        with self._writer.begin():
            conn = self._writer
            if epoch is not None:
                _fence(conn, {match_id: epoch})
            finished = conn.execute(_FINISH, {
                "m": match_id, "status": status.value, "ended_at": now, "end_ms": end_ms,
                "result": result, "abandoned": left or None,
                "stats": None if stats is None else [dict(seat) for seat in stats]})
            if not finished.rowcount:  # finished already (tried again after a lost commit)
                return False
            everyone = conn.execute(_SEATS, {"m": match_id}).scalar_one_or_none() or []
            people = [int(seat["seat"]) for seat in everyone if seat.get("player")]
            if people:
                placed = places(result, len(everyone), left) or []
                by_seat = {int(s["seat"]): s for s in stats or ()}
                rounds_ = (result or {}).get("rounds")
                conn.execute(_SEAT_STATS, [
                    {"m": match_id, "s": seat,
                     "place": placed[seat] if seat < len(placed) else None,
                     **{key: by_seat.get(seat, {}).get(key) for key in _STAT_KEYS},
                     "rounds": rounds_ if isinstance(rounds_, int) else None}
                    for seat in people])
            if rated:
                conn.execute(insert(rating_changes),
                             [change_row(StoredChange(match_id, now, c)) for c in rated])
                upsert_ratings(conn, rated, now)
        return True

    def matches(self, *, limit: int = 50, offset: int = 0, game: str | None = None,
                player: str | None = None) -> tuple[list[MatchRecord], int]:
        """Finished public matches, newest first, and how many there are in all."""
        where: list[ColumnElement[bool]] = [matches.c.status.in_(FINISHED),
                                            matches.c.private.is_(False)]
        if game is not None:
            where.append(matches.c.game == game)
        if player is not None:
            where.append(matches.c.id.in_(select(match_players.c.match_id)
                                          .where(match_players.c.player_id == player)))
        with self.engine.connect() as conn:
            total = conn.execute(select(func.count()).select_from(matches).where(*where))
            count = int(total.scalar_one())
            rows = conn.execute(select(matches).where(*where)
                                .order_by(matches.c.ended_at.desc(), matches.c.id)
                                .limit(limit).offset(offset)).all()
        return [match_record(row) for row in rows], count

    def match(self, match_id: str, *, finished: bool = True) -> MatchRecord | None:
        """One match with its rounds (``None`` if unknown, or unfinished when ``finished``)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(matches).where(matches.c.id == match_id)).first()
            if row is None or (finished and row.status not in FINISHED):
                return None
            found = conn.execute(select(rounds).where(rounds.c.match_id == match_id)
                                 .order_by(rounds.c.number)).all()
        played = tuple(RoundRecord(r.number, r.winner, r.reason, tuple(r.scores),
                                   tuple(r.totals)) for r in found)
        return match_record(row, played)

    def log_json(self, match_id: str, *, finished: bool = True) -> dict[str, Any] | None:
        """The match log as JSON data (docs/formats.md), or ``None`` as for ``match``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(matches).where(matches.c.id == match_id)).first()
            if row is None or (finished and row.status not in FINISHED):
                return None
            found = conn.execute(select(actions.c.t, actions.c.seat, actions.c.action)
                                 .where(actions.c.match_id == match_id)
                                 .order_by(actions.c.n)).all()
        return log_data(row.game, row.options, row.settings, row.seed,
                        [{"t": t, "seat": seat, "action": action} for t, seat, action in found],
                        players=[seat["name"] for seat in row.seats], deal=row.deal,
                        start_ms=row.start_ms, end_ms=row.end_ms, result=row.result)

    def log(self, match_id: str, *, finished: bool = True) -> MatchLog | None:
        """The parsed match log, or ``None`` as for ``match``."""
        data = self.log_json(match_id, finished=finished)
        return None if data is None else parse_log(data)

    def action_count(self, match_id: str) -> int:
        """How many actions of the match are stored."""
        with self.engine.connect() as conn:
            found = conn.execute(select(func.count()).select_from(actions)
                                 .where(actions.c.match_id == match_id))
            return int(found.scalar_one())

    def rated_matches_in_order(self) -> Iterator[RatedMatch]:
        """Every match that changed ratings, with its changes, in the order they were made
        (``zackzack ratings rebuild`` replays them)."""
        query = (select(rating_changes, matches.c.game.label("match_game"), matches.c.rated,
                        matches.c.status, matches.c.seats, matches.c.result,
                        matches.c.abandoned, matches.c.ended_at)
                 .join(matches, matches.c.id == rating_changes.c.match_id)
                 .order_by(rating_changes.c.seq))
        with self.engine.connect() as conn:
            current: Any = None
            changes: list[StoredChange] = []
            for row in conn.execution_options(stream_results=True, yield_per=2000) \
                    .execute(query):
                if current is not None and row.match_id != current.match_id:
                    yield _rated_match(current, changes)
                    changes = []
                current = row
                changes.append(stored_change(row))
            if current is not None:
                yield _rated_match(current, changes)

