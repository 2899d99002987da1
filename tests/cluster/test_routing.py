"""Three ``zackzack serve`` processes as one server: a table is played where it lives (its
players are sent there by ``moved``), stored once, and every process's lobby lists every
table, live."""

from __future__ import annotations

import asyncio

import pytest

from cluster.harness import (
    Cluster,
    Node,
    Roamer,
    accepted,
    conserved,
    create,
    ended,
    lobby,
    over,
    stored_log,
    stored_once,
)
from zackzack.engine.replay import replay
from zackzack.games.base import plain

pytestmark = [pytest.mark.cluster, pytest.mark.wallclock]

TWO_OPEN = [{"kind": "open"}, {"kind": "open"}]


async def test_a_player_is_moved_to_the_table_s_process_plays_there_and_it_is_stored_once(
        cluster: Cluster) -> None:
    a, b, c = await cluster.start("A", "B", "C")
    bea, anna = Roamer("Bea", home=b.url), Roamer("Anna", home=a.url)
    await bea.start()
    await anna.start()
    code = await create(bea, TWO_OPEN, countdown_ms=300)
    shown = await anna.go("join", code, seat=None)
    assert anna.moves[0] == {"type": "moved", "code": code, "url": b.ws}
    assert anna.at == b.url and shown["table"]["you"] == 1
    async with asyncio.timeout(20):  # another tab of hers, at home, offers to go back there
        while code not in await live_tables(a, anna.token):
            await asyncio.sleep(0.2)
    await anna.send(type="ready", ready=True)
    await bea.wait_for(lambda: bea.last("table")["table"]["seats"][1]["ready"])
    await bea.send(type="start")
    async with asyncio.timeout(120):
        await asyncio.gather(anna.play(over(anna, bea)), bea.play(over(anna, bea)))
    match, result = bea.last("table")["table"]["match"], ended(bea)["result"]
    assert match and ended(anna)["result"] == result
    assert anna.at == b.url and not a.events("table_created") and not c.events("table_created")

    summary = await stored_once(c, code, match)  # any process lists it
    assert summary["status"] == "over" and summary["result"] == result
    assert [e["match"] for e in b.events("match_stored")] == [match]
    assert not a.events("match_stored") and not c.events("match_stored")
    log = await stored_log(a, match)
    assert plain(replay(log).table.match.result) == result and conserved(log)
    # no confirmed action is lost; one of them may have lost every race of a short round
    assert accepted(log, 0) >= bea.accepted and accepted(log, 1) >= anna.accepted
    assert bea.accepted + anna.accepted > 0
    for player in (anna, bea):
        await player.close()


async def live_tables(node: Node, token: str | None) -> list[str]:
    """The codes of the live tables of the token's player, as ``welcome`` on ``node`` says."""
    tab = Roamer("Tab", node.url, token=token)
    welcome = await tab.connect(node.url)
    await tab.close()
    return [t["code"] for t in welcome["tables"]]


def sitting(watcher: Roamer, code: str, seat: int) -> str | None:
    """Who sits at ``seat`` of table ``code`` in the watcher's lobby."""
    seats = lobby(watcher).get(code, {}).get("seats", [])
    return seats[seat]["name"] if seat < len(seats) else None


def online(watcher: Roamer) -> int | None:
    """How many people the watcher's latest lobby says are connected."""
    found = next((m for m in reversed(watcher.seen) if m["type"] == "lobby"), {})
    return found.get("online")


async def test_every_process_s_lobby_lists_the_tables_of_all_of_them_live(
        cluster: Cluster) -> None:
    a, b, c = await cluster.start("A", "B", "C")
    anna, bea, carl = Roamer("Anna", a.url), Roamer("Bea", b.url), Roamer("Carl", c.url)
    for player in (anna, bea, carl):
        await player.start()
    await carl.send(type="lobby")
    on_a = await create(anna, TWO_OPEN)
    on_b = await create(bea, [{"kind": "open"}, {"kind": "bot", "bot": "normal"}])
    await carl.wait_for(lambda: {on_a, on_b} <= lobby(carl).keys(), 20)
    assert sitting(carl, on_a, 0) == "Anna"
    assert [s["kind"] for s in lobby(carl)[on_b]["seats"]] == ["human", "bot"]

    dora = Roamer("Dora", a.url)  # a change on A shows on C
    await dora.start()
    await dora.go("join", on_a, seat=None)
    await carl.wait_for(lambda: sitting(carl, on_a, 1) == "Dora", 20)
    await carl.wait_for(lambda: online(carl) == 4, 20)  # the whole cluster

    await bea.send(type="leave")  # a table nobody is at any more leaves every lobby
    await carl.wait_for(lambda: on_b not in lobby(carl), 20)
    assert on_a in lobby(carl)
    await bea.close()
    await carl.wait_for(lambda: online(carl) == 3, 20)
    for player in (anna, carl, dora):
        await player.close()
