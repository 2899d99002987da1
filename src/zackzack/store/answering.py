"""A PostgreSQL connection that gives up when the server does not answer (issue 26).

A database that is gone without closing its connections (a network partition, a proxy that
stops forwarding) answers nothing: psycopg would wait for ever, and the server's writes run on
its event loop. The connections of a store with ``Store.answer_within`` set are of the class
``answering`` makes: any wait for the server (a statement, its results, a COMMIT, a ping) that
takes longer closes the connection and raises ``psycopg.OperationalError`` marked as unanswered
(``unanswered``); SQLAlchemy then drops the connection as it does one the server closed.
Connecting is bounded by ``connect_timeout`` as before.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any


def unanswered(error: BaseException) -> bool:
    """Whether ``error`` (or the driver's error it wraps) is a wait that got no answer: trying
    again at once would wait as long once more."""
    return bool(getattr(getattr(error, "orig", None) or error, "unanswered", False))


@functools.cache
def answering() -> type[Any]:
    """psycopg 3's ``Connection`` whose waits end after ``bound()`` seconds (``None``: never);
    the class is made when first needed (psycopg is optional)."""
    import psycopg  # (the ``postgres`` extra)
    from psycopg import errors

    class Answering(psycopg.Connection[Any]):
        bound: Callable[[], float | None] = staticmethod(lambda: None)

        def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
            limit = self.bound() if timeout is None else None
            try:
                return super().wait(gen, interval, timeout if limit is None else limit)
            except errors._WaitTimeout:
                if limit is None:  # psycopg's own timeout: its own business
                    raise
                self.close()  # mid-message: the connection cannot be used again
                error = psycopg.OperationalError(
                    f"the database did not answer within {limit:g} s")
                error.unanswered = True  # type: ignore[attr-defined]
                raise error from None

    return Answering
