"""Profiles: everything a player's page shows, read in one go (ratings with their history,
recent public matches, statistics per game)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, and_, case, func, select

from zackzack.engine.stats import median
from zackzack.store.database import Database
from zackzack.store.matches import FINISHED, MatchRecord, Status, match_record
from zackzack.store.players import PlayerRecord, player_record
from zackzack.store.ratings import RatingRow, rating_row
from zackzack.store.schema import match_players, matches, players, rating_changes, ratings
from zackzack.words.names import name_key

RECENT = 20
"""How many recent matches a profile lists."""
HISTORY = 200
"""How many rating changes per game and pool a profile has (the newest)."""


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """A rating after one match: change ``seq``, wall time, match (``None``: a private
    table's, whose id is its secret), μ and σ."""

    seq: int
    at: int
    match_id: str | None
    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class GameStats:
    """A player's finished matches of one game: how many, won (place 1), and totals over the
    ``counted`` ones whose statistics are stored (cards, wrong, late, rounds, table time in
    ms), with the median of their median reactions."""

    matches: int
    wins: int
    counted: int
    played: int
    wrong: int
    late: int
    rounds: int
    played_ms: int
    reaction_ms: int | None


@dataclass(frozen=True, slots=True)
class RecentMatch:
    """One of a player's recent public matches: the match, their seat and place."""

    match: MatchRecord
    seat: int
    place: int | None


@dataclass(frozen=True, slots=True)
class Profile:
    """Everything a player's page shows: ratings and their history per (game, pool), recent
    matches and statistics per game."""

    player: PlayerRecord
    created_at: int
    claimed_at: int | None
    ratings: dict[tuple[str, str], RatingRow] = field(default_factory=dict)
    history: dict[tuple[str, str], tuple[HistoryPoint, ...]] = field(default_factory=dict)
    recent: tuple[RecentMatch, ...] = ()
    stats: dict[str, GameStats] = field(default_factory=dict)


class Profiles(Database):
    """The store's profiles of players."""

    def profile(self, key: str, *, key_of: Callable[[str], str] | None = None) -> Profile | None:
        """A (not deleted) player's profile, by public id or by claimed name (its key,
        ``key_of(key)``: by default ``zackzack.words.names.name_key``)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(players).where(players.c.id == key)).first()
            if row is None:
                lookup = key_of or name_key
                row = conn.execute(select(players)
                                   .where(players.c.name_key == lookup(key))).first()
            if row is None or row.deleted_at is not None:
                return None
            player_id = row.id
            rated = {(r.game, r.pool): rating_row(r) for r in conn.execute(
                select(ratings).where(ratings.c.player_id == player_id))}
            history: dict[tuple[str, str], tuple[HistoryPoint, ...]] = {}
            for game, pool in sorted(rated):
                shared = case((matches.c.private.is_(False), rating_changes.c.match_id),
                              else_=None)
                points = conn.execute(
                    select(rating_changes.c.seq, rating_changes.c.at, shared,
                           rating_changes.c.mu_after, rating_changes.c.sigma_after)
                    .join(matches, matches.c.id == rating_changes.c.match_id)
                    .where(rating_changes.c.player_id == player_id,
                           rating_changes.c.game == game, rating_changes.c.pool == pool)
                    .order_by(rating_changes.c.seq.desc()).limit(HISTORY)).all()
                history[game, pool] = tuple(HistoryPoint(*point) for point in reversed(points))
            recent = conn.execute(
                select(matches, match_players.c.seat.label("my_seat"),
                       match_players.c.place.label("my_place"))
                .join(match_players, match_players.c.match_id == matches.c.id)
                .where(match_players.c.player_id == player_id,
                       matches.c.status.in_(FINISHED), matches.c.private.is_(False))
                .order_by(matches.c.ended_at.desc(), matches.c.id).limit(RECENT)).all()
            stats = self._stats(conn, player_id)
        return Profile(player=player_record(row), created_at=row.created_at,
                       claimed_at=row.claimed_at, ratings=rated, history=history,
                       recent=tuple(RecentMatch(match_record(r), r.my_seat, r.my_place)
                                    for r in recent),
                       stats=stats)

    @staticmethod
    def _stats(conn: Connection, player_id: str) -> dict[str, GameStats]:
        """The player's statistics per game over their finished (``OVER``) matches."""
        with_stats = match_players.c.played.is_not(None)
        over = and_(match_players.c.player_id == player_id,
                    matches.c.status == Status.OVER.value)
        joined = match_players.join(matches, matches.c.id == match_players.c.match_id)

        def counted(column: Any) -> Any:
            return func.coalesce(func.sum(column).filter(with_stats), 0)

        totals = conn.execute(
            select(matches.c.game, func.count(), func.count().filter(match_players.c.place == 1),
                   func.count().filter(with_stats), counted(match_players.c.played),
                   counted(match_players.c.wrong), counted(match_players.c.late),
                   counted(match_players.c.rounds), counted(matches.c.end_ms - matches.c.start_ms))
            .select_from(joined).where(over).group_by(matches.c.game)).all()
        reactions: dict[str, list[int]] = {}
        for game, reaction in conn.execute(
                select(matches.c.game, match_players.c.reaction_ms).select_from(joined)
                .where(over, match_players.c.reaction_ms.is_not(None))):
            reactions.setdefault(game, []).append(reaction)
        return {game: GameStats(int(n), int(wins), int(counted_), int(played), int(wrong),
                                int(late), int(rounds_), int(ms), median(reactions.get(game, ())))
                for game, n, wins, counted_, played, wrong, late, rounds_, ms in totals}

