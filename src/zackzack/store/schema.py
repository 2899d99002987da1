"""The tables at the newest schema revision (``migrations`` builds them; queries use these).

Players and their tokens; each match as a row with its actions, rounds and seats keyed by its
id; ratings per player, game and pool, and every change of a rating with the match that made it.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

from zackzack.store.columns import (
    BIG,
    DATA,
    FLAG,
    FLAG_OFF,
    GAME,
    ID,
    INT,
    MATCH,
    NAME,
    PLAYER,
    POOL,
    REAL,
    SERIAL,
    Kind,
    columns,
    text,
)

metadata = MetaData()

players = Table(
    "players", metadata,
    *columns(id=ID.key, name=NAME, created_at=BIG, name_key=NAME.null,
             password_hash=text(200).null, claimed_at=BIG.null, deleted_at=BIG.null),
    Index("players_by_name_key", "name_key", unique=True),
)
"""People: a public id and a name; a claimed name also has its key (the skeleton that makes
lookalikes clash) and a password hash; a deleted player keeps the row, nameless."""

tokens = Table(
    "tokens", metadata,
    *columns(token_hash=NAME.key, player_id=PLAYER.indexed, created_at=BIG),
)
"""The hashes of the private tokens a player is known by (never the tokens themselves)."""

matches = Table(
    "matches", metadata,
    *columns(id=ID.key, code=ID, game=GAME, title=text(80), options=DATA, settings=DATA,
             seed=BIG, deal=DATA.null, seats=DATA, private=FLAG, status=text(12),
             started_at=BIG, ended_at=BIG.null, start_ms=BIG, end_ms=BIG.null,
             result=DATA.null, rated=FLAG_OFF, abandoned=DATA.null, stats=DATA.null,
             epoch=Kind(BigInteger, server_default="0")),
    Index("matches_by_status", "status", "ended_at"),
)
"""One row per started table: everything its log needs except the actions; wall times in ms;
whether it was rated, the seats whose people left, and each seat's statistics; ``epoch``
counts the processes that took the match over (``Store.take_match``): a write checks it."""

match_players = Table(
    "match_players", metadata,
    *columns(match_id=MATCH.key, seat=INT.key, player_id=ID.indexed, place=INT.null,
             played=INT.null, wrong=INT.null, late=INT.null, reaction_ms=INT.null,
             rounds=INT.null),
)
"""Who sat where (people only), to find a player's matches; their place and statistics."""

actions = Table(
    "actions", metadata,
    *columns(match_id=MATCH.key, n=INT.key, t=BIG, seat=INT, action=DATA),
)
"""Every action that reached a table, appended (and committed) as it arrives."""

rounds = Table(
    "rounds", metadata,
    *columns(match_id=MATCH.key, number=INT.key, winner=INT.null, reason=text(32), scores=DATA,
             totals=DATA, ended_at=BIG),
)
"""Each round's result, committed before anyone at the table is told."""

ratings = Table(
    "ratings", metadata,
    *columns(player_id=PLAYER.key, game=GAME.key, pool=POOL.key, mu=REAL, sigma=REAL,
             matches=INT, last_at=BIG, listed=FLAG_OFF),
    Index("ratings_board", "game", "pool", "listed", "mu", "player_id", "matches", "last_at",
          "sigma"),
)
"""Each player's current rating per game and pool; ``listed``: the player has claimed their
name (and is not deleted), kept here so that a leaderboard reads the index ``ratings_board``
alone (best μ first, ties by id, eligibility and the row from its columns), never a match."""

rating_changes = Table(
    "rating_changes", metadata,
    *columns(seq=SERIAL, match_id=MATCH, player_id=PLAYER, game=GAME, pool=POOL, seat=INT,
             place=INT, mu_before=REAL, sigma_before=REAL, mu_after=REAL, sigma_after=REAL,
             at=BIG),
    Index("rating_changes_by_player", "player_id", "game", "pool", "seq"),
    Index("rating_changes_by_match", "match_id"),
)
"""Every change of a rating, in the order they were applied (``seq``): rebuilds replay it."""

# Moderation (revision 0004): operators, marks, the detector's flags, players' reports and
# the audit log of every act (``zackzack.moderation``).

roles = Table(
    "roles", metadata,
    *columns(player_id=PLAYER.key, role=text(16), granted_at=BIG),
)
"""Players with a role (``operator``): set from the command line only."""

marks = Table(
    "marks", metadata,
    *columns(player_id=PLAYER.key, reason=text(500), marked_at=BIG, marked_by=NAME),
)
"""Marked players: hidden from leaderboards, barred from rated pools; the reason is theirs
to read."""

flags = Table(
    "flags", metadata,
    *columns(player_id=PLAYER.key, game=GAME.key, source=text(16).key, score=REAL, evidence=DATA,
             at=BIG, cleared_at=BIG.null),
    Index("flags_open", "cleared_at", "at"),
)
"""The review queue: the detector's flag (``source`` ``timing``) or players' reports
(``reports``) per player and game, with their evidence, until an operator clears it."""

reports = Table(
    "reports", metadata,
    *columns(seq=SERIAL, match_id=MATCH, reporter_id=PLAYER, player_id=PLAYER,
             reason=text(16),
             at=BIG),
    Index("reports_once", "match_id", "reporter_id", "player_id", unique=True),
    Index("reports_by_player", "player_id"),
)
"""Players' reports of another after a match: one per match, reporter and player."""

audit = Table(
    "audit", metadata,
    *columns(seq=SERIAL, at=BIG, actor=NAME, act=text(16), player_id=ID.null,
             reason=text(500), detail=DATA.null),
    Index("audit_by_player", "player_id", "seq"),
)
"""Every act of moderation: when, who (an operator's id, or ``cli:USER``), what, to whom,
why."""

arenas = Table(
    "arenas", metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("title", String(80), nullable=False),
    Column("seats", Integer, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("creator", String(64), nullable=False),
    Column("private", Boolean, nullable=False),
    Column("start_at", Float, nullable=False),
    Column("end_at", Float, nullable=False),
    Column("every", Integer, nullable=False),
    Column("status", String(12), nullable=False),
    Column("players", Integer, nullable=False),
    Column("state", Text, nullable=False),
    Column("host", String(16), nullable=False),
    Column("updated_at", BigInteger, nullable=False),
    Index("arenas_by_status", "status", "start_at"),
)
"""Arenas (``zackzack.arena``): what the lobby lists of each (game, title, seats, rated,
who made it, private, when it runs, every how many seconds it recurs (0: once), how many
joined) and the whole arena as the hall keeps it (``state``: settings, players, results,
running tables), written at every change, so that another process can take it over; ``host``
names the process that writes it (the others' writes change nothing)."""
