"""Storage: players, matches as they are played (every action as it arrives), results and logs.

SQLite (WAL mode) by default, any SQLAlchemy URL (PostgreSQL) when one is given.
"""

from zackzack.store.db import (
    ActionRow,
    MatchRecord,
    MatchStart,
    PlayerRecord,
    RoundRecord,
    SeatRecord,
    Status,
    Store,
    StoreError,
    create_default_folder,
    database_url,
    default_database,
    open_store,
    shown,
)

__all__ = ["ActionRow", "MatchRecord", "MatchStart", "PlayerRecord", "RoundRecord", "SeatRecord",
           "Status", "Store", "StoreError", "create_default_folder", "database_url",
           "default_database", "open_store", "shown"]
