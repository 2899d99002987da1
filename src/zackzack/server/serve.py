"""Running ``zackzack serve``: bind, open the database, serve with uvicorn until stopped
(the arguments and their checks are :mod:`zackzack.server.cli`)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import signal
import socket
import sys
import webbrowser
from collections.abc import Callable, Iterator

import uvicorn
from starlette.applications import Starlette

from zackzack.server import logs, looplag
from zackzack.server.app import Config, create_app, halt, running
from zackzack.server.clustering import ClusterError
from zackzack.server.guard import Guard, HttpLimits, Trusted
from zackzack.server.transport import TimedWebSocketProtocol
from zackzack.store import Store, StoreError, create_default_folder, database_url, open_store, shown


class StartupError(Exception):
    """The server cannot start; the message is one line that says why."""


def start(args: argparse.Namespace, config: Config, http: HttpLimits, proxies: Trusted) -> int:
    logs.setup()
    sock = _listen(args.host, args.port)
    store: Store | None = None
    try:
        try:
            url = database_url(args.db)
            if args.db is None and (folder := create_default_folder()) is not None:
                print(f"zackzack: created {folder} for the database", file=sys.stderr)
            store = open_store(url)
        except StoreError as error:
            raise StartupError(str(error)) from None
        runner = asyncio.Runner(loop_factory=_loop_factory())
        try:
            runner.run(_serve(sock, config, http, proxies, store, args.open,
                              deflate=args.ws_deflate))
        except StartupError:
            raise
        except ClusterError as error:
            raise StartupError(str(error)) from None
        except Exception as error:  # restoring the matches failed, or the like: one line
            raise StartupError(f"{type(error).__name__}: {' '.join(str(error).split())}") \
                from None
        finally:
            runner.close()
    finally:
        sock.close()
        if store is not None:
            try:
                store.close()
            except Exception as error:  # the database went away meanwhile: say so, briefly
                print(f"zackzack: closing the database failed: {error!s:.200}", file=sys.stderr)
    print("zackzack: stopped", file=sys.stderr)
    return 0


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket (bound before the database is touched: a second server on the
    same port stops here)."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        return socket.create_server((host, port), family=family)
    except OSError as error:
        reason = (error.strerror or str(error)).split(" (while attempting")[0]
        raise StartupError(f"cannot listen on {host}:{port}: {reason}") from None


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop if it is installed (as uvicorn would pick), else asyncio's."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


class _Uvicorn(uvicorn.Server):
    """uvicorn's server, but: "serving on" once it really serves; at a stop, first close
    the listening socket and ``halt`` the app; signals are ours (uvicorn would re-raise
    SIGTERM after a clean stop, and the process would end with 143)."""

    def __init__(self, config: uvicorn.Config, app: Starlette, ready: Callable[[], None]) -> None:
        super().__init__(config)
        self.app, self.ready = app, ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and not self.should_exit:
            self.ready()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()
        await halt(self.app)
        await super().shutdown(sockets)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


async def _serve(sock: socket.socket, config: Config, http: HttpLimits, proxies: Trusted,
                 store: Store, browse: bool, deflate: bool = False) -> None:
    app = create_app(config, store=store)
    host, port = sock.getsockname()[:2]
    local = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    local = f"[{local}]" if ":" in local else local
    address = f"http://{local}:{port}/"

    def ready() -> None:
        print(f"zackzack: serving on {address}  (database: {shown(store.url)}; "
              "Ctrl-C stops)", flush=True)
        if config.public_urls:
            print(f"zackzack: public address: {config.public_urls[0]}/", flush=True)
        elif not _loopback(host):
            print(f"zackzack: on your network: http://{_lan_address()}:{port}/ (this "
                  "computer's address; to open it by a name, pass --public-url)", flush=True)
        if browse and not webbrowser.open(address):
            print(f"zackzack: found no web browser to open; open {address} yourself",
                  file=sys.stderr)

    server = _Uvicorn(uvicorn.Config(
        app, lifespan="off", loop="none", http=Guard(http, proxies).protocol(),
        proxy_headers=False, log_level="warning", log_config=None,  # logs.setup: JSON lines
        ws_max_size=config.limits.frame_bytes,
        ws=TimedWebSocketProtocol, ws_per_message_deflate=deflate,  # docs/operations.md, *Load*
        ws_ping_interval=20, ws_ping_timeout=20, timeout_graceful_shutdown=3), app, ready)
    loop = asyncio.get_running_loop()

    def stop() -> None:
        if server.should_exit:  # a second Ctrl-C: do not wait for anything
            server.force_exit = True
        server.should_exit = True

    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, stop)
    lag_file = looplag.requested()
    sampler = asyncio.create_task(looplag.sample(lag_file, counters=lambda: _counters(app))) \
        if lag_file else None
    try:
        async with running(app, config, store=store):
            await server.serve(sockets=[sock])
    finally:
        if sampler is not None:
            sampler.cancel()
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(number)


def _counters(app: Starlette) -> dict[str, int]:
    """Running totals for the bench's loop-lag reports: the journal's actions and commits."""
    server = getattr(app.state, "server", None)
    if server is None:  # not running yet
        return {}
    journal = server.lobby.journal
    return {"journaled": journal.appended, "commits": journal.batches}


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _lan_address() -> str:
    """This computer's address on its network, as far as the routing table tells (no packet
    is sent); a placeholder if it does not."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
        address = str(probe.getsockname()[0])
        if not _loopback(address) and address != "0.0.0.0":
            return address
    return "THIS-COMPUTERS-ADDRESS"
