"""The tables: players, and each match as a row with its actions and rounds keyed by its id."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
)

metadata = MetaData()

players = Table(
    "players", metadata,
    Column("id", String(16), primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("name", String(64), nullable=False),
    Column("created_at", BigInteger, nullable=False),
)
"""People: a public id and the hash of their private token (never the token itself)."""

matches = Table(
    "matches", metadata,
    Column("id", String(16), primary_key=True),
    Column("code", String(8), nullable=False),
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
    Index("matches_by_status", "status", "ended_at"),
)
"""One row per started table: everything its log needs except the actions; wall times in ms."""

match_players = Table(
    "match_players", metadata,
    Column("match_id", String(16), ForeignKey("matches.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(16), nullable=False, index=True),
)
"""Who sat where (people only), to find a player's matches."""

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
