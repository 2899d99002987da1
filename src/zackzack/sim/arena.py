"""An arena on the virtual clock: a crowd of bots, every table a real simulated match.

Each simulated player is a bot of a level (``beginner``, ``normal``, ``pro``) with that
level's calibrated rating (``zackzack.ratings.bot_ladder``) give or take a little. The
arena (:mod:`zackzack.arena`) pairs every :data:`~zackzack.arena.PAIR_EVERY` seconds; each
table it forms is played there and then by the simulator's fast path (``sim.play_fast``:
the real table, rules and bots), which gives both the match's length in game time and the
places the arena scores. Some players join late, some pause once, a few withdraw. What it
measures: the pairing latency (from finishing a match to sitting at the next table), how
long each player waits between games, how close the tables are, and the pairing's own CPU.

>>> report = run(Crowd("unter-spannung", 2, players=8, minutes=3, seed=1))
>>> report.matches > 4, max(report.waits) < 60, len(report.podium)
(True, True, 3)
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any

from zackzack.arena import PAIR_EVERY, Arena, Settings, Standing, Status, Table
from zackzack.bots import BotSpec, parse_bot
from zackzack.engine.clock import VirtualClock
from zackzack.ratings import bot_ladder
from zackzack.sim import Config, parse_options, play_fast

LEVELS = ("beginner", "normal", "pro")
RATING_NOISE = 40.0
"""The spread (standard deviation) of players' ratings around their level's."""
_LATE, _PAUSE, _LEAVE = "late", "pause", "leave"


@dataclass(frozen=True, slots=True)
class Crowd:
    """What to simulate: an arena of ``game`` with ``seats`` a table, ``players`` bots for
    ``minutes`` of game time; ``late`` of them join in its first half, ``pausing`` pause once
    for 30 to 120 s after a game, ``leaving`` withdraw after a game in its second half."""

    game: str
    seats: int
    players: int = 1000
    minutes: float = 10.0
    seed: int = 0
    late: float = 0.1
    pausing: float = 0.05
    leaving: float = 0.02


@dataclass(frozen=True, slots=True)
class Report:
    """What an arena of :class:`Crowd` did: every figure in seconds of game time unless said."""

    crowd: Crowd
    matches: int
    match_seconds: tuple[float, ...]
    waits: tuple[float, ...]
    """From finishing a match to sitting at the next table, every time."""
    first_waits: tuple[float, ...]
    """From joining (or the start) to the first table."""
    player_waits: tuple[float, ...]
    """Each regular's (joined at the start, never paused nor left) mean wait between games."""
    waiting_share: tuple[float, ...]
    """Each regular's share of the arena spent waiting (the end's wait included)."""
    games: tuple[int, ...]
    """Games per regular."""
    rating_gaps: tuple[int, ...]
    """Per table: the highest rating at it minus the lowest."""
    score_gaps: tuple[int, ...]
    """Per table: the highest arena score at it minus the lowest, when it formed."""
    repeats: int
    """Tables that seated two players who sat at the last table of either."""
    left_waiting: int
    """Players waiting when the arena ended."""
    running_at_end: int
    """Tables still playing at the end (they count)."""
    pair_ms: tuple[float, ...]
    """The CPU milliseconds of each pairing (this process's CPU time, not game time)."""
    podium: tuple[Standing, ...]
    levels: dict[str, str]
    """Each player's bot level, by name."""
    wall_seconds: float


@dataclass(slots=True)
class _Run:
    """One arena being simulated: the arena, the crowd's bots, what is measured so far."""

    crowd: Crowd
    arena: Arena
    clock: VirtualClock
    rng: random.Random
    specs: dict[str, BotSpec]
    matches: int = 0
    waits: list[float] = field(default_factory=list)
    first_waits: list[float] = field(default_factory=list)
    waited: dict[str, list[float]] = field(default_factory=dict)
    after_game: set[str] = field(default_factory=set)
    plans: dict[str, str] = field(default_factory=dict)
    """What a player does apart from playing: join late, pause once, leave."""
    pause_after: dict[str, int] = field(default_factory=dict)
    match_seconds: list[float] = field(default_factory=list)
    rating_gaps: list[int] = field(default_factory=list)
    score_gaps: list[int] = field(default_factory=list)
    repeats: int = 0
    pair_ms: list[float] = field(default_factory=list)

    def pair(self) -> None:
        """One pairing; the next one :data:`PAIR_EVERY` seconds on, until the end."""
        now = self.clock.time()
        arena = self.arena
        if now >= arena.settings.end:
            return
        since = {p.name: p.since for p in arena.players if p.since is not None}
        started = time.process_time()
        tables = arena.pair(now)
        self.pair_ms.append((time.process_time() - started) * 1000)
        for table in tables:
            for name in table.players:
                wait = now - since[name]
                self.waited.setdefault(name, []).append(wait)
                (self.waits if name in self.after_game else self.first_waits).append(wait)
                self.after_game.discard(name)
            self.play(table)
        self.clock.call_at(now + PAIR_EVERY, self.pair)

    def play(self, table: Table) -> None:
        """Play ``table``'s match at once; end it in the arena when its game time is over."""
        players = [self.arena.player(name) for name in table.players]
        ratings = [p.rating for p in players]
        scores = [p.score for p in players]
        self.rating_gaps.append(max(ratings) - min(ratings))
        self.score_gaps.append(max(scores) - min(scores))
        self.repeats += any(b.name in a.last_opponents for a in players for b in players)
        config = Config(self.crowd.game, _options(self.crowd.game, len(players)),
                        tuple(self.specs[name] for name in table.players),
                        seed=self.crowd.seed, matches=1)
        record, match = play_fast(config, self.matches)
        self.matches += 1
        seconds = match.table.now / 1000
        self.match_seconds.append(seconds)
        self.clock.call_at(self.clock.time() + seconds,
                           lambda: self.finish(table, record.places))

    def finish(self, table: Table, places: tuple[int, ...]) -> None:
        """End ``table`` in the arena; a player who planned to pause or leave does it now."""
        now = self.clock.time()
        arena = self.arena
        arena.finished(table.number, places, now)
        for name in table.players:
            player = arena.player(name)
            plan = self.plans.get(name)
            if player.status is not Status.ACTIVE:
                continue
            if plan == _PAUSE and len(player.results) == self.pause_after[name]:
                arena.pause(name)
                self.clock.call_at(now + self.rng.uniform(30, 120), partial(self.back, name))
            elif plan == _LEAVE and now >= arena.settings.start + arena.settings.duration / 2:
                arena.withdraw(name)
            else:
                self.after_game.add(name)

    def back(self, name: str) -> None:
        if self.clock.time() < self.arena.settings.end:
            self.arena.resume(name, self.clock.time())

    def join(self, name: str, rating: int) -> None:
        self.arena.join(name, rating, self.clock.time())


@cache
def _options(game: str, players: int) -> Any:
    return parse_options(game, {"players": players})


def run(crowd: Crowd) -> Report:
    """Simulate ``crowd``'s arena to its end (and its last table's); what it measured."""
    started = time.perf_counter()
    rng = random.Random(crowd.seed)
    clock = VirtualClock()
    settings = Settings(crowd.game, crowd.seats, start=0.0, duration=crowd.minutes * 60,
                        rated=True)
    ladder = bot_ladder(crowd.game)
    sim = _Run(crowd, Arena(settings), clock, rng, {})
    levels: dict[str, str] = {}
    for i in range(crowd.players):
        name = f"p{i:04}"
        level = rng.choice(LEVELS)
        levels[name] = level
        sim.specs[name] = parse_bot(level)
        rating = ladder.get(level, 1000) + round(rng.gauss(0, RATING_NOISE))
        draw = rng.random()
        if draw < crowd.pausing:
            sim.plans[name] = _PAUSE
            sim.pause_after[name] = rng.randint(1, 4)
        elif draw < crowd.pausing + crowd.leaving:
            sim.plans[name] = _LEAVE
        elif draw < crowd.pausing + crowd.leaving + crowd.late:
            sim.plans[name] = _LATE
        if sim.plans.get(name) == _LATE:
            clock.call_at(rng.uniform(0, settings.duration / 2),
                          partial(sim.join, name, rating))
        else:
            sim.join(name, rating)
    clock.call_at(settings.start, sim.pair)
    clock.run(until=settings.end)
    arena = sim.arena
    left = {p.name: settings.end - p.since for p in arena.players if p.since is not None}
    running = len(arena.tables)
    clock.run()  # the tables running at the end finish and count
    regulars = [p for p in arena.players if p.name not in sim.plans]
    player_waits, shares = [], []
    for p in regulars:
        waits = sim.waited.get(p.name, [])
        between = waits[1:]  # the first is the wait for the first table
        if between:
            player_waits.append(sum(between) / len(between))
        shares.append((sum(waits) + left.get(p.name, 0.0)) / settings.duration)
    return Report(crowd, sim.matches, tuple(sim.match_seconds), tuple(sim.waits),
                  tuple(sim.first_waits), tuple(player_waits), tuple(shares),
                  tuple(len(p.results) for p in regulars), tuple(sim.rating_gaps),
                  tuple(sim.score_gaps), sim.repeats, len(left), running,
                  tuple(sim.pair_ms), tuple(arena.podium()), levels, time.perf_counter() - started)
