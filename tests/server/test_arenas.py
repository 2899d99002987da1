"""Arenas in the server (``server/arenas.py``): made, joined, paired, scored from the store,
told over the protocol, kept in the store and taken up again after a restart; on a virtual
clock (the store's wall clock follows it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import DBAPIError

from server.kit import Client, World, play_out
from zackzack.arena import PAIR_EVERY
from zackzack.engine.clock import VirtualClock
from zackzack.server.arenas import LISTED_AFTER_END, LOAD_EVERY, new_arena
from zackzack.server.lobby import Timing
from zackzack.store import Store, database_url

EPOCH = 1_764_000_000.0
REST = 3.0


def world_on(path: Path, clock: VirtualClock | None = None) -> World:
    """A lobby on a virtual clock whose store's wall clock is the same clock."""
    clock = clock or VirtualClock()
    store = Store(database_url(str(path)), wall=lambda: EPOCH + clock.time())
    world = World(store, clock=clock, timing=Timing(arena_rest=REST, stall_warning=1e9))
    world.lobby.arenas.start()
    return world


@pytest.fixture
def world(tmp_path: Path) -> World:
    found = world_on(tmp_path / "z.db")
    yield found
    found.lobby.shutdown()
    found.store.close()


def arena_of(client: Client) -> dict[str, Any]:
    """The latest ``arena`` message's arena."""
    return client.last("arena")["arena"]


def line(client: Client, who: Client) -> dict[str, Any]:
    """``who``'s line in the standings ``client`` saw last."""
    return next(s for s in arena_of(client)["standings"] if s["player"] == who.player)


def made(world: World, **fields: Any) -> tuple[Client, str]:
    """A player makes a casual 2-seat Unter Spannung arena that starts now; its id."""
    host = world.client("Host")
    replies = host.send(**{"type": "arena_create", "game": "unter-spannung", "seats": 2,
                           "minutes": 10, **fields})
    assert replies[-1]["type"] == "arena", replies
    return host, replies[-1]["arena"]["id"]


def test_an_arena_pairs_scores_and_pairs_again(world: World) -> None:
    _host, arena = made(world)
    players = [world.client(name) for name in ("Ada", "Bo", "Cy", "Di")]
    for client in players:
        client.send(type="arena_join", id=arena)
        assert arena_of(client)["you"] == client.player
        assert arena_of(client)["mine"]["player"] == client.player  # their own line
    world.wait(PAIR_EVERY)
    for client in players:
        paired = client.last("arena_paired")
        assert paired["arena"] == arena and client.table["code"] == paired["code"]
        assert client.table["you"] is not None
    codes = {client.last("arena_paired")["code"] for client in players}
    assert len(codes) == 2  # two tables of two

    for code in codes:
        play_out(world, [c for c in players if c.table["code"] == code])
    world.wait(PAIR_EVERY)
    watcher = world.client("Eve")
    watcher.send(type="arena_watch", id=arena)
    standings = arena_of(watcher)["standings"]
    assert arena_of(watcher)["you"] is None
    assert sorted(s["score"] for s in standings) == [0, 0, 2, 2]
    for entry in standings:
        (game,) = entry["games"]
        assert game["points"] == (2 if game["win"] else 0) and game["match"]
        assert world.store.match(game["match"]) is not None  # stored before it counted
    first = {c.player: c.last("arena_paired")["code"] for c in players}

    world.wait(REST + PAIR_EVERY)
    again = {c.player: c.last("arena_paired")["code"] for c in players}
    assert set(again.values()).isdisjoint(first.values())  # new tables for everyone
    by_code: dict[str, set[str]] = {}
    for player, code in again.items():
        by_code.setdefault(code, set()).add(player)
    for pair in by_code.values():
        one, two = (line(watcher, next(c for c in players if c.player == p)) for p in pair)
        assert one["score"] == two["score"]  # winners meet winners


def paired_again(world: World, client: Client, times: int, within: float = 60.0) -> None:
    """Let virtual time pass until ``client`` was paired ``times`` times."""
    for _ in range(int(within)):
        if len([m for m in client.inbox if m["type"] == "arena_paired"]) >= times:
            return
        world.wait(1.0)
    raise AssertionError(f"not paired {times} times within {within} s")


def test_a_streak_doubles_points(world: World) -> None:
    _host, arena = made(world)
    ada, bo, eve = world.client("Ada"), world.client("Bo"), world.client("Eve")
    for client in (ada, bo):
        client.send(type="arena_join", id=arena)
    eve.send(type="arena_watch", id=arena)
    for game in range(3):
        paired_again(world, ada, game + 1)  # (the same two: after PATIENCE)
        play_out(world, [ada, bo])
        world.wait(PAIR_EVERY)
    for who in (ada, bo):
        mine = line(eve, who)["games"]
        assert len(mine) == 3
        wins = [g["win"] for g in mine]
        doubled = [g["doubled"] for g in mine]
        assert doubled == [False, False, wins[0] and wins[1]]  # after two wins: double
        assert [g["points"] for g in mine] == [(2 if g["win"] else 0) * (2 if g["doubled"]
                                                                        else 1) for g in mine]
        assert line(eve, who)["score"] == sum(g["points"] for g in mine)
        assert line(eve, who)["on_fire"] == (wins[1] and wins[2])


def test_a_player_who_goes_is_paused_and_comes_back(world: World) -> None:
    _host, arena = made(world)
    ada, bo = world.client("Ada"), world.client("Bo")
    for client in (ada, bo):
        client.send(type="arena_join", id=arena)
    token = ada.welcome["token"]
    ada.session.close()
    world.wait(PAIR_EVERY * 2)
    assert line(bo, ada)["status"] == "paused"
    assert all(m["type"] != "arena_paired" for m in bo.inbox)  # nobody to play with

    back = world.client("Ada", token=token)
    back.send(type="arena_watch", id=arena)
    assert line(back, back)["status"] == "active"
    world.wait(PAIR_EVERY)
    assert back.last("arena_paired")["code"] == bo.last("arena_paired")["code"]


def test_pause_and_withdraw_are_the_players_own(world: World) -> None:
    _host, arena = made(world)
    ada, bo = world.client("Ada"), world.client("Bo")
    for client in (ada, bo):
        client.send(type="arena_join", id=arena)
    ada.send(type="arena_pause", id=arena)
    world.wait(PAIR_EVERY * 2)
    assert line(bo, ada)["status"] == "paused"
    ada.send(type="arena_watch", id=arena)  # watching is not coming back
    assert line(ada, ada)["status"] == "paused"
    ada.send(type="arena_withdraw", id=arena)
    assert ada.error(type="arena_join", id=arena) == "arena_withdrawn"
    world.wait(1.0)  # (the standings go out at most once a second)
    assert line(bo, ada)["status"] == "withdrawn"


def test_bad_arena_messages_change_nothing(world: World) -> None:
    ada = world.client("Ada")
    assert ada.error(type="arena_watch", id="NOPE2345") == "no_such_arena"
    assert ada.error(type="arena_create", game="schnelllauf", seats=3) == "bad_options"
    assert ada.error(type="arena_create", game="chess") == "no_such_game"
    assert ada.error(type="arena_create", game="schnelllauf", minutes=0) == "bad_field"
    assert ada.error(type="arena_create", game="schnelllauf", rated=True) \
        == "rated_needs_account"
    assert ada.error(type="arena_watch", id="../etc") == "bad_field"
    _host, arena = made(world)
    assert ada.error(type="arena_pause", id=arena) == "not_in_arena"
    assert world.store.arenas(over_since=0.0)[0].players == 0
    for _ in range(3):
        ada.send(type="arena_create", game="schnelllauf")
    assert ada.error(type="arena_create", game="schnelllauf") == "too_many_arenas"


def test_the_lobby_lists_public_arenas_with_the_time(world: World) -> None:
    _host, arena = made(world, start_in=300)
    _other, hidden = made(world, private=True)
    ada = world.client("Ada")
    listing = ada.send(type="lobby")[-1]
    (entry,) = listing["arenas"]
    assert entry["id"] == arena and entry["state"] == "upcoming"
    assert entry["start"] - listing["now"] == 300_000
    assert len(hidden) > len(arena)
    ada.send(type="arena_join", id=arena)
    world.wait(300 + PAIR_EVERY)
    assert ada.send(type="lobby")[-1]["arenas"][0]["state"] == "running"


def test_a_restart_takes_the_arena_up_where_it_was(tmp_path: Path) -> None:
    clock = VirtualClock()
    first = world_on(tmp_path / "z.db", clock)
    _host, arena = made(first)
    ada, bo = first.client("Ada"), first.client("Bo")
    for client in (ada, bo):
        client.send(type="arena_join", id=arena)
    first.wait(PAIR_EVERY)
    code = ada.last("arena_paired")["code"]
    play_out(first, [ada, bo])  # the match is stored; the process stops before it is scored
    first.lobby.shutdown()

    second = world_on(tmp_path / "z.db", clock)
    ada2 = second.client("Ada", token=ada.welcome["token"])
    ada2.send(type="arena_watch", id=arena)
    second.wait(PAIR_EVERY)
    standings = arena_of(ada2)["standings"]
    assert sorted(s["score"] for s in standings) == [0, 2]
    assert line(ada2, ada2)["status"] == "active"  # came back by watching
    assert line(ada2, bo)["status"] == "paused"  # away until they come back
    assert all(s["playing"] != code for s in standings)
    second.lobby.shutdown()
    second.store.close()
    first.store.close()


def test_the_end_the_podium_and_the_record_after(world: World) -> None:
    _host, arena = made(world, minutes=1)
    ada, bo, eve = world.client("Ada"), world.client("Bo"), world.client("Eve")
    for client in (ada, bo):
        client.send(type="arena_join", id=arena)
    eve.send(type="arena_watch", id=arena)
    world.wait(PAIR_EVERY)
    world.wait(60.0)  # the time is up while they play: their game still counts
    assert arena_of(eve)["state"] == "running"
    assert ada.error(type="arena_join", id=arena) == "arena_over"
    play_out(world, [ada, bo])
    world.wait(PAIR_EVERY + 1.0)
    over = arena_of(eve)
    assert over["state"] == "over"
    podium = [s for s in over["standings"] if s["games"]][:3]
    assert [s["score"] for s in podium] == [2, 0]
    assert all(s["games"][0]["match"] for s in podium)
    world.wait(LISTED_AFTER_END + PAIR_EVERY)
    assert arena not in world.lobby.arenas.hosted  # forgotten here, kept in the store
    info = world.lobby.arenas.info(arena)
    assert info is not None and info.state == "over"
    assert [s.score for s in info.standings] == [2, 0]
    assert eve.send(type="lobby")[-1]["arenas"] == []
    shown = eve.send(type="arena_watch", id=arena)[-1]  # the link still shows the podium
    assert shown["arena"]["state"] == "over" and shown["arena"]["standings"][0]["score"] == 2
    assert eve.error(type="arena_join", id=arena) == "arena_over"


def test_an_operators_arena_is_hosted_and_its_series_goes_on(world: World) -> None:
    now = world.store.wall()
    record = new_arena("OPERATOR", "schnelllauf", 2, start=now + 30, minutes=10, rated=False,
                       private=False, title="Stündlich", rest=REST, every=3600).stored(now)
    assert world.store.add_arena(record)  # as ``zackzack arena create`` does
    ada = world.client("Ada")
    world.wait(LOAD_EVERY + PAIR_EVERY)
    (entry,) = ada.send(type="lobby")[-1]["arenas"]
    assert (entry["id"], entry["state"], entry["title"]) == ("OPERATOR", "upcoming", "Stündlich")
    world.wait(30)
    ids = [e["id"] for e in ada.send(type="lobby")[-1]["arenas"]]
    assert ids[0] == "OPERATOR" and len(ids) == 2  # it runs, and the next one is listed
    following = world.store.arena(ids[1])
    assert following is not None and following.start_at == record.start_at + 3600


def test_nobody_is_seated_at_two_tables(world: World) -> None:
    _host, first = made(world)
    _other, second = made(world)
    ada, bo, cy = world.client("Ada"), world.client("Bo"), world.client("Cy")
    ada.send(type="arena_join", id=first)
    assert ada.error(type="arena_join", id=second) == "playing_elsewhere"
    ada.send(type="arena_pause", id=first)
    ada.send(type="arena_join", id=second)  # paused in the first: the second may have her
    bo.send(type="arena_join", id=second)
    cy.send(type="create", game="unter-spannung", seats=[{"kind": "open"}, {"kind": "open"}])
    ada.send(type="join", code=cy.table["code"], seat=None)  # a table of her own choosing
    ada.send(type="ready", ready=True)
    cy.send(type="start")
    world.wait(PAIR_EVERY * 2)
    assert all(m["type"] != "arena_paired" for m in ada.inbox + bo.inbox)
    bo.send(type="arena_watch", id=second)
    assert line(bo, ada)["status"] == "paused"  # back when she comes back


def test_a_store_that_fails_a_look_stops_no_pairing(world: World,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _host, arena = made(world, start_in=60)
    ada, bo = world.client("Ada"), world.client("Bo")
    for client in (ada, bo):
        client.send(type="arena_join", id=arena)
    now = world.store.wall()
    record = new_arena("LATEONE1", "schnelllauf", 2, start=now, minutes=10, rated=False,
                       private=False, title="Spät", rest=REST).stored(now)
    world.store.add_arena(record)  # an operator's, to be taken up at the next look

    def away(_arena_id: str) -> None:
        raise DBAPIError("SELECT", {}, OSError("the database is away"))

    monkeypatch.setattr(world.store, "arena", away)
    world.wait(LOAD_EVERY + PAIR_EVERY)  # the look fails
    monkeypatch.undo()
    world.wait(60)
    assert ada.last("arena_paired")["code"] == bo.last("arena_paired")["code"]
    assert "LATEONE1" in world.lobby.arenas.hosted  # looked for again, and taken up


def test_a_process_that_lost_its_arena_writes_nothing(world: World) -> None:
    _host, arena = made(world)
    ada = world.client("Ada")
    ada.send(type="arena_join", id=arena)
    world.wait(PAIR_EVERY)
    world.store.host_arena(arena, "another")  # as another process takes it over
    bo = world.client("Bo")
    bo.send(type="arena_join", id=arena)
    world.wait(PAIR_EVERY)  # its next write finds the arena someone else's
    assert arena not in world.lobby.arenas.hosted
    assert bo.last("moved") == {"type": "moved", "code": arena, "url": None}
    assert all(m["type"] != "arena_paired" for m in ada.inbox + bo.inbox)  # no table here
    stored = world.store.arena(arena)
    assert stored is not None and stored.players == 1  # Bo's join was not written
