"""Server test kit: a lobby on a virtual clock; clients that drive sessions without a network."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import argon2

from zackzack.engine.clock import VirtualClock
from zackzack.engine.table import LIVE, Settings
from zackzack.games import unter_spannung as us
from zackzack.server.botmaker import Bots
from zackzack.server.identity import Identities
from zackzack.server.limits import Limits
from zackzack.server.lobby import Lobby, Timing
from zackzack.server.session import Session
from zackzack.store import Store

QUICK_HASHER = argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
"""Argon2 with small costs: the tests hash many passwords (the server keeps the defaults)."""
NO_STALLS = Timing(stall_warning=1e9)
"""For tests of something else in which present people never act at a running table: the
idle rule (docs/rules.md, *Eine Runde endet immer*) seats no stand-in for them."""


class Client:
    """One connection's session, driven directly: send dicts, read what came back as dicts."""

    refs = itertools.count()

    def __init__(self, world: World, name: str | None = "Anna", token: str | None = None,
                 address: str = "") -> None:
        self.world = world
        self.inbox: list[dict[str, Any]] = []
        self.texts: list[str] = []
        self.pings: list[dict[str, Any]] = []
        self.hold_pings = False
        """Keep the server's pings unanswered (to answer them late by hand)."""
        self.rtt_ms: float | None = None
        """The round trip the connection's transport measures (the kernel's; ``None``:
        unknown, as without a socket)."""
        self.session = Session(world.lobby, world.identities, "http://test", self._got,
                               transport_rtt=lambda: self.rtt_ms)
        self.session.address = address
        if name is not None:
            self.welcome = self.send(type="hello", token=token, name=name)[-1]

    def _got(self, text: str) -> None:
        message = json.loads(text)
        if message["type"] == "ping":  # the server measures the lag: answer, as browsers do
            self.pings.append(message)
            if not self.hold_pings:
                self.session.receive(json.dumps({"type": "pong", "n": message["n"]}))
            return
        self.texts.append(text)
        self.inbox.append(message)

    def send(self, **message: Any) -> list[dict[str, Any]]:
        """Send one message; the messages it caused for this client."""
        start = len(self.inbox)
        self.session.receive(json.dumps(message))
        return self.inbox[start:]

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """Act at the table; the ack."""
        ref = next(self.refs)
        acks = [m for m in self.send(type="act", ref=ref, action=action) if m["type"] == "ack"]
        assert len(acks) == 1 and acks[0]["ref"] == ref
        return acks[0]

    def last(self, kind: str) -> dict[str, Any]:
        """The latest message of type ``kind``."""
        return next(m for m in reversed(self.inbox) if m["type"] == kind)

    def error(self, **message: Any) -> str:
        """Send a message that must be refused; its error code."""
        replies = self.send(**message)
        assert replies and replies[-1]["type"] == "error", replies
        return str(replies[-1]["code"])

    @property
    def view(self) -> dict[str, Any]:
        """The latest view of the table."""
        found: dict[str, Any] = next(m["view"] for m in reversed(self.inbox)
                                     if m["type"] in ("table", "events"))
        return found

    @property
    def table(self) -> dict[str, Any]:
        """The latest table message's table."""
        return self.last("table")["table"]

    @property
    def player(self) -> str:
        """This client's public player id."""
        return str(self.welcome["player"])


@dataclass
class World:
    """A lobby on a virtual clock with a real store and real bots."""

    store: Store
    settings: Settings = LIVE
    timing: Timing = field(default_factory=Timing)
    clock: VirtualClock = field(default_factory=VirtualClock)
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        self.identities = Identities(self.store, limits=self.limits, time=self.clock.time,
                                     hasher=QUICK_HASHER)
        self.lobby = Lobby(clock=self.clock, store=self.store, bots=Bots(),
                           settings=self.settings, timing=self.timing, limits=self.limits)
        self.lobby.players = self.identities.known
        self.identities.playing = self.lobby.playing
        self.lobby.marks = self.identities.marks

    def client(self, name: str | None = "Anna", token: str | None = None,
               address: str = "") -> Client:
        """A new connection (from ``address``; "": unknown) that says hello as ``name``."""
        return Client(self, name, token, address)

    def member(self, name: str = "Anna", address: str = "") -> Client:
        """A new connection whose player claimed ``name`` (rated play is for claimed names)."""
        client = self.client(name, address=address)
        player = self.identities.by_token(client.welcome["token"])
        assert player is not None
        self.identities.claim(player, name, QUICK_HASHER.hash("a password"))
        return client

    def wait(self, seconds: float) -> None:
        """Let virtual time pass."""
        self.clock.run(until=self.clock.time() + seconds)


def us_action(view: dict[str, Any]) -> dict[str, Any] | None:
    """A legal Unter Spannung action for the seat of ``view``: a fitting card, or a draw."""
    state = view["state"]
    top = us.Card.parse(state["top"])
    for card in state["hand"]:
        if us.Card.parse(card).value in top.allowed:
            return {"type": "play", "card": card, "seen": state["version"]}
    if state["draw_counts"][view["seat"]]:
        return {"type": "draw"}
    return None


def play_out(world: World, clients: list[Client], limit: int = 5000) -> None:
    """Everyone plays legal actions until the match is over (time runs when nobody can act)."""
    for _ in range(limit):
        if clients[0].view["phase"] == "over":
            return
        acted = False
        for client in clients:
            view = client.view
            if view["phase"] == "playing" and view["frozen_until"][view["seat"]] <= view["now"]:
                action = us_action(view)
                if action is not None:
                    client.act(action)
                    acted = True
        if not acted:
            world.wait(1.0)
    raise AssertionError("the match did not end")


def two_at_a_table(world: World, **create: Any) -> tuple[Client, Client, str]:
    """Anna creates a 2-seat Unter Spannung table, Ben joins; both ready. The table's code."""
    anna, ben = world.client("Anna"), world.client("Ben")
    anna.send(type="create", game="unter-spannung", seats=[{"kind": "open"}, {"kind": "open"}],
              **create)
    code = anna.table["code"]
    ben.send(type="join", code=code, seat=None)
    ben.send(type="ready", ready=True)
    return anna, ben, code


def run_async(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run ``coroutine`` on a fresh event loop in a thread of its own.

    (Playwright's sync API leaves a loop running in the test thread; this works regardless.)
    """
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
