"""Players who last, ratings and their changes: tokens move to their own table.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

_matches = sa.table("matches", sa.column("id", sa.String), sa.column("result", sa.JSON))
_seats = sa.table("match_players", sa.column("match_id", sa.String),
                  sa.column("seat", sa.Integer), sa.column("place", sa.Integer),
                  sa.column("rounds", sa.Integer))


def upgrade() -> None:
    """Tokens out of ``players`` into ``tokens``; claims; match flags, places and statistics;
    ratings and rating changes."""
    # The hashes wait in a plain table while players is rebuilt (SQLite's batch mode copies
    # the table anew and drops the old one).
    op.execute("CREATE TABLE tokens_0002 AS "
               "SELECT token_hash, id AS player_id, created_at FROM players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("token_hash")
        batch.add_column(sa.Column("name_key", sa.String(64), nullable=True))
        batch.add_column(sa.Column("password_hash", sa.String(200), nullable=True))
        batch.add_column(sa.Column("claimed_at", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("deleted_at", sa.BigInteger, nullable=True))
        batch.create_index("players_by_name_key", ["name_key"], unique=True)
    op.create_table(
        "tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_tokens_player_id", "tokens", ["player_id"])
    op.execute("INSERT INTO tokens (token_hash, player_id, created_at) "
               "SELECT token_hash, player_id, created_at FROM tokens_0002")
    op.drop_table("tokens_0002")

    # Added columns need no batch mode (SQLite's ADD COLUMN does them, no table is copied).
    op.add_column("matches", sa.Column("rated", sa.Boolean, nullable=False,
                                       server_default=sa.false()))
    op.add_column("matches", sa.Column("abandoned", sa.JSON, nullable=True))
    op.add_column("matches", sa.Column("stats", sa.JSON, nullable=True))
    for name in ("place", "played", "wrong", "late", "reaction_ms", "rounds"):
        op.add_column("match_players", sa.Column(name, sa.Integer, nullable=True))
    _places_from_results()

    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("last_at", sa.BigInteger, nullable=False),
        sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("ratings_board", "ratings",
                    ["game", "pool", "listed", "mu", "player_id", "matches", "last_at", "sigma"])
    op.create_table(
        "rating_changes",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("pool", sa.String(8), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    op.create_index("rating_changes_by_player", "rating_changes",
                    ["player_id", "game", "pool", "seq"])
    op.create_index("rating_changes_by_match", "rating_changes", ["match_id"])


def _places_from_results() -> None:
    """Each person's place and the match's rounds, from the results already stored."""
    bind = op.get_bind()
    found = bind.execute(sa.select(_matches.c.id, _matches.c.result)
                         .where(_matches.c.result.is_not(None)))
    updates: list[dict[str, Any]] = []
    for match_id, result in found:
        if not isinstance(result, dict):
            continue
        rounds = result.get("rounds")
        for placing in result.get("placings") or ():
            updates.append({"m": match_id, "s": placing["seat"], "place": placing["place"],
                            "rounds": rounds if isinstance(rounds, int) else None})
    if updates:
        bind.execute(sa.update(_seats).where(_seats.c.match_id == sa.bindparam("m"),
                                             _seats.c.seat == sa.bindparam("s"))
                     .values(place=sa.bindparam("place"), rounds=sa.bindparam("rounds")),
                     updates)


def downgrade() -> None:
    """Back to release 0.1: each player keeps their oldest token (ratings and claims go)."""
    for index, table in (("rating_changes_by_match", "rating_changes"),
                         ("rating_changes_by_player", "rating_changes"),
                         ("ratings_board", "ratings")):
        op.drop_index(index, table)
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    with op.batch_alter_table("match_players") as batch:
        for name in ("place", "played", "wrong", "late", "reaction_ms", "rounds"):
            batch.drop_column(name)
    with op.batch_alter_table("matches") as batch:
        for name in ("rated", "abandoned", "stats"):
            batch.drop_column(name)
    op.execute("CREATE TABLE tokens_0002 AS SELECT player_id, MIN(token_hash) AS token_hash "
               "FROM tokens GROUP BY player_id")
    op.drop_index("ix_tokens_player_id", "tokens")
    op.drop_table("tokens")
    op.execute("DELETE FROM players WHERE id NOT IN (SELECT player_id FROM tokens_0002)")
    with op.batch_alter_table("players") as batch:
        batch.drop_index("players_by_name_key")
        for name in ("name_key", "password_hash", "claimed_at", "deleted_at"):
            batch.drop_column(name)
        batch.add_column(sa.Column("token_hash", sa.String(64), nullable=True))
    op.execute("UPDATE players SET token_hash = (SELECT token_hash FROM tokens_0002 "
               "WHERE tokens_0002.player_id = players.id)")
    op.drop_table("tokens_0002")
    with op.batch_alter_table("players") as batch:
        batch.alter_column("token_hash", existing_type=sa.String(64), nullable=False)
        batch.create_unique_constraint("players_token_hash_key", ["token_hash"])
