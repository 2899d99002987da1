"""Storage: players and their tokens, matches as they are played (every action as it arrives),
results, logs, and ratings with every change that made them.

SQLite (WAL mode) by default, any SQLAlchemy URL (PostgreSQL) when one is given; the schema is
migrated with Alembic when a store is opened (``zackzack.store.migrations``). One module per
thing stored, each with its queries and records (``players``, ``ratings``, ``matches``,
``profiles``), all of them one ``Store`` (``db``).
"""

from zackzack.ratings import RatingChange
from zackzack.store.connecting import (
    StoreError,
    create_default_folder,
    database_url,
    default_database,
    shown,
)
from zackzack.store.db import Store, open_store
from zackzack.store.matches import (
    ActionRow,
    Fenced,
    MatchRecord,
    MatchStart,
    RatedMatch,
    RoundRecord,
    SeatRecord,
    Status,
)
from zackzack.store.migrate import alembic_config, head_revision
from zackzack.store.players import NameTaken, PlayerRecord
from zackzack.store.profiles import GameStats, HistoryPoint, Profile, RecentMatch
from zackzack.store.ratings import BoardRow, RatingRow, StoredChange

__all__ = ["ActionRow", "BoardRow", "Fenced", "GameStats", "HistoryPoint", "MatchRecord",
           "MatchStart", "NameTaken", "PlayerRecord", "Profile", "RatedMatch", "RatingChange",
           "RatingRow", "RecentMatch", "RoundRecord", "SeatRecord", "Status", "Store",
           "StoreError", "StoredChange", "alembic_config", "create_default_folder", "database_url",
           "default_database", "head_revision", "open_store", "shown"]
