"""``zackzack serve``: run the server (web client, API, websocket) and print its address.

This module is what ``zackzack serve --help`` imports: the arguments and their checks only;
the server itself (uvicorn, the app, the database) is :mod:`zackzack.server.serve`, imported
when the command runs.
"""

from __future__ import annotations

import argparse
import dataclasses
import signal
import sys
from types import FrameType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from zackzack.server.clustering import ClusterConfig
    from zackzack.server.guard import HttpLimits
    from zackzack.server.limits import Limits

STARTUP_FAILED = 1
"""The exit code when the server cannot start (the database, the address); wrong arguments
exit with 2."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``serve`` command's arguments."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (0.0.0.0: every network; default: this "
                             "computer only)")
    parser.add_argument("--port", type=int, default=8000, help="default 8000; 0: any free port")
    parser.add_argument("--db", metavar="PATH_OR_URL",
                        help="an SQLite file (its folder must exist) or a database URL "
                             "(postgresql://…); default: zackzack.db in your data directory")
    for flag, metavar, what in (
            ("--public-url", "URL", "the address people open (https://cards.example.org): its "
             "pages may open the websocket and table links use it"),
            ("--allow-origin", "ORIGIN", "also accept websockets from pages of ORIGIN "
             "(https://example.org)"),
            ("--forwarded-allow-ips", "IPS", "believe X-Forwarded-For/-Proto from these proxies "
             "(addresses or networks, comma-separated, '*' for any; default: from nobody)"),
            ("--limit", "NAME=VALUE", "change one limit per connection or client, e.g. "
             "connections_per_ip=256 (docs/operations.md lists them)")):
        parser.add_argument(flag, action="append", default=[], metavar=metavar,
                            help=f"{what}; repeatable")
    parser.add_argument("--redis", metavar="URL",
                        help="join a cluster of servers sharing this Redis "
                             "(redis://HOST:6379/0) and one database (--db postgresql://…); "
                             "needs --public-url: this server's own address")
    parser.add_argument("--lease", type=float, default=10.0, metavar="SECONDS",
                        help="in a cluster: a dead server's tables are taken over this long "
                             "after it died (default 10)")
    parser.add_argument("--open", action="store_true",
                        help="open the lobby in your web browser once the server listens")
    parser.add_argument("--ws-deflate", action="store_true",
                        help="compress websocket messages for clients that offer it "
                             "(less traffic; ~45 KiB more memory and more CPU per connection)")


def parse_limits(pairs: list[str]) -> tuple[Limits, HttpLimits]:
    """``Limits`` and ``HttpLimits`` with the ``NAME=VALUE`` changes of ``--limit``.

    >>> limits, http = parse_limits(["rate=5", "connections_per_ip=0", "request_seconds=2.5"])
    >>> limits.rate, limits.connections_per_ip, http.request_seconds
    (5.0, 0, 2.5)
    >>> parse_limits(["speed=5"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: --limit speed: no such limit; the limits are rate, burst, ..., request_seconds, \
http_connections_per_ip
    """
    from zackzack.server.guard import HttpLimits
    from zackzack.server.limits import Limits

    kinds: list[Any] = [Limits(), HttpLimits()]
    changes: list[dict[str, Any]] = [{}, {}]
    names = [name for kind in kinds for name in kind.__dataclass_fields__]
    for pair in pairs:
        name, _, text = pair.partition("=")
        index = next((i for i, kind in enumerate(kinds)
                      if name in kind.__dataclass_fields__), None)
        if index is None:
            raise ValueError(f"--limit {name}: no such limit; the limits are "
                             + ", ".join(names))
        kind = type(getattr(kinds[index], name))
        try:
            value = kind(text)
        except ValueError:
            raise ValueError(f"--limit {name}: {text!r} is not a {kind.__name__}") from None
        if value < 0:
            raise ValueError(f"--limit {name}: {text!r} is negative")
        changes[index][name] = value
    return (dataclasses.replace(kinds[0], **changes[0]),
            dataclasses.replace(kinds[1], **changes[1]))


def public_urls(urls: list[str], option: str = "--public-url") -> tuple[str, ...]:
    """The ``http(s)://host[:port]`` of each URL; anything else is a ``ValueError``.

    >>> public_urls(["https://Cards.example.org/", "http://192.168.1.5:8000"])
    ('https://cards.example.org', 'http://192.168.1.5:8000')
    >>> public_urls(["cards.example.org"])
    Traceback (most recent call last):
    ...
    ValueError: --public-url cards.example.org: not an http:// or https:// URL with a host
    """
    from zackzack.server.app import origin_of

    found = []
    for url in urls:
        origin = origin_of(url)
        if origin is None:
            raise ValueError(f"{option} {url}: not an http:// or https:// URL with a host")
        found.append(origin)
    return tuple(found)


def cluster_config(redis: str | None, urls: list[str],
                   lease: float) -> ClusterConfig | None:
    """How to join the cluster of ``--redis`` (``None``: no cluster) as the process at the
    first of ``urls`` (checked already: ``public_urls``; a path names one process behind a
    shared name); a ``ValueError`` says what is wrong.

    >>> found = cluster_config("redis://127.0.0.1:6379/0", ["https://cards.example.org/n1/"], 10)
    >>> found.public_url if found else None
    'https://cards.example.org/n1'
    >>> cluster_config("redis://127.0.0.1:6379/0", [], 10)
    Traceback (most recent call last):
    ...
    ValueError: --redis needs --public-url: the address other servers send players to
    """
    from zackzack.server.clustering import ClusterConfig, shown_redis

    if redis is None:
        return None
    if urlsplit(redis).scheme not in ("redis", "rediss", "unix"):
        raise ValueError(f"--redis {shown_redis(redis)}: not a redis://, rediss:// or unix:// URL")
    if not urls:
        raise ValueError("--redis needs --public-url: the address other servers send players to")
    if not 0 < lease <= 3600:
        raise ValueError(f"--lease must be more than 0 and at most 3600 seconds, not {lease}")
    return ClusterConfig(redis=redis, public_url=urls[0].rstrip("/"), lease=lease)


def shared_store(redis: str | None, db: str | None) -> None:
    """A cluster needs a database all its processes share: an SQLite file is not one (after
    a process died, its tables could not be taken over); a ``ValueError`` says so.

    >>> shared_store("redis://127.0.0.1:6379/0", "postgresql://db/zackzack")
    >>> shared_store(None, "z.db")
    >>> shared_store("redis://127.0.0.1:6379/0", "z.db")
    Traceback (most recent call last):
    ...
    ValueError: --redis needs a database all servers share (--db postgresql://…), not SQLite
    """
    from zackzack.store import database_url

    if redis is not None and database_url(db).startswith("sqlite"):
        raise ValueError("--redis needs a database all servers share (--db postgresql://…), "
                         "not SQLite")


def run(args: argparse.Namespace) -> int:
    """Check the arguments, bind the address, open and check the database, restore the
    unfinished matches, then print the address and serve until Ctrl-C or SIGTERM; both stop
    cleanly (``halt``), print "stopped" and exit 0. A failure to start is one line on
    standard error and exit code 1 (wrong arguments: 2)."""
    from zackzack.server.app import Config
    from zackzack.server.guard import trusted
    from zackzack.server.serve import StartupError, start

    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be 0 to 65535, not {args.port}")
    limits, http = parse_limits(args.limit)
    proxies = trusted(*args.forwarded_allow_ips)
    urls = public_urls(args.public_url)
    shared_store(args.redis, args.db)
    config = Config(db=args.db, public_urls=urls,
                    allow_origins=public_urls(args.allow_origin, "--allow-origin"),
                    forwarded_allow_ips=tuple(args.forwarded_allow_ips), limits=limits,
                    tidy_memory=True,
                    cluster=cluster_config(args.redis, args.public_url[:1], args.lease))
    previous = signal.signal(signal.SIGTERM, _interrupt)  # until the loop takes over
    try:
        return start(args, config, http, proxies)
    except StartupError as error:
        print(f"zackzack serve: error: {error}", file=sys.stderr)
        return STARTUP_FAILED
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(_signal: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt
