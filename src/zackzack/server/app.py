"""The ASGI app: the web client, the JSON API and the websocket ``/ws``, around one lobby.

>>> app = create_app(Config(db="sqlite:///:memory:"))
>>> sorted(route.path for route in app.routes if hasattr(route, "path"))[:3]
['/', '/api/matches', '/api/matches/{id}']
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

import zackzack
from zackzack.server import api, memory
from zackzack.server.connection import Connection
from zackzack.server.identity import Identities
from zackzack.server.limits import Limits
from zackzack.server.lobby import Lobby, Timing
from zackzack.server.logs import event
from zackzack.server.room import BotMaker
from zackzack.server.session import Session
from zackzack.store import Store, database_url
from zackzack.table import LIVE, Settings

log = logging.getLogger(__name__)

WEB_DIR = Path(zackzack.__file__).parent / "web"
"""The browser client, shipped inside the package."""
CHECKPOINT_EVERY = 1.0
"""Seconds between two checkpoints of SQLite's write-ahead log (in a worker thread)."""


@dataclass(frozen=True, slots=True)
class Config:
    """How a server runs; the defaults are the live ones."""

    db: str | None = None
    """A SQLAlchemy URL or an SQLite file; ``None``: the user's data directory."""
    allow_origins: tuple[str, ...] = ()
    """Websocket origins allowed besides the server's own (``https://example.org``)."""
    settings: Settings = LIVE
    limits: Limits = field(default_factory=Limits)
    timing: Timing = field(default_factory=Timing)
    web_dir: Path = WEB_DIR
    tidy_memory: bool = False
    """Freeze long-lived objects for the garbage collector (``server.memory``): short pauses."""


@dataclass(slots=True)
class Server:
    """Everything one running server holds."""

    config: Config
    store: Store
    identities: Identities
    lobby: Lobby
    connections: set[Connection] = field(default_factory=set)
    per_ip: dict[str, int] = field(default_factory=dict)


def origin_allowed(websocket: WebSocket, allowed: tuple[str, ...]) -> bool:
    """Whether a websocket comes from our own pages (or an allowed origin, or no browser)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    return origin in allowed or urlsplit(origin).netloc == websocket.headers.get("host")


def own_origin(websocket: WebSocket) -> str:
    """``http(s)://host:port`` of this server as the client reached it, for table links."""
    scheme = "https" if websocket.url.scheme == "wss" else "http"
    return f"{scheme}://{websocket.headers.get('host') or websocket.url.netloc}"


async def serve_websocket(websocket: WebSocket) -> None:
    """``/ws``: one connection, from hello to goodbye."""
    server: Server = websocket.app.state.server
    limits = server.config.limits
    ip = websocket.client.host if websocket.client else ""
    peer = f"{ip}:{websocket.client.port}" if websocket.client else ""
    if not origin_allowed(websocket, server.config.allow_origins):
        event("connection_refused", peer=peer, reason="origin",
              origin=websocket.headers.get("origin", "")[:100])
        await websocket.close(code=1008)
        return
    if 0 < limits.connections_per_ip <= server.per_ip.get(ip, 0):
        event("connection_refused", peer=peer, reason="too_many_connections")
        await websocket.close(code=1008)
        return
    origin = own_origin(websocket)
    loop = asyncio.get_running_loop()

    def session(connection: Connection) -> Session:
        return Session(server.lobby, server.identities, origin, connection.send)

    connection = Connection(websocket, session, limits, loop,
                            before_send=server.lobby.journal.flush, peer=peer)
    server.connections.add(connection)
    server.per_ip[ip] = server.per_ip.get(ip, 0) + 1
    try:
        await connection.serve()
    finally:
        server.connections.discard(connection)
        left = server.per_ip.pop(ip, 1) - 1
        if left:
            server.per_ip[ip] = left


async def index(request: Request) -> Response:
    """The single-page client for ``/``, ``/t/{code}``, ``/matches`` and ``/matches/{id}``."""
    page = request.app.state.server.config.web_dir / "index.html"
    if not page.is_file():
        return PlainTextResponse("The web client is not installed (src/zackzack/web).", 503)
    return FileResponse(page, headers={"Cache-Control": "no-cache"})


async def _sweep(lobby: Lobby, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        try:
            closed = lobby.sweep()
        except Exception:  # never let one bad room stop the tidying
            log.exception("sweeping the lobby failed")
            continue
        if closed:
            event("tables_swept", codes=closed)


def _background() -> None:
    """Run this worker thread at the lowest priority: the event loop always goes first."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)


async def _checkpoint(store: Store, every: float) -> None:
    """Checkpoint the database now and then in a low-priority thread of its own (copying the
    write-ahead log takes CPU time that the tables should not wait for)."""
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(1, "zackzack-checkpoint", initializer=_background) as worker:
        while True:
            await asyncio.sleep(every)
            try:
                await loop.run_in_executor(worker, store.checkpoint)
            except Exception:
                log.exception("checkpointing the database failed")


def default_bots() -> BotMaker:
    """The real bots."""
    from zackzack.server.botmaker import Bots

    return Bots()


def create_app(config: Config = Config(), *, bots: BotMaker | None = None,
               store: Store | None = None) -> Starlette:
    """The server as an ASGI app; it opens the store when it starts and closes it at the end."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        own = store or Store(database_url(config.db))
        loop = asyncio.get_running_loop()
        lobby = Lobby(clock=loop, store=own, bots=bots or default_bots(),
                      settings=config.settings, timing=config.timing, limits=config.limits)
        identities = Identities(own, config.limits.connections_per_player)
        app.state.server = Server(config, own, identities, lobby)
        lobby.restore(identities.known)
        tasks = [asyncio.create_task(_sweep(lobby, config.timing.sweep_every)),
                 asyncio.create_task(_checkpoint(own, CHECKPOINT_EVERY))]
        if config.tidy_memory:
            tasks.append(asyncio.create_task(memory.tidy()))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            lobby.shutdown()
            if store is None:
                own.close()

    routes = [
        Route("/", index),
        Route("/t/{code}", index),
        Route("/matches", index),
        Route("/matches/{id}", index),
        *api.routes,
        WebSocketRoute("/ws", serve_websocket),
        Mount("/static", StaticFiles(directory=config.web_dir, check_dir=False), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan,
                     middleware=[Middleware(GZipMiddleware, minimum_size=1024)])
