"""An arena's process dies (``kill -9``) between two rounds of pairings: another process
claims the arena from the store, its players find it through their homes, and it pairs them
again there with every result of before in the standings."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cluster.harness import LEASE, Cluster, Roamer, first_event, until

pytestmark = [pytest.mark.cluster, pytest.mark.wallclock]

TAKEOVER = LEASE + 5
"""Seconds from the host's end to another process's ``arena_hosted``, at most."""


def messages(player: Roamer, kind: str) -> list[dict[str, Any]]:
    """Every message of ``kind`` the player was sent, through every hop."""
    return [m for m in player.seen if m["type"] == kind]


async def test_an_arena_survives_the_death_of_its_process(cluster: Cluster) -> None:
    a, b, c = await cluster.start("A", "B", "C")
    hana = Roamer("Hana", home=a.url)
    await hana.start(at=b.url)  # she makes the arena on B: B hosts it
    for _attempt in range(20):  # as a person would: again while Redis does not answer
        start = len(hana.seen)
        await hana.send(type="arena_create", game="unter-spannung", seats=2, minutes=20)
        made = await hana.wait_for(lambda start=start: next(
            (m for m in hana.seen[start:] if m["type"] in ("arena", "error")), None))
        if made.get("code") != "cluster_unavailable":
            break
        await asyncio.sleep(1)
    assert made["type"] == "arena", made
    arena = made["arena"]["id"]
    players = [Roamer(name, home=home.url)
               for name, home in (("Anna", a), ("Ben", c), ("Cleo", a), ("Dan", c))]
    for player in players:
        await player.start()
        player.place = {"type": "arena_join", "id": arena}  # asked again after every hop
        await player.send(**player.place)
    await until(lambda: all(p.at == b.url for p in players), 30)  # moved to the host
    await until(lambda: all(messages(p, "arena_paired") for p in players), 30)
    first = {p.name: messages(p, "arena_paired")[0]["code"] for p in players}
    assert len(set(first.values())) == 2

    async with asyncio.timeout(240):
        await asyncio.gather(*(p.play(lambda p=p: p.view.get("phase") == "over")
                               for p in players))
    await until(lambda: len(b.events("arena_scored", arena=arena)) == 2, 30)
    b.kill()  # in the players' rest between two games (8 s)

    hosted = await first_event([a, c], "arena_hosted", TAKEOVER + 20, arena=arena)
    host = a if hosted["node"] == "A" else c
    await until(lambda: all(p.at == host.url for p in players), 60)
    await until(lambda: all(len(messages(p, "arena_paired")) == 2 for p in players), 60)
    again = {p.name: messages(p, "arena_paired")[1]["code"] for p in players}
    assert set(again.values()).isdisjoint(first.values())
    assert len(host.events("arena_paired", arena=arena)) == 2  # made by the new host
    for name in again:  # nobody meets their first opponent again while others wait
        met = {n for n, code in first.items() if code == first[name]}
        now = {n for n, code in again.items() if code == again[name]}
        assert met & now == {name}

    wim = Roamer("Wim", home=a.url)
    await wim.start()
    wim.place = {"type": "arena_watch", "id": arena}
    await wim.send(**wim.place)
    standings = (await wim.wait_for(lambda: messages(wim, "arena"), 30))[-1]["arena"]
    assert wim.at == host.url and standings["state"] == "running"
    lines = standings["standings"]
    assert sorted(line["score"] for line in lines) == [0, 0, 2, 2]  # game 1 is kept
    assert all(len(line["games"]) == 1 and line["games"][0]["match"] for line in lines)
    for player in (hana, wim, *players):
        await player.close()
