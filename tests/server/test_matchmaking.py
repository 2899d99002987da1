"""Matchmaking: queues per game and number of players, driven through sessions on a virtual
clock; and, with hypothesis, the pairing rule itself against any ratings and join times."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.kit import Client, World, play_out
from zackzack.engine.clock import VirtualClock
from zackzack.ratings import MU, NEW, SCALE, Pool, Rating, RatingChange, bot_anchor, bot_for
from zackzack.server.identity import Player
from zackzack.server.limits import Limits
from zackzack.server.matchmaking import (
    OFFER_BOT_AFTER,
    WINDOW_BASE,
    WINDOW_MAX,
    WINDOW_PER_SECOND,
    Entry,
    Matchmaker,
    fits,
    groups,
)
from zackzack.server.room import Room
from zackzack.store import Store

US, SL = "unter-spannung", "schnelllauf"


@pytest.fixture
def world(store: Store) -> World:
    """A lobby with live settings on a virtual clock."""
    return World(store)


def rate(world: World, client: Client, shown: int, game: str = US) -> None:
    """Give ``client``'s player the rated rating that shows as ``shown`` in ``game``."""
    mu = MU + (shown - 1000) / SCALE
    change = RatingChange(client.player, game, Pool.RATED, 0, 1, NEW, Rating(mu, 2.0))
    world.lobby.ratings.applied([change], int(world.store.wall() * 1000))


def seeker(world: World, name: str, shown: int = 1000, game: str = US) -> Client:
    """A new client with a rated rating that shows as ``shown``."""
    client = world.member(name)
    rate(world, client, shown, game)
    return client


def queued(client: Client) -> dict[str, Any] | None:
    """The latest queue message if the client is still waiting, else ``None``."""
    for message in reversed(client.inbox):
        if message["type"] == "unqueued":
            return None
        if message["type"] == "queue":
            return message
    return None


def matched_code(client: Client) -> str | None:
    """The code of the table the client was matched to, if it was."""
    return next((m["code"] for m in client.inbox
                 if m["type"] == "unqueued" and m["reason"] == "matched"), None)


def waiting(world: World) -> set[str]:
    """The player ids in any queue."""
    return set(world.lobby.matchmaker.entries)


# Pairing and playing ----------------------------------------------------------------------


def test_two_seekers_are_paired_into_a_rated_table_that_starts_and_plays_out(
        world: World) -> None:
    anna, ben = world.member("Anna"), world.member("Ben")
    anna.send(type="lobby")
    first = anna.send(type="seek", game=US, players=2)
    assert first == [{"type": "queue", "game": US, "players": 2, "waiting": 1, "since": 0,
                      "window": WINDOW_BASE, "bot": None}]
    replies = ben.send(type="seek", game=US, players=2)
    assert [m["type"] for m in replies[:2]] == ["queue", "unqueued"]
    code = replies[1]["code"]
    assert replies[1] == {"type": "unqueued", "reason": "matched", "code": code}
    assert matched_code(anna) == code and waiting(world) == set()
    for client, seat in ((anna, 0), (ben, 1)):  # the longest-waiting person made the table
        table = client.table
        assert table["code"] == code and table["rated"] is True and table["private"] is False
        assert table["you"] == seat and table["phase"] == "starting"
        assert [s["player"] for s in table["seats"]] == [anna.player, ben.player]
        assert table["creator"] == anna.player and table["options"]["players"] == 2
        assert table["title"] == "Unter Spannung · Anna – Ben"
    assert world.lobby.subscribed(anna.session) is False  # the table is shown now
    assert anna.session.room is world.lobby.rooms[code] is ben.session.room
    world.wait(3.0)
    play_out(world, [anna, ben])
    world.wait(1.0)
    stored = world.store.ratings_of(anna.player)[US, "rated"]
    assert stored.matches == 1 and world.store.ratings_of(ben.player)[US, "rated"].matches == 1
    lobby_entry = world.lobby.rooms[code].lobby_entry()
    assert lobby_entry.rated and lobby_entry.phase == "over"


def test_close_ratings_are_paired_before_far_ones(world: World) -> None:
    anna, far = seeker(world, "Anna", 1000), seeker(world, "Far", 1250)
    anna.send(type="seek", game=US, players=2)
    far.send(type="seek", game=US, players=2)
    world.wait(5.0)  # windows ±150: 250 apart is too far yet
    assert waiting(world) == {anna.player, far.player}
    near = seeker(world, "Near", 1080)
    near.send(type="seek", game=US, players=2)  # 80 from Anna, 170 from Far
    assert matched_code(anna) is not None and matched_code(anna) == matched_code(near)
    assert queued(far) is not None and waiting(world) == {far.player}
    assert queued(far)["waiting"] == 1  # type: ignore[index]


def test_the_longest_waiting_is_paired_with_the_nearest_in_reach(world: World) -> None:
    a, b, c = seeker(world, "A", 1000), seeker(world, "B", 1090), seeker(world, "C", 1185)
    b.send(type="seek", game=US, players=2)
    world.wait(9.0)  # B accepts ±190 now
    c.send(type="seek", game=US, players=2)  # 95 above B: within both windows
    assert matched_code(b) is not None and matched_code(b) == matched_code(c)
    d = seeker(world, "D", 1150)
    a.send(type="seek", game=US, players=2)
    world.wait(4.0)  # A: ±140 after 4 s; D (150 away) joins now
    d.send(type="seek", game=US, players=2)
    assert waiting(world) == {a.player, d.player}
    world.wait(5.0)  # D: ±150 after 5 s, A ±190: they pair at 10 s
    assert world.clock.time() == 18.0 and matched_code(a) == matched_code(d) is not None


def test_a_far_pair_is_paired_only_once_the_window_has_widened(world: World) -> None:
    anna, ben = seeker(world, "Anna", 1000), seeker(world, "Ben", 1300)
    anna.send(type="seek", game=US, players=2)
    ben.send(type="seek", game=US, players=2)
    world.wait(19.5)
    assert waiting(world) == {anna.player, ben.player}
    assert queued(anna)["window"] == queued(ben)["window"] == 290  # type: ignore[index]
    world.wait(0.5)  # 20 s waited: ±300 reaches
    assert world.clock.time() == 20.0
    assert matched_code(anna) is not None and matched_code(anna) == matched_code(ben)
    table = anna.table
    assert [s["rating"] for s in table["seats"]] == [1000, 1300] and table["rated"]


def test_the_later_one_widens_later(world: World) -> None:
    anna, ben = seeker(world, "Anna", 1000), seeker(world, "Ben", 1300)
    anna.send(type="seek", game=US, players=2)
    world.wait(10.0)
    ben.send(type="seek", game=US, players=2)  # at 10 s Anna accepts ±200, Ben ±100
    world.wait(19.0)
    assert waiting(world) == {anna.player, ben.player}  # Ben has waited 19 s: ±290
    world.wait(1.0)
    assert world.clock.time() == 30.0 and matched_code(ben) is not None


def test_the_window_stops_widening_at_its_maximum(world: World) -> None:
    anna, ben = seeker(world, "Anna", 1000), seeker(world, "Ben", 1000 + WINDOW_MAX + 1)
    anna.send(type="seek", game=US, players=2)
    ben.send(type="seek", game=US, players=2)
    world.wait(300.0)
    assert waiting(world) == {anna.player, ben.player}
    assert queued(anna)["window"] == WINDOW_MAX  # type: ignore[index]


def test_different_games_and_counts_never_mix(world: World) -> None:
    a, b, c = world.member("A"), world.member("B"), world.member("C")
    a.send(type="seek", game=US, players=2)
    b.send(type="seek", game=SL, players=2)
    c.send(type="seek", game=US, players=3)
    world.wait(120.0)
    assert waiting(world) == {a.player, b.player, c.player}
    assert all(m["type"] != "unqueued" for client in (a, b, c) for m in client.inbox)
    assert [(queued(x)["game"], queued(x)["players"], queued(x)["waiting"])  # type: ignore[index]
            for x in (a, b, c)] == [(US, 2, 1), (SL, 2, 1), (US, 3, 1)]
    d = world.member("D")
    d.send(type="seek", game=SL, players=2)
    assert matched_code(b) is not None and matched_code(b) == matched_code(d)
    assert world.lobby.rooms[matched_code(b)].rules.INFO.name == SL  # type: ignore[index]
    assert waiting(world) == {a.player, c.player}


def test_a_four_player_queue_forms_a_table_of_four(world: World) -> None:
    people = [seeker(world, name, 1000 + 30 * i) for i, name in enumerate("ABCD")]
    for person in people[:3]:
        person.send(type="seek", game=US, players=4)
    world.wait(3.0)
    assert waiting(world) == {p.player for p in people[:3]}
    assert [queued(p)["waiting"] for p in people[:3]] == [3, 3, 3]  # type: ignore[index]
    people[3].send(type="seek", game=US, players=4)
    codes = {matched_code(p) for p in people}
    assert len(codes) == 1 and None not in codes and waiting(world) == set()
    room = world.lobby.rooms[codes.pop()]  # type: ignore[index]
    assert room.rated and room.phase.value == "starting" and len(room.seats) == 4
    assert {s.player.id for s in room.seats if s.player} == {p.player for p in people}
    assert [p.table["you"] for p in people] == [0, 1, 2, 3]
    assert room.title == "Unter Spannung · A – B – C – D"


def test_updates_come_on_change_and_once_a_second(world: World) -> None:
    anna, ben = seeker(world, "Anna", 1000), seeker(world, "Ben", 1500)
    anna.send(type="seek", game=US, players=2)
    ben.send(type="seek", game=US, players=2)
    assert queued(anna)["waiting"] == 2  # type: ignore[index]  # told when Ben came
    before = len([m for m in anna.inbox if m["type"] == "queue"])
    world.wait(5.0)
    ticks = [m for m in anna.inbox if m["type"] == "queue"][before:]
    assert [m["window"] for m in ticks] == [110, 120, 130, 140, 150]
    assert {m["since"] for m in ticks} == {0}
    ben.send(type="unseek")
    assert queued(anna)["waiting"] == 1  # type: ignore[index]


def test_the_bot_offer_appears_after_a_minute_and_not_before(world: World) -> None:
    anna = seeker(world, "Anna", 1200)
    anna.send(type="seek", game=US, players=2)
    world.wait(OFFER_BOT_AFTER - 1)
    assert all(m["bot"] is None for m in anna.inbox if m["type"] == "queue")
    world.wait(1.0)
    offer = queued(anna)
    assert offer is not None and offer["bot"] == bot_for(US, MU + 200 / SCALE)
    # She takes it: an ordinary unrated create with bots, which ends her seek.
    replies = anna.send(type="create", game=US,
                        seats=[{"kind": "open"}, {"kind": "bot", "bot": offer["bot"]}])
    assert [m["type"] for m in replies[:2]] == ["table", "unqueued"]
    assert replies[1] == {"type": "unqueued", "reason": "left", "code": None}
    assert anna.table["rated"] is False and waiting(world) == set()


def test_the_offer_follows_the_games_against_bots_when_there_are_some(world: World) -> None:
    ben = seeker(world, "Ben", 1000)
    pro = bot_anchor(US, "pro")
    assert pro is not None and bot_for(US, MU) != "pro"
    against_bots = RatingChange(ben.player, US, Pool.BOTS, 0, 1, NEW, Rating(pro.mu + 0.1, 2.0))
    world.lobby.ratings.applied([against_bots], int(world.store.wall() * 1000))
    ben.send(type="seek", game=US, players=2)
    world.wait(OFFER_BOT_AFTER)
    assert queued(ben)["bot"] == "pro"  # type: ignore[index]


def test_someone_who_joins_later_still_gets_matched_after_the_offer(world: World) -> None:
    anna = world.member("Anna")
    anna.send(type="seek", game=US, players=2)
    world.wait(90.0)
    assert queued(anna)["bot"] is not None  # type: ignore[index]
    ben = world.member("Ben")
    ben.send(type="seek", game=US, players=2)
    assert matched_code(anna) is not None and matched_code(anna) == matched_code(ben)


# Leaving ----------------------------------------------------------------------------------


def test_unseek_leave_close_and_another_table_remove_the_entry(world: World) -> None:
    anna, ben = world.member("Anna"), world.member("Ben")
    anna.send(type="seek", game=US, players=3)
    assert anna.send(type="unseek") == [{"type": "unqueued", "reason": "left", "code": None}]
    assert anna.send(type="unseek") == [] and waiting(world) == set()
    anna.send(type="seek", game=US, players=3)
    assert anna.send(type="leave") == [{"type": "unqueued", "reason": "left", "code": None}]
    assert anna.error(type="leave") == "not_at_table"
    anna.send(type="seek", game=US, players=3)
    anna.session.close()
    assert waiting(world) == set()
    world.client(name=None).session.close()  # a connection that never said hello goes quietly
    ben.send(type="seek", game=US, players=3)
    carla = world.member("Carla")
    carla.send(type="create", game=US, seats=[{"kind": "open"}] * 2)
    ben.send(type="join", code=carla.table["code"], seat=None)
    assert queued(ben) is None and waiting(world) == set()
    dora = world.member("Dora")
    dora.send(type="seek", game=US, players=3)
    dora.send(type="watch", code=carla.table["code"])  # watching someone else's table
    assert waiting(world) == {dora.player}  # is no reason to stop waiting
    world.wait(5.0)  # nothing is left scheduled for those who went
    assert queued(dora) is not None and world.lobby.matchmaker.entry_of(dora.session)


def test_a_second_seek_moves_the_player(world: World) -> None:
    anna = world.member("Anna")
    anna.send(type="seek", game=US, players=2)
    world.wait(10.0)
    again = anna.send(type="seek", game=US, players=2)  # the same queue: her time stays
    assert again[-1]["since"] == 0 and again[-1]["window"] == 200
    moved = anna.send(type="seek", game=US, players=3)
    assert moved == [{"type": "queue", "game": US, "players": 3, "waiting": 1,
                      "since": 10000, "window": 100, "bot": None}]
    tab = world.client("", token=anna.welcome["token"])  # her other tab takes over the seek
    tab.send(type="seek", game=SL, players=2)
    assert queued(anna) is None and anna.inbox[-1]["reason"] == "left"
    assert len(world.lobby.matchmaker.entries) == 1 and queued(tab)["game"] == SL  # type: ignore[index]
    anna.session.close()  # the old tab's going does not touch the new tab's seek
    assert waiting(world) == {tab.player}


def test_the_lobby_shutting_down_empties_the_queues(world: World) -> None:
    anna = world.member("Anna")
    anna.send(type="seek", game=SL, players=2)
    world.lobby.shutdown()
    assert queued(anna) is None and waiting(world) == set()
    world.wait(5.0)
    assert anna.inbox[-1] == {"type": "unqueued", "reason": "left", "code": None}


def test_unknown_games_and_bad_counts_are_refused_and_change_nothing(world: World) -> None:
    anna, ben = world.member("Anna"), world.member("Ben")
    anna.send(type="seek", game=US, players=2)
    world.wait(3.0)
    before = list(anna.inbox)
    assert anna.error(type="seek", game="skat", players=2) == "no_such_game"
    assert anna.error(type="seek", game=SL, players=3) == "bad_options"
    assert anna.error(type="seek", game=US, players=7) == "bad_field"
    assert anna.error(type="seek", game=US, players=1) == "bad_field"
    assert anna.error(type="seek", game=US) == "bad_field"
    assert anna.inbox[:len(before)] == before and queued(anna) == before[-1]
    entry = world.lobby.matchmaker.entry_of(anna.session)
    assert entry is not None and (entry.game, entry.players, entry.since) == (US, 2, 0.0)
    assert ben.error(type="seek", game=SL, players=4) == "bad_options"
    assert waiting(world) == {anna.player} and world.lobby.rooms == {}


def test_a_player_in_a_running_match_may_not_seek(world: World) -> None:
    anna = seeker(world, "Anna")
    anna.send(type="create", game=US, seats=[{"kind": "open"}, {"kind": "bot", "bot": "pro"}])
    anna.send(type="start")
    anna.send(type="lobby")
    assert anna.error(type="seek", game=US, players=2) == "playing_elsewhere"
    assert waiting(world) == set()


def test_a_player_with_too_many_tables_may_not_seek(world: World) -> None:
    anna = world.member("Anna")
    for _ in range(world.limits.tables_per_player):
        anna.send(type="create", game=US, seats=[{"kind": "open"}] * 2)
    assert anna.error(type="seek", game=US, players=2) == "too_many_tables"
    assert waiting(world) == set()


# Rated play means people ------------------------------------------------------------------


def test_a_guest_may_not_seek(world: World) -> None:
    guest = world.client("Gast")
    assert guest.error(type="seek", game=US, players=2) == "rated_needs_account"
    assert waiting(world) == set()


@pytest.mark.parametrize(("here", "there"), [
    ("203.0.113.7", "203.0.113.7"),  # one address
    ("2001:db8:1:2::10", "2001:db8:1:2:aaaa:bbbb:cccc:dddd"),  # one IPv6 /64
    ("::ffff:198.51.100.4", "198.51.100.4"),  # the same IPv4 address, mapped or not
])
def test_two_accounts_on_one_address_are_never_paired(world: World, here: str,
                                                       there: str) -> None:
    anna, alter = world.member("Anna", here), world.member("Alter", there)
    anna.send(type="seek", game=US, players=2)
    alter.send(type="seek", game=US, players=2)
    world.wait(OFFER_BOT_AFTER + 5)  # every window at its widest, the bot offered
    assert waiting(world) == {anna.player, alter.player} and world.lobby.rooms == {}
    ben = world.member("Ben", "198.51.100.99")  # someone else meets the one waiting longest
    ben.send(type="seek", game=US, players=2)
    assert matched_code(anna) is not None and matched_code(anna) == matched_code(ben)
    assert waiting(world) == {alter.player}


def test_an_address_seen_at_a_sign_in_counts_too_and_is_forgotten_after_the_window(
        world: World) -> None:
    anna, alter = world.member("Anna", "198.51.100.1"), world.member("Alter", "198.51.100.2")
    alter_player = world.identities.by_token(alter.welcome["token"])
    assert alter_player is not None
    world.identities.remember(alter_player, "198.51.100.1")  # Alter signed in at Anna's
    day = 86_400.0
    for later in (0.0, world.limits.rated_apart_days * day - day, 2 * day):
        world.wait(later)  # nobody waits meanwhile
        anna.send(type="seek", game=US, players=2)
        alter.send(type="seek", game=US, players=2)
        world.wait(5.0)
        if matched_code(anna) is not None:
            break
        assert waiting(world) == {anna.player, alter.player}
        anna.send(type="unseek")
        alter.send(type="unseek")
    assert later == 2 * day  # a month after that sign-in they may meet
    assert matched_code(anna) == matched_code(alter)


def test_two_accounts_of_one_device_are_never_paired(world: World) -> None:
    anna, alter = world.member("Anna", "198.51.100.1"), world.member("Alter", "203.0.113.9")
    players = [world.identities.by_token(c.welcome["token"]) for c in (anna, alter)]
    assert players[0] is not None and players[1] is not None
    device = world.identities.remember(players[0], "198.51.100.1")  # her browser's cookie
    assert world.identities.remember(players[1], "203.0.113.9", device) == device
    anna.send(type="seek", game=US, players=2)
    alter.send(type="seek", game=US, players=2)
    world.wait(OFFER_BOT_AFTER + 5)
    assert waiting(world) == {anna.player, alter.player}


def test_loopback_and_unknown_addresses_tie_nobody(world: World) -> None:
    anna, ben = world.member("Anna", "127.0.0.1"), world.member("Ben", "::1")
    cleo, dan = world.member("Cleo"), world.member("Dan")
    for client in (anna, ben, cleo, dan):
        client.send(type="seek", game=US, players=2)
    assert waiting(world) == set()


def test_no_check_when_the_limit_is_zero(store: Store) -> None:
    world = World(store, limits=Limits(rated_apart_days=0))
    anna, alter = world.member("Anna", "203.0.113.7"), world.member("Alter", "203.0.113.7")
    anna.send(type="seek", game=US, players=2)
    alter.send(type="seek", game=US, players=2)
    assert matched_code(anna) is not None and matched_code(anna) == matched_code(alter)


def test_a_running_tutorial_does_not_block_seek_and_closes_at_the_match(world: World) -> None:
    anna, ben = world.member("Anna"), world.member("Ben")
    anna.send(type="create", game=US, tutorial=True)
    tutorial = anna.table["code"]
    world.wait(5.0)
    assert anna.table["phase"] != "waiting"
    anna.send(type="seek", game=US, players=2)
    assert waiting(world) == {anna.player}
    ben.send(type="seek", game=US, players=2)
    code = matched_code(anna)
    assert code is not None and code == matched_code(ben)
    assert tutorial not in world.lobby.rooms and anna.table["code"] == code


# The rule, for any ratings and join times -------------------------------------------------


class _Lobby:
    """What the matchmaker uses of a lobby (its clock, its ratings), on a virtual clock."""

    def __init__(self) -> None:
        self.clock = VirtualClock()
        self.shown_ratings: dict[str, int] = {}
        self.devices: dict[str, frozenset[str]] = {}
        self.ratings = self
        self.store = None  # no operator's marks (``zackzack.moderation``)

    def marks(self, player: Player, address: str) -> frozenset[str]:
        return self.devices.get(player.id, frozenset())

    def end_tutorial(self, player: Player) -> None:
        pass

    def current(self, player_id: str, pool: Pool, game: str) -> Rating:
        return Rating(MU + (self.shown_ratings[player_id] - 1000) / SCALE, 2.0)

    def shown(self, player_id: str, game: str) -> tuple[int, bool]:
        return self.shown_ratings[player_id], False

    def level(self, player_id: str, game: str) -> float:
        return self.current(player_id, Pool.RATED, game).mu

    def _check_quota(self, player: Player) -> None:
        pass

    def playing(self, player: Player) -> bool:
        return False


class _Seeker:
    def __init__(self, player: Player) -> None:
        self.player, self.origin, self.address, self.sent = player, "", "", []

    def send(self, text: str) -> None:
        self.sent.append(text)


class _Recording(Matchmaker):
    """A matchmaker that notes the groups it forms instead of opening tables."""

    formed: list[tuple[float, list[Entry]]]

    def found(self, group: list[Entry], now: float) -> Room:  # type: ignore[override]
        assert now == self.lobby.clock.time()
        self.formed.append((now, group))
        return None  # type: ignore[return-value]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(600, 1800), st.floats(0, 120, allow_nan=False),
                          st.sampled_from([2, 3, 4])), min_size=1, max_size=24),
       st.lists(st.integers(0, 23), max_size=6),
       st.lists(st.frozensets(st.sampled_from("abcdef"), max_size=2), max_size=24))
def test_every_group_fits_its_members_windows_and_nobody_is_in_two(
        people: list[tuple[int, float, int]], leavers: list[int],
        devices: list[frozenset[str]]) -> None:
    lobby = _Lobby()
    maker = _Recording(lobby)  # type: ignore[arg-type]
    maker.formed = []
    seekers = []
    for i, (rating, at, players) in enumerate(people):
        player = Player(f"p_{i}", f"P{i}", claimed=True)
        lobby.shown_ratings[player.id] = rating
        lobby.devices[player.id] = devices[i] if i < len(devices) else frozenset()
        seekers.append(_Seeker(player))
        lobby.clock.call_at(at, lambda s=seekers[-1], p=players: maker.seek(s, US, p))  # type: ignore[misc]
    for leaver in leavers:
        if leaver < len(seekers):
            lobby.clock.call_at(people[leaver][1] + 7.5,
                                lambda s=seekers[leaver]: maker.unseek(s))  # type: ignore[misc]
    end = max(at for _, at, _ in people) + 60.0  # every window is at its widest by then
    lobby.clock.run(until=end)
    grouped = [entry.seeker.player.id for _, group in maker.formed for entry in group]
    assert len(grouped) == len(set(grouped))
    for now, group in maker.formed:
        assert fits(group, now)
        ratings = [entry.rating for entry in group]
        assert all(max(ratings) - min(ratings) <= entry.window(now) for entry in group)
        assert len(group) == group[0].players and {e.players for e in group} == {group[0].players}
        assert all(now >= entry.since for entry in group)
        # nobody shares a device or an address with anyone of their group
        assert sum(len(entry.marks) for entry in group) \
            == len(frozenset().union(*(entry.marks for entry in group)))
    # Whoever was neither grouped nor left still waits, and no group is left to form.
    assert not set(grouped) & set(maker.entries)
    for size in (2, 3, 4):
        assert groups(maker.waiting(US, size), size, end) == []
    if not maker.entries:
        assert lobby.clock._queue == [] or all(t.callback is None for _, _, t in lobby.clock._queue)


def test_window_constants() -> None:
    assert (WINDOW_BASE, WINDOW_PER_SECOND, WINDOW_MAX, OFFER_BOT_AFTER) == (100, 10, 600, 60.0)
