"""The cluster layer in one process: leases, finding a table's owner, taking a dead one's
tables over, holding back while a lease is unconfirmed, and Redis going away and coming back
(a real ``redis-server``; whole server processes are in tests/cluster)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Iterable, Iterator

import pytest

from redis_server import Redis, redis_server
from server.kit import World, run_async
from zackzack.server.cluster import Cluster, ClusterConfig, NodeState, Revoked, ended
from zackzack.server.identity import token_hash
from zackzack.server.protocol import ProtocolError
from zackzack.store import Store

LEASE = 1.0


class Tables:
    """The lobby as the cluster sees it: a set of live codes and the store's playing matches."""

    def __init__(self, playing: dict[str, str] | None = None) -> None:
        self.live: set[str] = set()
        self.playing = playing or {}
        self.taken: list[str] = []
        self.gone: list[str] = []
        self.news = 0

    def state(self, node: str, url: str) -> NodeState:
        return NodeState(node=node, url=url, online=len(self.live), listed=[], seated={})

    def others_changed(self) -> None:
        self.news += 1

    def lost(self, codes: Iterable[str]) -> None:
        self.gone.extend(codes)
        self.live.difference_update(codes)

    def unfinished(self, code: str | None = None) -> dict[str, str]:
        return {found: match for found, match in self.playing.items() if code in (None, found)}

    def take_over(self, code: str, match_id: str) -> bool:
        self.taken.append(code)
        self.live.add(code)
        return True

    def holds(self, code: str) -> bool:
        return code in self.live

    def online_players(self) -> list[str]:
        return sorted(self.live)  # one "person" per table, for the count

    def waiting(self, node: str) -> dict[str, bytes]:
        return {}

    def revive(self, code: str, text: str) -> bool:
        return False

    def unhosted_arenas(self) -> list[str]:
        return []


@pytest.fixture
def redis() -> Iterator[Redis]:
    with redis_server() as server:
        yield server


def node(redis: Redis, port: int) -> Cluster:
    return Cluster(ClusterConfig(redis.url, f"http://127.0.0.1:{port}", lease=LEASE))


@contextlib.asynccontextmanager
async def two_nodes(redis: Redis) -> AsyncIterator[tuple[Cluster, Cluster, Tables, Tables]]:
    """Processes a (port 8001) and b (8002) in the cluster, with their tables."""
    a, b = node(redis, 8001), node(redis, 8002)
    at_a, at_b = Tables(), Tables()
    await a.start(at_a)
    await b.start(at_b)
    try:
        yield a, b, at_a, at_b
    finally:
        await a.stop()
        await b.stop()


async def eventually(condition: object, seconds: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():  # type: ignore[operator]
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.02)


def test_a_dead_owners_table_is_found_claimed_and_its_old_owner_stands_down(
        redis: Redis) -> None:
    run_async(dead_owner(redis))


async def dead_owner(redis: Redis) -> None:
    async with two_nodes(redis) as (a, b, at_a, at_b):
        code = a.take_code(private=False)
        at_a.live.add(code)
        assert await b.locate(code) == "ws://127.0.0.1:8001/ws"  # the owner's address
        await eventually(lambda: b.online(0) == 1 and "http://127.0.0.1:8001" in b.origins())
        with pytest.raises(ProtocolError) as unknown:
            await b.locate("NOSUCH")
        assert unknown.value.code == "no_such_table"

        for task in a._tasks:  # a dies (no goodbye): its keys run out
            task.cancel()
        at_b.playing = {code: "m1"}
        while await b.locate(code) is not None:  # the dead one's address, until it runs out
            await asyncio.sleep(0.1)  # (a client tries it, fails, and asks again)
        assert at_b.taken == [code] and redis.get(f"zackzack:table:{code}") == b.node

        a.valid_until = 0.0  # a wakes up from a pause longer than its lease
        ran: list[str] = []
        a.hold(lambda: 1 / 0)  # one held callback failing does not stop the others
        a.hold(lambda: ran.append("timer"))
        assert ran == []  # held until Redis has spoken
        await a._beat()
        assert code in at_a.gone and code not in a.owned
        await eventually(lambda: ran == ["timer"])

        other = b.take_code(private=False)  # b owns it, then lets it go (a rolling restart)
        a.owned.add(other)  # while a, paused, still thinks it is a's
        await b.stop()
        await a._beat()  # a missing key without a restart of Redis is not taken back
        assert other in at_a.gone and redis.get(f"zackzack:table:{other}") is None


def test_redis_going_away_stops_new_tables_not_running_ones(redis: Redis) -> None:
    run_async(redis_away(redis))


async def redis_away(redis: Redis) -> None:
    async with two_nodes(redis) as (a, b, at_a, at_b):
        code = a.take_code(private=True)
        at_a.live.add(code)
        redis.kill()
        await a._beat()
        assert not a.reachable and a.valid()  # play on: nobody can take it over meanwhile
        with pytest.raises(ProtocolError) as refused:
            a.take_code(private=False)
        assert refused.value.code == "cluster_unavailable"

        redis.start()  # empty again
        await a._beat()
        assert a.reachable and redis.get(f"zackzack:table:{code}") == a.node  # re-asserted
        at_b.playing = {code: "m1"}
        await b._beat()
        await b._adopt()  # a missing key right after a restart is no sign of a dead owner
        assert not await b._settled() and at_b.taken == [] and at_a.gone == []
        assert a.take_code(private=False)


def test_a_process_s_tasks_end_even_one_that_lost_its_cancellation() -> None:
    """redis-py can answer a call to a task cancelled meanwhile, and the cancellation is
    lost: the process must stop all the same (it hung in ``Cluster.stop``)."""

    async def main() -> None:
        lost: list[bool] = []

        async def beating() -> None:
            while True:
                try:
                    await asyncio.sleep(3600)
                except asyncio.CancelledError:
                    if lost:
                        raise
                    lost.append(True)  # as if the call had answered: it goes on

        tasks = [asyncio.create_task(beating()), asyncio.create_task(asyncio.sleep(3600))]
        await asyncio.sleep(0)
        await asyncio.wait_for(ended(tasks), 5)
        assert lost == [True] and all(task.cancelled() for task in tasks)

    run_async(main())


@pytest.mark.wallclock
def test_a_process_that_stood_still_past_its_lease_says_so_and_gives_its_tables_up(
        redis: Redis, caplog: pytest.LogCaptureFixture) -> None:
    run_async(stood_still(redis, caplog))


async def stood_still(redis: Redis, caplog: pytest.LogCaptureFixture) -> None:
    async with two_nodes(redis) as (a, _, at_a, _):
        code = a.take_code(private=True)
        at_a.live.add(code)
        with caplog.at_level(logging.INFO, logger="zackzack.events"):
            time.sleep(LEASE * 1.5)  # its loop stands still (a slow commit, a busy machine)
            await eventually(lambda: code in at_a.gone)  # (and its pool of unused codes)
        late = [record for record in caplog.records if record.getMessage() == "heartbeat_late"]
        assert len(late) == 1 and late[0].levelno == logging.WARNING
        assert LEASE < late[0].fields["late_s"] + LEASE / 3 < LEASE * 2  # type: ignore[attr-defined]


def test_a_sign_out_on_one_process_reaches_the_others(redis: Redis, store: Store) -> None:
    run_async(signed_out_elsewhere(redis, store))


async def signed_out_elsewhere(redis: Redis, store: Store) -> None:
    world = World(store)  # b's players (the store is shared)
    anna = world.client("Anna")
    token = anna.welcome["token"]
    assert world.identities.by_token(token) is not None
    heard: list[Revoked] = []
    async with two_nodes(redis) as (a, b, _, _):
        b.on_revoked = heard.append
        store.drop_token(token_hash(token))  # a signs her out: a's store call and message
        a.revoke([token_hash(token)])
        await eventually(lambda: bool(heard))
        assert heard == [Revoked(tokens=[token_hash(token)], player=None)]
        assert world.identities.by_token(token) is not None  # b's cache still knows it...
        world.identities.revoked(heard[0].tokens, heard[0].player)
        assert world.identities.by_token(token) is None  # ...until it hears of the sign-out
