"""Ratings: each player's per game and pool, every change with the match that made it, and the
leaderboards (read from the ratings' own index, never from matches)."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Select,
    and_,
    delete,
    func,
    insert,
    or_,
    select,
    true,
    update,
)

from zackzack.ratings import (
    BOARD_ACTIVE_DAYS,
    BOARD_MIN_MATCHES,
    DAY_MS,
    Pool,
    Rating,
    RatingChange,
)
from zackzack.store.connecting import StoreError, conflict_insert, reconnecting
from zackzack.store.database import Database
from zackzack.store.schema import marks, players, rating_changes, ratings

RATED = Pool.RATED.value
"""The pool of rated matches (people against people): the one leaderboards show."""
BOARD_TOTAL_FRESH_MS = 10_000
"""How long a leaderboard's count of players is used before it is counted again."""


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's rating in one game and pool: μ, σ, how many matches made it, the last one's
    wall time (ms)."""

    mu: float
    sigma: float
    matches: int
    last_at: int

    @property
    def rating(self) -> Rating:
        """μ and σ as a ``Rating``."""
        return Rating(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class StoredChange:
    """A rating change with the match that made it and when (wall ms); ``seq`` is its place in
    the order changes were applied (0 for one not stored yet)."""

    match_id: str
    at: int
    change: RatingChange
    seq: int = 0


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One line of a leaderboard."""

    rank: int
    player_id: str
    name: str
    mu: float
    sigma: float
    matches: int
    last_at: int


def rating_row(row: Any) -> RatingRow:
    """The rating of a row of ``ratings``."""
    return RatingRow(row.mu, row.sigma, row.matches, row.last_at)


def stored_change(row: Any) -> StoredChange:
    """The change of a row of ``rating_changes``."""
    return StoredChange(row.match_id, row.at, RatingChange(
        row.player_id, row.game, Pool(row.pool), row.seat, row.place,
        Rating(row.mu_before, row.sigma_before), Rating(row.mu_after, row.sigma_after)),
        row.seq)


def change_row(stored: StoredChange) -> dict[str, Any]:
    """The row of ``rating_changes`` of a change (``seq`` left to the database)."""
    change = stored.change
    return {"match_id": stored.match_id, "player_id": change.player_id, "game": change.game,
            "pool": change.pool.value, "seat": change.seat, "place": change.place,
            "mu_before": change.before.mu, "sigma_before": change.before.sigma,
            "mu_after": change.after.mu, "sigma_after": change.after.sigma, "at": stored.at}


def listed_and_deleted(conn: Connection, player_ids: set[str] | None
                       ) -> tuple[set[str], set[str]]:
    """Which of these players (``None``: all of them, no list of ids too long for one
    statement) a leaderboard may list (claimed, not deleted), and which deleted their account
    (they get no rating)."""
    query = (select(players.c.id, players.c.name_key, players.c.deleted_at,
                    marks.c.player_id.label("marked"))
             .outerjoin(marks, marks.c.player_id == players.c.id))
    if player_ids is not None:
        query = query.where(players.c.id.in_(sorted(player_ids)))
    found = conn.execute(query).all() if player_ids != set() else []
    return ({row.id for row in found if row.name_key is not None and row.deleted_at is None
             and row.marked is None},  # a marked player is never listed (moderation)
            {row.id for row in found if row.deleted_at is not None})


@functools.cache
def _upsert(dialect: str) -> Any:
    """Insert a rating, or move the one there: the new μ and σ, one match more, last now
    (``None``: ``dialect`` has no such statement)."""
    insert_of = conflict_insert(dialect)
    if insert_of is None:
        return None
    statement = insert_of(ratings)
    return statement.on_conflict_do_update(
        index_elements=[ratings.c.player_id, ratings.c.game, ratings.c.pool],
        set_={"mu": statement.excluded.mu, "sigma": statement.excluded.sigma,
              "matches": ratings.c.matches + 1, "last_at": statement.excluded.last_at,
              "listed": statement.excluded.listed})



def upsert_ratings(conn: Connection, changes: Sequence[RatingChange], now: int) -> None:
    """The ratings after ``changes``: one match more each, the last one ``now``. A player
    who deleted their account while the match ran gets none (as in ``replace_ratings``)."""
    listed, gone = listed_and_deleted(conn, {c.player_id for c in changes})
    rows = [{"player_id": c.player_id, "game": c.game, "pool": c.pool.value,
             "mu": c.after.mu, "sigma": c.after.sigma, "matches": 1, "last_at": now,
             "listed": c.player_id in listed} for c in changes if c.player_id not in gone]
    if not rows:
        return
    upsert = _upsert(conn.dialect.name)
    if upsert is not None:
        conn.execute(upsert, rows)
        return
    for row in rows:  # another database: no portable upsert
        key = and_(ratings.c.player_id == row["player_id"], ratings.c.game == row["game"],
                   ratings.c.pool == row["pool"])
        done = conn.execute(update(ratings).where(key).values(
            mu=row["mu"], sigma=row["sigma"], matches=ratings.c.matches + 1,
            last_at=now, listed=row["listed"]))
        if not done.rowcount:
            conn.execute(insert(ratings).values(row))


class Ratings(Database):
    """The store's ratings and leaderboards."""

    def __init__(self, url: str, *, wall: Callable[[], float] = time.time) -> None:
        super().__init__(url, wall=wall)
        self._board_totals: dict[str, tuple[int, int]] = {}
        """Each leaderboard's number of players, with the wall time it was counted."""

    def ratings_of(self, player_id: str) -> dict[tuple[str, str], RatingRow]:
        """The player's ratings by (game, pool)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(ratings).where(ratings.c.player_id == player_id)).all()
        return {(row.game, row.pool): rating_row(row) for row in rows}

    @staticmethod
    def _eligible(game: str, now_ms: int) -> list[ColumnElement[bool]]:
        """Which ratings a leaderboard of ``game`` lists at ``now_ms`` (all from the columns
        of ``ratings_board``): claimed players, enough rated matches, the last one recent."""
        return [ratings.c.game == game, ratings.c.pool == RATED, ratings.c.listed == true(),
                ratings.c.matches >= BOARD_MIN_MATCHES,
                ratings.c.last_at >= now_ms - BOARD_ACTIVE_DAYS * DAY_MS]

    def leaderboard_queries(self, game: str, *, now_ms: int, limit: int = 50,
                            offset: int = 0) -> tuple[Select[Any], Select[Any]]:
        """The statements behind ``leaderboard``: its page of rows (the names joined to the
        page alone) and its total."""
        page = (select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.matches,
                       ratings.c.last_at)
                .where(*self._eligible(game, now_ms))
                .order_by(ratings.c.mu.desc(), ratings.c.player_id.desc())
                .limit(limit).offset(offset).subquery("page"))
        named = (select(page, players.c.name)
                 .join(players, players.c.id == page.c.player_id)
                 .order_by(page.c.mu.desc(), page.c.player_id.desc()))
        total = select(func.count()).select_from(ratings).where(*self._eligible(game, now_ms))
        return named, total

    def leaderboard(self, game: str, *, now_ms: int, limit: int = 50,
                    offset: int = 0) -> tuple[list[BoardRow], int]:
        """The eligible players of ``game`` by rated μ, best first (ties: the later id first),
        from ``offset``; and how many are eligible in all (counted at most every
        ``BOARD_TOTAL_FRESH_MS``: counting 100,000 players costs PostgreSQL tens of ms, the
        page itself less than one). Reads an index, never matches."""
        page, total = self.leaderboard_queries(game, now_ms=now_ms, limit=limit, offset=offset)
        counted = self._board_totals.get(game)
        with self.engine.connect() as conn:
            rows = conn.execute(page).all()
            if counted is None or not 0 <= now_ms - counted[0] < BOARD_TOTAL_FRESH_MS:
                counted = self._board_totals[game] = (now_ms, int(
                    conn.execute(total).scalar_one()))
        count = counted[1]
        return [BoardRow(offset + n + 1, row.player_id, row.name, row.mu, row.sigma,
                         row.matches, row.last_at) for n, row in enumerate(rows)], count

    def rank_of(self, player_id: str, game: str, now_ms: int) -> int | None:
        """The player's place on the leaderboard of ``game`` (``None``: not on it)."""
        eligible = self._eligible(game, now_ms)
        with self.engine.connect() as conn:
            mine = conn.execute(select(ratings.c.mu)
                                .where(ratings.c.player_id == player_id, *eligible)).first()
            if mine is None:
                return None
            ahead = conn.execute(
                select(func.count()).select_from(ratings)
                .where(*eligible, or_(ratings.c.mu > mine.mu,
                                      and_(ratings.c.mu == mine.mu,
                                           ratings.c.player_id > player_id))))
            return int(ahead.scalar_one()) + 1

    def last_rating_change(self) -> int:
        """The ``seq`` of the newest stored rating change (0: none yet)."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.max(rating_changes.c.seq))).scalar() or 0)

    @reconnecting
    def replace_ratings(self, changes: Sequence[StoredChange],
                        rated: Mapping[tuple[str, str, str], RatingRow], *,
                        last: int | None = None) -> None:
        """Replace every rating change (stored in the order given, ``seq`` anew) and every
        rating (by player, game and pool; deleted players get none) in one transaction.
        ``last``: the :meth:`last_rating_change` the replacement was worked out from; a
        ``StoreError`` and nothing written if a match has changed ratings since."""
        with self._writer.begin():
            conn = self._writer
            if last is not None and int(conn.execute(
                    select(func.max(rating_changes.c.seq))).scalar() or 0) != last:
                raise StoreError("a match changed ratings while they were rebuilt")
            conn.execute(delete(ratings))
            conn.execute(delete(rating_changes))
            if changes:
                conn.execute(insert(rating_changes), [change_row(c) for c in changes])
            listed, deleted = listed_and_deleted(conn, None)
            rows = [{"player_id": player, "game": game, "pool": Pool(pool).value, "mu": row.mu,
                     "sigma": row.sigma, "matches": row.matches, "last_at": row.last_at,
                     "listed": player in listed}
                    for (player, game, pool), row in rated.items() if player not in deleted]
            if rows:
                conn.execute(insert(ratings), rows)

