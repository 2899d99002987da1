"""Players who last, ratings and their changes: tokens move to their own table.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

from zackzack.store.columns import (
    BIG,
    DATA,
    FLAG_OFF,
    GAME,
    ID,
    INT,
    NAME,
    PLAYER,
    POOL,
    REAL,
    SERIAL,
    columns,
    text,
)

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
        for column in columns(name_key=NAME.null, password_hash=text(200).null,
                              claimed_at=BIG.null, deleted_at=BIG.null):
            batch.add_column(column)
        batch.create_index("players_by_name_key", ["name_key"], unique=True)
    op.create_table("tokens", *columns(token_hash=NAME.key, player_id=PLAYER, created_at=BIG))
    op.create_index("ix_tokens_player_id", "tokens", ["player_id"])
    op.execute("INSERT INTO tokens (token_hash, player_id, created_at) "
               "SELECT token_hash, player_id, created_at FROM tokens_0002")
    op.drop_table("tokens_0002")

    # Added columns need no batch mode (SQLite's ADD COLUMN does them, no table is copied).
    for column in columns(rated=FLAG_OFF, abandoned=DATA.null, stats=DATA.null):
        op.add_column("matches", column)
    for name in ("place", "played", "wrong", "late", "reaction_ms", "rounds"):
        op.add_column("match_players", INT.null.column(name))
    _places_from_results()

    op.create_table(
        "ratings",
        *columns(player_id=PLAYER.key, game=GAME.key, pool=POOL.key, mu=REAL, sigma=REAL,
                 matches=INT, last_at=BIG, listed=FLAG_OFF),
    )
    op.create_index("ratings_board", "ratings",
                    ["game", "pool", "listed", "mu", "player_id", "matches", "last_at", "sigma"])
    op.create_table(
        "rating_changes",
        *columns(seq=SERIAL, match_id=ID.to("matches.id"), player_id=PLAYER, game=GAME,
                 pool=POOL, seat=INT, place=INT, mu_before=REAL, sigma_before=REAL,
                 mu_after=REAL, sigma_after=REAL, at=BIG),
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
