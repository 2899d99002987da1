"""The schema of release 0.1: players, matches, who sat where, actions and rounds.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the tables of release 0.1 (what its ``metadata.create_all`` made)."""
    op.create_table(
        "players",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("code", sa.String(8), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("title", sa.String(80), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("deal", sa.JSON, nullable=True),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("started_at", sa.BigInteger, nullable=False),
        sa.Column("ended_at", sa.BigInteger, nullable=True),
        sa.Column("start_ms", sa.BigInteger, nullable=False),
        sa.Column("end_ms", sa.BigInteger, nullable=True),
        sa.Column("result", sa.JSON, nullable=True),
    )
    op.create_index("matches_by_status", "matches", ["status", "ended_at"])
    op.create_table(
        "match_players",
        sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(16), nullable=False),
    )
    op.create_index("ix_match_players_player_id", "match_players", ["player_id"])
    op.create_table(
        "actions",
        sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("t", sa.BigInteger, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
    )
    op.create_table(
        "rounds",
        sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("scores", sa.JSON, nullable=False),
        sa.Column("totals", sa.JSON, nullable=False),
        sa.Column("ended_at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    """Drop every table."""
    for table in ("rounds", "actions", "match_players", "matches", "players"):
        op.drop_table(table)
