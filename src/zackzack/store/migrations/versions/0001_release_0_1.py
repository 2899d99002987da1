"""The schema of release 0.1: players, matches, who sat where, actions and rounds.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from zackzack.store.columns import (
    BIG,
    DATA,
    FLAG,
    GAME,
    ID,
    INT,
    MATCH,
    NAME,
    Kind,
    columns,
    text,
)

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the tables of release 0.1 (what its ``metadata.create_all`` made)."""
    op.create_table("players", *columns(id=ID.key, token_hash=Kind(sa.String(64), unique=True),
                                        name=NAME, created_at=BIG))
    op.create_table(
        "matches",
        *columns(id=ID.key, code=text(8), game=GAME, title=text(80), options=DATA,
                 settings=DATA, seed=BIG, deal=DATA.null, seats=DATA, private=FLAG,
                 status=text(12), started_at=BIG, ended_at=BIG.null, start_ms=BIG,
                 end_ms=BIG.null, result=DATA.null),
    )
    op.create_index("matches_by_status", "matches", ["status", "ended_at"])
    op.create_table("match_players", *columns(match_id=MATCH.key, seat=INT.key, player_id=ID))
    op.create_index("ix_match_players_player_id", "match_players", ["player_id"])
    op.create_table("actions",
                    *columns(match_id=MATCH.key, n=INT.key, t=BIG, seat=INT, action=DATA))
    op.create_table(
        "rounds",
        *columns(match_id=MATCH.key, number=INT.key, winner=INT.null, reason=text(32),
                 scores=DATA, totals=DATA, ended_at=BIG),
    )


def downgrade() -> None:
    """Drop every table."""
    for table in ("rounds", "actions", "match_players", "matches", "players"):
        op.drop_table(table)
