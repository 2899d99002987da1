"""Protocol fuzzing against a live server (uvicorn in a thread, real websockets, games on).

Hypothesis makes frames of every kind — the protocol's messages with wrong values, wrong
shapes, wrong types, deep nesting, huge strings, invalid UTF-8, binary frames — and sends
them one by one, each followed by a ``ping`` (a barrier). The documented rule: each is
answered by an ``error`` with a documented code (or its ordinary answer: ``pong``, the lobby
list), except frames over 64 KiB (close 1009) and text that is not UTF-8 (close 1007). Oversized
and rapid ``lobby`` requests too: a burst of them gets the list at most once per version of it,
and the fuzzer's outbox stays within its byte bound. The server stays up, no running game
changes, and other clients see nothing of it.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from server.wire import Live
from zackzack.games import GAMES
from zackzack.games.base import plain
from zackzack.server.limits import Limits
from zackzack.server.protocol import ERRORS
from zackzack.server.room import Room

pytestmark = [pytest.mark.wallclock,  # a live server on real sockets
              pytest.mark.filterwarnings("ignore:connect\\(\\) must be used:DeprecationWarning")]


def until_type(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """Read until a message of ``kind`` arrives."""
    while (message := json.loads(ws.recv(5)))["type"] != kind:
        pass
    return message


class Arena:
    """The live server with a paused table (and its watcher) and a table of bots playing."""

    def __init__(self, live: Live) -> None:
        self.live = live
        anna = live.connect("Anna")
        anna.send(json.dumps({"type": "create", "game": "unter-spannung", "seats": [
            {"kind": "open"}, {"kind": "bot", "bot": "normal"}]}))
        self.paused_code = until_type(anna, "table")["table"]["code"]
        anna.send(json.dumps({"type": "start"}))
        until_type(anna, "events")
        anna.close()  # Anna is away: her table pauses, and stands still
        self.bots = live.connect("Carla")
        self.bots.send(json.dumps({"type": "create", "game": "schnelllauf", "seats": [
            {"kind": "bot", "bot": "pro"}, {"kind": "bot", "bot": "machine"}]}))
        self.bots_code = until_type(self.bots, "table")["table"]["code"]
        self.bots.send(json.dumps({"type": "start"}))
        deadline = time.monotonic() + 30  # paused once Anna's reconnect grace (1 s) is over
        while self.paused.phase.value != "paused":
            assert time.monotonic() < deadline
            time.sleep(0.01)
        self.watcher = live.connect("Dora")  # (she comes after the pause: nothing more moves)
        self.watcher.send(json.dumps({"type": "watch", "code": self.paused_code}))
        until_type(self.watcher, "table")
        self.before = self.snapshot()
        self.fuzzer = live.connect()
        self.pings = 0

    @property
    def paused(self) -> Room:
        return self.live.state.lobby.rooms[self.paused_code]

    def snapshot(self) -> str:
        room = self.paused
        views = [plain(room.table.view(seat)) for seat in (0, 1, None)]
        return json.dumps([views, len(room.table.log), room.phase.value], sort_keys=True)

    def reconnect(self) -> None:
        self.fuzzer.close()
        self.fuzzer = self.live.connect()

    def barrier(self, lists: bool = True) -> list[dict[str, Any]]:
        """A ping; every message that came before its pong (without the lobby lists unless
        ``lists``: a fuzzer that asked for the lobby once gets the list again whenever the
        bots' table changes it, at any moment, not as an answer to anything it sent)."""
        self.pings += 1
        self.fuzzer.send(json.dumps({"type": "ping", "t": -self.pings}))
        got = []
        while (message := json.loads(self.fuzzer.recv(5))) != {"type": "pong",
                                                                "t": -self.pings}:
            if message["type"] != "ping" and (lists or message["type"] != "lobby"):
                got.append(message)  # (the server's lag probes are not replies either)
        return got


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    limits = Limits(rate=1e6, burst=10**6, refused_to_close=10**6,
                    new_players_burst=0)  # the fuzzer reconnects (a new player) many times
    live = Live(tmp_path_factory.mktemp("fuzz") / "z.db", limits)
    try:
        yield Arena(live)
    finally:
        live.stop()


# Strategies -------------------------------------------------------------------------------

scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
           | st.floats(allow_nan=False) | st.text(max_size=40))
json_data = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                         | st.dictionaries(st.text(max_size=10), inner, max_size=4),
                         max_leaves=16)
FIELDS = {"hello": ("token", "name"), "lobby": (), "create": ("game", "options", "seats",
          "private", "title"), "join": ("code", "seat"), "watch": ("code",), "leave": (),
          "ready": ("ready",), "seat": ("seat", "kind", "bot"), "start": (), "rematch": (),
          "act": ("ref", "action", "id"), "ping": ("t",), "pong": ("n",),
          "shown": ("versions",)}


@st.composite
def wrong_message(draw: st.DrawFn) -> dict[str, Any]:
    """A message of the protocol with wrong (or right) values, unknown fields, odd types."""
    kind = draw(st.sampled_from(sorted(FIELDS)))
    message: dict[str, Any] = {"type": kind}
    for name in FIELDS[kind]:
        if draw(st.booleans()):
            message[name] = draw(json_data | st.text(min_size=50, max_size=2000))
    if draw(st.integers(0, 5)) == 0:
        message[draw(st.text(max_size=10))] = draw(json_data)
    return message


def deep(depth: int, kind: str) -> str:
    if kind == "list":
        return "[" * depth + "]" * depth
    return '{"type":"act","ref":1,"action":' + '{"a":' * depth + "1" + "}" * depth + "}"


frames = st.one_of(
    wrong_message().map(lambda m: ("text", json.dumps(m))),
    json_data.map(lambda d: ("text", json.dumps(d))),
    st.text(max_size=300).map(lambda t: ("text", t)),
    st.binary(max_size=300).map(lambda b: ("binary", b)),
    st.binary(min_size=1, max_size=50).map(lambda b: ("not-utf8", b"\xc3\x28" + b)),
    st.tuples(st.integers(10, 20_000), st.sampled_from(["list", "dict"]))
    .map(lambda d: ("text", deep(*d))),
    st.integers(16_000, 80_000).map(lambda n: ("text", '{"type":"hello","name":"'
                                                       + "x" * n + '"}')),
    st.sampled_from(["act", "ping", "hello", "join"])
    .map(lambda k: ("text", f'{{"type":"{k}","ref":' + "9" * 5000 + "}")),
    st.integers(16_000, 80_000).map(lambda n: ("text", '{"type":"lobby"' + " " * n + "}")),
    st.integers(10, 20_000).map(lambda n: ("text", '{"type":"lobby","tables":"'
                                                   + "x" * n + '"}')),
    st.integers(2, 120).map(lambda n: ("lobby-burst", n)),
    st.tuples(st.integers(2, 20), st.integers(0, 2**31 - 1),
              st.text("abc-_.:19", min_size=1, max_size=40), st.sampled_from(
                  [{"type": "draw"}, {"type": "play", "card": "7±2", "seen": 0}, "draw"]))
    .map(lambda r: ("repeat", (r[0], json.dumps({"type": "act", "ref": r[1], "id": r[2],
                                                  "action": r[3]})))),
)


# The test ---------------------------------------------------------------------------------


@settings(max_examples=250, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(frame=frames)
def test_fuzzed_frames_change_nothing(arena: Arena, frame: tuple[str, Any]) -> None:
    kind, payload = frame
    if kind == "lobby-burst":
        lobby_burst(arena, payload)
        return
    if kind == "repeat":  # the same act (ref and id) again and again: refused alike each time
        times, text = payload
        for _ in range(times):
            arena.fuzzer.send(text)
        replies = arena.barrier(lists=False)
        assert [m["type"] for m in replies] == ["error"] * times, replies
        assert len({json.dumps(m, sort_keys=True) for m in replies}) == 1, replies
        assert replies[0]["code"] in ERRORS
        assert arena.snapshot() == arena.before
        return
    if kind == "text":
        try:
            parsed = json.loads(payload)
        except (ValueError, RecursionError):
            parsed = None
        if isinstance(parsed, dict):
            assume(parsed.get("type") != "watch" or str(parsed.get("code")).upper() not in
                   (arena.paused_code, arena.bots_code))
            assume(parsed.get("type") != "create" or str(parsed.get("game")) not in GAMES)
    too_big = len(payload.encode() if isinstance(payload, str) else payload) > 65_536
    arena.fuzzer.send(payload, text=kind != "binary")
    if kind == "not-utf8" or too_big:  # the server hangs up: 1007 or 1009
        with pytest.raises(ConnectionClosed) as closed:
            arena.fuzzer.recv(5)
        code = closed.value.rcvd.code if closed.value.rcvd else None
        # uvicorn closes the socket right after its close frame: it may arrive, or a reset
        assert code in (None, 1007 if kind == "not-utf8" else 1009), (code, kind)
        arena.reconnect()
    else:
        replies = arena.barrier(lists=False)
        assert [m["type"] for m in replies] in ([], ["error"], ["pong"]), replies
        for message in replies:
            if message["type"] == "error":
                assert message["code"] in ERRORS, message
    assert arena.snapshot() == arena.before


def lobby_burst(arena: Arena, count: int) -> None:
    """``count`` lobby requests at once: the list comes at most once per version of it (once
    more only if it changed meanwhile), and the fuzzer's outbox stays within its bound."""
    lobby = arena.live.state.lobby
    before = lobby.version
    for _ in range(count):
        arena.fuzzer.send('{"type":"lobby"}')
    replies = arena.barrier()
    lists = [m for m in replies if m["type"] == "lobby"]
    assert len(lists) == len(replies) and len(lists) <= 1 + lobby.version - before, replies
    limits = arena.live.state.config.limits
    assert all(c.most_queued <= limits.backlog_bytes for c in list(arena.live.state.connections))
    assert arena.snapshot() == arena.before


def test_after_the_fuzzing_the_games_and_the_others_saw_nothing(arena: Arena) -> None:
    test_fuzzed_frames_change_nothing(arena)  # type: ignore[call-arg]  # run the fuzzing first
    room = arena.live.state.lobby.rooms[arena.bots_code]
    played = len(room.table.log)
    deadline = time.monotonic() + 15  # long enough for a pause between rounds
    while len(room.table.log) == played and room.phase.value != "over" \
            and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(room.table.log) > played or room.phase.value == "over"  # the bots play on
    assert arena.snapshot() == arena.before  # the paused table did not move
    got = []
    with contextlib.suppress(TimeoutError):
        while True:
            got.append(json.loads(arena.watcher.recv(0.2)))
    assert [m for m in got if m["type"] != "ping"] == []  # its watcher got nothing but probes
    health = httpx.get(f"http://127.0.0.1:{arena.live.port}/healthz").json()
    assert health["ok"] is True and health["tables"] == 2
    assert arena.barrier(lists=False) == []
