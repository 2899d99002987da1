"""Where people meet is the whole cluster's, not one process's: two people seeking a rated
game on different processes are matched, a table waiting for its players outlives its
process (``kill -9``), and the lobby counts a person connected to two processes once."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import redis

from cluster.harness import LEASE, Cluster, Roamer, create, first_event, lobby, until

pytestmark = [pytest.mark.cluster, pytest.mark.wallclock]

SLOW = 60.0
"""Seconds a step of the Redis outage may take on a busy machine (a bound, not a pace:
noticing the outage, the reconnection and the renewal of the tickets run on lease timers)."""


def sent(player: Roamer, kind: str, start: int = 0, **fields: Any) -> dict[str, Any] | None:
    """The first message ``kind`` with these ``fields`` the player was sent (from ``start``)."""
    return next((m for m in player.seen[start:] if m["type"] == kind
                 and all(m.get(k) == v for k, v in fields.items())), None)


async def claim(player: Roamer) -> None:
    """The player claims their name at the server they are on (rated play is for claimed
    names): the player object there is claimed from now on."""
    async with httpx.AsyncClient(timeout=20) as http:
        answer = await http.post(f"{player.at}/api/account/claim",
                                 json={"name": player.name, "password": "meeting-pass"},
                                 headers={"Authorization": f"Bearer {player.token}"})
    assert answer.status_code == 200, answer.text


def online(watcher: Roamer) -> int | None:
    """How many people the watcher's latest lobby says are connected."""
    found = next((m for m in reversed(watcher.seen) if m["type"] == "lobby"), {})
    return found.get("online")


async def test_two_people_seeking_on_different_processes_are_matched(cluster: Cluster) -> None:
    a, b = await cluster.start("A", "B")
    anna, ben = Roamer("Anna", a.url), Roamer("Ben", b.url)
    for player in (anna, ben):
        await player.start()
        await claim(player)
    await anna.send(type="seek", game="unter-spannung", players=2)
    await anna.wait_for(lambda: sent(anna, "queue"), 20)
    await ben.send(type="seek", game="unter-spannung", players=2)
    told = [await p.wait_for(lambda p=p: sent(p, "unqueued", reason="matched"), 30)
            for p in (anna, ben)]
    code = told[0]["code"]
    assert code and told[1]["code"] == code
    made = await first_event([a, b], "queue_matched", 10, code=code)
    assert made["elsewhere"] == 1
    here, there = (anna, ben) if made["node"] == "A" else (ben, anna)
    owner = a if made["node"] == "A" else b
    # the one on the table's process is shown it; the other is sent there and asks for it
    await here.wait_for(lambda: sent(here, "table"), 20)
    await until(lambda: bool(there.hops), 30)
    assert there.moves == [{"type": "moved", "code": code, "url": owner.ws}]
    shown = await there.go("watch", code)
    assert there.at == owner.url
    seats = shown["table"]["seats"]
    assert {seat["name"] for seat in seats} == {"Anna", "Ben"} and shown["table"]["rated"]
    assert shown["table"]["you"] is not None and shown["table"]["match"]
    assert here.last("table")["table"]["match"] == shown["table"]["match"]
    queue = redis.Redis.from_url(cluster.redis.url, decode_responses=True)
    try:
        assert queue.hlen("zackzack:queue") == 0  # nobody waits any more
    finally:
        queue.close()
    for player in (anna, ben):
        await player.close()


async def test_a_waiting_table_outlives_a_kill_9_of_its_process(cluster: Cluster) -> None:
    a, b, c = await cluster.start("A", "B", "C")
    anna, ben = Roamer("Anna", home=a.url), Roamer("Ben", home=c.url)
    await anna.start(at=b.url)  # as if a link had brought her there
    await ben.start()
    code = await create(anna, [{"kind": "open"}, {"kind": "open"},
                               {"kind": "bot", "bot": "beginner"}], countdown_ms=300)
    await ben.go("join", code, seat=None)
    assert ben.at == b.url
    await ben.send(type="ready", ready=True)
    await anna.wait_for(lambda: anna.last("table")["table"]["seats"][1]["ready"])
    described = redis.Redis.from_url(cluster.redis.url, decode_responses=True)
    try:  # its description is in Redis (written within half a second of a change)
        await until(lambda: '"ready":true' in (described.hget("zackzack:waiting", code)
                                               or "").split('"kind":"human"', 2)[-1], 20)
    finally:
        described.close()

    starts = {p.name: len(p.seen) for p in (anna, ben)}
    b.kill()
    made = await first_event([a, c], "table_recreated", LEASE * 3 + 30, code=code)
    owner = a if made["node"] == "A" else c
    for player in (anna, ben):  # each went home and was sent to (or found it at) the owner
        await player.wait_for(lambda p=player: sent(p, "table", starts[p.name]) is not None
                              and p.at == owner.url, 60)
    table = anna.last("table")["table"]
    assert table["code"] == code and table["phase"] == "waiting" and table["you"] == 0
    assert [seat["name"] for seat in table["seats"]] == ["Anna", "Ben", "Bot (beginner)"]
    assert table["seats"][1]["ready"] and ben.last("table")["table"]["you"] == 1
    await anna.send(type="start")  # and it is the same table: its creator starts it
    match = await anna.wait_for(lambda: anna.last("table")["table"]["match"], 20)
    await ben.wait_for(lambda: ben.last("table")["table"]["match"] == match, 20)
    for player in (anna, ben):
        await player.close()


async def test_a_person_connected_to_two_processes_counts_once(cluster: Cluster) -> None:
    a, b, c = await cluster.start("A", "B", "C")
    carl, dora, anna = Roamer("Carl", c.url), Roamer("Dora", b.url), Roamer("Anna", a.url)
    for player in (carl, dora, anna):
        await player.start()
    tab = Roamer("Anna", b.url, token=anna.token)  # another tab of hers, on B
    await tab.start()
    assert tab.welcome["player"] == anna.welcome["player"]
    await carl.send(type="lobby")
    sets = redis.Redis.from_url(cluster.redis.url, decode_responses=True)
    try:  # both processes have her in their sets of people online
        nodes = [str(node.events("cluster_joined")[0]["node"]) for node in (a, b)]
        await until(lambda: all(sets.sismember(f"zackzack:online:{node}",
                                               anna.welcome["player"]) for node in nodes), 20)
    finally:
        sets.close()
    await carl.wait_for(lambda: online(carl) == 3, 20)  # Anna, Carl, Dora
    await dora.close()
    await carl.wait_for(lambda: online(carl) == 2, 20)  # Anna (twice connected) and Carl
    await anna.close()
    await tab.close()
    await carl.wait_for(lambda: online(carl) == 1, 20)
    assert lobby(carl) == {}
    await carl.close()


async def test_while_redis_is_down_seeking_is_refused_and_nobody_waiting_is_lost(
        cluster: Cluster) -> None:
    a, b = await cluster.start("A", "B")
    anna, ben = Roamer("Anna", a.url, patience=30), Roamer("Ben", b.url, patience=30)
    for player in (anna, ben):
        await player.start()
        await claim(player)
    await anna.send(type="seek", game="unter-spannung", players=2)
    queue = redis.Redis.from_url(cluster.redis.url, decode_responses=True)
    try:  # her ticket is in the cluster's queue
        await until(lambda: queue.hexists("zackzack:queue", anna.welcome["player"]), SLOW)
    finally:
        queue.close()

    cluster.redis.kill()
    await b.event("redis_unreachable", SLOW)
    start = len(ben.seen)
    await ben.send(type="seek", game="unter-spannung", players=2)
    refused = await ben.wait_for(lambda: sent(ben, "error", start), SLOW)
    assert refused["code"] == "cluster_unavailable"
    start = len(anna.seen)
    await anna.wait_for(lambda: sent(anna, "queue", start), SLOW)  # she waits on meanwhile
    assert not sent(anna, "unqueued")

    cluster.redis.start()  # empty
    for node in (a, b):
        await node.event("redis_back", SLOW)
    queue = redis.Redis.from_url(cluster.redis.url, decode_responses=True)
    try:  # her ticket is written again
        await until(lambda: queue.hexists("zackzack:queue", anna.welcome["player"]), SLOW)
    finally:
        queue.close()
    await ben.send(type="seek", game="unter-spannung", players=2)
    told = [await p.wait_for(lambda p=p: sent(p, "unqueued", reason="matched"), SLOW)
            for p in (anna, ben)]
    assert told[0]["code"] == told[1]["code"]
    for player in (anna, ben):
        await player.close()
