"""Ratings in the store: a finished match writes its changes and the ratings in one transaction;
leaderboards (eligibility, order, ranks) read the ratings alone; rebuilds replay the changes;
profiles gather ratings, history, recent matches and statistics."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from store.kit import DAY, Wall, claimed, guest, play
from zackzack.ratings import BOARD_ACTIVE_DAYS, BOARD_MIN_MATCHES, NEW, Pool, Rating, update
from zackzack.ratings import RatingChange as Change
from zackzack.store import (
    MatchStart,
    RatingRow,
    SeatRecord,
    Status,
    Store,
    StoredChange,
)
from zackzack.store.ratings import BOARD_TOTAL_FRESH_MS
from zackzack.store.schema import match_players, rating_changes, ratings
from zackzack.words.names import name_key

GAME = "unter-spannung"


def count(store: Store, table: Any) -> int:
    """How many rows ``table`` has."""
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def test_a_rated_match_stores_its_changes_and_the_new_ratings(store: Store, wall: Wall) -> None:
    for player in ("p_a", "p_b", "p_c", "p_d"):
        guest(store, player)
    first = play(store, "m1", GAME, ["p_a", "p_b", "p_c", "p_d"], [2, 1, 3, 3])
    assert [c.after for c in first] == update([NEW] * 4, [2, 1, 3, 3], "unter-spannung")
    rows = {p: store.ratings_of(p)[GAME, "rated"] for p in ("p_a", "p_b", "p_c", "p_d")}
    assert rows["p_b"] == RatingRow(first[1].after.mu, first[1].after.sigma, 1, wall.ms())
    wall.now += 3600
    second = play(store, "m2", GAME, ["p_a", "p_b"], [1, 2])
    assert second[0].before == first[0].after
    assert store.ratings_of("p_a")[GAME, "rated"] == RatingRow(
        second[0].after.mu, second[0].after.sigma, 2, wall.ms())
    assert store.ratings_of("p_c")[GAME, "rated"].matches == 1
    assert count(store, rating_changes) == 6


def test_places_abandoned_seats_and_statistics_go_to_the_seats(store: Store) -> None:
    guest(store, "p_a")
    guest(store, "p_b")
    stats = [{"seat": 0, "played": 30, "wrong": 2, "late": 1, "reaction_ms": 640},
             {"seat": 1, "played": 12, "wrong": 0, "late": 4, "reaction_ms": None},
             {"seat": 2, "played": 20, "wrong": 1, "late": 0, "reaction_ms": 500}]
    changes = play(store, "m1", GAME, ["p_a", None, "p_b"], [2, 3, 1], stats=stats,
                   abandoned=[2])
    assert [(c.player_id, c.place) for c in changes] == [("p_a", 1), ("p_b", 3)]
    record = store.match("m1")
    assert record is not None and record.rated and record.abandoned == (2,)
    assert record.stats == stats
    with store.engine.connect() as conn:
        seats = conn.execute(select(match_players).order_by(match_players.c.seat)).all()
    assert [(s.seat, s.place, s.played, s.wrong, s.late, s.reaction_ms, s.rounds)
            for s in seats] == [(0, 1, 30, 2, 1, 640, 2), (2, 3, 20, 1, 0, 500, 2)]


def test_a_failing_write_of_a_finished_match_leaves_nothing(store: Store) -> None:
    guest(store, "p_a")
    seats = (SeatRecord(0, "A", "p_a"), SeatRecord(1, "Ghost", "p_ghost"))
    store.begin_match(MatchStart("m1", "ABCDEF", GAME, "t", {"players": 2}, {}, 1, None, seats,
                                 False, 0, rated=True))
    after = update([NEW, NEW], [1, 2], "unter-spannung")
    changes = [Change("p_a", GAME, Pool.RATED, 0, 1, NEW, after[0]),
               Change("p_ghost", GAME, Pool.RATED, 1, 2, NEW, after[1])]  # no such player
    result = {"placings": [{"seat": 0, "place": 1}, {"seat": 1, "place": 2}]}
    with pytest.raises(IntegrityError):
        store.finish_match("m1", Status.OVER, 100, result, rated=changes,
                           stats=[{"seat": 0, "played": 1, "wrong": 0, "late": 0,
                                   "reaction_ms": 1}])
    record = store.match("m1", finished=False)
    assert record is not None and record.status is Status.PLAYING and record.result is None
    assert record.stats is None
    assert count(store, rating_changes) == 0 and count(store, ratings) == 0
    with store.engine.connect() as conn:
        assert conn.execute(select(match_players.c.place, match_players.c.played)).all() == \
            [(None, None), (None, None)]
    store.finish_match("m1", Status.OVER, 100, result, rated=changes[:1])  # the store goes on
    assert store.ratings_of("p_a")[GAME, "rated"].matches == 1


def test_the_leaderboard_lists_only_eligible_players_best_first(store: Store,
                                                                wall: Wall) -> None:
    for player, name in (("p_top", "Top"), ("p_mid", "Mid"), ("p_few", "Few"),
                         ("p_old", "Old"), ("p_gone", "Gone"), ("p_low", "Low")):
        claimed(store, player, name)
    guest(store, "p_guest")
    matches = itertools.count()

    def games(people: list[str], times: int) -> None:
        for _ in range(times):
            play(store, f"m{next(matches)}", GAME, people, list(range(1, len(people) + 1)))

    games(["p_top", "p_old"], BOARD_MIN_MATCHES)
    wall.now += (BOARD_ACTIVE_DAYS - 1) * DAY
    games(["p_top", "p_mid", "p_low", "p_guest"], BOARD_MIN_MATCHES)
    games(["p_gone", "p_few"], BOARD_MIN_MATCHES - 1)
    games(["p_gone", "p_low"], 1)
    play(store, "casual", GAME, ["p_few", None], [1, 2], pool=Pool.BOTS)
    play(store, "other", "schnelllauf", ["p_few", "p_low"], [1, 2])
    store.delete_player("p_gone")
    wall.now += 2 * DAY  # p_old's last match is 15 days ago now
    board, total = store.leaderboard(GAME, now_ms=wall.ms())
    assert [(row.rank, row.player_id, row.name) for row in board] == [
        (1, "p_top", "Top"), (2, "p_mid", "Mid"), (3, "p_low", "Low")]
    assert total == 3
    assert board[0].mu > board[1].mu > board[2].mu
    assert board[0].matches == 2 * BOARD_MIN_MATCHES
    page, total = store.leaderboard(GAME, now_ms=wall.ms(), limit=1, offset=1)
    assert [(row.rank, row.player_id) for row in page] == [(2, "p_mid")] and total == 3
    assert [store.rank_of(p, GAME, wall.ms()) for p in ("p_top", "p_mid", "p_low")] == [1, 2, 3]
    for outside in ("p_few", "p_old", "p_gone", "p_guest", "p_nobody"):
        assert store.rank_of(outside, GAME, wall.ms()) is None
    assert store.leaderboard("schnelllauf", now_ms=wall.ms()) == ([], 0)
    store.claim("p_guest", "Guest", "guest", "x")  # a guest who claims is listed at once
    board, total = store.leaderboard(GAME, now_ms=wall.ms())
    assert "p_guest" in [row.player_id for row in board]
    assert total == 3  # the count of players is taken again only every few seconds
    wall.now += BOARD_TOTAL_FRESH_MS / 1000
    assert store.leaderboard(GAME, now_ms=wall.ms())[1] == 4


@st.composite
def boards(draw: st.DrawFn) -> list[tuple[float, int, float, bool, bool]]:
    """Players as (μ, rated matches, days since the last, claimed, deleted)."""
    mus = st.sampled_from([20.0, 25.0, 30.0]) | st.floats(0, 50)
    return draw(st.lists(st.tuples(mus, st.integers(0, 8), st.floats(0, 20), st.booleans(),
                                   st.booleans()), max_size=12))


boards_seen = itertools.count()


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=40)
@given(players=boards(), limit=st.integers(1, 5), offset=st.integers(0, 4))
def test_leaderboards_and_ranks_agree_with_their_definition(
        store: Store, wall: Wall, players: list[tuple[float, int, float, bool, bool]],
        limit: int, offset: int) -> None:
    board = f"game-{next(boards_seen)}"  # a game of its own per example: boards do not mix
    rows: dict[tuple[str, str, str], RatingRow] = {}
    expected = []
    for n, (mu, played, days, claim, deleted) in enumerate(players):
        player = f"p_{board}_{n}"
        (claimed(store, player, player) if claim else guest(store, player))
        if deleted:
            store.delete_player(player)
        rows[player, board, "rated"] = RatingRow(mu, 1.0, played,
                                                 wall.ms() - round(days * DAY * 1000))
        rows[player, board, "bots"] = RatingRow(99.0, 1.0, 99, wall.ms())
        if claim and not deleted and played >= BOARD_MIN_MATCHES and days <= BOARD_ACTIVE_DAYS:
            expected.append((mu, player))
    store.replace_ratings([], rows)  # the ratings alone, as a rebuild writes them
    expected.sort(reverse=True)
    found, total = store.leaderboard(board, now_ms=wall.ms(), limit=limit, offset=offset)
    assert total == len(expected)
    assert [(row.rank, row.mu, row.player_id) for row in found] == [
        (offset + n + 1, mu, player)
        for n, (mu, player) in enumerate(expected[offset:offset + limit])]
    ranks = {player: n + 1 for n, (_, player) in enumerate(expected)}
    for n in range(len(players)):
        player = f"p_{board}_{n}"
        assert store.rank_of(player, board, wall.ms()) == ranks.get(player)


def test_a_rebuild_replays_the_changes_to_the_same_ratings(store: Store, wall: Wall) -> None:
    people = [f"p_{n}" for n in range(5)]
    for person in people:
        guest(store, person)
    tables = [([0, 1, 2, 3], [1, 2, 3, 4]), ([4, 0], [2, 1]), ([1, 2, 4], [1, 1, 3]),
              ([3, 4, 0, 1], [4, 3, 2, 1]), ([2, 3], [1, 2])]
    for n, (seated, placed) in enumerate(tables):
        wall.now += 600
        play(store, f"m{n}", GAME, [people[i] for i in seated], placed)
    play(store, "bots", GAME, [people[0], None], [1, 2], pool=Pool.BOTS)
    play(store, "casual", GAME, [people[1], people[2]], [1, 2], rated=False)
    stored = {(p, g, pool): row for p in people for (g, pool), row in store.ratings_of(p).items()}
    replayed = list(store.rated_matches_in_order())
    assert [m.id for m in replayed] == ["m0", "m1", "m2", "m3", "m4", "bots"]
    assert [m.rated for m in replayed] == [True] * 5 + [False]
    current: dict[tuple[str, str, str], RatingRow] = {}
    changes: list[StoredChange] = []
    for match in replayed:
        people_at = [seat.player for seat in match.seats]
        assert [c.change.seat for c in match.changes] == \
            [n for n, p in enumerate(people_at) if p]
        pool = match.changes[0].change.pool
        before = [current[p, match.game, pool.value].rating
                  if p and (p, match.game, pool.value) in current else NEW for p in people_at]
        placed = [c.change.place for c in match.changes]
        after = update(before, placed, match.game) if all(people_at) else [c.change.after
                                                              for c in match.changes]
        for stored_change in match.changes:
            change = stored_change.change
            new = after[change.seat] if all(people_at) else change.after
            assert new == change.after and before[change.seat] == change.before
            key = (change.player_id, match.game, pool.value)
            old = current.get(key)
            current[key] = RatingRow(new.mu, new.sigma, (old.matches if old else 0) + 1,
                                     stored_change.at)
            changes.append(StoredChange(match.id, stored_change.at,
                                        Change(change.player_id, match.game, pool, change.seat,
                                               change.place, before[change.seat], new)))
    assert current == stored
    store.delete_player(people[4])
    store.replace_ratings(changes, current)
    again = list(store.rated_matches_in_order())
    assert [m.id for m in again] == [m.id for m in replayed]
    assert [c.change for m in again for c in m.changes] == [c.change for c in changes]
    assert store.ratings_of(people[0]) == {k[1:]: v for k, v in current.items()
                                           if k[0] == people[0]}
    assert store.ratings_of(people[4]) == {}  # deleted: no ratings come back


def test_a_profile_gathers_ratings_history_recent_matches_and_statistics(
        store: Store, wall: Wall) -> None:
    guest(store, "p_anna", "Anna")
    store.claim("p_anna", "Anna", name_key("Anna"), "x")
    guest(store, "p_ben", "Ben")
    stat = [{"seat": 0, "played": 20, "wrong": 2, "late": 1, "reaction_ms": 600},
            {"seat": 1, "played": 10, "wrong": 4, "late": 3, "reaction_ms": 900}]
    for n in range(3):
        wall.now += 60
        play(store, f"m{n}", GAME, ["p_anna", "p_ben"], [1, 2] if n < 2 else [2, 1],
             stats=[{**stat[0], "reaction_ms": 600 + 100 * n}, stat[1]], end_ms=120_000)
    wall.now += 60
    play(store, "old", "schnelllauf", ["p_anna", None], [2, 1], rated=False)  # no stats
    profile = store.profile("anna  ")
    assert profile is not None and profile == store.profile("p_anna")
    assert store.profile("anna", key_of=str.upper) is None  # a key function of its own
    assert profile.player.name == "Anna" and profile.player.claimed
    assert profile.ratings.keys() == {(GAME, "rated")}
    history = profile.history[GAME, "rated"]
    assert [(p.match_id, p.mu) for p in history] == [
        (c.match_id, c.change.after.mu) for m in store.rated_matches_in_order()
        for c in m.changes if c.change.player_id == "p_anna"]
    assert [h.seq for h in history] == sorted(h.seq for h in history)
    assert [(r.match.id, r.seat, r.place) for r in profile.recent] == [
        ("old", 0, 2), ("m2", 0, 2), ("m1", 0, 1), ("m0", 0, 1)]
    game = profile.stats[GAME]
    assert (game.matches, game.wins, game.counted) == (3, 2, 3)
    assert (game.played, game.wrong, game.late, game.rounds) == (60, 6, 3, 6)
    assert (game.played_ms, game.reaction_ms) == (360_000, 700)
    other = profile.stats["schnelllauf"]
    assert (other.matches, other.wins, other.counted, other.reaction_ms) == (1, 0, 0, None)
    ben = store.profile("p_ben")
    assert ben is not None and ben.stats[GAME].reaction_ms == 900
    assert store.profile("nobody") is None


def test_rating_values_are_floats_that_come_back_exactly(store: Store) -> None:
    guest(store, "p_a")
    guest(store, "p_b")
    play(store, "m1", GAME, ["p_a", "p_b"], [1, 2])
    change = next(store.rated_matches_in_order()).changes[0].change
    assert isinstance(change.after, Rating) and change.before == NEW
