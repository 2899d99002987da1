"""Revision 0003, after 0002: each match's owner epoch, the fence that keeps a process which
lost a table from writing; table codes up to 16 characters (a private table's has 12:
PostgreSQL refused them)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision, down_revision = "0003", "0002"  # no branches, no dependencies


def upgrade() -> None:
    """``matches.epoch``: 0 for every match so far (a single server never takes one over);
    ``matches.code`` wider (on SQLite, batch mode copies the table once for both)."""
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("epoch", sa.BigInteger, nullable=False, server_default="0"))
        batch.alter_column("code", type_=sa.String(16), existing_type=sa.String(8),
                           existing_nullable=False)


def downgrade() -> None:
    """Back to 0002 (a private table's code no longer fits)."""
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("epoch")
        batch.alter_column("code", type_=sa.String(8), existing_type=sa.String(16),
                           existing_nullable=False)
