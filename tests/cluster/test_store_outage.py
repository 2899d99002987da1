"""PostgreSQL stopped and started under a cluster in the middle of a match (issue 26): the
table's people (seated and watching, on the owner's process) are told why it stands still,
it goes on by itself within the fault + 5 s, every acknowledged action is in the stored log
and the match is stored once; nobody takes the table over. And its process killed during the
outage: once PostgreSQL is back another process takes the table over from the journal, and the
match goes on there, ends, and is stored once."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cluster.harness import (
    LEASE,
    Cluster,
    Node,
    Roamer,
    accepted,
    create,
    ended,
    first_event,
    over,
    stored_log,
    stored_once,
    until,
)
from pg import pg_ctl

pytestmark = [pytest.mark.cluster, pytest.mark.wallclock]

OUTAGE = 4.0
"""Seconds PostgreSQL stays down."""
RECOVERY = 5.0
"""Seconds from PostgreSQL's return to the table's next event, at most (issue 26)."""
TAKEOVER = 2 * LEASE + 5
"""Seconds from PostgreSQL's return to the table's next event at another process, when its
own died during the outage: its lease runs out, another claims it at its next look (every
third of a lease), restores it, and it resumes (3 s) when its player is back."""


def plain_lines(*nodes: Node) -> list[str]:
    """The lines of the nodes' standard error that are not JSON lines (or the CLI's own)."""
    return [line for node in nodes for line in node.stderr.read_text().splitlines()
            if not line.startswith("{") and not line.startswith("zackzack:")]


def told(player: Roamer, code: str, start: int = 0) -> bool:
    """Whether ``player`` was sent the notice ``code`` (from ``start`` on)."""
    return any(m["type"] == "notice" and m["code"] == code for m in player.seen[start:])


def held(fault: asyncio.Event) -> Callable[[], bool]:
    """Whether a player only draws: until ``fault`` is set (she cannot end the round first)."""
    return lambda: not fault.is_set()


def events_after(player: Roamer, start: int) -> bool:
    """Whether ``player`` was sent an event (of its table) from ``start`` on."""
    return any(m["type"] == "events" for m in player.seen[start:])


async def playing(cluster: Cluster, anna: Roamer, ben: Roamer, at: str) -> tuple[str, str]:
    """Anna plays a short match against a bot on the process ``at``; Ben watches it (sent
    there by ``moved``). The table's code and match."""
    await anna.start(at=at)
    await ben.start()
    # The slowest bot, and Anna only draws until the fault (``held``): the round outlasts it
    # however slowly a busy machine lets her play (a quicker bot once won before she had).
    code = await create(anna, [{"kind": "open"}, {"kind": "bot", "bot": "beginner"}],
                        countdown_ms=300)
    await anna.send(type="start")
    match: str = await anna.wait_for(lambda: anna.last("table")["table"]["match"], 20)
    await ben.go("watch", code)
    assert ben.at == at
    return code, match


@pytest.fixture
def postgres_back(cluster: Cluster) -> Iterator[None]:
    """PostgreSQL runs again after the test, whatever happened (the server is the session's)."""
    yield
    with contextlib.suppress(subprocess.CalledProcessError):
        pg_ctl(cluster.db, "start")  # (fails if it runs: it was started again)


@pytest.mark.usefixtures("postgres_back")
async def test_postgres_stopped_and_started_under_a_cluster(cluster: Cluster) -> None:
    a, b = await cluster.start("A", "B")
    anna = Roamer("Anna", a.url, patience=60)  # acks wait while the store is away
    ben = Roamer("Ben", b.url)
    code, match = await playing(cluster, anna, ben, a.url)
    stopped = asyncio.Event()
    game = asyncio.create_task(anna.play(over(anna), 0.1, hold=held(stopped)))
    await until(lambda: anna.accepted >= 3, 30)

    assert anna.view.get("phase") == "playing", anna.view.get("phase")
    pg_ctl(cluster.db, "stop")
    stopped.set()
    down = time.monotonic()
    for player in (anna, ben):
        await player.wait_for(lambda p=player: told(p, "store_unavailable"), 10)
    health = await a.get("/healthz")
    assert health.status_code == 503 and health.json()["degraded"], health.text
    await asyncio.sleep(max(0.0, OUTAGE - (time.monotonic() - down)))
    seen = {player.name: len(player.seen) for player in (anna, ben)}

    pg_ctl(cluster.db, "start")
    back = time.monotonic()
    recovered = {}
    for player in (anna, ben):
        await player.wait_for(lambda p=player: events_after(p, seen[p.name]), RECOVERY + 10)
        recovered[player.name] = time.monotonic() - back
    for player in (anna, ben):  # (told after the table's own resume, just after its events)
        await player.wait_for(lambda p=player: told(p, "store_back", seen[p.name]), 10)
    async with asyncio.timeout(180):
        await game
    await ben.wait_for(over(ben), 20)
    print(f"PostgreSQL back -> next event (cluster): {max(recovered.values()):.2f} s "
          f"({', '.join(f'{k} {v:.2f} s' for k, v in recovered.items())})")
    assert max(recovered.values()) <= RECOVERY
    summary = await stored_once(b, code, match)
    assert summary["status"] == "over" and summary["result"] == ended(anna)["result"]
    assert accepted(await stored_log(b, match), 0) >= anna.accepted  # none lost
    assert [e["match"] for e in a.events("match_stored")] == [match]
    for node in (a, b):  # the table stayed where it was
        assert not node.events("table_taken_over") and not node.events("table_lost")
    assert not b.events("match_stored")
    assert not anna.hops and ben.hops == [a.url]  # nobody dropped (Ben: the one move)
    assert (await a.get("/healthz")).json()["ok"]
    assert plain_lines(a, b) == []  # no plain traceback
    for player in (anna, ben):
        await player.close()


@pytest.mark.usefixtures("postgres_back")
async def test_kill_9_of_the_table_s_process_during_a_postgres_outage(cluster: Cluster) -> None:
    a, b, c = await cluster.start("A", "B", "C")
    anna = Roamer("Anna", c.url, patience=60)  # at A (a link brought her); her home is C
    ben = Roamer("Ben", c.url)
    code, match = await playing(cluster, anna, ben, b.url)
    stopped = asyncio.Event()
    game = asyncio.create_task(anna.play(over(anna), 0.1, hold=held(stopped)))
    await until(lambda: anna.accepted >= 3, 30)

    assert anna.view.get("phase") == "playing", anna.view.get("phase")
    pg_ctl(cluster.db, "stop")
    stopped.set()
    await anna.wait_for(lambda: told(anna, "store_unavailable"), 10)
    await asyncio.sleep(0.5)  # her actions go on arriving, and wait
    acked = anna.accepted  # nothing more can be acknowledged now
    b.kill()
    await asyncio.sleep(OUTAGE)  # nobody can take the table over: its journal is away
    for node in (a, c):
        assert not node.events("table_taken_over")
    seen = {player.name: len(player.seen) for player in (anna, ben)}

    pg_ctl(cluster.db, "start")
    back = time.monotonic()
    taken: dict[str, Any] = await first_event([a, c], "table_taken_over", TAKEOVER + 20,
                                              code=code)
    recovered = {}
    for player in (anna, ben):
        await player.wait_for(lambda p=player: events_after(p, seen[p.name]) and p.view.get(
            "phase") in ("playing", "over"), TAKEOVER + 20)
        recovered[player.name] = time.monotonic() - back
    owner = a if taken["node"] == "A" else c
    async with asyncio.timeout(180):
        await game
    await ben.wait_for(over(ben), 20)
    print(f"PostgreSQL back -> next event at the new owner (its own killed during the "
          f"outage): {max(recovered.values()):.2f} s "
          f"({', '.join(f'{k} {v:.2f} s' for k, v in recovered.items())}); hellos refused "
          f"while PostgreSQL was away: {len(anna.refused) + len(ben.refused)}")
    assert max(recovered.values()) <= TAKEOVER
    assert taken["match"] == match and taken["actions"] >= acked
    assert anna.at == ben.at == owner.url  # both found it
    summary = await stored_once(c, code, match)
    assert summary["status"] == "over" and summary["result"] == ended(anna)["result"]
    assert accepted(await stored_log(c, match), 0) >= anna.accepted  # none lost
    assert [e["match"] for e in owner.events("match_stored")] == [match]
    assert not (a if owner is c else c).events("match_stored")
    assert plain_lines(a, b, c) == []  # no plain traceback
    for player in (anna, ben):
        await player.close()
