"""Plain HTTP connections under guard: a deadline for each request, a cap per address.

uvicorn closes a keep-alive connection that stays idle after a response (5 s), but sets no
deadline on a request that is still arriving: a client that sends half a request line, or
headers a byte at a time, or nothing at all, holds its connection (and uvicorn's state for
it) for as long as it likes, and one address may hold any number of them ("slowloris").
``GuardedH11`` is uvicorn's h11 protocol with two additions:

- each request must arrive whole — request line, headers and body — within
  ``request_seconds`` of its first byte (of the connection's start for the first one);
  otherwise the connection is closed. The time the application takes to answer does not
  count, and a websocket is free of it once upgraded.
- one address (an IPv6 address: its /64) holds at most ``http_connections_per_ip`` plain
  HTTP connections at once;
  another one gets ``503`` and is closed. Upgraded websockets leave the count (the app has
  its own cap for them, ``connections_per_ip``). Trusted proxies (``--forwarded-allow-ips``)
  are not capped: every client comes through them (the proxy caps per client address).

>>> guard = Guard(HttpLimits(http_connections_per_ip=2), trusted("10.0.0.0/8"))
>>> [guard.admit(ip) for ip in ("1.2.3.4", "1.2.3.4", "1.2.3.4", "10.1.1.1", "10.1.1.1")]
[True, True, False, True, True]
>>> guard.release("1.2.3.4"); guard.admit("1.2.3.4")
True
>>> [guard.admit(f"2001:db8::{n}") for n in range(3)]
[True, True, False]
"""

from __future__ import annotations

import asyncio
import ipaddress
from dataclasses import dataclass

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from zackzack.server.limits import client_key
from zackzack.server.logs import event

REFUSED = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
           b"connection: close\r\ncontent-length: 39\r\n\r\n"
           b"too many connections from your address\n")
"""The answer to a connection over the per-address cap (then it is closed)."""


@dataclass(frozen=True, slots=True)
class HttpLimits:
    """Limits of plain HTTP connections (``--limit NAME=VALUE`` like the others)."""

    request_seconds: float = 10.0
    """A request must arrive whole (line, headers, body) within this many seconds of its
    first byte, or of the connection's start; slower ones are closed. 0: no deadline."""
    http_connections_per_ip: int = 32
    """Plain HTTP connections one address may hold at once; more get 503. 0: no cap."""


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class Trusted:
    """The proxies named by ``--forwarded-allow-ips``: addresses and networks, or everyone."""

    networks: tuple[Network, ...] = ()
    everyone: bool = False

    def __contains__(self, host: object) -> bool:
        if self.everyone:
            return True
        try:
            address = ipaddress.ip_address(str(host))
        except ValueError:
            return False
        return any(address in network for network in self.networks)


def trusted(*specs: str) -> Trusted:
    """The proxies in ``specs`` (each a comma-separated list of addresses, networks or ``*``),
    checked as uvicorn reads them; a malformed one is a ``ValueError``.

    >>> "127.0.0.1" in trusted("127.0.0.1, ::1"), "10.0.0.7" in trusted("10.0.0.0/8")
    (True, True)
    >>> trusted("10.0.0.1/8")
    Traceback (most recent call last):
    ...
    ValueError: --forwarded-allow-ips: '10.0.0.1/8' is not an IP address or network
    """
    networks: list[Network] = []
    everyone = False
    for spec in specs:
        for item in filter(None, (part.strip() for part in spec.split(","))):
            if item == "*":
                everyone = True
                continue
            try:
                networks.append(ipaddress.ip_network(item))
            except ValueError:
                raise ValueError(f"--forwarded-allow-ips: {item!r} is not an IP address or "
                                 "network") from None
    return Trusted(tuple(networks), everyone)


class Guard:
    """The limits and the count of plain HTTP connections per address of one server."""

    def __init__(self, limits: HttpLimits, proxies: Trusted = Trusted()) -> None:
        self.limits = limits
        self.proxies = proxies
        self.open: dict[str, int] = {}
        """Plain HTTP connections per address now."""
        self.capped: set[str] = set()
        """Addresses refused since they last had room (logged once)."""
        self.refused = 0
        """Connections refused for the cap so far."""
        self.timed_out = 0
        """Connections closed because a request came too slowly."""

    def admit(self, ip: str) -> bool:
        """Count a new connection from ``ip``: whether it may stay (then ``release`` it)."""
        cap = self.limits.http_connections_per_ip
        trusted_proxy = ip in self.proxies
        ip = client_key(ip)
        if cap > 0 and not trusted_proxy and self.open.get(ip, 0) >= cap:
            self.refused += 1
            if ip not in self.capped:  # logged once each time the address reaches the cap
                self.capped.add(ip)
                event("connection_refused", peer=ip, reason="too_many_http_connections")
            return False
        self.open[ip] = self.open.get(ip, 0) + 1
        return True

    def release(self, ip: str) -> None:
        """A connection of ``ip`` counted by ``admit`` closed or became a websocket."""
        ip = client_key(ip)
        left = self.open.pop(ip, 1) - 1
        if left > 0:
            self.open[ip] = left
        self.capped.discard(ip)

    def protocol(self) -> type[GuardedH11]:
        """The protocol class for ``uvicorn.Config(http=…)``, bound to this guard."""
        guard = self

        class Guarded(GuardedH11):
            pass

        Guarded.guard = guard
        return Guarded


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a request deadline and a per-address cap (``Guard``)."""

    guard: Guard
    _deadline: asyncio.TimerHandle | None = None
    _counted: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the connection (refuse it over the cap) and start the first deadline."""
        super().connection_made(transport)
        ip = self.client[0] if self.client else ""
        if not self.guard.admit(ip):
            transport.write(REFUSED)
            transport.close()
            return
        self._counted = ip
        self._arm()

    def data_received(self, data: bytes) -> None:
        """Take the bytes; a request that is still arriving keeps (or starts) its deadline."""
        super().data_received(data)
        if self.transport.get_protocol() is not self or self.transport.is_closing():
            return
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
            if self._deadline is None:
                self._arm()
        else:
            self._disarm()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        """A websocket from now on: no deadline, and out of the HTTP count."""
        self._disarm()
        self._release()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the connection."""
        self._disarm()
        self._release()
        super().connection_lost(exc)

    def _arm(self) -> None:
        seconds = self.guard.limits.request_seconds
        if seconds > 0:
            self._deadline = self.loop.call_later(seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _release(self) -> None:
        if self._counted is not None:
            self.guard.release(self._counted)
            self._counted = None

    def _too_slow(self) -> None:
        """The request did not arrive in time: close the connection (no answer: nobody who
        sends that slowly is waiting for one)."""
        self._deadline = None
        if not self.transport.is_closing():
            self.guard.timed_out += 1
            self.transport.close()
