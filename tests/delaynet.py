"""A user-space netem at the IP layer: TCP clients whose round trip the *kernel* measures.

A delaying TCP proxy is invisible to the kernel's own round-trip measurement (``TCP_INFO``):
the server's TCP peer is the proxy, next door. :class:`DelayNet` delays the IP packets
themselves, so the TCP stacks at both ends see the delay, as over a real wire:

    root namespace                              namespace zz-<pid>-<n>
    server on 198.18.0.1 ── TUN zz<pid>s<n> ═╗ ╔═ TUN zz<pid>c<n> ── clients 198.18.1.1, .2, …
                                            forwarder
                            (a separate process: each packet half its client's RTT later)

- a network namespace and two TUN devices (``IFF_TUN | IFF_NO_PI``), one moved into it;
- addresses only from the benchmarking range 198.18.0.0/15: in slot ``s`` the server side
  is ``198.18.{2s}.1`` (root namespace) and the clients ``198.18.{2s+1}.1 … .N`` (each a
  /32 on the namespace's TUN); slot 0 (the default when free) gives 198.18.0.1 and
  198.18.1.x. Nothing ever leaves the machine;
- a forwarder **process** (so the code under test, its GIL and its garbage collector do
  not disturb the timing) that carries every packet from one TUN to the other after the
  one-way delay of its client address: half that client's RTT, ± ``jitter`` of it (uniform),
  never earlier than the packet before it in the same direction (no reordering);
- :meth:`DelayNet.socket` / :meth:`DelayNet.connect`: a TCP socket created *inside* the
  namespace (by a helper thread that ``setns``-ed into it) and bound to a client address;
  it stays in its namespace, so it works from any thread, with plain ``socket`` calls, with
  ``loop.sock_connect`` and with ``websockets.asyncio.client.connect(uri, sock=sock)``;
  :meth:`DelayNet.command` runs a child process in the namespace (``ip netns exec``).

Needs root and ``/dev/net/tun`` (:class:`DelayNetUnavailable` otherwise; tests skip on it
with :func:`unavailable_reason`). Everything is removed on exit, even after an error; a
namespace left by a killed process (``zz-<pid>-…`` with that pid gone) is removed by the
next :class:`DelayNet`.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import ctypes
import fcntl
import heapq
import ipaddress
import itertools
import json
import os
import random
import re
import select
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any, TypeVar

T = TypeVar("T")
Socket = socket.socket
"""(A name the methods' annotations can use next to :meth:`DelayNet.socket`.)"""

NETWORK = ipaddress.ip_network("198.18.0.0/15")
"""The benchmarking range (RFC 2544): the only addresses DelayNet ever uses."""
SLOTS = 256
"""Slots in the range: slot ``s`` uses 198.18.0.0/15's ``2s``-th and ``2s+1``-th /24."""
MAX_CLIENTS = 254
NS_PREFIX = "zz-"
NETNS_DIR = Path("/var/run/netns")
LOCK_FILE = Path("/run/lock/zackzack-delaynet.lock")

_TUNSETIFF = 0x400454CA
_IFF_TUN = 0x0001
_IFF_NO_PI = 0x1000
_CLONE_NEWNET = 0x40000000
_TCP_INFO_RTT = 68
"""``struct tcp_info``: ``tcpi_rtt`` (smoothed RTT, µs) is the u32 at this offset."""
_TCP_INFO_MIN_RTT = 148
"""``struct tcp_info``: ``tcpi_min_rtt`` (µs) is the u32 at this offset (Linux ≥ 4.6)."""


class DelayNetUnavailable(RuntimeError):
    """This machine cannot build a DelayNet (not root, no ``/dev/net/tun``, no ``ip``)."""


def unavailable_reason() -> str | None:
    """Why a :class:`DelayNet` cannot be built here (``None``: it can, as far as one can tell
    without building one)."""
    if sys.platform != "linux":
        return "DelayNet needs Linux"
    if os.geteuid() != 0:
        return "DelayNet needs root (network namespaces and TUN devices)"
    if not os.access("/dev/net/tun", os.R_OK | os.W_OK):
        return "DelayNet needs /dev/net/tun"
    if not any(os.access(Path(d) / "ip", os.X_OK) for d in ("/usr/sbin", "/sbin", "/usr/bin",
                                                             "/bin")):
        return "DelayNet needs the ip command (iproute2)"
    return None


def tcp_rtt_ms(sock: socket.socket) -> tuple[float, float] | None:
    """The kernel's round-trip figures of a TCP socket, in ms: ``(min_rtt, srtt)``
    (``tcpi_min_rtt``, ``tcpi_rtt`` of ``TCP_INFO``); ``None`` if it has none (not TCP,
    closed, not Linux)."""
    try:
        info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
    except (OSError, AttributeError):
        return None
    if len(info) < _TCP_INFO_MIN_RTT + 4:
        return None
    (srtt,) = struct.unpack_from("=I", info, _TCP_INFO_RTT)
    (min_rtt,) = struct.unpack_from("=I", info, _TCP_INFO_MIN_RTT)
    return min_rtt / 1000, srtt / 1000


# Plumbing -----------------------------------------------------------------------------------


def _ip(*args: str) -> None:
    """Run ``ip ARGS``; raise :class:`DelayNetUnavailable` with its message if it fails."""
    done = subprocess.run(["ip", *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise DelayNetUnavailable(f"ip {' '.join(args)}: {done.stderr.strip()}")


def _open_tun(name: str) -> int:
    """A new TUN device ``name`` (IP packets without a header); its fd (non-blocking)."""
    fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        fcntl.ioctl(fd, _TUNSETIFF, struct.pack("16sH", name.encode(), _IFF_TUN | _IFF_NO_PI))
    except OSError:
        os.close(fd)
        raise
    return fd


def _setns(path: str) -> None:
    """Move the calling thread into the network namespace at ``path``."""
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        if libc.setns(fd, _CLONE_NEWNET) != 0:
            errno = ctypes.get_errno()
            raise OSError(errno, f"setns({path}): {os.strerror(errno)}")
    finally:
        os.close(fd)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale() -> list[str]:
    """Delete the namespaces DelayNets of processes that are gone left behind; their names."""
    removed = []
    with contextlib.suppress(OSError):
        for path in NETNS_DIR.iterdir():
            found = re.fullmatch(rf"{NS_PREFIX}(\d+)-\d+", path.name)
            if found and not _alive(int(found.group(1))):
                with contextlib.suppress(DelayNetUnavailable):
                    _ip("netns", "delete", path.name)
                    removed.append(path.name)
    return removed


def _used_slots() -> set[int]:
    """The slots whose server address is on some device of the root namespace already."""
    done = subprocess.run(["ip", "-o", "-4", "addr", "show"], capture_output=True, text=True,
                          check=False)
    used = set()
    for found in re.finditer(r"inet (198\.1[89]\.\d+\.\d+)", done.stdout):
        address = ipaddress.ip_address(found.group(1))
        if address in NETWORK:
            used.add((int(address) - int(NETWORK.network_address)) // 512)
    return used


@contextlib.contextmanager
def _locked() -> Iterator[None]:
    """Hold the machine-wide lock under which slots are chosen and taken."""
    LOCK_FILE.parent.mkdir(parents=True, exist_ok=True)
    with open(LOCK_FILE, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


# The network --------------------------------------------------------------------------------


class DelayNet:
    """Clients in a network namespace whose packets to and from the server side (root
    namespace) are delayed per client address, in a forwarder process.

    ``rtts_ms``: the round trip of client 1, 2, … (addresses ``clients[0]``, …), in ms;
    ``jitter``: each one-way trip varies by this fraction of itself (uniform, never
    reordering); ``slot``: which part of 198.18.0.0/15 (``None``: the first free one).

    For example (root only, so not a doctest)::

        with DelayNet([10, 100]) as net:
            sock = net.connect(net.clients[1], (net.server_address, 8000))
    """

    _count = itertools.count()

    def __init__(self, rtts_ms: Sequence[float], jitter: float = 0.0,
                 slot: int | None = None, seed: int = 0) -> None:
        if not 1 <= len(rtts_ms) <= MAX_CLIENTS:
            raise ValueError(f"1 to {MAX_CLIENTS} clients")
        if not 0 <= jitter < 1:
            raise ValueError("jitter is a fraction in [0, 1)")
        self.rtts_ms = [float(rtt) for rtt in rtts_ms]
        self.jitter, self.slot, self.seed = jitter, slot, seed
        number = next(self._count)
        self.namespace = f"{NS_PREFIX}{os.getpid()}-{number}"
        self._devices = (f"zz{os.getpid()}s{number}", f"zz{os.getpid()}c{number}")
        self._fds: list[int] = []
        self._forwarder: subprocess.Popen[str] | None = None
        self._control_lock = threading.Lock()
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        self.server_address = ""
        self.clients: list[str] = []

    # Life ---------------------------------------------------------------------------------

    def __enter__(self) -> DelayNet:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def start(self) -> None:
        """Build the namespace, the devices, the routes and the forwarder."""
        reason = unavailable_reason()
        if reason is not None:
            raise DelayNetUnavailable(reason)
        remove_stale()
        try:
            with _locked():
                self._build()
            self._start_forwarder()
        except BaseException:
            self.close()
            raise

    def _build(self) -> None:
        used = _used_slots()
        if self.slot is None:
            free = [s for s in range(SLOTS) if s not in used]
            if not free:
                raise DelayNetUnavailable("every slot of 198.18.0.0/15 is taken")
            self.slot = free[0]
        elif self.slot in used or not 0 <= self.slot < SLOTS:
            raise DelayNetUnavailable(f"slot {self.slot} is taken or out of range")
        base = int(NETWORK.network_address) + 512 * self.slot
        server_net = ipaddress.ip_network((base, 24))
        client_net = ipaddress.ip_network((base + 256, 24))
        self.server_address = str(server_net.network_address + 1)
        self.clients = [str(client_net.network_address + 1 + i)
                        for i in range(len(self.rtts_ms))]
        outer, inner = self._devices
        ns = self.namespace
        _ip("netns", "add", ns)
        for name in self._devices:
            self._fds.append(_open_tun(name))
        _ip("link", "set", "dev", inner, "netns", ns)
        # the root namespace's side: the server address, the clients' /24 through the TUN
        _ip("addr", "add", f"{self.server_address}/32", "dev", outer)
        _ip("link", "set", "dev", outer, "up")
        _ip("route", "add", str(client_net), "dev", outer, "src", self.server_address)
        # the namespace's side: lo, each client's /32, the server's /24 through the TUN
        _ip("-n", ns, "link", "set", "dev", "lo", "up")
        for address in self.clients:
            _ip("-n", ns, "addr", "add", f"{address}/32", "dev", inner)
        _ip("-n", ns, "link", "set", "dev", inner, "up")
        _ip("-n", ns, "route", "add", str(server_net), "dev", inner, "src", self.clients[0])

    def _start_forwarder(self) -> None:
        outer, inner = self._fds
        self._forwarder = subprocess.Popen(
            [sys.executable, __file__, "--forward", str(outer), str(inner)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, pass_fds=(outer, inner),
            close_fds=True)
        self._tell({"seed": self.seed})
        for address, rtt in zip(self.clients, self.rtts_ms, strict=True):
            self.set_rtt(address, rtt)

    def close(self) -> None:
        """Stop the forwarder, delete the namespace (its sockets stop working), free the
        devices. Safe to call twice."""
        forwarder, self._forwarder = self._forwarder, None
        if forwarder is not None:
            with contextlib.suppress(OSError):
                assert forwarder.stdin is not None
                forwarder.stdin.close()
            try:
                forwarder.wait(5)
            except subprocess.TimeoutExpired:
                forwarder.kill()
                forwarder.wait()
            if forwarder.stdout is not None:
                forwarder.stdout.close()
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        if (NETNS_DIR / self.namespace).exists():
            with contextlib.suppress(DelayNetUnavailable):
                _ip("netns", "delete", self.namespace)
        for fd in self._fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds = []

    # Delays -------------------------------------------------------------------------------

    def _tell(self, order: Mapping[str, Any]) -> None:
        forwarder = self._forwarder
        if forwarder is None or forwarder.stdin is None or forwarder.stdout is None:
            raise RuntimeError("the DelayNet is not running")
        with self._control_lock:
            forwarder.stdin.write(json.dumps(order) + "\n")
            forwarder.stdin.flush()
            answer = forwarder.stdout.readline()
        if answer.strip() != "ok":
            raise RuntimeError(f"the forwarder answered {answer!r} to {order}")

    def set_rtt(self, address: str, rtt_ms: float, jitter: float | None = None) -> None:
        """From now on packets to and from client ``address`` take ``rtt_ms / 2`` each way
        (± ``jitter``, default the net's). Packets already on their way keep their time."""
        if address not in self.clients:
            raise ValueError(f"{address} is not a client of this DelayNet")
        self._tell({"address": address, "half_s": rtt_ms / 2000,
                    "jitter": self.jitter if jitter is None else jitter})
        self.rtts_ms[self.clients.index(address)] = float(rtt_ms)

    # Sockets and processes in the namespace -------------------------------------------------

    def in_namespace(self, call: Callable[[], T]) -> T:
        """``call()`` in a thread inside the namespace (sockets it makes stay in it)."""
        if self._pool is None:
            path = str(NETNS_DIR / self.namespace)
            self._pool = concurrent.futures.ThreadPoolExecutor(
                1, thread_name_prefix=self.namespace, initializer=_setns, initargs=(path,))
        return self._pool.submit(call).result()

    def socket(self, address: str | None = None, kind: int = socket.SOCK_STREAM,
               blocking: bool = True) -> Socket:
        """A new IPv4 socket in the namespace, bound to client ``address`` (default the
        first client) on a free port; connect it to ``(server_address, port)``."""
        address = address or self.clients[0]
        if address not in self.clients:
            raise ValueError(f"{address} is not a client of this DelayNet")

        def make() -> Socket:
            sock = socket.socket(socket.AF_INET, kind)
            try:
                sock.bind((address, 0))
            except OSError:
                sock.close()
                raise
            sock.setblocking(blocking)
            return sock

        return self.in_namespace(make)

    def connect(self, address: str | None, target: tuple[str, int],
                timeout: float = 10.0) -> Socket:
        """A TCP socket from client ``address`` connected to ``target`` (blocking mode)."""
        sock = self.socket(address)
        try:
            sock.settimeout(timeout)
            sock.connect(target)
            sock.settimeout(None)
        except OSError:
            sock.close()
            raise
        return sock

    def listener(self, address: str, port: int = 0, backlog: int = 64) -> Socket:
        """A listening TCP socket in the namespace (``address`` a client's or 127.0.0.1)."""

        def make() -> Socket:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((address, port))
            sock.listen(backlog)
            return sock

        return self.in_namespace(make)

    def command(self, argv: Sequence[str]) -> list[str]:
        """``argv`` as a command that runs inside the namespace (for ``subprocess``)."""
        return ["ip", "netns", "exec", self.namespace, *argv]


# The forwarder (a separate process) -----------------------------------------------------------


def _forward(outer: int, inner: int, control: IO[str], answer: IO[str]) -> None:
    """Carry packets between the TUN fds, each after its client's one-way delay.

    ``outer`` is the root namespace's device (packets *to* a client: its address is the
    destination), ``inner`` the namespace's (packets *from* one: the source). Orders come as
    JSON lines on ``control``; each is answered ``ok`` on ``answer``; its end ends the
    forwarder."""
    with contextlib.suppress(OSError):
        os.nice(-10)  # carry packets on time on a busy machine
    rng = random.Random(0)
    delays: dict[bytes, tuple[float, float]] = {}
    """Client address (4 bytes) → (one-way delay in s, jitter fraction)."""
    last: dict[tuple[bytes, int], float] = {}
    """(client, the fd it goes to) → when its previous packet leaves: nothing overtakes."""
    queue: list[tuple[float, int, int, bytes]] = []
    order = itertools.count()
    control_fd = control.fileno()
    os.set_blocking(control_fd, True)
    pending = b""
    while True:
        now = time.monotonic()
        while queue and queue[0][0] <= now:
            _, _, target, packet = heapq.heappop(queue)
            with contextlib.suppress(OSError):  # a full queue or a device gone: lost
                os.write(target, packet)
        timeout = max(0.0, queue[0][0] - time.monotonic()) if queue else None
        readable, _, _ = select.select([outer, inner, control_fd], [], [], timeout)
        for fd in readable:
            if fd == control_fd:
                chunk = os.read(control_fd, 65536)
                if not chunk:
                    return
                pending += chunk
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    message = json.loads(line)
                    if "seed" in message:
                        rng.seed(message["seed"])
                    else:
                        key = socket.inet_aton(message["address"])
                        delays[key] = (float(message["half_s"]), float(message["jitter"]))
                    answer.write("ok\n")
                    answer.flush()
                continue
            target = inner if fd == outer else outer
            at = 16 if fd == outer else 12  # IPv4 destination / source address
            for _ in range(256):
                try:
                    packet = os.read(fd, 65536)
                except BlockingIOError:
                    break
                except OSError:
                    return  # the device is gone
                if len(packet) < 20 or packet[0] >> 4 != 4:
                    continue  # IPv4 only (the kernel's IPv6 chatter is dropped)
                client = packet[at:at + 4]
                half, jitter = delays.get(client, (0.0, 0.0))
                arrived = time.monotonic()
                due = arrived + half * (1 + jitter * (2 * rng.random() - 1))
                due = max(due, last.get((client, target), 0.0))
                last[(client, target)] = due
                if due <= arrived:
                    with contextlib.suppress(OSError):
                        os.write(target, packet)
                else:
                    heapq.heappush(queue, (due, next(order), target, packet))


if __name__ == "__main__" and len(sys.argv) == 4 and sys.argv[1] == "--forward":
    _forward(int(sys.argv[2]), int(sys.argv[3]), sys.stdin, sys.stdout)
