"""The simulator: bots play whole matches at real tables on the virtual clock, fast.

Matches are numbered; match ``i`` of seed ``s`` always deals and plays the same, so the
results do not depend on how many processes share the work. Several processes take the
matches in chunks and hand them back in order, on this machine or as the tasks of a Ray
cluster (``zackzack[ray]``).

>>> config = Config("unter-spannung", parse_options("unter-spannung", {"players": 2}),
...                 bots=(parse_bot("pro"), parse_bot("beginner")), matches=20, seed=1)
>>> records = simulate(config)
>>> sum(r.rounds[0].winner == 0 for r in records) > 10  # the pro wins most rounds
True
"""

from __future__ import annotations

import importlib
import logging
import os
import random
from collections import deque
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import closing, contextmanager
from dataclasses import dataclass
from itertools import islice
from operator import attrgetter
from types import ModuleType
from typing import Any, NoReturn

import msgspec

from zackzack.bots import Bot, BotSpec, parse_bot
from zackzack.engine.clock import VirtualClock
from zackzack.engine.race import Link
from zackzack.engine.table import RoundScored, Settings, Table
from zackzack.games import entry, game
from zackzack.games.base import Event
from zackzack.sim import fast
from zackzack.sim.fast import ACTIONS, STEPS
from zackzack.sim.network import Attack, Network

__all__ = ["Config", "MatchRecord", "RoundRecord", "import_ray", "match_seed", "parse_bot",
           "parse_options", "play_match", "ray_pool", "simulate"]

MAX_GAME_HOURS = 24
"""A match still running after this much game time is a bug, reported as an error."""
CHUNK_ROUNDS = 200
"""About how many rounds one chunk of work holds."""
_MASK = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class Config:
    """What to simulate: a game with its options, one bot per seat, how much, which seed.

    ``matches`` plays exactly that many matches; ``rounds`` plays matches until at least that
    many rounds have been played (a match may have several). ``rtt``
    puts each seat at the end of a wire with that round trip in ms (``sim.network``);
    ``compensation`` then credits their lag in close races (``docs/fairness.md``), and
    ``attacks`` (one per seat) has seats cheat on their wire (``sim.network.Attack``).
    """

    game: str
    options: Any
    bots: tuple[BotSpec, ...]
    seed: int = 0
    matches: int | None = None
    rounds: int | None = None
    rtt: tuple[int, ...] | None = None
    compensation: bool = True
    attacks: tuple[Attack, ...] = ()

    def __post_init__(self) -> None:
        if len(self.bots) != self.options.players:
            raise ValueError(f"{len(self.bots)} bots for {self.options.players} seats: "
                             "name one bot per player")
        if (self.matches is None) == (self.rounds is None):
            raise ValueError("say how much to simulate: matches or rounds, not both")
        amount = self.matches if self.matches is not None else self.rounds
        if amount is None or not 1 <= amount <= 100_000_000:
            raise ValueError(f"the number of matches or rounds must be 1 to 100000000, "
                             f"not {amount}")
        if self.rtt is not None:
            if len(self.rtt) != len(self.bots):
                raise ValueError(f"{len(self.rtt)} round trips for {len(self.bots)} seats: "
                                 "name one per player")
            if not all(0 <= rtt <= 5000 for rtt in self.rtt):
                raise ValueError("a round trip must be 0 to 5000 ms")
        if self.attacks and (self.rtt is None or len(self.attacks) != len(self.bots)):
            raise ValueError("attacks need a network (a round trip per seat) and one attack "
                             "per seat")
        if not all(0 <= attack.pong_delay_ms <= 5000 for attack in self.attacks):
            raise ValueError("a pong delay must be 0 to 5000 ms")


class RoundRecord(msgspec.Struct, frozen=True, gc=False):
    """One round: its winner (``None``: nobody), length in game ms and in accepted actions,
    and how many automatic steps (Nichts geht mehr, stalemate flips) it needed."""

    winner: int | None
    ms: int
    actions: int
    steps: int
    scores: tuple[int, ...]


class MatchRecord(msgspec.Struct, frozen=True, gc=False):
    """One match: its rounds, each seat's place and final score, and each bot's misses."""

    index: int
    rounds: tuple[RoundRecord, ...]
    places: tuple[int, ...]
    scores: tuple[int, ...]
    wrong_cards: tuple[int, ...]
    too_late: tuple[int, ...]


def parse_options(game_name: str, data: dict[str, Any]) -> Any:
    """The game's options from JSON-like data; bad ones raise ``OptionsError`` (a ValueError)."""
    return game(game_name).parse_options(data)


def match_seed(seed: int, index: int) -> int:
    """The table seed of match ``index`` (a SplitMix64 mix of ``seed`` and ``index``).

    >>> match_seed(7, 0) != match_seed(7, 1) != match_seed(8, 0)
    True
    """
    x = ((seed & _MASK) * 0x9E3779B97F4A7C15 + index + 1) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return (x ^ (x >> 31)) >> 1


class _Tally:
    """Counts a round's actions and automatic steps and records it when it is scored."""

    __slots__ = ("actions", "rounds", "started", "steps", "table")

    def __init__(self, table: Table) -> None:
        self.table = table
        self.rounds: list[RoundRecord] = []
        self.actions = self.steps = self.started = 0

    def __call__(self, events: list[Event]) -> None:
        for event in events:
            kind = event.kind
            if kind in ACTIONS:
                self.actions += 1
            elif kind in STEPS:
                self.steps += 1
            elif type(event) is RoundScored:
                result = event.result
                now = self.table.now
                self.rounds.append(RoundRecord(result.winner, now - self.started, self.actions,
                                               self.steps, result.scores))
                self.actions = self.steps = 0
                self.started = now


def play_match(config: Config, index: int, live: bool = False) -> MatchRecord:
    """Play match ``index`` of ``config`` to its end on the virtual clock.

    Without a network it runs on the fast path (:mod:`zackzack.sim.fast`); ``live`` plays
    it with a :class:`~zackzack.bots.Bot` per seat at a live table instead, to the same
    record (``tests/sim/test_equivalence.py``).
    """
    if config.rtt is None and not live:
        return play_fast(config, index)[0]
    return play_live(config, index)[0]


def play_live(config: Config, index: int) -> tuple[MatchRecord, Table[Any, Any, Any, Any, Any]]:
    """Match ``index`` of ``config`` played by a ``Bot`` per seat at a live table; the table."""
    rules = game(config.game)
    seed = match_seed(config.seed, index)
    clock = VirtualClock()
    table = Table(rules, config.options, clock=clock, seed=seed, settings=_settings(config))
    tally = _Tally(table)
    table.subscribe_all(tally)
    rng = random.Random(seed ^ 0x5EED)
    links: list[Link | None] = [None] * len(config.bots)
    if config.rtt is not None:
        links = [*Network(table, config.rtt, random.Random(seed ^ 0x3E7),
                          config.attacks).links]
    bots = [Bot(table, seat, spec, rng, links[seat]) for seat, spec in enumerate(config.bots)]
    table.start()
    clock.run(until=MAX_GAME_HOURS * 3600.0)  # the bots and the table stop at the match's end
    result = table.match.result
    if result is None:  # a bug in a bot or the rules: say which match, to replay it
        _stuck(config, index, table, clock.step())
    return _record(index, tally.rounds, result,
                   [(bot.wrong_cards, bot.too_late) for bot in bots]), table


def play_fast(config: Config, index: int, log: bool = False) -> tuple[MatchRecord, fast.Match]:
    """Match ``index`` of ``config`` on the fast path (no network); the match played, its
    table's log kept if ``log``."""
    match = fast.Match(game(config.game), config.options, config.bots,
                       match_seed(config.seed, index), _settings(config), log)
    running = match.play(until=MAX_GAME_HOURS * 3600.0)
    table = match.table
    result = table.match.result
    if result is None:
        _stuck(config, index, table, running)
    return _record(index, [RoundRecord(*r) for r in match.rounds], result,
                   [(seat.wrong_cards, seat.too_late) for seat in match.seats]), match


_PLAIN, _UNCOMPENSATED = Settings(), Settings(compensation_ms=0)


def _settings(config: Config) -> Settings:
    """The table settings of ``config``'s matches (made once: a simulation makes thousands)."""
    return _PLAIN if config.compensation else _UNCOMPENSATED


def _stuck(config: Config, index: int, table: Table[Any, Any, Any, Any, Any],
           running: bool) -> NoReturn:
    """Say which match went wrong (a bug in a bot or the rules), to replay it."""
    why = "ran too long" if running else "stalled: nobody acts"
    raise RuntimeError(f"match {index} of seed {config.seed} {why} at "
                       f"{table.now / 1000:.1f} s game time")


def _record(index: int, rounds: list[RoundRecord], result: Any,
            misses: list[tuple[int, int]]) -> MatchRecord:
    placings = sorted(result.placings, key=attrgetter("seat"))  # one per seat
    return MatchRecord(
        index, tuple(rounds), tuple([p.place for p in placings]),
        tuple([p.score for p in placings]),
        tuple([wrong for wrong, _ in misses]), tuple([late for _, late in misses]))


def _chunk(config: Config, start: int, count: int) -> list[MatchRecord]:
    return [play_match(config, index) for index in range(start, start + count)]


def chunk_size(config: Config) -> int:
    """How many matches one chunk of work holds (about :data:`CHUNK_ROUNDS` rounds)."""
    return max(1, CHUNK_ROUNDS // entry(config.game).front.rounds_per_match(config.options))


def simulate(config: Config, jobs: int | None = 1,
             progress: Callable[[list[MatchRecord]], object] | None = None,
             ray: str | None = None) -> list[MatchRecord]:
    """Play the matches of ``config`` across ``jobs`` processes; the records in match order.

    Each match is seeded on its own, so the records are the same for any ``jobs``. With one
    job no match is played beyond the last one needed; ``None`` takes every CPU. ``ray``
    runs the chunks on a Ray cluster instead (:func:`ray_pool`). ``progress`` is called now
    and then with the records that came in since its last call.
    """
    if jobs is not None and not 1 <= jobs <= 256:
        raise ValueError(f"--jobs must be 1 to 256, not {jobs}")
    size = chunk_size(config)
    records: list[MatchRecord] = []
    reported = rounds = 0
    with closing(_records(config, size, jobs, ray)) as played:
        for record in played:
            records.append(record)
            rounds += len(record.rounds)
            done = _done(config, len(records), rounds)
            if progress is not None and (done or len(records) - reported >= size):
                progress(records[reported:])
                reported = len(records)
            if done:
                break
    return records


def import_ray() -> ModuleType:
    """The ``ray`` package, or an ``ImportError`` that says how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ModuleNotFoundError("Ray is not installed: pip install 'zackzack[ray]'",
                                  name="ray") from None


@contextmanager
def ray_pool(address: str = "local", jobs: int | None = None) -> Iterator[tuple[Any, int]]:
    """A ``ray.util.multiprocessing.Pool`` of ``jobs`` workers and their number.

    ``"local"`` starts a Ray on this machine with ``jobs`` CPUs (``None``: all of them);
    ``"auto"`` or ``"ray://HOST:10001"`` joins a running cluster, whose CPUs ``None`` takes.
    A Ray this starts is shut down at the end; one already running in this process is used
    as it is and left running.
    """
    ray = import_ray()
    started = not ray.is_initialized()
    if started:
        if address == "local":
            ray.init(address="local", num_cpus=jobs or os.cpu_count(), include_dashboard=False,
                     logging_level=logging.WARNING)
        else:
            ray.init(address=address, logging_level=logging.WARNING)
    try:
        workers = jobs or max(1, int(ray.cluster_resources().get("CPU", 1)))
        pool = importlib.import_module("ray.util.multiprocessing").Pool(workers)
        try:
            yield pool, workers
        finally:
            pool.terminate()  # also the chunks run ahead that nobody needs any more
    finally:
        if started:
            ray.shutdown()


def _done(config: Config, matches: int, rounds: int) -> bool:
    if config.matches is not None:
        return matches >= config.matches
    return config.rounds is not None and rounds >= config.rounds


def _starts(config: Config, size: int) -> Iterator[tuple[int, int]]:
    start = 0
    while config.matches is None or start < config.matches:
        count = size if config.matches is None else min(size, config.matches - start)
        yield start, count
        start += count


def _records(config: Config, size: int, jobs: int | None,
             ray: str | None) -> Generator[MatchRecord, None, None]:
    """Every match's record in order; with several jobs, chunks of ``size`` run ahead."""
    if ray is not None:
        with ray_pool(ray, jobs) as (pool, workers):
            yield from _ahead(config, size, workers, lambda start, count: pool.apply_async(
                _chunk, (config, start, count)).get)
        return
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1:
        index = 0
        while config.matches is None or index < config.matches:
            yield play_match(config, index)
            index += 1
        return
    with ProcessPoolExecutor(max_workers=jobs) as executor:
        try:
            yield from _ahead(config, size, jobs, lambda start, count: executor.submit(
                _chunk, config, start, count).result)
        finally:
            executor.shutdown(cancel_futures=True)


def _ahead(config: Config, size: int, workers: int,
           submit: Callable[[int, int], Callable[[], list[MatchRecord]]],
           ) -> Generator[MatchRecord, None, None]:
    """Every match's record in order from chunks that ``submit`` hands to a pool, which
    waits for a chunk when called; two chunks a worker are under way."""
    starts = _starts(config, size)
    pending = deque(submit(start, count) for start, count in islice(starts, 2 * workers))
    while pending:
        yield from pending.popleft()()
        pending.extend(submit(start, count) for start, count in islice(starts, 1))
