"""Rated tables: who they admit, and what their results do to the ratings (openskill's
Plackett–Luce, compared with a direct call)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from server.kit import Client, World, play_out
from store.kit import DAY, Wall
from zackzack.commands.ratings import rebuild
from zackzack.engine.table import Settings
from zackzack.ratings import NEW, Pool, Rating, match_changes, places
from zackzack.server.standins import STAND_IN_AFTER
from zackzack.store import RatingRow, Store

QUICK = Settings()


@pytest.fixture
def wall() -> Wall:
    """A wall clock that stands still until moved: ratings drift with wall time."""
    return Wall()


@pytest.fixture
def store(tmp_path: Path, wall: Wall) -> Iterator[Store]:
    """A store whose wall clock the test moves."""
    found = Store(f"sqlite:///{tmp_path / 'z.db'}", wall=wall)
    yield found
    found.close()


def rated_table(world: World, names: list[str], **create: Any) -> tuple[list[Client], str]:
    """``names[0]`` creates a rated Unter Spannung table for all of them; all ready."""
    clients = [world.member(name) for name in names]
    clients[0].send(type="create", game="unter-spannung", rated=True,
                    seats=[{"kind": "open"}] * len(names), **create)
    code = clients[0].table["code"]
    for client in clients[1:]:
        client.send(type="join", code=code, seat=None)
        client.send(type="ready", ready=True)
    return clients, code


def rated_now(store: Store, player: str, game: str = "unter-spannung",
              pool: str = "rated") -> tuple[float, float, int] | None:
    row = store.ratings_of(player).get((game, pool))
    return None if row is None else (row.mu, row.sigma, row.matches)


def direct(before: list[Rating], ranks: list[int]) -> list[tuple[float, float]]:
    """What openskill itself says, called directly."""
    model = PlackettLuce()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    return [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=ranks)]


def test_a_rated_four_player_match_moves_all_four_ratings_as_openskill_says(store: Store) -> None:
    world = World(store, settings=QUICK)
    clients, _ = rated_table(world, ["Anna", "Ben", "Cleo", "Dan"])
    assert clients[0].table["rated"] is True
    clients[0].send(type="start")
    play_out(world, clients)
    match = clients[0].table["match"]
    record = store.match(match)
    assert record is not None and record.rated and record.result is not None
    ranks = places(record.result, 4)
    assert ranks is not None
    expected = direct([NEW] * 4, ranks)
    for seat, client in enumerate(clients):
        mu, sigma, count = rated_now(store, client.player) or (0.0, 0.0, 0)
        assert (mu, sigma, count) == pytest.approx((*expected[seat], 1), abs=1e-12)
    seats = clients[0].table["seats"]
    assert all(seat["rating"] is not None for seat in seats)
    winner = min(range(4), key=lambda s: ranks[s])
    assert seats[winner]["rating"] > 1000 and seats[winner]["provisional"] is True


def test_a_second_rated_match_starts_from_the_first_ones_ratings(store: Store) -> None:
    world = World(store, settings=QUICK)
    clients, _ = rated_table(world, ["Anna", "Ben"])
    clients[0].send(type="start")
    play_out(world, clients)
    first = [rated_now(store, c.player) for c in clients]
    clients[0].send(type="rematch")
    clients[1].send(type="rematch")
    clients[1].send(type="ready", ready=True)
    assert clients[0].table["rated"] is True
    clients[0].send(type="start")
    play_out(world, clients)
    record = store.match(clients[0].table["match"])
    assert record is not None
    ranks = places(record.result, 2)
    assert ranks is not None
    expected = direct([Rating(f[0], f[1]) for f in first if f], ranks)
    for seat, client in enumerate(clients):
        mu, sigma, count = rated_now(store, client.player) or (0.0, 0.0, 0)
        assert count == 2 and (mu, sigma) == pytest.approx(expected[seat], abs=1e-9)


def test_a_returning_player_is_provisional_again(store: Store, wall: Wall) -> None:
    world = World(store, settings=QUICK)
    anna = world.member("Anna")
    store.replace_ratings([], {(anna.player, "unter-spannung", "rated"): RatingRow(
        mu=30.0, sigma=3.0, matches=40, last_at=int(wall.now * 1000))})
    anna.send(type="create", game="unter-spannung", rated=True, seats=[{"kind": "open"}] * 2)
    settled = anna.table["seats"][0]
    assert (settled["rating"], settled["provisional"]) == (1200, False)
    wall.now += 180 * DAY - 1
    anna.send(type="leave")
    anna.send(type="create", game="unter-spannung", rated=True, seats=[{"kind": "open"}] * 2)
    assert (anna.table["seats"][0]["rating"], anna.table["seats"][0]["provisional"]) \
        == (1200, False)
    wall.now += 2
    anna.send(type="leave")
    anna.send(type="create", game="unter-spannung", rated=True, seats=[{"kind": "open"}] * 2)
    assert (anna.table["seats"][0]["rating"], anna.table["seats"][0]["provisional"]) \
        == (1200, True)


def test_a_player_who_abandons_ranks_last_even_when_their_stand_in_wins(store: Store) -> None:
    world = World(store, settings=QUICK)
    (anna, ben), _ = rated_table(world, ["Anna", "Ben"])
    anna.send(type="start")
    world.wait(3)
    ben_id = ben.player
    ben.session.close()  # Ben closes the tab for good
    world.wait(STAND_IN_AFTER + 1)
    assert anna.table["seats"][1]["bot"] is not None  # a stand-in plays Ben's seat
    play_out(world, [anna])
    record = store.match(anna.table["match"])
    assert record is not None and record.abandoned == (1,)
    assert places(record.result, 2, record.abandoned) == [1, 2]
    expected = direct([NEW, NEW], [1, 2])
    assert rated_now(store, anna.player)[:2] == pytest.approx(expected[0])  # type: ignore[index]
    assert rated_now(store, ben_id)[:2] == pytest.approx(expected[1])  # type: ignore[index]


def test_casual_tables_and_bot_tables_leave_the_rated_ratings_alone(store: Store) -> None:
    world = World(store, settings=QUICK)
    anna, ben = world.client("Anna"), world.client("Ben")
    anna.send(type="create", game="unter-spannung", seats=[{"kind": "open"}] * 2)
    ben.send(type="join", code=anna.table["code"], seat=None)
    ben.send(type="ready", ready=True)
    anna.send(type="start")
    play_out(world, [anna, ben])
    assert anna.table["rated"] is False
    cleo = world.client("Cleo")
    cleo.send(type="create", game="unter-spannung",
              seats=[{"kind": "open"}, {"kind": "bot", "bot": "beginner"}])
    cleo.send(type="start")
    play_out(world, [cleo])
    for player in (anna.player, ben.player, cleo.player):
        assert rated_now(store, player) is None
    # a casual match against a calibrated bot moves only the "against bots" estimate
    assert rated_now(store, cleo.player, pool="bots") is not None
    assert rated_now(store, anna.player, pool="bots") is None


@pytest.mark.parametrize(("create", "reason"), [
    ({"seats": [{"kind": "open"}, {"kind": "bot", "bot": "pro"}]}, "people only"),
    ({"seats": [{"kind": "open"}] * 2, "options": {"penalty_ms": 0}}, "penalty_ms"),
    ({"seats": [{"kind": "open"}] * 2, "compensation": False}, "compensation"),
])
def test_a_rated_table_is_refused_unless_it_is_fair(store: Store, create: dict[str, Any],
                                                    reason: str) -> None:
    world = World(store, settings=QUICK)
    anna = world.member("Anna")
    replies = anna.send(type="create", game="unter-spannung", rated=True, **create)
    assert replies[-1]["type"] == "error" and replies[-1]["code"] == "bad_options"
    assert reason in replies[-1]["reason"]
    assert not world.lobby.rooms


def test_a_guest_may_neither_make_nor_join_a_rated_table(store: Store) -> None:
    world = World(store, settings=QUICK)
    guest, anna = world.client("Gast"), world.member("Anna")
    assert guest.error(type="create", game="unter-spannung", rated=True,
                       seats=[{"kind": "open"}] * 2) == "rated_needs_account"
    assert not world.lobby.rooms
    anna.send(type="create", game="unter-spannung", rated=True, seats=[{"kind": "open"}] * 2)
    code = anna.table["code"]
    assert guest.error(type="join", code=code, seat=None) == "rated_needs_account"
    assert [seat["name"] for seat in anna.table["seats"]] == ["Anna", None]
    guest.send(type="watch", code=code)  # watching is for everyone
    assert guest.table["code"] == code and guest.table["you"] is None


def test_a_rated_table_is_public(store: Store) -> None:
    world = World(store, settings=QUICK)
    anna = world.member("Anna")
    assert anna.error(type="create", game="unter-spannung", rated=True, private=True,
                      seats=[{"kind": "open"}] * 2) == "rated_is_public"
    assert not world.lobby.rooms


def test_the_creator_cannot_seat_a_bot_at_a_rated_table(store: Store) -> None:
    world = World(store, settings=QUICK)
    (anna, _), _ = rated_table(world, ["Anna", "Ben"])
    assert anna.error(type="seat", seat=1, kind="bot", bot="pro") in ("bad_bot", "seat_taken")
    anna.send(type="seat", seat=1, kind="open")
    assert anna.error(type="seat", seat=1, kind="bot", bot="pro") == "bad_bot"


ratings = st.builds(Rating, st.floats(0, 50), st.floats(0.5, 8.5))


@given(st.lists(st.tuples(ratings, st.integers(1, 4)), min_size=2, max_size=6))
def test_match_changes_agree_with_openskill_ties_included(seats: list[tuple[Rating, int]]
                                                          ) -> None:
    before = [rating for rating, _ in seats]
    ranks = [place for _, place in seats]
    changes = match_changes("unter-spannung", [(f"p{i}", None) for i in range(len(seats))],
                            ranks, rated=True, options={"players": len(seats)},
                            current=lambda player, pool: before[int(player[1:])])
    expected = direct(before, ranks)
    got = [(c.after.mu, c.after.sigma) for c in changes]
    assert [value for pair in got for value in pair] \
        == pytest.approx([value for pair in expected for value in pair])
    assert all(c.pool is Pool.RATED for c in changes)
    tied = [c.after.mu for c, (r, p) in zip(changes, seats, strict=True)
            if r == seats[0][0] and p == seats[0][1]]
    assert max(tied) - min(tied) < 1e-9  # the same rating and place: the same result


def test_a_player_deleted_during_a_rated_match_gets_no_rating_and_rebuild_agrees(
        store: Store) -> None:
    world = World(store, settings=QUICK)
    (anna, ben), _ = rated_table(world, ["Anna", "Ben"])
    anna.send(type="start")
    play_out(world, [anna, ben])
    anna.send(type="rematch")
    ben.send(type="rematch")
    ben.send(type="ready", ready=True)
    anna.send(type="start")
    world.wait(3)
    ben_id = ben.player
    player = world.identities.by_token(ben.welcome["token"])
    assert player is not None
    world.identities.delete(player)
    ben.session.close()
    world.wait(STAND_IN_AFTER + 1)
    play_out(world, [anna])
    assert store.ratings_of(ben_id) == {}
    assert rebuild(store, check=True).differences == []
