"""The ASGI app: the web client, the JSON API and the websocket ``/ws``, around one lobby.

>>> app = create_app(Config(db="sqlite:///:memory:"))
>>> sorted(route.path for route in app.routes if hasattr(route, "path"))[:4]
['/', '/api/account', '/api/account/claim', '/api/account/delete']
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import threading
import traceback
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

import zackzack
from zackzack.engine.table import LIVE, Settings
from zackzack.server import accounts, api, arena_api, memory, moderating, standings
from zackzack.server.clustering import ClusterConfig
from zackzack.server.connection import Connection
from zackzack.server.guard import Trusted, trusted
from zackzack.server.identity import Identities
from zackzack.server.journal import Journal
from zackzack.server.limits import Limits, client_key
from zackzack.server.lobby import Lobby, Timing
from zackzack.server.logs import event
from zackzack.server.protocol import Notice, encode
from zackzack.server.replays import ReplayCache
from zackzack.server.room import BotMaker, Room
from zackzack.server.session import Session
from zackzack.server.standins import RUNNING
from zackzack.server.transport import round_trip
from zackzack.server.webpage import Static, VersionedStatic, WebClient
from zackzack.store import Store, create_default_folder, database_url, open_store
from zackzack.store.connecting import ANSWER_WITHIN
from zackzack.words import browser_json

if TYPE_CHECKING:
    from zackzack.server.sharedlimits import SharedLimits

log = logging.getLogger(__name__)

WEB_DIR = Path(zackzack.__file__).parent / "web"
"""The browser client, shipped inside the package."""
CHECKPOINT_EVERY = 1.0
"""Seconds between two checkpoints of SQLite's write-ahead log (in a worker thread)."""
RESTARTING = 1012
"""The websocket close code when the server stops (RFC 6455: service restart); clients
reconnect as after any close."""
RESTARTING_REASON = "server restarting"
DRAIN_SECONDS = 2.0
"""At a stop: how long the websockets get to close before uvicorn cuts them off."""
DEFAULT_PORTS = {"http": 80, "https": 443}
NO_HELLO = 4004
"""The websocket close code for a connection that did not say hello in time
(``Limits.hello_seconds``)."""


@dataclass(frozen=True, slots=True)
class Config:
    """How a server runs; the defaults are the live ones."""

    db: str | None = None
    """A SQLAlchemy URL or an SQLite file; ``None``: the user's data directory."""
    public_urls: tuple[str, ...] = ()
    """Where people reach this server (``https://cards.example.org``): pages of these origins
    may open the websocket, and table links use the first one unless the page says better."""
    allow_origins: tuple[str, ...] = ()
    """Other origins whose pages may open the websocket (``https://friend.example``)."""
    forwarded_allow_ips: tuple[str, ...] = ()
    """Proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed (addresses or
    networks, ``*`` for any); none by default, so nobody can claim another address."""
    settings: Settings = LIVE
    limits: Limits = field(default_factory=Limits)
    timing: Timing = field(default_factory=Timing)
    web_dir: Path = WEB_DIR
    tidy_memory: bool = False
    """Freeze long-lived objects for the garbage collector (``server.memory``): short pauses."""
    cluster: ClusterConfig | None = None
    """Join a cluster of processes over Redis (``server/cluster.py``); ``None``: alone."""


@dataclass(slots=True)
class Server:
    """Everything one running server holds."""

    config: Config
    store: Store
    identities: Identities
    lobby: Lobby
    connections: set[Connection] = field(default_factory=set)
    per_ip: dict[str, int] = field(default_factory=dict)
    stopping: bool = False
    """The server is stopping: no new websocket is taken."""
    hashing: accounts.Hashing = field(default_factory=accounts.Hashing)
    """Password work, a few at a time (``server/accounts.py``)."""
    replays: ReplayCache = field(default_factory=ReplayCache)
    """Replays of finished matches, built one at a time and kept (``server/replays.py``)."""
    shared_limits: SharedLimits | None = None
    """In a cluster: the limits counted for the whole cluster (``server/sharedlimits.py``)."""

    @property
    def origins(self) -> frozenset[str]:
        """The origins named by ``--public-url`` and ``--allow-origin``, as browsers write them."""
        others = self.lobby.cluster.origins() if self.lobby.cluster is not None else []
        named = (origin_of(url) for url in (*self.config.public_urls, *self.config.allow_origins,
                                            *others))
        return frozenset(origin for origin in named if origin is not None)

    @property
    def proxies(self) -> Trusted:
        """The proxies whose forwarded headers (and round trips) are believed."""
        return trusted(*self.config.forwarded_allow_ips)


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of an http(s) URL as a browser writes it in ``Origin`` (lower
    case, no default port); ``None`` for anything else.

    >>> origin_of("https://Cards.Example.org:443/t/K7M2QX")
    'https://cards.example.org'
    >>> origin_of("http://[::1]:8000"), origin_of("null"), origin_of("ftp://example.org")
    ('http://[::1]:8000', None, None)
    """
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), parts.hostname
    if scheme not in DEFAULT_PORTS or not host:
        return None
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}" if port in (None, DEFAULT_PORTS[scheme]) \
        else f"{scheme}://{shown}:{port}"


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``host`` as an IP address (an IPv4 address mapped into IPv6 as IPv4), or ``None``."""
    try:
        found = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


def origin_allowed(origin: str | None, named: frozenset[str],
                   local: tuple[str, int] | None) -> bool:
    """Whether a page of ``origin`` may open the websocket. Yes for: no ``Origin`` (not a
    browser); an origin named by ``--public-url`` or ``--allow-origin``; a loopback origin
    (``localhost``, ``127.0.0.1``, ``[::1]``, any port: only a page on the player's own computer
    has one); and this server's own address and port written as an IP address (``local``: the
    address the connection really reached, so ``http://192.168.1.5:8000`` works on a LAN with
    no configuration). Never the ``Host`` header: a DNS rebinding page sends its own name in
    both ``Host`` and ``Origin``.

    >>> named = frozenset({"https://cards.example.org"})
    >>> origin_allowed("https://cards.example.org", named, ("127.0.0.1", 8000))
    True
    >>> origin_allowed("http://evil.example:8000", named, ("127.0.0.1", 8000))
    False
    >>> origin_allowed("http://localhost:5173", frozenset(), None)
    True
    >>> origin_allowed("http://192.168.1.5:8000", frozenset(), ("192.168.1.5", 8000))
    True
    >>> origin_allowed("http://192.168.1.5:8080", frozenset(), ("192.168.1.5", 8000))
    False
    """
    if origin is None:
        return True
    found = origin_of(origin)
    if found is None:
        return False
    if found in named:
        return True
    parts = urlsplit(found)
    host = parts.hostname or ""
    address = _address(host)
    if host == "localhost" or (address is not None and address.is_loopback):
        return True
    if address is None or local is None:
        return False
    port = parts.port or DEFAULT_PORTS[parts.scheme]
    return address == _address(str(local[0])) and port == local[1]


def link_origin(websocket: WebSocket, config: Config) -> str:
    """``http(s)://host[:port]`` for table links: the page's own origin (it was allowed), else
    the first ``--public-url``, else the address the client used (a client without pages)."""
    page = origin_of(websocket.headers.get("origin") or "")
    if page is not None:
        return page
    public = next(filter(None, map(origin_of, config.public_urls)), None)
    if public is not None:
        return public
    scheme = "https" if websocket.url.scheme == "wss" else "http"
    return f"{scheme}://{websocket.headers.get('host') or websocket.url.netloc}"


async def serve_websocket(websocket: WebSocket) -> None:
    """``/ws``: one connection, from hello to goodbye."""
    server: Server = websocket.app.state.server
    limits = server.config.limits
    host = websocket.client.host if websocket.client else ""
    ip = client_key(host)  # counted per address, an IPv6 address per /64
    peer = f"{host}:{websocket.client.port}" if websocket.client else ""
    if server.stopping:
        await websocket.close(code=RESTARTING, reason=RESTARTING_REASON)
        return
    origin = websocket.headers.get("origin")
    if not origin_allowed(origin, server.origins, websocket.scope.get("server")):
        hint = {} if server.config.public_urls else {
            "hint": "no --public-url is set: pages opened by a name need one"}
        event("connection_refused", peer=peer, reason="origin", origin=(origin or "")[:100],
              **hint)
        await websocket.close(code=1008)
        return
    if 0 < limits.connections_per_ip <= server.per_ip.get(ip, 0):
        event("connection_refused", peer=peer, reason="too_many_connections")
        await websocket.close(code=1008)
        return
    shared = server.shared_limits  # in a cluster: its websockets from the address too
    if shared is not None and not await shared.connect(ip):
        event("connection_refused", peer=peer, reason="too_many_connections", cluster=True)
        await websocket.close(code=1008)
        return
    origin = link_origin(websocket, server.config)
    loop = asyncio.get_running_loop()
    rtt = round_trip(websocket.scope, server.proxies)
    # read for the last time: a connection lives for hours, and its headers would as long
    websocket.scope["headers"] = []
    vars(websocket).pop("_headers", None)

    def session(connection: Connection) -> Session:
        return Session(server.lobby, server.identities, origin, connection.send,
                       connection.restart, rtt, connection.notice)

    connection = Connection(websocket, session, limits, loop,
                            before_send=server.lobby.journal.flush, peer=peer)
    server.connections.add(connection)
    server.per_ip[ip] = server.per_ip.get(ip, 0) + 1
    deadline = None if limits.hello_seconds <= 0 else loop.call_later(
        limits.hello_seconds, partial(_no_hello, connection))
    if server.lobby.journal.behind:  # nothing else reaches it until the store caught up
        connection.notice(store_notice(server.lobby.journal))
    try:
        await connection.serve()
    finally:
        if deadline is not None:
            deadline.cancel()
        server.connections.discard(connection)
        left = server.per_ip.pop(ip, 1) - 1
        if left:
            server.per_ip[ip] = left
        if shared is not None:
            shared.disconnect(ip)


async def _websocket(scope: Scope, receive: Receive, send: Send) -> None:
    await serve_websocket(WebSocket(scope, receive=receive, send=send))


class App(Starlette):
    """Starlette, with ``/ws`` taken straight to ``serve_websocket``: a websocket lives for
    hours, and the frames of the router, the middlewares and the exception handlers it would
    pass through would live as long (5 KiB a connection, ``docs/operations.md``, *Load*).
    Forwarded headers count for it as for the pages (``proxies``: the trusted ones)."""

    def __init__(self, proxies: list[str], **options: Any) -> None:
        super().__init__(**options)
        self.websocket: ASGIApp = _websocket
        if proxies:  # (uvicorn types ASGI apps its own way)
            proxied: Any = ProxyHeadersMiddleware(cast(Any, _websocket), trusted_hosts=proxies)
            self.websocket = proxied

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == "/ws":
            scope["app"] = self
            await self.websocket(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)


def _no_hello(connection: Connection) -> None:
    """``Limits.hello_seconds`` after it opened: close the connection unless it said hello
    (a socket that never does would hold a file descriptor for ever)."""
    if connection.session.known_player is None:
        event("client_closed", peer=connection.peer, reason="no_hello", code=NO_HELLO)
        connection.close(NO_HELLO, "say hello first")


def store_notice(journal: Journal) -> str:
    """The ``notice`` of whether the store is behind (``protocol.Notice``)."""
    if journal.behind_wall is None:
        return encode(Notice(code="store_back"))
    return encode(Notice(code="store_unavailable", since=int(journal.behind_wall * 1000)))


def _tell_store(server: Server, _behind: bool) -> None:
    """Tell every connection whether the store is behind (ahead of what waits for it)."""
    text = store_notice(server.lobby.journal)
    for connection in list(server.connections):
        connection.notice(text)


def _table_of(error: BaseException | None, lobby: Lobby) -> str | None:
    """The code of the table whose call raised ``error``, if a room or table is among the
    frames of its traceback."""
    tables = {id(room.table): room.code for room in lobby.rooms.values()}
    trace = error.__traceback__ if error is not None else None
    found = None
    while trace is not None:
        owner = trace.tb_frame.f_locals.get("self")
        code = tables.get(id(owner)) or (owner.code if isinstance(owner, Room) else None)
        found = code or found
        trace = trace.tb_next
    return found


def loop_errors(lobby: Lobby) -> Callable[[asyncio.AbstractEventLoop, dict[str, Any]], None]:
    """The event loop's exception handler: an exception in a callback or timer (or a task
    nobody awaited) is one JSON line, ``loop_error``, with the table and the reason, never a
    plain traceback."""

    def handle(_loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        reason = context.get("message") or "unexpected error"
        if isinstance(error, BaseException):
            reason = f"{reason}: {type(error).__name__}: {' '.join(str(error).split())}"[:500]
        event("loop_error", logging.ERROR, code=_table_of(error, lobby), reason=reason,
              where=str(context.get("handle") or context.get("task") or "")[:200],
              trace=None if not isinstance(error, BaseException) else "".join(
                  traceback.format_exception(error))[-4000:])

    return handle


async def index(request: Request) -> Response:
    """The single-page client for ``/``, ``/t/{code}``, ``/matches``, ``/matches/{id}``,
    ``/rules/{game}``, ``/learn/{game}``, ``/leaderboard[/{game}]``, ``/players/{name}`` and
    ``/moderation``."""
    client: WebClient = request.app.state.web  # modules preloaded, files versioned (webpage)
    page = client.current()
    if page is None:
        return PlainTextResponse("The web client is not installed (src/zackzack/web).", 503)
    headers = {"Cache-Control": "no-cache", "ETag": page.etag}
    if request.headers.get("if-none-match") == page.etag:
        return Response(status_code=304, headers=headers)
    return Response(page.html, headers=headers, media_type="text/html")


async def words(request: Request) -> Response:
    """``/words.json``: the catalogue's words for the browser, both languages
    (``zackzack.words``; revalidated by ``ETag``, as the page is)."""
    body, etag = browser_json()
    headers = {"Cache-Control": "no-cache", "ETag": etag}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, headers=headers, media_type="application/json")


async def _count(lobby: Lobby, every: float = 10.0) -> None:
    """Show the lobby a new number of people online (at most every ``every`` seconds: it
    costs the whole list to every reader; the list's own changes carry it sooner)."""
    while True:
        await asyncio.sleep(every)
        lobby.recount()


async def _sweep(lobby: Lobby, identities: Identities, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        try:
            identities.prune()
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


@contextlib.asynccontextmanager
async def running(app: Starlette, config: Config, *, bots: BotMaker | None = None,
                  store: Store | None = None) -> AsyncIterator[Server]:
    """The server's life around ``app``: open the store (unless given: then it stays open),
    restore the unfinished matches, tidy up in the background; at the end stop the bots,
    commit the journal and close what it opened. The app's lifespan; ``zackzack serve``
    enters it itself, so that a failure to start is one line and not uvicorn's traceback."""
    if store is None and config.db is None:
        create_default_folder()
    own = store or open_store(database_url(config.db))
    if config.cluster is None:
        cluster = None
    else:  # (Redis's client is loaded by a server that joins a cluster only)
        from zackzack.server.cluster import Cluster
        from zackzack.server.sharedlimits import SharedLimits

        cluster = Cluster(config.cluster)
    try:
        loop = asyncio.get_running_loop()
        lobby = Lobby(clock=loop if cluster is None else cluster.clock(loop), store=own,
                      bots=bots or default_bots(), settings=config.settings,
                      timing=config.timing, limits=config.limits, cluster=cluster)
        identities = Identities(own, config.limits.connections_per_player, config.limits,
                                cache_tokens=cluster is None)
        lobby.players, lobby.online = identities.known, lambda: len(identities.online)
        identities.playing = lobby.playing
        lobby.marks = identities.marks
        lobby.online_players = lambda: [player.id for player in identities.online]
        server = app.state.server = Server(config, own, identities, lobby)
        lobby.on_store = partial(_tell_store, server)
        own.answer_within = ANSWER_WITHIN  # a database that answers nothing: not the loop's
        lobby.journal.probe = own.probe  # (while behind: asked in a worker thread)
        loop.set_exception_handler(loop_errors(lobby))
        if cluster is None:
            lobby.restore(identities.known)
            lobby.arenas.start()
        else:  # the tables nobody owns are taken over by the cluster, one by one
            cluster.on_revoked = lambda gone: accounts.revoked(server, gone.tokens, gone.player)
            await cluster.start(lobby)
            shared = server.shared_limits = lobby.shared_limits = SharedLimits(cluster,
                                                                               config.limits)
            shared.per_ip = lambda: server.per_ip
            await shared.start()
        tasks = [asyncio.create_task(_sweep(lobby, identities, config.timing.sweep_every)),
                 asyncio.create_task(_count(lobby)),
                 asyncio.create_task(_checkpoint(own, CHECKPOINT_EVERY))]
        if config.tidy_memory:
            tasks.append(asyncio.create_task(memory.tidy()))
        try:
            yield server
        finally:
            for task in tasks:
                task.cancel()
            lobby.shutdown()
            if server.shared_limits is not None:
                await server.shared_limits.stop()
            if cluster is not None:
                await cluster.stop()
    finally:
        if store is None:
            own.close()


async def halt(app: Starlette, drain: float = DRAIN_SECONDS) -> None:
    """Stop like Ctrl-C or SIGTERM (the listening socket is already closed): take no new
    websocket, stop the bots, pause every running table (nothing changes any more), commit
    the journal, and close every websocket with 1012 "server restarting"; wait up to
    ``drain`` seconds for them to go. Running matches stay ``playing`` in the store: the next
    start restores them, paused where they stopped."""
    server: Server = app.state.server
    server.stopping = True
    for room in list(server.lobby.rooms.values()):
        try:
            room.stop_bots()
            if room.phase in RUNNING and not room.closed:
                room.table.pause()
        except Exception:  # one bad room must not keep the others from stopping cleanly
            log.exception("stopping table %s failed", room.code)
    server.lobby.journal.flush()
    for connection in list(server.connections):
        connection.close(RESTARTING, RESTARTING_REASON)
    deadline = asyncio.get_running_loop().time() + drain
    while server.connections and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.02)
    server.lobby.journal.flush()


def create_app(config: Config = Config(), *, bots: BotMaker | None = None,
               store: Store | None = None) -> Starlette:
    """The server as an ASGI app; it opens the store when it starts and closes it at the end
    (``running``). Forwarded headers are believed from ``config.forwarded_allow_ips`` only,
    whatever the ASGI server does (``zackzack serve`` turns uvicorn's own handling off)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with running(app, config, bots=bots, store=store):
            yield

    web = WebClient(config.web_dir)
    routes = [
        Route("/", index),
        Route("/t/{code}", index),
        Route("/matches", index),
        Route("/matches/{id}", index),
        Route("/rules/{game}", index),
        Route("/learn/{game}", index),
        Route("/leaderboard", index),
        Route("/leaderboard/{game}", index),
        Route("/players/{name}", index),
        Route("/moderation", index),
        Route("/arenas/{id}", index),
        Route("/words.json", words),
        *api.routes,
        *arena_api.routes,
        *accounts.routes,
        *standings.routes,
        *moderating.routes,
        Mount("/static/v", VersionedStatic(web)),
        Mount("/static", Static(directory=config.web_dir, check_dir=False), name="static"),
    ]
    middleware = [Middleware(GZipMiddleware, minimum_size=1024)]
    if config.forwarded_allow_ips:
        middleware.insert(0, Middleware(ProxyHeadersMiddleware,
                                        trusted_hosts=list(config.forwarded_allow_ips)))
    app = App(list(config.forwarded_allow_ips), routes=routes, lifespan=lifespan,
              middleware=middleware)
    app.state.web = web
    return app
