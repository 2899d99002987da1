"""Arenas (zackzack.arena): points, streaks, standings, pairing and its bounds, the JSON state.

A random arena (hypothesis' state machine) joins, pauses, brings back and withdraws players,
ends tables with random places and pairs at random times, across the arena's end; after
every pairing it checks the pairing's promises, and after every step the records, the
standings and that the state read back from its JSON is equal (and carries on from there).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from zackzack.arena import (
    PATIENCE,
    SEATS,
    Arena,
    ArenaError,
    Player,
    Settings,
    Status,
    points,
)
from zackzack.sim.arena import Crowd, run

places_strategy = st.integers(2, 4).flatmap(
    lambda n: st.lists(st.integers(1, n), min_size=n, max_size=n))


def arena_of(ratings: dict[str, int], seats: int = 2, game: str = "schnelllauf") -> Arena:
    """An arena from 0 s to 600 s with these players, joined at 0 s."""
    arena = Arena(Settings(game, seats=seats, start=0.0, duration=600.0))
    for name, rating in ratings.items():
        arena.join(name, rating, now=0.0)
    return arena


def met(a: Player, b: Player) -> bool:
    return b.name in a.last_opponents or a.name in b.last_opponents


# points and streaks -------------------------------------------------------------------------


@given(places_strategy)
def test_points_are_two_per_opponent_below_and_one_per_tie(places: list[int]) -> None:
    n = len(places)
    for seat, mine in enumerate(places):
        got, win = points(places, seat)
        below = sum(p > mine for p in places)
        tied = sum(p == mine for p in places) - 1
        assert got == 2 * below + tied >= 0
        assert win == (below == n - 1)
    assert sum(points(places, seat)[0] for seat in range(n)) == n * (n - 1)


def test_two_seats_give_two_one_nothing() -> None:
    assert [points((1, 2), 0)[0], points((1, 1), 0)[0], points((2, 1), 0)[0]] == [2, 1, 0]


def play(arena: Arena, now: float, draw: bool = False) -> int:
    """Pair the arena's only two waiting players and end their table; the first one's points."""
    [table] = arena.pair(now)
    return arena.finished(table.number, (1, 1) if draw else (1, 2), now + 5)[0].points


def test_two_wins_start_a_streak_that_doubles_until_a_non_win() -> None:
    arena = arena_of({"ada": 1000, "bo": 1000})
    later = [(5 + PATIENCE) * i for i in range(5)]  # a rematch only after PATIENCE
    got = [play(arena, later[0]), play(arena, later[1]), play(arena, later[2]),
           play(arena, later[3], draw=True), play(arena, later[4])]
    assert got == [2, 2, 4, 2, 2]
    results = arena.player("ada").results
    assert [r.doubled for r in results] == [False, False, True, True, False]
    assert arena.player("ada").score == 12 and arena.player("ada").streak == 1
    [first, second] = arena.standings()
    assert (first.name, first.on_fire, second.score) == ("ada", False, 1)  # the draw


def test_ties_are_broken_by_performance() -> None:
    arena = arena_of({"ada": 1000, "cy": 1400})
    play(arena, 0.0)  # ada beats a 1400: performance 1800
    arena.pause("ada")
    arena.pause("cy")
    arena.join("bo", 1000, now=10.0)
    arena.join("di", 800, now=10.0)
    play(arena, 10.0)  # bo beats an 800: performance 1200
    standings = arena.standings()
    assert [s.name for s in standings] == ["ada", "bo", "cy", "di"]  # then by name
    assert [s.performance for s in standings] == [1800, 1200, 600, 600]
    assert [s.name for s in arena.podium()] == ["ada", "bo", "cy"]


# events -------------------------------------------------------------------------------------


def test_pause_withdraw_and_come_back() -> None:
    arena = arena_of({"ada": 1000, "bo": 1000, "cy": 1000})
    arena.pause("cy")
    [table] = arena.pair(0.0)
    assert set(table.players) == {"ada", "bo"}
    arena.withdraw("ada")  # while playing: the game still counts
    arena.finished(table.number, (1, 2), 50.0)
    assert arena.player("ada").score == 2 and arena.player("ada").since is None
    assert arena.pair(52.0) == []  # cy paused, ada gone: bo waits alone
    arena.join("cy", 1000, now=60.0)  # joining again is coming back
    assert arena.pair(62.0)[0].players == ("bo", "cy")
    with pytest.raises(ArenaError, match="withdrew"):
        arena.join("ada", 1000, now=70.0)
    with pytest.raises(ArenaError, match="withdrew"):
        arena.pause("ada")
    with pytest.raises(ArenaError, match="over"):
        arena.join("di", 1000, now=600.0)
    assert [s.status for s in arena.standings()] == [Status.WITHDRAWN, Status.ACTIVE,
                                                     Status.ACTIVE]


def test_the_end_stops_pairing_but_running_tables_count() -> None:
    arena = arena_of({"ada": 1000, "bo": 1000, "cy": 1000, "di": 1000})
    arena.pair(590.0)
    assert arena.pair(600.0) == [] and not arena.over(600.0)
    for table in arena.tables:
        arena.finished(table.number, (1, 2), 640.0)
    assert arena.over(640.0) and arena.pair(640.0) == []
    assert sum(s.score for s in arena.standings()) == 4
    assert arena.pair(-1.0) == [] == Arena(arena.settings).pair(-1.0)


def test_a_table_needs_one_place_per_seat() -> None:
    arena = arena_of({"ada": 1000, "bo": 1000})
    [table] = arena.pair(0.0)
    with pytest.raises(ArenaError, match="needs 2 places"):
        arena.finished(table.number, (1,), 10.0)
    with pytest.raises(ArenaError, match="no table 9"):
        arena.finished(9, (1, 2), 10.0)
    with pytest.raises(ArenaError, match="not in the arena"):
        arena.pause("zed")


def test_settings_are_checked() -> None:
    assert SEATS["unter-spannung"] == (2, 4)
    with pytest.raises(ArenaError, match="seats 2 to 4"):
        Settings("unter-spannung", seats=5, start=0.0, duration=60.0)
    with pytest.raises(ArenaError, match="no arena"):
        Settings("chess", seats=2, start=0.0, duration=60.0)
    with pytest.raises(ArenaError, match="last a while"):
        Settings("schnelllauf", seats=2, start=0.0, duration=0.0)


# pairing ------------------------------------------------------------------------------------


def test_pairs_by_score_and_rating() -> None:
    arena = arena_of({"a": 1500, "b": 1000, "c": 1480, "d": 1020, "e": 1250, "f": 1240})
    assert {t.players for t in arena.pair(0.0)} == {("a", "c"), ("b", "d"), ("e", "f")}


def test_no_repeat_while_others_wait_until_patience() -> None:
    arena = arena_of({"ada": 1000, "bo": 1000, "cy": 2000, "di": 2000})
    [one, two] = arena.pair(0.0)
    assert one.players == ("ada", "bo")
    arena.finished(one.number, (1, 2), 10.0)
    assert arena.pair(12.0) == []  # each other's last opponent: wait for cy and di
    arena.finished(two.number, (1, 2), 20.0)
    assert {t.players for t in arena.pair(22.0)} == {  # ada (2 points) is nearer di
        ("ada", "di"), ("bo", "cy")}


def test_a_repeat_after_patience_when_nobody_else_comes() -> None:
    arena = arena_of({"ada": 1000, "bo": 1000, "cy": 1000})
    [table] = arena.pair(0.0)
    arena.finished(table.number, (1, 2), 10.0)
    arena.pause("cy")
    assert arena.pair(10.0 + PATIENCE - 1) == []
    assert arena.pair(10.0 + PATIENCE)[0].players == ("ada", "bo")


def test_a_patient_player_is_seated_even_among_last_opponents() -> None:
    arena = arena_of({"a": 1000, "b": 1010, "c": 1020, "d": 1030, "e": 1500}, seats=4,
                     game="unter-spannung")
    [table] = arena.pair(0.0)
    assert table.players == ("a", "b", "c", "d")
    arena.finished(table.number, (1, 2, 3, 4), PATIENCE - 1)
    assert arena.pair(PATIENCE - 1) == []  # e is not yet patient: no repeats for a to d
    [table] = arena.pair(PATIENCE)
    assert table.players == ("e", "a", "b", "c")  # the nearest of those left
    assert arena.player("d").since == PATIENCE - 1


def test_fewer_than_a_table_play_together_when_nobody_plays() -> None:
    arena = arena_of({"ada": 1000, "bo": 1000, "cy": 1000}, seats=4, game="unter-spannung")
    [table] = arena.pair(0.0)
    assert table.players == ("ada", "bo", "cy")
    assert [r.points for r in arena.finished(table.number, (2, 1, 3), 30.0)] == [2, 4, 0]


def test_load_refuses_what_is_not_an_arena() -> None:
    with pytest.raises(ArenaError, match=r"\$\.settings"):
        Arena.load(b'{"settings": 3, "players": [], "tables": [], "next_table": 1}')
    with pytest.raises(ArenaError, match="seats 2 to 2"):
        Arena.load(b'{"settings": {"game": "schnelllauf", "seats": 3, "start": 0, '
                   b'"duration": 9}, "players": [], "tables": [], "next_table": 1}')


def test_a_simulated_arena_is_the_same_for_its_seed() -> None:
    crowd = Crowd("unter-spannung", 3, players=30, minutes=4, seed=2)
    one, two = run(crowd), run(crowd)
    assert (one.matches, one.waits, one.games, one.podium) == \
        (two.matches, two.waits, two.games, two.podium)
    assert one.matches == len(one.match_seconds) == len(one.rating_gaps) > 30
    assert one.running_at_end > 0 and one.repeats == 0
    assert all(w >= 0 for w in one.waits) and 0 < max(one.waiting_share) < 1
    assert [s.rank for s in one.podium] == [1, 2, 3]


class RandomArena(RuleBasedStateMachine):
    """Random events in a random arena, checked after every step."""

    @initialize(game_seats=st.sampled_from([("schnelllauf", 2), ("unter-spannung", 2),
                                            ("unter-spannung", 3), ("unter-spannung", 4)]),
                start=st.floats(0, 50), duration=st.floats(60, 400))
    def make(self, game_seats: tuple[str, int], start: float, duration: float) -> None:
        self.arena = Arena(Settings(game_seats[0], game_seats[1], start, duration, rated=True))
        self.now = 0.0
        self.strikes: dict[str, int] = {}
        """Pairings at which a player left waiting had waited PATIENCE and enough waited."""

    @rule(rating=st.integers(600, 1600))
    def join(self, rating: int) -> None:
        if self.now < self.arena.settings.end:
            self.arena.join(f"p{len(self.arena.players)}", rating, self.now)

    @rule(data=st.data(), kind=st.sampled_from(["pause", "resume", "withdraw"]))
    def status(self, data: st.DataObject, kind: str) -> None:
        players = [p for p in self.arena.players if p.status is not Status.WITHDRAWN]
        if not players:
            return
        name = data.draw(st.sampled_from(players)).name
        self.strikes.pop(name, None)
        if kind == "pause":
            self.arena.pause(name)
        elif kind == "resume":
            self.arena.resume(name, self.now)
        else:
            self.arena.withdraw(name)

    @rule(data=st.data())
    def finish(self, data: st.DataObject) -> None:
        if not self.arena.tables:
            return
        table = data.draw(st.sampled_from(self.arena.tables))
        n = len(table.players)
        places = data.draw(st.lists(st.integers(1, n), min_size=n, max_size=n))
        results = self.arena.finished(table.number, places, self.now)
        assert [r.points >= 0 for r in results] == [True] * n

    @rule(wait=st.floats(0, 25))
    def pair(self, wait: float) -> None:
        self.now += wait
        now, arena, seats = self.now, self.arena, self.arena.settings.seats
        waiting = {p.name: p for p in arena.players if p.since is not None}
        running = bool(arena.tables)
        tables = arena.pair(now)
        if not arena.settings.start <= now < arena.settings.end:
            assert tables == []
            return
        seated = {name for t in tables for name in t.players}
        assert seated <= waiting.keys() and len(seated) == sum(len(t.players) for t in tables)
        left = [p for name, p in waiting.items() if name not in seated]

        def patient(p: Player) -> bool:
            assert p.since is not None
            return now - p.since >= PATIENCE

        def age(p: Player) -> tuple[float, int]:
            assert p.since is not None
            return p.since, p.seq

        for table in tables:
            short = len(table.players) < seats
            assert not short or (len(tables) == 1 and not running and len(left) == 0)
            assert len(table.players) == seats or short
            members = [waiting[name] for name in table.players]
            if any(met(a, b) for i, a in enumerate(members) for b in members[i + 1:]):
                event("a repeat")
            repeats = [(a, b) for i, a in enumerate(members) for b in members[i + 1:]
                       if met(a, b) and not patient(a) and not patient(b)]
            if repeats and not short:  # a repeat only to seat someone patient at last
                event("a repeat between players who have not waited PATIENCE")
                assert patient(members[0])
                assert all(any(met(w, m) for m in members) for w in left)
        if len(left) >= seats:
            event("enough left waiting, for want of new opponents")
        if any(patient(p) for p in left):
            event("a player left waiting after PATIENCE")
            assert len(left) < seats
            oldest = min(age(p) for p in left if patient(p))
            assert all(age(waiting[name]) < oldest for name in seated)
        if len(waiting) >= seats:
            for p in left:
                if patient(p):
                    self.strikes[p.name] = self.strikes.get(p.name, 0) + 1
                    assert self.strikes[p.name] < 2, "left waiting twice with a table's worth"
        for name in seated:
            self.strikes.pop(name, None)

    @invariant()
    def records_add_up(self) -> None:
        if not hasattr(self, "arena"):
            return
        at: dict[str, int] = {}
        for table in self.arena.tables:
            for name in table.players:
                assert name not in at
                at[name] = table.number
        for player in self.arena.players:
            assert player.table == at.get(player.name)
            if player.since is not None:
                assert player.status is Status.ACTIVE and player.table is None
            assert player.score == sum(r.points for r in player.results) >= 0
            streak = 0
            for result in player.results:
                assert result.doubled == (streak >= 2)
                base = result.points // 2 if result.doubled else result.points
                assert 0 <= base <= 2 * (result.seats - 1)
                assert result.win == (base == 2 * (result.seats - 1))
                streak = streak + 1 if result.win else 0
            assert player.streak == streak

    @invariant()
    def standings_are_a_total_order(self) -> None:
        if not hasattr(self, "arena"):
            return
        standings = self.arena.standings()
        assert [s.rank for s in standings] == list(range(1, len(standings) + 1))
        assert sorted(s.name for s in standings) == sorted(p.name for p in self.arena.players)
        keys = [(-s.score, float("inf") if s.performance is None else -s.performance, s.name)
                for s in standings]
        assert all(a < b for a, b in itertools.pairwise(keys))
        podium = self.arena.podium()
        assert podium == [s for s in standings if s.results][:3]

    @invariant()
    def json_round_trip_is_equal(self) -> None:
        if not hasattr(self, "arena"):
            return
        loaded = Arena.load(self.arena.dump())
        assert loaded == self.arena and loaded.dump() == self.arena.dump()
        self.arena = loaded  # a new process carries on from the store


RandomArena.TestCase.settings = settings(max_examples=150, stateful_step_count=60,
                                         deadline=None)
TestRandomArena = RandomArena.TestCase
