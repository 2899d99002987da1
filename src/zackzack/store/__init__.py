"""Storage: players and their tokens, matches as they are played (every action as it arrives),
results, logs, and ratings with every change that made them.

SQLite (WAL mode) by default, any SQLAlchemy URL (PostgreSQL) when one is given; the schema is
migrated with Alembic when a store is opened (``zackzack.store.migrations``).
"""

from zackzack.ratings import RatingChange
from zackzack.store.db import (
    ActionRow,
    BoardRow,
    Fenced,
    GameStats,
    HistoryPoint,
    MatchRecord,
    MatchStart,
    NameTaken,
    PlayerRecord,
    Profile,
    RatedMatch,
    RatingRow,
    RecentMatch,
    RoundRecord,
    SeatRecord,
    Status,
    Store,
    StoredChange,
    StoreError,
    alembic_config,
    create_default_folder,
    database_url,
    default_database,
    head_revision,
    open_store,
    shown,
)

__all__ = ["ActionRow", "BoardRow", "Fenced", "GameStats", "HistoryPoint", "MatchRecord",
           "MatchStart", "NameTaken", "PlayerRecord", "Profile", "RatedMatch", "RatingChange",
           "RatingRow", "RecentMatch", "RoundRecord", "SeatRecord", "Status", "Store",
           "StoreError", "StoredChange", "alembic_config", "create_default_folder", "database_url",
           "default_database", "head_revision", "open_store", "shown"]
