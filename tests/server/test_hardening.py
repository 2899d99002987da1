"""Issue 15, points 1, 2 and 7: outboxes bounded in bytes, one shared lobby text per change
with slim entries, sooner closing of abandoned waiting tables, new players limited per
address, one ``table`` message per real change, the stand-in glitch, and ``bad_field``."""

from __future__ import annotations

import asyncio
import json
import tracemalloc
from typing import Any

from server.kit import Client, World, run_async, two_at_a_table, us_action
from server.test_connection import FakeSocket, until
from zackzack.engine.clock import VirtualClock
from zackzack.engine.table import Settings
from zackzack.games import unter_spannung as us
from zackzack.server.botmaker import Bots
from zackzack.server.connection import TOO_SLOW, Connection, ConnectionState
from zackzack.server.identity import Identities
from zackzack.server.limits import Limits
from zackzack.server.lobby import Lobby, Timing
from zackzack.server.protocol import MAX_MESSAGE_CHARS
from zackzack.server.session import Session
from zackzack.store import Store

DECK = [str(card) for card in us.STANDARD_DECK * 30][:2100]
"""The audit's custom deck: 2,100 cards."""
CREATE_BIG = json.dumps({"type": "create", "game": "unter-spannung", "options": {"deck": DECK},
                         "seats": [{"kind": "open"}, {"kind": "open"}]},
                        ensure_ascii=False, separators=(",", ":"))
"""A table with that deck and open seats, as one message that is short enough to be read."""


def test_the_audit_deck_fits_in_one_message() -> None:
    assert len(DECK) == 2100 and len(CREATE_BIG) <= MAX_MESSAGE_CHARS


def create_big(client: Client) -> str:
    """``client`` creates a table with the 2,100-card deck; its code."""
    client.session.receive(CREATE_BIG)
    return str(client.table["code"])


def arrived(*clients: Client) -> list[int]:
    """How many messages each client has had so far."""
    return [len(client.inbox) for client in clients]


# Point 7: the error code -----------------------------------------------------------------


def test_a_wrong_field_inside_a_message_is_bad_field_not_bad_json(store: Store) -> None:
    anna = World(store).client("Anna")
    replies = anna.send(type="act", ref=7, action="draw")
    assert [(m["type"], m["code"], m["ref"]) for m in replies] == [("error", "bad_field", 7)]
    assert anna.error(type="create", game="schnelllauf", seats=[1, 2]) == "bad_field"
    assert anna.error(type="create", game="schnelllauf", options=[]) == "bad_field"
    for frame in ("[1, 2]", "7", '"act"'):  # not an object at all: still bad_json
        anna.session.receive(frame)
        assert anna.inbox[-1]["code"] == "bad_json"


# Point 7: the stand-in glitch ------------------------------------------------------------


def test_the_first_table_message_after_a_return_shows_no_stand_in(store: Store) -> None:
    world = World(store)
    anna, ben, code = two_at_a_table(world)
    anna.send(type="start")
    world.wait(3.2)
    ben.session.close()
    world.wait(20.5)  # Ben's stand-in plays by now
    assert anna.table["seats"][1]["bot"] == "normal"
    before = len(anna.inbox)
    back = world.client("Ben", token=ben.welcome["token"])
    back.hold_pings = True  # (an answer would measure his lag: a change of its own)
    got = back.send(type="watch", code=code)
    tables = [m["table"] for m in got if m["type"] == "table"]
    assert len(tables) == 1 and tables[0]["seats"][1]["bot"] is None
    assert tables[0]["seats"][1]["connected"] is True
    told = [m["table"] for m in anna.inbox[before:] if m["type"] == "table"]
    assert len(told) == 1  # one real change: one message, and it is right the first time
    assert told[0]["seats"][1]["bot"] is None and told[0]["seats"][1]["connected"] is True


# Point 2: one table message per real change ----------------------------------------------


def test_watching_again_what_one_watches_sends_nothing_to_anyone(store: Store) -> None:
    world = World(store)
    anna, ben, code = two_at_a_table(world)
    carla = world.client("Carla")
    carla.send(type="watch", code=code)
    anna.send(type="start")
    world.wait(3.2)
    assert anna.table["watchers"] == 1
    before = arrived(anna, ben, carla)
    for _ in range(38):  # the audit's spectator
        carla.send(type="watch", code=code.lower())
        anna.send(type="watch", code=code)  # a seated player too
        anna.send(type="join", code=code, seat=None)  # and a join back to one's own seat
    tables = [[m for m in client.inbox[start:] if m["type"] == "table"]
              for client, start in zip((anna, ben, carla), before, strict=True)]
    assert tables == [[], [], []]
    assert world.lobby.rooms[code].watchers() == 1
    carla.send(type="leave")  # a real change: one table message each
    assert [len([m for m in c.inbox[start:] if m["type"] == "table"])
            for c, start in zip((anna, ben), before[:2], strict=True)] == [1, 1]
    assert anna.table["watchers"] == 0


def test_a_watcher_who_takes_a_seat_is_one_change(store: Store) -> None:
    world = World(store, settings=Settings())
    anna = world.client("Anna")
    anna.send(type="create", game="unter-spannung", seats=[{"kind": "open"}] * 3)
    code = anna.table["code"]
    ben = world.client("Ben")
    ben.send(type="watch", code=code)
    before = arrived(anna, ben)
    ben.send(type="join", code=code, seat=2)
    assert [m["type"] for m in anna.inbox[before[0]:]] == ["table"]
    assert [m["type"] for m in ben.inbox[before[1]:]] == ["table"]
    assert ben.table["you"] == 2 and anna.table["seats"][2]["player"] == ben.player
    assert anna.table["watchers"] == 0


# Point 1: the lobby -----------------------------------------------------------------------


def test_lobby_entries_are_slim_and_the_table_has_the_whole_options(store: Store) -> None:
    world = World(store)
    anna = world.client("Anna")
    code = create_big(anna)
    assert len(anna.table["options"]["deck"]) == 2100  # the table message has everything
    carla = world.client("Carla")
    carla.send(type="create", game="schnelllauf",
               options={"pile_size": [3, 4], "one_hand_seats": [False, True], "wrap": False})
    dora = world.client("Dora")
    entries = {t["code"]: t for t in dora.send(type="lobby")[-1]["tables"]}
    assert entries[code]["options"] == {"players": 2, "tournament": False, "penalty_ms": 1000,
                                        "countdown_ms": 1500}
    assert entries[carla.table["code"]]["options"] == {
        "players": 2, "jokers": 3, "wrap": False, "max_rounds": 200, "penalty_ms": 1000,
        "countdown_ms": 1500}
    assert len(dora.texts[-1]) < 1200  # two tables; the audit's entry alone was 16 KB


def test_the_lobby_text_is_made_once_per_change_and_shared(store: Store) -> None:
    world = World(store)
    anna = world.client("Anna")
    create_big(anna)
    readers = [world.client(f"Leser {i}") for i in range(5)]
    version = world.lobby.version
    for reader in readers:
        reader.send(type="lobby")
    texts = [reader.texts[-1] for reader in readers]
    assert all(text is texts[0] for text in texts)  # one text for every reader
    assert world.lobby.version == version + 1
    before = arrived(*readers)
    for _ in range(100):  # asking faster than the list changes: nothing new
        for reader in readers:
            reader.send(type="lobby")
    world.wait(1)
    assert arrived(*readers) == before and world.lobby.version == version + 1
    for _ in range(10):  # ten changes within 100 ms: one new text for all
        world.client("Ben").send(type="create", game="schnelllauf")
    world.wait(0.2)
    assert [n - b for n, b in zip(arrived(*readers), before, strict=True)] == [1] * 5
    assert world.lobby.version == version + 2
    assert len(readers[0].last("lobby")["tables"]) == 11
    readers[0].send(type="watch", code=anna.table["code"])  # away and back: the list again
    assert readers[0].send(type="lobby")[-1]["type"] == "lobby"
    assert readers[0].texts[-1] is readers[1].texts[-1]


def test_a_waiting_table_its_creator_left_closes_after_a_minute(store: Store) -> None:
    world = World(store, settings=Settings())
    anna, ben = world.client("Anna"), world.client("Ben")
    left = create_big(anna)
    anna.send(type="leave")  # the browser's lobby page
    stays = create_big(ben)  # Ben waits at his table
    running = world.client("Carla")
    running.send(type="create", game="schnelllauf",
                 seats=[{"kind": "bot", "bot": "beginner"}, {"kind": "bot", "bot": "beginner"}])
    running.send(type="start")
    running.send(type="leave")
    world.wait(59)
    assert world.lobby.sweep() == []
    world.wait(2)
    assert world.lobby.sweep() == [left]
    assert sorted(world.lobby.rooms) == sorted([stays, running.table["code"]])
    ben.session.close()
    world.wait(61)
    assert world.lobby.sweep() == [stays]  # nobody else was there either


def test_new_players_are_limited_per_address(store: Store) -> None:
    world = World(store, limits=Limits(new_players_burst=3, new_players_rate=0.1))
    first = [world.client(f"Neu {i}", address="198.51.100.7") for i in range(3)]
    assert all(c.welcome["type"] == "welcome" for c in first)
    fourth = world.client(None, address="198.51.100.7")
    replies = fourth.send(type="hello", token=None, name="Neu 3")
    assert replies[-1]["type"] == "error" and replies[-1]["code"] == "too_many_new_players"
    assert "10 s" in replies[-1]["reason"]
    assert fourth.error(type="lobby") == "hello_first"  # not greeted; nothing was made
    unknown = fourth.send(type="hello", token="p_nobody.secret", name="Neu 3")  # not a way in
    assert unknown[-1]["code"] == "too_many_new_players"
    # The same address may come back with a token; others may make players.
    back = world.client("Neu 0", token=first[0].welcome["token"], address="198.51.100.7")
    assert back.player == first[0].player
    assert world.client("Elsewhere", address="203.0.113.9").welcome["type"] == "welcome"
    assert world.client("No address").welcome["type"] == "welcome"  # unknown: not limited
    world.wait(10)  # one more after 1 / rate seconds
    assert fourth.send(type="hello", token=None, name="Neu 3")[-1]["type"] == "welcome"
    assert world.client(None, address="198.51.100.7").error(
        type="hello", name="Neu 4") == "too_many_new_players"
    world.wait(60)
    world.lobby.sweep()
    assert len(world.lobby.newcomers) == 0  # full buckets are forgotten


def test_new_players_are_not_limited_with_a_burst_of_zero(store: Store) -> None:
    world = World(store, limits=Limits(new_players_burst=0))
    assert all(world.client(f"N{i}", address="10.1.1.1").welcome["type"] == "welcome"
               for i in range(50))


# Point 1: the audit's amplification, bounded ----------------------------------------------


class TerseSocket(FakeSocket):
    """A fake socket that keeps only the type of what it got and the latest text of each type
    (so that the test's own copies of what it read do not count as the server's memory)."""

    def __init__(self, *, reading: bool = True) -> None:
        super().__init__(reading=reading)
        self.latest: dict[str, str] = {}

    async def send_text(self, text: str) -> None:
        await self.reading.wait()
        kind = json.loads(text)["type"]
        self.sent.append({"type": kind})
        self.latest[kind] = text


class Peer:
    """A connection with a fake socket on a lobby whose clock is virtual."""

    def __init__(self, lobby: Lobby, identities: Identities, limits: Limits,
                 clock: VirtualClock, *, reading: bool = True, keep: bool = True,
                 address: str = "192.0.2.1") -> None:
        self.socket = FakeSocket(reading=reading) if keep else TerseSocket(reading=reading)
        self.connection = Connection(
            self.socket,  # type: ignore[arg-type]
            lambda c: Session(lobby, identities, "http://test", c.send), limits, clock,
            before_send=lobby.journal.flush, peer=f"{address}:40000")
        self.task = asyncio.create_task(self.connection.serve())

    def feed(self, text: str) -> None:
        self.socket.incoming.put_nowait({"type": "websocket.receive", "text": text})

    def send(self, **message: Any) -> None:
        self.feed(json.dumps(message))

    async def settle(self) -> None:
        """Let the connection read what it was fed."""
        await until(lambda: self.socket.incoming.empty())
        for _ in range(3):
            await asyncio.sleep(0)


async def amplification(store: Store) -> dict[str, Any]:
    """Six identities open 24 tables with the 2,100-card deck; Nora's websocket never reads
    and asks for the lobby 18 times a second for 14 s while the list keeps changing (a seat
    is taken and given up again and again). Lea reads the lobby, Anna plays against a bot."""
    clock = VirtualClock()
    limits = Limits()
    # (Each creator moves on to its next table: a long reconnect grace keeps all 24 listed.)
    lobby = Lobby(clock=clock, store=store, bots=Bots(), settings=Settings(), limits=limits,
                  timing=Timing(reconnect_grace=3600))
    identities = Identities(store)

    def peer(reading: bool = True, keep: bool = True) -> Peer:
        return Peer(lobby, identities, limits, clock, reading=reading, keep=keep)

    creators = [peer(keep=False) for _ in range(6)]
    for i, creator in enumerate(creators):
        creator.send(type="hello", name=f"Mallory {i}")
        for _ in range(4):
            creator.feed(CREATE_BIG)
        await creator.settle()
    assert len(lobby.rooms) == 24
    codes = list(lobby.rooms)
    anna, lea, nora = peer(), peer(keep=False), peer(reading=False)
    churn = peer(keep=False)
    anna.send(type="hello", name="Anna")
    anna.send(type="create", game="unter-spannung",
              seats=[{"kind": "open"}, {"kind": "bot", "bot": "beginner"}])
    anna.send(type="start")
    for one, name in ((lea, "Lea"), (nora, "Nora"), (churn, "Churn")):
        one.send(type="hello", name=name)
    lea.send(type="lobby")
    for one in (anna, lea, nora, churn):
        await one.settle()
    clock.run(until=clock.time() + 3.5)  # Anna's match starts
    version = lobby.version
    lea_socket = lea.socket
    assert isinstance(lea_socket, TerseSocket)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    refs = 0
    for step in range(18 * 14):
        nora.send(type="lobby")
        if step % 4 == 0:  # the list changes about nine times a second: a seat is taken
            churn.send(type="join", code=codes[step % 24], seat=None)
        elif step % 2 == 0:  # and given up again
            churn.send(type="leave")
        if step % 9 == 0:  # Anna plays on, twice a second
            view = anna.socket.of("events")[-1]["view"] if anna.socket.of("events") \
                else anna.socket.of("table")[-1]["view"]
            anna.send(type="act", ref=refs, action=us_action(view) or {"type": "draw"})
            refs += 1
        for one in (nora, churn, anna):
            await one.settle()
        assert nora.connection.queued <= limits.backlog_bytes
        clock.run(until=clock.time() + 1 / 18)
        await lea.settle()
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    await until(lambda: len(anna.socket.of("ack")) == refs)
    result = {
        "versions": lobby.version - version, "lea": len(lea.socket.of("lobby")),
        "lea_last": json.loads(lea_socket.latest["lobby"]),
        "listing": json.loads(lobby.listing_text()),
        "list_chars": len(lobby.listing_text()), "most_queued": nora.connection.most_queued,
        "dropped": nora.connection.dropped, "nora": nora.connection.state, "peak": peak,
        "acks": anna.socket.of("ack"), "phase": lobby.rooms[anna.socket.of("table")[0]
                                                           ["table"]["code"]].phase.value,
        "limits": limits, "queued": nora.connection.queued}
    clock.run(until=clock.time() + limits.stuck_seconds + 1)  # Nora is closed as stuck
    await asyncio.wait_for(nora.task, 5)
    result["closed"] = nora.socket.closed_with
    result["swept"] = len(lobby.sweep())  # 18 waiting tables nobody looks at
    for one in (anna, lea, churn, *creators):
        one.socket.incoming.put_nowait({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(one.task, 5)
    return result


def test_the_audits_lobby_amplification_is_bounded(store: Store) -> None:
    got = run_async(amplification(store))
    limits: Limits = got["limits"]
    # The list: 24 slim entries, a few KB (the audit's was 386 KB), encoded once per change.
    assert got["list_chars"] < 24 * 600
    assert 10 <= got["versions"] <= 14 / 0.1 + 2
    # Nora's outbox never held more than its byte bound; it overflowed and was dropped.
    assert got["most_queued"] <= limits.backlog_bytes
    assert got["dropped"] > 0 and got["nora"] is ConnectionState.BEHIND and got["queued"] == 0
    assert got["most_queued"] > limits.backlog_bytes // 2  # the bytes, not the 256 messages
    # The whole flood took far less memory than one audit lobby message per request would.
    assert got["peak"] < 2 * limits.backlog_bytes + (1 << 20), got["peak"]
    assert got["closed"] == TOO_SLOW and got["swept"] == 18
    # The others: Lea got every version, the latest last; Anna's acts were all answered.
    assert got["lea"] >= got["versions"] and got["lea_last"] == got["listing"]
    assert len(got["acks"]) == 28 and any(ack["ok"] for ack in got["acks"])
    assert got["phase"] in ("playing", "between", "over")
