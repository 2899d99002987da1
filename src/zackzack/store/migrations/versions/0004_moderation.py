"""Revision 0004, after 0003: moderation — operators' roles, marks, the review queue of
flags, players' reports and the audit log (``zackzack.moderation``)."""

from __future__ import annotations

from alembic import op

from zackzack.store.columns import (
    BIG,
    DATA,
    GAME,
    ID,
    MATCH,
    NAME,
    PLAYER,
    REAL,
    SERIAL,
    columns,
    text,
)

revision, down_revision = "0004", "0003"  # no branches, no dependencies


def upgrade() -> None:
    """Five new tables; nothing that exists changes."""
    op.create_table("roles", *columns(player_id=PLAYER.key, role=text(16), granted_at=BIG))
    op.create_table("marks", *columns(player_id=PLAYER.key, reason=text(500), marked_at=BIG,
                                      marked_by=NAME))
    op.create_table(
        "flags",
        *columns(player_id=PLAYER.key, game=GAME.key, source=text(16).key, score=REAL,
                 evidence=DATA, at=BIG, cleared_at=BIG.null),
    )
    op.create_index("flags_open", "flags", ["cleared_at", "at"])
    op.create_table(
        "reports",
        *columns(seq=SERIAL, match_id=MATCH, reporter_id=PLAYER, player_id=PLAYER,
                 reason=text(16), at=BIG),
    )
    op.create_index("reports_once", "reports", ["match_id", "reporter_id", "player_id"],
                    unique=True)
    op.create_index("reports_by_player", "reports", ["player_id"])
    op.create_table(
        "audit",
        *columns(seq=SERIAL, at=BIG, actor=NAME, act=text(16), player_id=ID.null,
                 reason=text(500), detail=DATA.null),
    )
    op.create_index("audit_by_player", "audit", ["player_id", "seq"])


def downgrade() -> None:
    """Back to 0003: the moderation tables go (marks, flags, reports and the log with them)."""
    for index, table in (("audit_by_player", "audit"), ("reports_by_player", "reports"),
                         ("reports_once", "reports"), ("flags_open", "flags")):
        op.drop_index(index, table_name=table)
    for table in ("audit", "reports", "flags", "marks", "roles"):
        op.drop_table(table)
