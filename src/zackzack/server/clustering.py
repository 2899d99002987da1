"""How a process joins a cluster (``zackzack serve --redis … --public-url …``): its
configuration, and the error when it cannot. Every server imports this; the cluster itself
(:mod:`zackzack.server.cluster`, with Redis's client) only a server that joins one, so a
server alone starts without loading Redis's client (``docs/operations.md``, *Load*)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit


class ClusterError(Exception):
    """The cluster cannot be joined; the message is one line that says why."""


def shown_redis(url: str) -> str:
    """A Redis URL without its password, to be shown.

    >>> shown_redis("redis://:secret@cache.example:6380/2")
    'redis://cache.example:6380/2'
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


@dataclass(frozen=True, slots=True)
class ClusterConfig:
    """How a process joins a cluster (``zackzack serve --redis … --public-url …``)."""

    redis: str
    """The Redis URL (``redis://host:6379/0``)."""
    public_url: str
    """This process's own address (``http://10.0.0.5:8001``): clients sent here use it."""
    lease: float = 10.0
    """Seconds a process's hold on its tables lasts without renewal: a dead process's tables
    are taken over this long after it died (plus a third of it at most)."""
    prefix: str = "zackzack"
    """The prefix of every Redis key and channel (several clusters can share one Redis)."""
