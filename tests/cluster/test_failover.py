"""A table's process dies (``kill -9``) or stands still past its lease (SIGSTOP): another
process takes the table over from the journal, the players find it, the match ends with every
card still there, and it is stored once; the process that stood still writes nothing when it
wakes up."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from cluster.harness import (
    LEASE,
    Cluster,
    Node,
    Roamer,
    accepted,
    conserved,
    create,
    ended,
    first_event,
    over,
    stored_log,
    stored_once,
    until,
)
from zackzack.engine.matchlog import MatchLog
from zackzack.engine.replay import replay
from zackzack.games.base import plain

pytestmark = [pytest.mark.cluster, pytest.mark.wallclock]

TAKEOVER = LEASE + 5
"""Seconds from the owner's end to another process's ``table_taken_over``, at most."""


async def playing_on(owner: Node, anna: Roamer, ben: Roamer) -> tuple[str, str]:
    """Anna (home A) sits at a table of ``owner`` with a slow bot; Ben (home C) is sent there
    by ``moved``; the match starts. The table's code and match."""
    await anna.start(at=owner.url)  # as if a link had brought her there
    await ben.start()
    code = await create(anna, [{"kind": "open"}, {"kind": "open"},
                               {"kind": "bot", "bot": "beginner"}], countdown_ms=300)
    await ben.go("join", code, seat=None)
    assert ben.at == owner.url
    await ben.send(type="ready", ready=True)
    await anna.wait_for(lambda: anna.last("table")["table"]["seats"][1]["ready"])
    await anna.send(type="start")
    match: str = (await anna.wait_for(lambda: anna.last("table")["table"]["match"]))
    return code, match


def seconds_after(logged: dict[str, Any], moment: float) -> float:
    """Seconds from ``moment`` (``time.time()``) to when ``logged`` was logged."""
    return datetime.fromisoformat(logged["ts"]).timestamp() - moment


async def finished(node: Node, code: str, match: str, players: list[Roamer]) -> MatchLog:
    """Checks of a match played to its end: what the players were shown is what is stored,
    once; the log replays to it with every card there and every confirmed action. Its log."""
    views = [ended(p) for p in players]
    result = views[0]["result"]
    assert all(view["result"] == result for view in views)
    summary = await stored_once(node, code, match)
    assert summary["status"] == "over" and summary["result"] == result
    log = await stored_log(node, match)
    end = replay(log).table
    assert plain(end.match.result) == result and conserved(log)
    for player, view in zip(players, views, strict=True):
        seat = view["seat"]
        assert accepted(log, seat) >= player.accepted  # no confirmed action is lost
        assert json.dumps(plain(end.view(seat)).get("state"), sort_keys=True) \
            == json.dumps(view["state"], sort_keys=True)  # what they saw at the end
    return log


async def test_kill_9_of_a_table_s_process_mid_game(cluster: Cluster) -> None:
    a, b, c = await cluster.start("A", "B", "C")
    anna, ben = Roamer("Anna", home=a.url), Roamer("Ben", home=c.url)
    code, match = await playing_on(b, anna, ben)
    free = asyncio.Event()  # they only draw until then: the round cannot end before it
    game = asyncio.gather(*(p.play(over(anna, ben), hold=lambda: not free.is_set())
                            for p in (anna, ben)))
    await until(lambda: anna.accepted >= 3 and ben.accepted >= 3, 60)

    killed = time.time()
    b.kill()
    free.set()
    await until(lambda: bool(anna.drops and ben.drops), 10)
    told = anna.accepted + ben.accepted  # what they heard of before it died
    taken = await first_event([a, c], "table_taken_over", TAKEOVER + 10, code=code)
    assert seconds_after(taken, killed) < TAKEOVER
    assert taken["match"] == match and taken["epoch"] >= 1
    owner = a if taken["node"] == "A" else c
    async with asyncio.timeout(180):
        await game
    assert anna.hops and ben.hops and anna.at == ben.at == owner.url  # all came back
    assert taken["actions"] >= told
    log = await finished(c, code, match, [anna, ben])
    assert len(log.actions) > taken["actions"]  # played on after the takeover
    assert [e["match"] for e in owner.events("match_stored")] == [match]
    assert not (a if owner is c else c).events("match_stored")
    for player in (anna, ben):
        await player.close()


async def test_a_process_that_stood_still_past_its_lease_writes_nothing_when_it_wakes(
        cluster: Cluster) -> None:
    a, b, c = await cluster.start("A", "B", "C")
    anna, ben = Roamer("Anna", home=a.url), Roamer("Ben", home=c.url)
    code, match = await playing_on(b, anna, ben)
    wim = Roamer("Wim", home=b.url)  # watches at B, stays connected through the pause
    await wim.start()
    await wim.go("watch", code)
    free = asyncio.Event()  # they only draw until then: the round cannot end before it
    game = asyncio.gather(*(p.play(over(anna, ben), hold=lambda: not free.is_set())
                            for p in (anna, ben)))
    await until(lambda: anna.accepted >= 3 and ben.accepted >= 3, 60)

    paused = time.time()
    b.pause()  # the players' actions wait in its sockets (they go home after 5 s unanswered)
    free.set()
    taken = await first_event([a, c], "table_taken_over", TAKEOVER + 10, code=code)
    assert seconds_after(taken, paused) < TAKEOVER and taken["match"] == match
    owner = a if taken["node"] == "A" else c
    before = anna.accepted + ben.accepted
    await until(lambda: anna.accepted + ben.accepted >= before + 4
                or over(anna, ben)(), 60)  # play goes on at the new owner
    b.resume()  # it reads what waited, its timers fire: all deferred, then dropped
    lost = await b.event("table_lost", 30, code=code)
    assert lost["reason"] in ("lease", "fenced")
    # its viewer is told to ask at home again (B), and is sent on to the new owner
    await wim.wait_for(lambda: {"type": "moved", "code": code, "url": None} in wim.moves, 30)
    async with asyncio.timeout(180):
        await game
    await wim.wait_for(over(wim), 30)
    assert anna.at == ben.at == wim.at == owner.url
    log = await finished(a, code, match, [anna, ben])
    assert [e["match"] for e in owner.events("match_stored")] == [match]
    assert not b.events("match_stored")

    engine = create_engine(cluster.db)
    try:
        with engine.connect() as db:
            numbers = [row[0] for row in db.execute(text(
                "SELECT n FROM actions WHERE match_id = :m ORDER BY n"), {"m": match})]
            epoch = db.execute(text("SELECT epoch FROM matches WHERE id = :m"),
                               {"m": match}).scalar_one()
    finally:
        engine.dispose()
    assert numbers == list(range(numbers[0], numbers[0] + len(log.actions)))  # contiguous
    assert epoch == taken["epoch"]  # the paused process took nothing back
    for player in (anna, ben, wim):
        await player.close()
