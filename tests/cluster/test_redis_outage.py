"""Redis dies and comes back (empty): the games go on meanwhile, ``/healthz`` says so, no
table changes hands, and afterwards the owners claim their tables again and every lobby
lists them."""

from __future__ import annotations

import asyncio
import time

import pytest

from cluster.harness import LEASE, Cluster, Node, Roamer, accepted, create, lobby, until
from zackzack.store import Store, database_url

pytestmark = [pytest.mark.cluster, pytest.mark.wallclock]


async def health(node: Node, redis: bool, seconds: float = 20) -> dict[str, object]:
    """Wait until ``/healthz`` of ``node`` says Redis is (not) reachable: its answer."""
    async with asyncio.timeout(seconds):
        while True:
            answer = await node.get("/healthz")
            body: dict[str, object] = answer.json()
            if body["redis"] is redis:
                assert answer.status_code == 200 and body["ok"] is redis
                return body
            await asyncio.sleep(0.1)


def node_id(node: Node) -> str:
    """The id the node joined the cluster with."""
    return str(node.events("cluster_joined")[0]["node"])


async def test_games_go_on_while_redis_is_down_and_are_listed_again_after(
        cluster: Cluster) -> None:
    a, b, c = await cluster.start("A", "B", "C")
    anna, bea = Roamer("Anna", a.url, patience=30), Roamer("Bea", b.url, patience=30)
    carl = Roamer("Carl", c.url)
    for player in (anna, bea, carl):
        await player.start()
    against_bot = [{"kind": "open"}, {"kind": "bot", "bot": "beginner"}]
    codes = {await create(anna, against_bot, tournament=True, countdown_ms=300): a,
             await create(bea, against_bot, tournament=True, countdown_ms=300): b}
    for player in (anna, bea):
        await player.send(type="start")
    await carl.send(type="lobby")
    await carl.wait_for(lambda: set(codes) <= lobby(carl).keys(), 20)
    for code, owner in codes.items():  # each owned by the process it was made on
        assert cluster.redis.get(f"zackzack:table:{code}") == node_id(owner)
    health_before = await health(c, True)
    assert health_before["database"] is True and health_before["node"]

    stop = asyncio.Event()
    # they only draw, slowly: the slow bot wins each round, and the match lasts a minute
    game = asyncio.gather(*(p.play(stop.is_set, 0.5, hold=lambda: True) for p in (anna, bea)))
    await until(lambda: anna.accepted >= 2 and bea.accepted >= 2, 60)

    cluster.redis.kill()
    down = time.monotonic()
    assert (await health(a, False))["database"] is True
    await a.event("redis_unreachable", 20)
    await until(lambda: time.monotonic() - down > 2 * LEASE + 1, 30)  # the leases ran out
    before = {anna.name: anna.accepted, bea.name: bea.accepted}
    await until(lambda: anna.accepted >= before[anna.name] + 2
                and bea.accepted >= before[bea.name] + 2, 60)  # and play goes on
    assert (await health(b, False))["ok"] is False  # Redis was down all the while
    assert not anna.hops and not bea.hops  # nobody was moved or dropped

    cluster.redis.start()  # empty
    for node in (a, b, c):
        await node.event("redis_back", 30)
    await health(c, True)
    for code, owner in codes.items():  # the owners claim their tables again
        await until(lambda code=code, owner=owner: cluster.redis.get(
            f"zackzack:table:{code}") == node_id(owner), 20)
    dora = Roamer("Dora", c.url)  # a new look at C's lobby
    await dora.start()
    await dora.send(type="lobby")
    await dora.wait_for(lambda: set(codes) <= lobby(dora).keys(), 20)
    after = {anna.name: anna.accepted, bea.name: bea.accepted}
    await until(lambda: anna.accepted > after[anna.name] and bea.accepted > after[bea.name], 30)
    stop.set()
    async with asyncio.timeout(30):
        await game
    for node in (a, b, c):  # no table changed hands
        assert not node.events("table_taken_over") and not node.events("table_lost")
    assert not anna.hops and not bea.hops

    store = Store(database_url(cluster.db))
    try:
        for player in (anna, bea):
            match = player.last("table")["table"]["match"]
            log = store.log(match, finished=False)
            assert log is not None and accepted(log, 0) >= player.accepted
    finally:
        store.close()
    for player in (anna, bea, carl, dora):
        await player.close()
