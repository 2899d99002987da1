"""``zackzack serve``: run the server (web client, API, websocket) and print its address."""

from __future__ import annotations

import argparse
import dataclasses
import socket
import sys
import webbrowser
from typing import Any

import uvicorn

from zackzack.server import logs
from zackzack.server.app import Config, create_app
from zackzack.server.limits import Limits
from zackzack.store import database_url

HELP = "run the server: play in the browser at the address it prints"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``serve`` command's arguments."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (0.0.0.0: every network; default: this "
                             "computer only)")
    parser.add_argument("--port", type=int, default=8000, help="default 8000; 0: any free port")
    parser.add_argument("--db", metavar="PATH_OR_URL",
                        help="an SQLite file or a database URL (postgresql://…); default: "
                             "zackzack.db in your data directory")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="also accept websockets from pages of ORIGIN "
                             "(https://example.org); repeatable")
    parser.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                        help="change one limit per connection or client, e.g. "
                             "connections_per_ip=256 (docs/operations.md lists them); "
                             "repeatable")
    parser.add_argument("--open", action="store_true",
                        help="open the lobby in your web browser once the server listens")


def parse_limits(pairs: list[str]) -> Limits:
    """``Limits`` with the ``NAME=VALUE`` changes of ``--limit``.

    >>> parse_limits(["rate=5", "connections_per_ip=0"]).rate
    5.0
    >>> parse_limits(["speed=5"])
    Traceback (most recent call last):
    ...
    ValueError: --limit speed: no such limit; the limits are rate, burst, refused_to_close, \
backlog, stuck_seconds, frame_bytes, connections_per_ip, connections_per_player, tables_per_player
    """
    defaults = Limits()
    changes: dict[str, Any] = {}
    for pair in pairs:
        name, _, text = pair.partition("=")
        if name not in Limits.__dataclass_fields__:
            raise ValueError(f"--limit {name}: no such limit; the limits are "
                             + ", ".join(Limits.__dataclass_fields__))
        kind = type(getattr(defaults, name))
        try:
            changes[name] = kind(text)
        except ValueError:
            raise ValueError(f"--limit {name}: {text!r} is not a {kind.__name__}") from None
    return dataclasses.replace(defaults, **changes)


def run(args: argparse.Namespace) -> int:
    """Bind, print the address, serve until Ctrl-C."""
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be 0 to 65535, not {args.port}")
    url = database_url(args.db)
    limits = parse_limits(args.limit)
    config = Config(db=url, allow_origins=tuple(args.allow_origin), limits=limits,
                    tidy_memory=True)
    logs.setup()
    try:
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        sock = socket.create_server((args.host, args.port), family=family)
    except OSError as error:
        raise ValueError(f"cannot listen on {args.host}:{args.port}: {error.strerror}") from None
    host, port = sock.getsockname()[:2]
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    address = f"http://{shown}:{port}/"
    print(f"zackzack: serving on {address}  (database: {_safe(url)}; Ctrl-C stops)",
          flush=True)
    if args.open and not webbrowser.open(address):
        print(f"zackzack: found no web browser to open; open {address} yourself",
              file=sys.stderr)
    server = uvicorn.Server(uvicorn.Config(
        create_app(config), log_level="warning", ws_max_size=limits.frame_bytes,
        ws_ping_interval=20, ws_ping_timeout=20, timeout_graceful_shutdown=3))
    server.run(sockets=[sock])
    print("zackzack: stopped", file=sys.stderr)
    return 0


def _safe(url: str) -> str:
    """The database URL without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
