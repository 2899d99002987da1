"""Redis dies and comes back (empty, on the same port: a restart): the games go on meanwhile,
``/healthz`` says so, no table changes hands, and afterwards the owners claim their tables
again and every lobby lists them. A quick restart (Redis is back within the lease) in the
middle of a short match: the players, never dropped, play it to the end, every acknowledged
action is in the stored log and the match is stored once (issue 26)."""

from __future__ import annotations

import asyncio
import time

import pytest

from cluster.harness import (
    LEASE,
    Cluster,
    Node,
    Roamer,
    accepted,
    create,
    ended,
    lobby,
    over,
    stored_log,
    stored_once,
    until,
)
from zackzack.store import Store, database_url

pytestmark = [pytest.mark.cluster, pytest.mark.wallclock]

RECOVERY = 5.0
"""Seconds from Redis's return to each table's next event, at most (issue 26: the tables never
stop, so this is what a player sees of the restart: nothing)."""


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

    cluster.redis.start()  # empty, on the same port
    back = time.monotonic()
    seen = {player.name: len(player.seen) for player in (anna, bea)}
    recovered = {}
    for player in (anna, bea):
        await player.wait_for(lambda p=player: any(
            m["type"] == "events" for m in p.seen[seen[p.name]:]), RECOVERY + 10)
        recovered[player.name] = time.monotonic() - back
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
    claimed = time.monotonic() - back
    stop.set()
    async with asyncio.timeout(30):
        await game
    print(f"Redis back -> next event: {max(recovered.values()):.2f} s "
          f"({', '.join(f'{k} {v:.2f} s' for k, v in recovered.items())}); "
          f"tables claimed again and listed, and played on: {claimed:.2f} s")
    assert max(recovered.values()) <= RECOVERY
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


async def test_a_quick_redis_restart_mid_match(cluster: Cluster) -> None:
    """Redis restarted (``kill -9``, started again at once, empty) while a match is played:
    its owner re-asserts its key at the next renewal (nobody else may take a missing key for
    a lease and a third), the table never stops, and its match ends and is stored once."""
    a, b = await cluster.start("A", "B")
    anna, ben = Roamer("Anna", a.url), Roamer("Ben", b.url)  # Ben watches from B
    for player in (anna, ben):
        await player.start()
    code = await create(anna, [{"kind": "open"}, {"kind": "bot", "bot": "pro"}],
                        countdown_ms=300)
    await anna.send(type="start")
    match = await anna.wait_for(lambda: anna.last("table")["table"]["match"], 20)
    await ben.go("watch", code)
    assert ben.at == a.url  # (moved there)
    game = asyncio.create_task(anna.play(over(anna), 0.1))
    await until(lambda: anna.accepted >= 3, 30)

    cluster.redis.kill()
    cluster.redis.start()  # empty, on the same port
    back = time.monotonic()
    seen = {player.name: len(player.seen) for player in (anna, ben)}
    recovered = {}
    for player in (anna, ben):
        await player.wait_for(lambda p=player: any(
            m["type"] == "events" for m in p.seen[seen[p.name]:]) or over(p)(), RECOVERY + 10)
        recovered[player.name] = time.monotonic() - back
    await until(lambda: cluster.redis.get(f"zackzack:table:{code}") == node_id(a), 20)
    claimed = time.monotonic() - back
    async with asyncio.timeout(120):
        await game
    await ben.wait_for(over(ben), 20)
    print(f"Redis restarted -> next event: {max(recovered.values()):.2f} s "
          f"({', '.join(f'{k} {v:.2f} s' for k, v in recovered.items())}); "
          f"key re-asserted: {claimed:.2f} s")
    assert max(recovered.values()) <= RECOVERY
    summary = await stored_once(b, code, match)
    assert summary["status"] == "over" and summary["result"] == ended(anna)["result"]
    assert accepted(await stored_log(b, match), 0) >= anna.accepted  # none lost
    assert [e["match"] for e in a.events("match_stored")] == [match]
    for node in (a, b):
        assert not node.events("table_taken_over") and not node.events("table_lost")
        assert not node.events("match_stored") or node is a
    assert not anna.hops and ben.hops == [a.url]  # nobody dropped (Ben: the one move)
    for player in (anna, ben):
        await player.close()
