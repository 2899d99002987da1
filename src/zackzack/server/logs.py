"""Structured logs: one JSON line per event that matters (never a token, never a hand).

>>> import io, logging
>>> stream = io.StringIO()
>>> handler = json_handler(stream)
>>> EVENTS.addHandler(handler)
>>> event("table_created", code="K7M2QX", game="schnelllauf")
>>> EVENTS.removeHandler(handler)
>>> line = json.loads(stream.getvalue())
>>> line["event"], line["code"], line["game"]
('table_created', 'K7M2QX', 'schnelllauf')
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import IO, Any

EVENTS = logging.getLogger("zackzack.events")
EVENTS.setLevel(logging.INFO)


def event(name: str, level: int = logging.INFO, /, **fields: Any) -> None:
    """Log the event ``name`` with ``fields`` (plain JSON values) as one line (``level``:
    ``logging.ERROR`` for what an operator should be alerted to)."""
    if EVENTS.isEnabledFor(level):
        EVENTS.log(level, name, extra={"fields": fields})


class JsonLines(logging.Formatter):
    """Each record as one JSON object: time, level, event (or message) and its fields."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a JSON line."""
        data: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
        }
        if record.name == EVENTS.name:
            data["event"] = record.getMessage()
            data.update(getattr(record, "fields", {}))
        else:
            data["logger"], data["message"] = record.name, record.getMessage()
            if record.exc_info:
                data["error"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False, default=str)


def json_handler(stream: IO[str] | None = None) -> logging.Handler:
    """A handler writing JSON lines to ``stream`` (standard error by default)."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonLines())
    return handler


class ClientFrameErrors(logging.Filter):
    """uvicorn logs a text frame that is not UTF-8 (a client's fault, answered by closing
    with 1007) as an error with its traceback: one ``client_closed`` line instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is logged as it is (not: it was logged as an event)."""
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, UnicodeDecodeError):
            event("client_closed", logging.WARNING, reason="bad_utf8", code=1007)
            return False
        return True


def setup(stream: IO[str] | None = None) -> None:
    """Send the server's own logs (``zackzack.*``), and uvicorn's and asyncio's warnings and
    errors, as JSON lines to ``stream``, once."""
    root = logging.getLogger("zackzack")
    if not any(isinstance(h.formatter, JsonLines) for h in root.handlers):
        root.addHandler(json_handler(stream))
        root.setLevel(logging.INFO)
        root.propagate = False
    for name in ("uvicorn", "asyncio"):  # their errors (a bad frame, a lost task) too
        other = logging.getLogger(name)
        if not any(isinstance(h.formatter, JsonLines) for h in other.handlers):
            other.addHandler(json_handler(stream))
            other.setLevel(logging.WARNING)
            other.propagate = False
    uvicorn_errors = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, ClientFrameErrors) for f in uvicorn_errors.filters):
        uvicorn_errors.addFilter(ClientFrameErrors())
