"""Arenas: timed tournaments with continuous pairing (issue 34), pure: no I/O, time as numbers.

An arena runs from ``start`` for ``duration`` seconds. Whoever finishes a match returns to
the waiting pool, and every pairing (the host calls :meth:`Arena.pair` every
:data:`PAIR_EVERY` seconds) seats those waiting at new tables of ``seats`` players close in
arena score and rating. Points come from the places at a table: two points for each opponent
placed below, one for each tied (a two-seat table gives 2/1/0); two wins in a row (sole first
place) start a streak that doubles points until a game that is not a win. Ties in the
standings are broken by performance. The rules in words: ``docs/rules.md``, *Arena*.

The host (the server, the simulator) drives it by events and keeps its state as JSON
(:meth:`Arena.dump`, :meth:`Arena.load`), so another process can take over.

>>> arena = Arena(Settings("schnelllauf", seats=2, start=0.0, duration=600.0))
>>> for name, rating in (("ada", 1100), ("bo", 1000), ("cy", 1090), ("di", 990)):
...     _ = arena.join(name, rating, now=0.0)
>>> [t.players for t in arena.pair(now=0.0)]
[('ada', 'cy'), ('bo', 'di')]
>>> [r.points for r in arena.finished(1, (1, 2), now=70.0)]
[2, 0]
>>> [(s.rank, s.name, s.score) for s in arena.standings()][:2]
[(1, 'ada', 2), (2, 'cy', 0)]
>>> Arena.load(arena.dump()) == arena
True
"""

from __future__ import annotations

import enum
import math
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final

import msgspec

__all__ = ["PAIR_EVERY", "PATIENCE", "SEATS", "Arena", "ArenaError", "Player", "Result",
           "Settings", "Standing", "Status", "Table", "points"]

SEATS: Final = {"unter-spannung": (2, 4), "schnelllauf": (2, 2)}
"""The seats an arena's tables may have, per game (fewest, most)."""
PAIR_EVERY: Final = 2.0
"""Seconds between two pairings: long enough to gather a few players, short enough to wait."""
PATIENCE: Final = 30.0
"""Seconds of waiting after which a player is seated first and even with a last opponent."""
RATING_PER_POINT: Final = 50
"""Rating points one arena point weighs in pairing: players are paired by score and rating."""
PERFORMANCE_SPREAD: Final = 400
"""A game's performance: the opponents' mean rating ± this much for beating all or none."""
ON_FIRE: Final = 2
"""Wins in a row that start a streak."""


class ArenaError(ValueError):
    """An event the arena refuses: an unknown player or table, a join after the end."""


class Status(enum.StrEnum):
    """Where a player stands with the arena."""

    ACTIVE = "active"
    """Paired whenever waiting."""
    PAUSED = "paused"
    """Not paired until they come back; the standings keep them."""
    WITHDRAWN = "withdrawn"
    """Gone for good: never paired again; the standings keep their results."""


@dataclass(frozen=True, slots=True)
class Settings:
    """An arena: its game, the seats at each table, when it starts and how long it runs
    (seconds on the host's clock), and whether its tables are rated.

    >>> Settings("schnelllauf", seats=3, start=0.0, duration=60.0)
    Traceback (most recent call last):
    ...
    zackzack.arena.ArenaError: a schnelllauf arena seats 2 to 2 at a table, not 3
    """

    game: str
    seats: int
    start: float
    duration: float
    rated: bool = False
    rest: float = 0.0
    """Seconds a player sees their last result before they are paired again."""

    def __post_init__(self) -> None:
        if self.game not in SEATS:
            raise ArenaError(f"there is no arena for the game {self.game!r}")
        low, high = SEATS[self.game]
        if not low <= self.seats <= high:
            raise ArenaError(f"a {self.game} arena seats {low} to {high} at a table, "
                             f"not {self.seats}")
        if not self.duration > 0:
            raise ArenaError(f"an arena must last a while, not {self.duration} s")
        if not self.rest >= 0:
            raise ArenaError(f"a rest between games cannot be {self.rest} s")

    @property
    def end(self) -> float:
        """When the arena ends: no new tables from then on."""
        return self.start + self.duration


def points(places: Sequence[int], seat: int) -> tuple[int, bool]:
    """The points of ``seat`` at a table that ended in ``places`` (ties share a place, lower
    is better), before any streak, and whether it is a win (first place alone).

    >>> points((1, 2), 0), points((1, 2), 1), points((1, 1), 0)
    ((2, True), (0, False), (1, False))
    >>> [points((2, 1, 3, 2), seat)[0] for seat in range(4)]
    [3, 6, 0, 3]
    """
    mine = places[seat]
    below = sum(1 for place in places if place > mine)
    tied = sum(1 for place in places if place == mine) - 1
    return 2 * below + tied, below == len(places) - 1


@dataclass(frozen=True, slots=True)
class Result:
    """One finished game of a player: their place among ``seats``, the points it gave (doubled
    when ``doubled``: played on a streak), and whom it was against."""

    table: int
    place: int
    seats: int
    points: int
    win: bool
    doubled: bool
    opponents: tuple[str, ...]
    opponents_rating: float
    """The opponents' mean rating at the time."""
    share: float
    """The share of opponents beaten, ties counting half (1: first alone, 0: last alone)."""
    ended: float
    match: str = ""
    """The host's name of the game's record ("": none), as :meth:`Arena.opened` gave it."""

    @property
    def performance(self) -> float:
        """The rating this game was worth: the opponents' mean ± :data:`PERFORMANCE_SPREAD`."""
        return self.opponents_rating + PERFORMANCE_SPREAD * (2 * self.share - 1)


@dataclass(frozen=True, slots=True)
class Player:
    """A player's arena record: rating, status, where they are, results, score and streak."""

    name: str
    rating: int
    seq: int
    """The order of joining: the last tie-break of pairings."""
    status: Status = Status.ACTIVE
    since: float | None = None
    """Waiting to be paired since then (``None``: playing, paused or gone)."""
    table: int | None = None
    results: tuple[Result, ...] = ()
    score: int = 0
    streak: int = 0
    """Wins in a row up to now."""

    @property
    def on_fire(self) -> bool:
        """Whether their next game counts double."""
        return self.streak >= ON_FIRE

    @property
    def performance(self) -> int | None:
        """The mean of their games' performances (``None`` before any game)."""
        if not self.results:
            return None
        return round(math.fsum(r.performance for r in self.results) / len(self.results))

    @property
    def last_opponents(self) -> tuple[str, ...]:
        """Whom they played in their last game."""
        return self.results[-1].opponents if self.results else ()


@dataclass(frozen=True, slots=True)
class Table:
    """A table the arena formed: its number, its players in seat order, when."""

    number: int
    players: tuple[str, ...]
    started: float
    match: str = ""
    """The host's name of the game's record (:meth:`Arena.opened`; "": not yet)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings: rank, player, score, performance, each game's result (whose
    ``doubled`` marks the streak) and whether the next game counts double."""

    rank: int
    name: str
    rating: int
    score: int
    performance: int | None
    results: tuple[Result, ...]
    on_fire: bool
    status: Status


@dataclass(frozen=True, slots=True)
class _State:
    """Everything an arena holds, as it is stored."""

    settings: Settings
    players: tuple[Player, ...]
    tables: tuple[Table, ...]
    next_table: int


@dataclass(slots=True)
class _Pick:
    """One pairing's working set: its time, who waits by standing value, who is taken."""

    now: float
    pool: list[tuple[int, int, str]]
    """``(value, seq, name)`` of everyone waiting, by value (score and rating)."""
    taken: set[str] = field(default_factory=set)


class Arena:
    """One arena, driven by events: join, pause, come back, withdraw, a table finished, and
    a pairing every :data:`PAIR_EVERY` seconds."""

    __slots__ = ("_players", "_tables", "next_table", "settings")

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._players: dict[str, Player] = {}
        self._tables: dict[int, Table] = {}
        self.next_table = 1
        """The number the next table gets."""

    # events -----------------------------------------------------------------------------

    def join(self, name: str, rating: int, now: float) -> Player:
        """Take ``name`` in (or back, if paused) to be paired, with the rating they keep for the
        arena; refused after the end or when they withdrew."""
        if now >= self.settings.end:
            raise ArenaError("the arena is over")
        player = self._players.get(name)
        if player is None:
            player = Player(name, rating, len(self._players),
                            since=max(now, self.settings.start))
            self._players[name] = player
            return player
        return self.resume(name, now)

    def pause(self, name: str) -> Player:
        """Stop pairing ``name`` until they come back; a game they are playing still counts."""
        if self.player(name).status is Status.WITHDRAWN:
            raise ArenaError(f"{name} withdrew from the arena")
        return self._set(name, status=Status.PAUSED, since=None)

    def resume(self, name: str, now: float) -> Player:
        """Pair ``name`` again after a pause (a no-op for an active player)."""
        player = self.player(name)
        if player.status is Status.WITHDRAWN:
            raise ArenaError(f"{name} withdrew from the arena")
        if player.status is Status.ACTIVE:
            return player
        since = None if player.table is not None else max(now, self.settings.start)
        return self._set(name, status=Status.ACTIVE, since=since)

    def withdraw(self, name: str) -> Player:
        """Take ``name`` out for good; their results stay, and so does a game they play."""
        return self._set(name, status=Status.WITHDRAWN, since=None)

    def finished(self, number: int, places: Sequence[int], now: float) -> tuple[Result, ...]:
        """Table ``number`` ended with ``places`` (in seat order; ties share a place): score
        it, each active player waiting again ``rest`` seconds after ``now``; the results in
        seat order.
        A table that ends after the arena's end still counts."""
        table = self._tables.get(number)
        if table is None:
            raise ArenaError(f"no table {number} is running")
        seats = len(table.players)
        if len(places) != seats or not all(isinstance(p, int) and p >= 1 for p in places):
            raise ArenaError(f"table {number} needs {seats} places of 1 or more, not "
                             f"{list(places)}")
        del self._tables[number]
        ratings = [self._players[name].rating for name in table.players]
        results = []
        for seat, name in enumerate(table.players):
            player = self._players[name]
            base, win = points(places, seat)
            doubled = player.on_fire
            others = [r for i, r in enumerate(ratings) if i != seat]
            result = Result(number, places[seat], seats, base * (2 if doubled else 1), win,
                            doubled, tuple(n for n in table.players if n != name),
                            math.fsum(others) / len(others), base / (2 * (seats - 1)), now,
                            table.match)
            results.append(result)
            active = player.status is Status.ACTIVE
            self._players[name] = replace(
                player, table=None, since=now + self.settings.rest if active else None,
                results=(*player.results, result), score=player.score + result.points,
                streak=player.streak + 1 if win else 0)
        return tuple(results)

    def void(self, number: int, now: float) -> None:
        """Table ``number`` ended without a result (it could not start, or everyone left):
        nobody scores, and its active players wait again ``rest`` seconds after ``now``."""
        table = self._tables.pop(number, None)
        if table is None:
            raise ArenaError(f"no table {number} is running")
        for name in table.players:
            player = self._players[name]
            active = player.status is Status.ACTIVE
            self._players[name] = replace(
                player, table=None, since=now + self.settings.rest if active else None)

    def pair(self, now: float) -> list[Table]:
        """Seat those waiting at new tables (none before the start or from the end on).

        Oldest waiting first, each picks the rest of its table: first whoever has waited
        :data:`PATIENCE`, oldest first, then the nearest in score and rating among those who
        sat at no last table with anyone picked. A player who has not waited
        :data:`PATIENCE` and cannot be seated without such a repeat waits; one who has takes
        the nearest. When no table runs and fewer than ``seats`` (but two or more) wait,
        they play together.
        """
        if not self.settings.start <= now < self.settings.end:
            return []
        waiting = sorted((p for p in self._players.values()
                          if p.since is not None and p.since <= now), key=_age)
        pick = _Pick(now, sorted((_value(p), p.seq, p.name) for p in waiting))
        seats = self.settings.seats
        groups: list[list[Player]] = []
        for anchor in waiting:
            if anchor.name in pick.taken:
                continue
            group = self._group(anchor, waiting, pick, seats)
            if group is not None:
                groups.append(group)
        left = [p for p in waiting if p.name not in pick.taken]
        if not groups and not self._tables and 2 <= len(left) < seats:
            groups.append(left)
        return [self._seat(group, now) for group in groups]

    def opened(self, number: int, match: str) -> Table:
        """Name the record of table ``number``'s game (its results will carry it)."""
        table = self._tables.get(number)
        if table is None:
            raise ArenaError(f"no table {number} is running")
        table = self._tables[number] = replace(table, match=match)
        return table

    # reading ----------------------------------------------------------------------------

    def player(self, name: str) -> Player:
        """The record of ``name``."""
        player = self._players.get(name)
        if player is None:
            raise ArenaError(f"{name} is not in the arena")
        return player

    @property
    def players(self) -> tuple[Player, ...]:
        """Every player, in the order they joined."""
        return tuple(self._players.values())

    @property
    def tables(self) -> tuple[Table, ...]:
        """The tables playing now, oldest first."""
        return tuple(self._tables.values())

    def over(self, now: float) -> bool:
        """Whether the arena has ended and its last table finished."""
        return now >= self.settings.end and not self._tables

    def standings(self) -> list[Standing]:
        """Everyone by score, then performance (players with games first), then name."""
        ordered = sorted(self._players.values(), key=_rank_key)
        return [Standing(rank, p.name, p.rating, p.score, p.performance, p.results,
                         p.on_fire, p.status) for rank, p in enumerate(ordered, 1)]

    def podium(self) -> list[Standing]:
        """The first three of the standings who played at least one game."""
        return [s for s in self.standings() if s.results][:3]

    # storage ----------------------------------------------------------------------------

    def dump(self) -> bytes:
        """The whole arena as JSON, for :meth:`load`."""
        return _ENCODER.encode(self._state())

    @classmethod
    def load(cls, data: bytes | str) -> Arena:
        """An arena from :meth:`dump`'s JSON; a wrong field raises ``ArenaError`` naming it."""
        try:
            state = _DECODER.decode(data)
        except msgspec.DecodeError as error:
            raise ArenaError(f"not an arena: {error}") from None
        arena = cls(state.settings)
        arena._players = {p.name: p for p in state.players}
        arena._tables = {t.number: t for t in state.tables}
        arena.next_table = state.next_table
        return arena

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Arena) and self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]  # mutable: equal by value, not hashable

    # inside -----------------------------------------------------------------------------

    def _state(self) -> _State:
        return _State(self.settings, tuple(self._players.values()),
                      tuple(self._tables.values()), self.next_table)

    def _set(self, name: str, *, status: Status, since: float | None) -> Player:
        player = replace(self.player(name), status=status, since=since)
        self._players[name] = player
        return player

    def _group(self, anchor: Player, waiting: list[Player], pick: _Pick,
               seats: int) -> list[Player] | None:
        """``anchor``'s table from those not yet taken, or ``None`` if it must wait."""
        patient = pick.now - _since(anchor) >= PATIENCE
        group = [anchor]
        pick.taken.add(anchor.name)
        while len(group) < seats:
            partner = self._partner(anchor, group, waiting, pick, fresh=True)
            if partner is None and patient:
                partner = self._partner(anchor, group, waiting, pick, fresh=False)
            if partner is None:
                pick.taken.difference_update(p.name for p in group)
                return None
            group.append(partner)
            pick.taken.add(partner.name)
        for player in group:
            del pick.pool[bisect_left(pick.pool, (_value(player), player.seq, player.name))]
        return group

    def _partner(self, anchor: Player, group: list[Player], waiting: list[Player],
                 pick: _Pick, fresh: bool) -> Player | None:
        """The next player for ``group``: the oldest who has waited :data:`PATIENCE`, else
        the nearest to ``anchor`` (only one who met nobody in ``group`` if ``fresh``)."""
        for player in waiting:  # oldest first: those past their patience lead the list
            if pick.now - _since(player) < PATIENCE:
                break
            if player.name not in pick.taken:
                return player
        pool = pick.pool
        middle = bisect_left(pool, (_value(anchor), anchor.seq, anchor.name))
        value = pool[middle][0]
        low, high = middle - 1, middle + 1
        while low >= 0 or high < len(pool):
            below = value - pool[low][0] if low >= 0 else math.inf
            above = pool[high][0] - value if high < len(pool) else math.inf
            if below <= above:
                name, low = pool[low][2], low - 1
            else:
                name, high = pool[high][2], high + 1
            player = self._players[name]
            if name not in pick.taken and \
                    not (fresh and any(_met(player, other) for other in group)):
                return player
        return None

    def _seat(self, group: list[Player], now: float) -> Table:
        table = Table(self.next_table, tuple(p.name for p in group), now)
        self.next_table += 1
        self._tables[table.number] = table
        for player in group:
            self._players[player.name] = replace(player, since=None, table=table.number)
        return table


def _since(player: Player) -> float:
    assert player.since is not None  # only waiting players are paired
    return player.since


def _age(player: Player) -> tuple[float, int]:
    return _since(player), player.seq


def _value(player: Player) -> int:
    """Where a player stands for pairing: score and rating on one scale."""
    return player.score * RATING_PER_POINT + player.rating


def _met(a: Player, b: Player) -> bool:
    """Whether ``a`` and ``b`` sat at the last table of either."""
    return b.name in a.last_opponents or a.name in b.last_opponents


def _rank_key(player: Player) -> tuple[int, float, str]:
    performance = player.performance
    return -player.score, math.inf if performance is None else -performance, player.name


_ENCODER: Final = msgspec.json.Encoder()
_DECODER: Final = msgspec.json.Decoder(_State)

