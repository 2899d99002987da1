"""The protocol's meaning, driven through sessions on a virtual clock with a real store."""

from __future__ import annotations

import json

import pytest

from server.kit import NO_STALLS, World, play_out, two_at_a_table, us_action
from zackzack.engine.matchlog import parse_log
from zackzack.engine.replay import replay
from zackzack.engine.table import Settings
from zackzack.games import unter_spannung as us
from zackzack.store import Store


@pytest.fixture
def world(store: Store) -> World:
    """A lobby with live settings (3 s start countdown) on a virtual clock."""
    return World(store)

# Identity ---------------------------------------------------------------------------------


def test_hello_first_then_welcome_with_a_private_token(world: World) -> None:
    silent = world.client(name=None)
    assert silent.error(type="lobby") == "hello_first"
    welcome = silent.send(type="hello", token=None, name="  Anna  ")[-1]
    assert welcome["type"] == "welcome" and welcome["name"] == "Anna"
    assert welcome["player"].startswith("p_") and len(welcome["token"]) > 40
    assert silent.error(type="hello", token=None, name="Anna") == "already_hello"


def test_the_token_brings_the_same_player_back_and_a_forged_one_does_not(world: World) -> None:
    anna = world.client("Anna")
    again = world.client("", token=anna.welcome["token"])
    assert again.player == anna.player and again.welcome["name"] == "Anna"
    renamed = world.client("Anna B.", token=anna.welcome["token"])
    assert renamed.player == anna.player and renamed.welcome["name"] == "Anna B."
    forged = world.client("Mallory", token=anna.player + ".not-the-secret")
    assert forged.player != anna.player and forged.welcome["token"] != anna.welcome["token"]
    # After a restart the store still knows her (only the token's hash is stored).
    fresh = World(world.store)
    assert fresh.client("", token=anna.welcome["token"]).player == anna.player


def test_a_new_player_without_a_name_gets_one_and_bad_names_are_refused(world: World) -> None:
    assert world.client("").welcome["name"].startswith("Gast ")
    nameless = world.client(name=None)
    assert nameless.error(type="hello", name="x" * 25) == "bad_field"
    assert nameless.error(type="hello", name="bell\a") == "bad_field"


def test_tokens_never_reach_anyone_else(world: World) -> None:
    anna, ben, code = two_at_a_table(world)
    carla = world.client("Carla")
    carla.send(type="lobby")
    carla.send(type="watch", code=code)
    anna.send(type="start")
    world.wait(5)
    for token in (anna.welcome["token"], ben.welcome["token"]):
        secret = token.partition(".")[2]
        for text in carla.texts + (ben.texts if token != ben.welcome["token"] else anna.texts):
            assert secret not in text


# Tables -----------------------------------------------------------------------------------


def test_create_join_ready_start(world: World) -> None:
    anna, ben, code = two_at_a_table(world)
    table = anna.table
    assert table["you"] == 0 and ben.table["you"] == 1 and table["creator"] == anna.player
    assert [s["name"] for s in table["seats"]] == ["Anna", "Ben"]
    assert [s["ready"] for s in table["seats"]] == [False, True]
    assert table["link"] == f"http://test/t/{code}" and table["phase"] == "waiting"
    assert ben.error(type="start") == "not_creator"
    anna.send(type="start")
    assert anna.table["phase"] == "starting" and anna.table["match"] is not None
    assert anna.view["starts_at"] == anna.view["now"] + 3000 and anna.view["state"] is None
    world.wait(3.0)
    view = anna.view
    assert view["phase"] == "playing" and len(view["state"]["hand"]) == 4
    assert ben.view["state"]["hand"] != [] and ben.view["seat"] == 1


def test_start_needs_every_seat_filled_and_every_person_ready(world: World) -> None:
    anna, ben = world.client("Anna"), world.client("Ben")
    anna.send(type="create", game="unter-spannung", seats=[{"kind": "open"}] * 3)
    code = anna.table["code"]
    assert anna.error(type="start") == "not_ready"
    ben.send(type="join", code=code, seat=2)
    assert ben.table["you"] == 2
    anna.send(type="seat", seat=1, kind="bot", bot="Normal")
    assert anna.table["seats"][1] == {"kind": "bot", "name": "Bot (normal)", "player": None,
                                      "bot": "normal", "connected": True, "ready": True,
                                      "lag": None, "rating": None, "provisional": False,
                                      "stand_in_at": None}
    assert anna.table["seats"][0]["rating"] == 1000  # a newcomer, shown with "?"
    assert anna.table["seats"][0]["provisional"] is True
    assert anna.error(type="start") == "not_ready"  # Ben is not ready
    ben.send(type="ready", ready=True)
    anna.send(type="start")  # Anna's own start counts as her ready
    assert anna.table["phase"] == "starting"
    assert ben.error(type="ready", ready=False) == "already_started"


def test_seats_refuse_what_does_not_fit(world: World) -> None:
    anna, ben, code = two_at_a_table(world)
    carla = world.client("Carla")
    assert carla.error(type="join", code=code, seat=1) == "seat_taken"
    assert carla.error(type="join", code=code, seat=None) == "table_full"
    assert carla.error(type="join", code=code, seat=5) == "no_such_seat"
    assert carla.error(type="join", code="NOPE99", seat=None) == "no_such_table"
    assert carla.error(type="ready", ready=True) == "not_at_table"
    assert ben.error(type="seat", seat=0, kind="open") == "not_creator"
    assert anna.error(type="seat", seat=0, kind="open") == "seat_taken"
    assert anna.error(type="seat", seat=1, kind="bot", bot="grandmaster") == "bad_bot"
    assert anna.error(type="seat", seat=1, kind="bot") == "bad_field"
    anna.send(type="start")
    assert carla.error(type="join", code=code.lower(), seat=None) == "already_started"
    assert ben.table["seats"][1]["player"] == ben.player  # nothing changed


def test_create_checks_the_game_options_and_seats(world: World) -> None:
    anna = world.client("Anna")
    assert anna.error(type="create", game="poker") == "no_such_game"
    assert anna.error(type="create", game="schnelllauf", seats=[{"kind": "open"}] * 3) \
        == "bad_options"
    assert anna.error(type="create", game="unter-spannung", options={"players": 3},
                      seats=[{"kind": "open"}] * 2) == "bad_options"
    assert anna.error(type="create", game="unter-spannung", options={"penalty": 1}) \
        == "bad_options"
    assert anna.error(type="create", game="unter-spannung",
                      seats=[{"kind": "bot"}, {"kind": "open"}]) == "bad_field"
    assert anna.error(type="create", game="unter-spannung", seats=[{"kind": "robot"}]) \
        == "bad_field"
    assert world.lobby.rooms == {}
    anna.send(type="create", game="schnelllauf", options={"jokers": 0}, title="Revanche!")
    table = anna.table
    assert table["game"] == "schnelllauf" and len(table["seats"]) == 2
    assert table["title"] == "Revanche!" and table["options"]["players"] == 2


def test_leaving_before_the_start_gives_the_seat_up_and_hands_over_the_table(
        world: World) -> None:
    anna, ben, code = two_at_a_table(world)
    assert anna.send(type="leave")[-1] == {"type": "left", "code": code}
    table = ben.table
    assert table["seats"][0]["kind"] == "open" and table["creator"] == ben.player
    assert anna.error(type="start") == "not_at_table"
    anna.send(type="join", code=code, seat=None)
    assert anna.table["you"] == 0


def test_a_player_who_comes_back_gets_their_seat_and_the_whole_table(world: World) -> None:
    anna, ben, code = two_at_a_table(world)
    anna.send(type="start")
    world.wait(3.5)
    hand = ben.view["state"]["hand"]
    ben.session.close()  # the tab closed
    assert anna.table["seats"][1]["connected"] is False
    assert anna.act(us_action(anna.view) or {"type": "draw"})["ok"]
    back = world.client("Ben", token=ben.welcome["token"])
    assert back.welcome["tables"] == [{"code": code, "seat": 1, "game": "unter-spannung",
                                       "phase": "playing"}]
    back.send(type="watch", code=code)
    assert back.table["you"] == 1 and back.view["state"]["hand"] == hand
    assert anna.table["seats"][1]["connected"] is True
    assert back.act({"type": "draw"})["ok"]
    # Leaving after the start keeps the seat.
    back.send(type="leave")
    assert anna.table["seats"][1]["player"] == ben.player


def test_watchers_see_no_hands_and_are_counted(world: World) -> None:
    anna, ben, code = two_at_a_table(world)
    carla = world.client("Carla")
    carla.send(type="watch", code=code)
    assert carla.table["you"] is None and anna.table["watchers"] == 1
    anna.send(type="start")
    world.wait(3.5)
    assert carla.view["seat"] is None and carla.view["state"]["hand"] == []
    ack = carla.act({"type": "draw"})
    assert ack == {"type": "ack", "ref": ack["ref"], "ok": False, "code": "not_seated",
                   "reason": "you are watching"}
    assert ben.act({"type": "draw"})["ok"]
    drew = carla.last("events")["events"][0]
    assert drew["type"] == "drew" and drew["card"] is None
    assert ben.last("events")["events"][0]["card"] is not None


def test_the_lobby_lists_public_tables_after_changes(world: World) -> None:
    carla = world.client("Carla")
    listing = carla.send(type="lobby")[-1]
    assert isinstance(listing.pop("now"), int)  # the server's wall clock, for the arenas
    assert listing == {"type": "lobby", "tables": [], "online": 0, "arenas": []}
    anna, _, code = two_at_a_table(world)
    world.client("Dora").send(type="create", game="schnelllauf", private=True)
    world.wait(0.2)
    tables = carla.last("lobby")["tables"]
    assert [t["code"] for t in tables] == [code]
    assert [s["name"] for s in tables[0]["seats"]] == ["Anna", "Ben"]
    sent = len(carla.inbox)
    anna.send(type="start")
    world.wait(0.2)
    assert carla.last("lobby")["tables"][0]["phase"] == "starting"
    assert len(carla.inbox) - sent <= 2  # changes are gathered, not sent one by one
    carla.send(type="watch", code=code)  # watching a table leaves the lobby
    world.wait(5)
    assert carla.last("lobby") == carla.inbox[[m["type"] for m in carla.inbox].index("table") - 1]


# Playing ----------------------------------------------------------------------------------


def test_acts_are_acked_after_their_events_and_refusals_change_nothing(world: World) -> None:
    anna, ben, _ = two_at_a_table(world)
    ack = anna.act({"type": "draw"})
    assert ack["ok"] is False and ack["code"] == "not_playing"
    anna.send(type="start")
    world.wait(3.5)
    replies = ben.send(type="act", ref=7, action={"type": "draw"})
    assert [m["type"] for m in replies] == ["events", "ack"]
    assert replies[1] == {"type": "ack", "ref": 7, "ok": True}
    assert anna.last("events")["events"][0]["type"] == "drew"
    bad = anna.act({"type": "play", "card": "11±2"})
    assert bad["ok"] is False and bad["code"] == "bad_action"
    assert anna.act({"type": "rotate"})["code"] == "bad_action"
    assert anna.error(type="act", ref=3) == "bad_field"
    for _ in range(10):  # draw until Anna holds a card that does not fit
        state = anna.view["state"]
        allowed = us.Card.parse(state["top"]).allowed
        wrong = next((c for c in state["hand"] if us.Card.parse(c).value not in allowed), None)
        if wrong is not None:
            break
        anna.act({"type": "draw"})
    assert wrong is not None
    replies = anna.send(type="act", ref=9, action={"type": "play", "card": wrong,
                                                    "seen": state["version"]})
    assert [m["type"] for m in replies] == ["events", "ack"]
    assert replies[0]["events"][0]["type"] == "penalised"
    assert replies[1]["code"] == "does_not_fit"
    assert anna.act({"type": "draw"})["code"] == "frozen"
    assert anna.view["state"]["hand"] == state["hand"]


def test_a_whole_match_is_stored_before_anyone_hears_the_result(world: World) -> None:
    anna, ben, code = two_at_a_table(world, options={"tournament": True})
    seen_results: list[tuple[str, int]] = []
    store = world.store
    sent = anna.session._send

    def check(text: str) -> None:
        message = json.loads(text)
        for event in message.get("events", []):
            if event["type"] in ("round_scored", "match_ended"):
                match = store.match(anna.table["match"], finished=False)
                assert match is not None
                number = event["result"]["number"] if event["type"] == "round_scored" else 0
                assert number <= len(match.rounds)
                if event["type"] == "match_ended":
                    assert match.status.value == "over" and match.result == event["result"]
                seen_results.append((event["type"], number))
        sent(text)

    anna.session._send = check
    anna.send(type="start")
    play_out(world, [anna, ben])
    assert seen_results[-1] == ("match_ended", 0) and len(seen_results) == 5
    match_id = anna.table["match"]
    record = store.match(match_id)
    assert record is not None and record.code == code and len(record.rounds) == 4
    assert [s.name for s in record.seats] == ["Anna", "Ben"]
    assert record.rounds[-1].totals == tuple(anna.view["totals"])
    log = store.log(match_id)
    assert log is not None and log.players == ("Anna", "Ben")
    again = replay(log)
    assert again.table.match.result == world.lobby.rooms[code].table.match.result
    assert parse_log(store.log_json(match_id)).actions == log.actions


def test_rematch_keeps_seats_and_options(world: World) -> None:
    anna, ben, code = two_at_a_table(world)
    assert anna.error(type="rematch") == "not_over"
    anna.send(type="start")
    play_out(world, [anna, ben])
    carla = world.client("Carla")
    assert carla.error(type="join", code=code, seat=None) == "already_started"
    carla.send(type="watch", code=code)
    assert carla.error(type="rematch") == "not_seated"
    anna.send(type="rematch")
    new = anna.table
    assert new["code"] != code and new["creator"] == anna.player and new["phase"] == "waiting"
    assert [s["player"] for s in new["seats"]] == [anna.player, ben.player]
    assert [s["connected"] for s in new["seats"]] == [True, False]
    offer = ben.last("rematch")
    assert offer == {"type": "rematch", "code": new["code"], "previous": code, "by": "Anna"}
    assert all(m["type"] != "rematch" for m in anna.inbox)
    ben.send(type="rematch")  # the same new table, not another one
    assert ben.table["code"] == new["code"] and ben.table["you"] == 1
    assert world.lobby.rooms[code].rematch == new["code"]


def test_idle_tables_close_and_running_matches_are_stored_as_abandoned(store: Store) -> None:
    world = World(store, settings=Settings(), timing=NO_STALLS)
    anna, ben, code = two_at_a_table(world)
    lonely = world.client("Dora")
    lonely.send(type="create", game="schnelllauf")
    anna.send(type="start")
    match_id = anna.table["match"]
    anna.act({"type": "draw"})
    lonely.session.close()
    world.wait(59)
    assert world.lobby.sweep() == []
    world.wait(2)  # a waiting table its creator left closes after a minute (Timing.idle_waiting)
    assert world.lobby.sweep() == [lonely.table["code"]]
    world.wait(599 - 61)
    assert world.lobby.sweep() == []
    anna.session.close()
    ben.session.close()
    world.wait(601)
    assert world.lobby.sweep() == [code]
    assert world.lobby.rooms == {}
    record = store.match(match_id)
    assert record is not None and record.status.value == "abandoned" and record.result is None
    assert store.action_count(match_id) == 1


def test_a_bot_table_plays_itself_to_the_end(world: World) -> None:
    carla = world.client("Carla")
    carla.send(type="create", game="schnelllauf",
               seats=[{"kind": "bot", "bot": "machine"}, {"kind": "bot", "bot": "pro"}])
    assert carla.table["you"] is None
    carla.send(type="start")
    world.clock.run(until=3600, stop=lambda: carla.view["phase"] == "over")
    assert carla.view["phase"] == "over"
    record = world.store.match(carla.table["match"])
    assert record is not None and record.result is not None
    assert [s.bot for s in record.seats] == ["machine", "pro"]


def test_a_table_pauses_while_all_its_people_are_away(world: World) -> None:
    anna = world.client("Anna")
    anna.send(type="create", game="unter-spannung",
              seats=[{"kind": "open"}, {"kind": "bot", "bot": "beginner"}])
    code = anna.table["code"]
    room = world.lobby.rooms[code]
    anna.send(type="start")
    world.wait(3.2)
    assert room.phase.value == "playing"
    anna.session.close()
    world.wait(0.9)
    assert room.phase.value == "playing"  # a reload within the grace would change nothing
    world.wait(0.2)
    assert room.phase.value == "paused"
    paused_at, acted = room.table.time_ms(), world.store.action_count(anna.table["match"])
    world.wait(60)  # the bot waits too, and table time stands still
    assert world.store.action_count(anna.table["match"]) == acted
    assert room.table.time_ms() == paused_at
    back = world.client("Anna", token=anna.welcome["token"])
    events = [e["type"] for m in back.send(type="watch", code=code) if m["type"] == "events"
              for e in m["events"]]
    assert events == ["resuming"] and back.view["phase"] == "paused"
    assert back.act({"type": "draw"})["code"] == "not_playing"
    world.wait(3)
    assert back.view["phase"] == "playing" and back.last("events")["events"] == [
        {"type": "resumed"}]
    assert back.act({"type": "draw"})["ok"]


def test_a_bot_plays_the_seat_of_a_person_away_until_they_are_back(store: Store) -> None:
    world = World(store, timing=NO_STALLS)  # Anna, here, never acts
    anna, ben, code = two_at_a_table(world)
    room = world.lobby.rooms[code]
    anna.send(type="start")
    world.wait(3.2)
    ben.session.close()
    assert room.phase.value == "playing"  # Anna is still here
    world.wait(19)
    assert not any(entry.seat == 1 for entry in room.table.log)  # nobody plays Ben's seat yet
    assert anna.table["seats"][1]["bot"] is None
    world.wait(1.5)  # 20 s away: the stand-in sits down (too soon to have finished the match)
    assert anna.table["seats"][1]["bot"] == "normal"
    world.wait(28.5)
    assert anna.table["seats"][1]["player"] == ben.player
    assert any(entry.seat == 1 for entry in room.table.log) or room.phase.value == "over"
    back = world.client("Ben", token=ben.welcome["token"])
    back.send(type="watch", code=code)
    assert back.table["you"] == 1 and back.table["seats"][1]["bot"] is None
    played = len([e for e in room.table.log if e.seat == 1])
    world.wait(30)
    assert len([e for e in room.table.log if e.seat == 1]) == played  # the bot left the seat
