"""Revision 0005, after 0004: arenas — timed tournaments with continuous pairing
(``zackzack.arena``, ``zackzack.server.arenas``)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision, down_revision = "0005", "0004"  # no branches, no dependencies


def upgrade() -> None:
    """One new table; nothing that exists changes."""
    op.create_table(
        "arenas",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("title", sa.String(80), nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("creator", sa.String(64), nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("start_at", sa.Float, nullable=False),
        sa.Column("end_at", sa.Float, nullable=False),
        sa.Column("every", sa.Integer, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("host", sa.String(16), nullable=False),
        sa.Column("updated_at", sa.BigInteger, nullable=False),
    )
    op.create_index("arenas_by_status", "arenas", ["status", "start_at"])


def downgrade() -> None:
    """Back to 0004: the arenas go (their matches stay)."""
    op.drop_index("arenas_by_status", table_name="arenas")
    op.drop_table("arenas")
