"""The store: every part of it in one object (``Store``), opened and checked by ``open_store``.

Each part keeps its own queries and records: ``players`` (players and their tokens),
``ratings`` (ratings, their changes, leaderboards), ``matches`` (each match written as it
happens, read back as records and logs), ``arenas`` (each arena's state), ``profiles``
(a player's page); under them
``database`` (the engine and the writer's connection), ``migrate`` (the schema's revisions)
and ``connecting`` (URLs, timeouts, the retry of a write).

>>> import tempfile, pathlib
>>> from zackzack.store import database_url
>>> store = Store(database_url(str(pathlib.Path(tempfile.mkdtemp()) / "z.db")))
>>> store.journal_mode(), store.revision()
('wal', '0005')
>>> store.close()
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import make_url

from zackzack.store.arenas import Arenas
from zackzack.store.connecting import ANSWER_WITHIN, StoreError, shown
from zackzack.store.matches import Matches, Status
from zackzack.store.players import Players
from zackzack.store.profiles import Profiles
from zackzack.store.ratings import BOARD_TOTAL_FRESH_MS, Ratings

__all__ = ["ANSWER_WITHIN", "BOARD_TOTAL_FRESH_MS", "Status", "Store", "open_store"]
"""``Store`` and ``open_store``, and the names imported from here before the store was split
by what it stores (the rest: ``zackzack.store``)."""


class Store(Players, Ratings, Matches, Profiles, Arenas):
    """Players, ratings and matches in a SQL database (SQLite in WAL mode unless the URL says
    otherwise): the parts share one engine and one writer's connection (``Database``)."""


def open_store(url: str) -> Store:
    """Open the database and check it before anything is served: its folder exists (nothing
    is created but the file itself), it is a database, it is reachable, its tables have the
    columns this version needs, and it takes writes. Any failure is a ``StoreError`` of one
    line.

    >>> open_store("sqlite:////nonexistent/folder/z.db")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    zackzack.store.connecting.StoreError: ... the folder /nonexistent/folder does not exist ...
    """
    try:
        found = make_url(url)
    except Exception as error:  # sqlalchemy's ArgumentError, or a port that is no number
        raise StoreError(f"the database URL is malformed: {_reason(error)}") from None
    where = shown(url)
    if found.get_backend_name() == "sqlite" and found.database not in (None, "", ":memory:") \
            and not str(found.database).startswith("file:"):
        path = Path(str(found.database))
        if path.is_dir():
            raise StoreError(f"cannot open the database {where}: it is a folder")
        if not path.parent.is_dir():
            raise StoreError(f"cannot open the database {where}: the folder {path.parent} "
                             "does not exist (create it first)")
    try:
        store = Store(url)
    except StoreError as error:
        raise StoreError(f"the database {where} {error}") from None
    except Exception as error:
        raise StoreError(f"cannot open the database {where}: {_reason(error)}") from None
    try:
        store.check()
    except Exception as error:
        store.dispose()
        raise StoreError(f"cannot use the database {where}: {_reason(error)}") from None
    return store


def _reason(error: BaseException) -> str:
    """What went wrong, in one line: the driver's own words if there are any."""
    if isinstance(error, ImportError):
        return f"its driver is not installed ({error.name or error}): pip install it"
    cause = getattr(error, "orig", None) or error
    text = " ".join(str(cause).split()) or type(cause).__name__
    return text[:300]

