"""Revision 0004, after 0003: moderation — operators' roles, marks, the review queue of
flags, players' reports and the audit log (``zackzack.moderation``)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision, down_revision = "0004", "0003"  # no branches, no dependencies


def upgrade() -> None:
    """Five new tables; nothing that exists changes."""
    op.create_table(
        "roles",
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("granted_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "marks",
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("marked_at", sa.BigInteger, nullable=False),
        sa.Column("marked_by", sa.String(64), nullable=False),
    )
    op.create_table(
        "flags",
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("source", sa.String(16), primary_key=True),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("evidence", sa.JSON, nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
        sa.Column("cleared_at", sa.BigInteger, nullable=True),
    )
    op.create_index("flags_open", "flags", ["cleared_at", "at"])
    op.create_table(
        "reports",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("reporter_id", sa.String(16), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    op.create_index("reports_once", "reports", ["match_id", "reporter_id", "player_id"],
                    unique=True)
    op.create_index("reports_by_player", "reports", ["player_id"])
    op.create_table(
        "audit",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.BigInteger, nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("act", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(16), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("detail", sa.JSON, nullable=True),
    )
    op.create_index("audit_by_player", "audit", ["player_id", "seq"])


def downgrade() -> None:
    """Back to 0003: the moderation tables go (marks, flags, reports and the log with them)."""
    for index, table in (("audit_by_player", "audit"), ("reports_by_player", "reports"),
                         ("reports_once", "reports"), ("flags_open", "flags")):
        op.drop_index(index, table_name=table)
    for table in ("audit", "reports", "flags", "marks", "roles"):
        op.drop_table(table)
