"""The tables at the newest schema revision (``migrations`` builds them; queries use these).

Players and their tokens; each match as a row with its actions, rounds and seats keyed by its
id; ratings per player, game and pool, and every change of a rating with the match that made it.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    false,
)

metadata = MetaData()

players = Table(
    "players", metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("name_key", String(64), nullable=True),
    Column("password_hash", String(200), nullable=True),
    Column("claimed_at", BigInteger, nullable=True),
    Column("deleted_at", BigInteger, nullable=True),
    Index("players_by_name_key", "name_key", unique=True),
)
"""People: a public id and a name; a claimed name also has its key (the skeleton that makes
lookalikes clash) and a password hash; a deleted player keeps the row, nameless."""

tokens = Table(
    "tokens", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("player_id", String(16), ForeignKey("players.id"), nullable=False, index=True),
    Column("created_at", BigInteger, nullable=False),
)
"""The hashes of the private tokens a player is known by (never the tokens themselves)."""

matches = Table(
    "matches", metadata,
    Column("id", String(16), primary_key=True),
    Column("code", String(16), nullable=False),
    Column("game", String(32), nullable=False),
    Column("title", String(80), nullable=False),
    Column("options", JSON, nullable=False),
    Column("settings", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("deal", JSON, nullable=True),
    Column("seats", JSON, nullable=False),
    Column("private", Boolean, nullable=False),
    Column("status", String(12), nullable=False),
    Column("started_at", BigInteger, nullable=False),
    Column("ended_at", BigInteger, nullable=True),
    Column("start_ms", BigInteger, nullable=False),
    Column("end_ms", BigInteger, nullable=True),
    Column("result", JSON, nullable=True),
    Column("rated", Boolean, nullable=False, server_default=false()),
    Column("abandoned", JSON, nullable=True),
    Column("stats", JSON, nullable=True),
    Column("epoch", BigInteger, nullable=False, server_default="0"),
    Index("matches_by_status", "status", "ended_at"),
)
"""One row per started table: everything its log needs except the actions; wall times in ms;
whether it was rated, the seats whose people left, and each seat's statistics; ``epoch``
counts the processes that took the match over (``Store.take_match``): a write checks it."""

match_players = Table(
    "match_players", metadata,
    Column("match_id", String(16), ForeignKey("matches.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(16), nullable=False, index=True),
    Column("place", Integer, nullable=True),
    Column("played", Integer, nullable=True),
    Column("wrong", Integer, nullable=True),
    Column("late", Integer, nullable=True),
    Column("reaction_ms", Integer, nullable=True),
    Column("rounds", Integer, nullable=True),
)
"""Who sat where (people only), to find a player's matches; their place and statistics."""

actions = Table(
    "actions", metadata,
    Column("match_id", String(16), ForeignKey("matches.id"), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("t", BigInteger, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("action", JSON, nullable=False),
)
"""Every action that reached a table, appended (and committed) as it arrives."""

rounds = Table(
    "rounds", metadata,
    Column("match_id", String(16), ForeignKey("matches.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("winner", Integer, nullable=True),
    Column("reason", String(32), nullable=False),
    Column("scores", JSON, nullable=False),
    Column("totals", JSON, nullable=False),
    Column("ended_at", BigInteger, nullable=False),
)
"""Each round's result, committed before anyone at the table is told."""

ratings = Table(
    "ratings", metadata,
    Column("player_id", String(16), ForeignKey("players.id"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("pool", String(8), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),
    Column("last_at", BigInteger, nullable=False),
    Column("listed", Boolean, nullable=False, server_default=false()),
    Index("ratings_board", "game", "pool", "listed", "mu", "player_id", "matches", "last_at",
          "sigma"),
)
"""Each player's current rating per game and pool; ``listed``: the player has claimed their
name (and is not deleted), kept here so that a leaderboard reads the index ``ratings_board``
alone (best μ first, ties by id, eligibility and the row from its columns), never a match."""

rating_changes = Table(
    "rating_changes", metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("match_id", String(16), ForeignKey("matches.id"), nullable=False),
    Column("player_id", String(16), ForeignKey("players.id"), nullable=False),
    Column("game", String(32), nullable=False),
    Column("pool", String(8), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", BigInteger, nullable=False),
    Index("rating_changes_by_player", "player_id", "game", "pool", "seq"),
    Index("rating_changes_by_match", "match_id"),
)
"""Every change of a rating, in the order they were applied (``seq``): rebuilds replay it."""

# Moderation (revision 0004): operators, marks, the detector's flags, players' reports and
# the audit log of every act (``zackzack.moderation``).

roles = Table(
    "roles", metadata,
    Column("player_id", String(16), ForeignKey("players.id"), primary_key=True),
    Column("role", String(16), nullable=False),
    Column("granted_at", BigInteger, nullable=False),
)
"""Players with a role (``operator``): set from the command line only."""

marks = Table(
    "marks", metadata,
    Column("player_id", String(16), ForeignKey("players.id"), primary_key=True),
    Column("reason", String(500), nullable=False),
    Column("marked_at", BigInteger, nullable=False),
    Column("marked_by", String(64), nullable=False),
)
"""Marked players: hidden from leaderboards, barred from rated pools; the reason is theirs
to read."""

flags = Table(
    "flags", metadata,
    Column("player_id", String(16), ForeignKey("players.id"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("source", String(16), primary_key=True),
    Column("score", Float, nullable=False),
    Column("evidence", JSON, nullable=False),
    Column("at", BigInteger, nullable=False),
    Column("cleared_at", BigInteger, nullable=True),
    Index("flags_open", "cleared_at", "at"),
)
"""The review queue: the detector's flag (``source`` ``timing``) or players' reports
(``reports``) per player and game, with their evidence, until an operator clears it."""

reports = Table(
    "reports", metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("match_id", String(16), ForeignKey("matches.id"), nullable=False),
    Column("reporter_id", String(16), ForeignKey("players.id"), nullable=False),
    Column("player_id", String(16), ForeignKey("players.id"), nullable=False),
    Column("reason", String(16), nullable=False),
    Column("at", BigInteger, nullable=False),
    Index("reports_once", "match_id", "reporter_id", "player_id", unique=True),
    Index("reports_by_player", "player_id"),
)
"""Players' reports of another after a match: one per match, reporter and player."""

audit = Table(
    "audit", metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("at", BigInteger, nullable=False),
    Column("actor", String(64), nullable=False),
    Column("act", String(16), nullable=False),
    Column("player_id", String(16), nullable=True),
    Column("reason", String(500), nullable=False),
    Column("detail", JSON, nullable=True),
    Index("audit_by_player", "player_id", "seq"),
)
"""Every act of moderation: when, who (an operator's id, or ``cli:USER``), what, to whom,
why."""
