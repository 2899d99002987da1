"""Matchmaking: "find an opponent" queues a person per game and number of players, pairs people
of close rating (the window widening while they wait) and starts their rated table.

Every second while anyone waits, each queue is searched, longest-waiting first, for groups of
its size whose shown ratings (``zackzack.ratings.shown``) are all within every member's window:
``WINDOW_BASE`` + ``WINDOW_PER_SECOND`` per whole second waited, at most ``WINDOW_MAX`` points
either side. A queue that finds nobody for ``OFFER_BOT_AFTER`` seconds offers the bot of the
person's level (an unrated table the client makes with an ordinary ``create``). Only claimed
names may seek (``rated_needs_account``), and nobody is paired with someone seen on one of
their devices or addresses lately (``Limits.rated_apart_days``; their ``marks``). Time is the
lobby's clock: no wall clock, no sleeps. ``docs/protocol.md`` (Matchmaking) has the messages.

>>> window(0.0), window(20.0), window(19.99), window(3600.0)
(100, 300, 290, 600)
"""

from __future__ import annotations

import bisect
import itertools
import logging
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from zackzack.engine.clock import Timer
from zackzack.games import GAMES
from zackzack.games.errors import OptionsError
from zackzack.ratings import Pool, bot_for, rated_options_problem
from zackzack.server.logs import event
from zackzack.server.protocol import TITLE_CHARS, ProtocolError, Queue, Unqueued, encode
from zackzack.server.room import Room, Seat, SeatKind, Viewer, rated_check

if TYPE_CHECKING:
    from zackzack.server.lobby import Lobby

log = logging.getLogger(__name__)

SEARCH_EVERY = 1.0
"""Seconds between two searches of the queues (and two ``queue`` updates) while anyone waits."""
WINDOW_BASE = 100
"""Shown rating points either side a person accepts at once."""
WINDOW_PER_SECOND = 10
"""Points the window widens by per whole second waited."""
WINDOW_MAX = 600
"""The widest window: a person is never matched with someone further away than this."""
OFFER_BOT_AFTER = 60.0
"""Seconds without a match after which the queue offers a bot of the person's level."""


def window(waited: float) -> int:
    """The points either side a person accepts after waiting ``waited`` seconds."""
    seconds = math.floor(waited + 1e-9)  # the clock's float sums must not lose a second
    return min(WINDOW_MAX, WINDOW_BASE + WINDOW_PER_SECOND * max(0, seconds))


class Seeker(Viewer, Protocol):
    """A connection that can wait in a queue: a viewer the matchmaker can move to its table."""

    @property
    def address(self) -> str: ...

    def matched(self, room: Room) -> None: ...


@dataclass(slots=True)
class Entry:
    """One person waiting: their connection, the rating they are matched by, since when."""

    seeker: Seeker
    game: str
    players: int
    mu: float
    rating: int
    """The shown rating of ``mu`` (what windows are measured in)."""
    since: float
    """The lobby clock's time when they joined this queue."""
    seq: int
    """Orders people who joined at the same time."""
    offer: str
    """The bot level offered after ``OFFER_BOT_AFTER``: the nearest to where they stand
    against bots (``RatingBook.level``)."""
    marks: frozenset[str] = frozenset()
    """The devices and addresses they were seen on lately (``Lobby.marks``): nobody who
    shares one is paired with them."""

    def window(self, now: float) -> int:
        """The points either side this person accepts at ``now``."""
        return window(now - self.since)


class Waiter(Protocol):
    """Someone in a queue as the pairing sees them (an ``Entry``, or a ticket of the cluster's
    shared queue: ``server/sharedqueue.py``)."""

    @property
    def rating(self) -> int: ...
    @property
    def since(self) -> float: ...
    @property
    def seq(self) -> int: ...
    @property
    def marks(self) -> frozenset[str]: ...
    def window(self, now: float) -> int: ...


W = TypeVar("W", bound=Waiter)


def fits(group: Sequence[Waiter], now: float) -> bool:
    """Whether every rating of ``group`` lies within every member's window at ``now``: the
    spread (highest minus lowest) is at most the narrowest window."""
    ratings = [entry.rating for entry in group]
    return max(ratings) - min(ratings) <= min(entry.window(now) for entry in group)


def groups(waiting: Iterable[W], size: int, now: float) -> list[list[W]]:
    """The groups of ``size`` that form at ``now`` among ``waiting`` (one queue): for each
    person, longest-waiting first, the closest ratings within their window that ``fit``
    together (nearest first; ties: longest-waiting first) and share no device or address
    (``marks``) with anyone of the group. Nobody is in two groups."""
    order = sorted(waiting, key=lambda e: (e.since, e.seq))
    free = sorted(order, key=lambda e: (e.rating, e.since, e.seq))
    keys = [entry.rating for entry in free]
    formed: list[list[W]] = []
    taken: set[int] = set()
    for anchor in order:
        if anchor.seq in taken:
            continue
        reach = anchor.window(now)
        low = bisect.bisect_left(keys, anchor.rating - reach)
        high = bisect.bisect_right(keys, anchor.rating + reach)
        near = sorted((e for e in free[low:high] if e is not anchor and e.seq not in taken),
                      key=lambda e: (abs(e.rating - anchor.rating), e.since, e.seq))
        group = [anchor]
        seen = set(anchor.marks)
        for candidate in near:
            if fits([*group, candidate], now) and seen.isdisjoint(candidate.marks):
                group.append(candidate)
                seen.update(candidate.marks)
                if len(group) == size:
                    break
        if len(group) == size:
            formed.append(group)
            taken.update(entry.seq for entry in group)
    return formed


class Matchmaker:
    """The queues, by (game, players); one entry per player; searched on the lobby's clock."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.entries: dict[str, Entry] = {}
        """Who waits, by player id (so nobody is in two queues)."""
        self._seq = itertools.count()
        self._timer: Timer | None = None

    def waiting(self, game: str, players: int) -> list[Entry]:
        """The people in one queue, longest-waiting first."""
        return sorted((e for e in self.entries.values()
                       if e.game == game and e.players == players),
                      key=lambda e: (e.since, e.seq))

    def entry_of(self, seeker: Seeker) -> Entry | None:
        """``seeker``'s entry, if this connection is the one waiting."""
        entry = self.entries.get(seeker.player.id)
        return entry if entry is not None and entry.seeker is seeker else None

    # Coming and going ----------------------------------------------------------------------

    def seek(self, seeker: Seeker, game: str, players: int) -> None:
        """Queue ``seeker``'s player for a rated ``game`` of ``players`` people (moving them
        from the queue they were in); they are told at once, then matched when they can be."""
        self._check(seeker, game, players)
        entry, left = self._join(seeker, game, players)
        self._tell(entry)
        self._search(game, players)
        for other in self.waiting(game, players):
            if other is not entry:
                self._tell(other)
        if left is not None:
            self._update(left.game, left.players)
        self._tick_later()

    def _join(self, seeker: Seeker, game: str, players: int) -> tuple[Entry, Entry | None]:
        """Put ``seeker``'s player in the (checked) queue, keeping their time if they were in
        it already: their new entry, and the entry of the other queue they left, if any."""
        player = seeker.player
        old = self.entries.pop(player.id, None)
        if old is not None and old.seeker is not seeker:
            old.seeker.send(encode(Unqueued(reason="left")))
        same = old is not None and (old.game, old.players) == (game, players)
        mu = self.lobby.ratings.current(player.id, Pool.RATED, game).mu
        rating = self.lobby.ratings.shown(player.id, game)[0]
        since = old.since if same and old is not None else self.lobby.clock.time()
        offer = bot_for(game, self.lobby.ratings.level(player.id, game))
        entry = self.entries[player.id] = Entry(seeker, game, players, mu, rating, since,
                                                next(self._seq), offer,
                                                self.lobby.marks(player, seeker.address))
        event("queue_joined", player=player.id, game=game, players=players, rating=rating)
        return entry, None if same else old

    def _check(self, seeker: Seeker, game: str, players: int) -> None:
        """Raise the ``ProtocolError`` that refuses this ``seek``, if any."""
        rules = GAMES.get(game)
        if rules is None:
            raise ProtocolError("no_such_game", f"there is no game {game!r}; choose one of "
                                f"{', '.join(GAMES)}")
        try:
            options = rules.parse_options({"players": players})
        except OptionsError as error:
            raise ProtocolError("bad_options", str(error)) from None
        problem = rated_options_problem(game, rules.options_to_json(options))
        if problem is not None:
            raise ProtocolError("bad_options", problem)
        player = seeker.player
        rated_check(player, getattr(self.lobby, "store", None))  # a test double may have none
        if self.lobby.playing(player):
            raise ProtocolError("playing_elsewhere", "you are playing a match: finish it "
                                "first (a new one would leave your seat to a stand-in)")
        self.lobby._check_quota(player)

    def unseek(self, seeker: Seeker) -> bool:
        """Take ``seeker`` out of its queue (answering ``unqueued``); whether it was in one."""
        entry = self._remove(seeker)
        if entry is not None:
            seeker.send(encode(Unqueued(reason="left")))
        return entry is not None

    def drop(self, seeker: Seeker) -> None:
        """``seeker``'s connection is gone: its entry goes, silently."""
        self._remove(seeker)

    def _remove(self, seeker: Seeker) -> Entry | None:
        entry = self.entry_of(seeker)
        if entry is None:
            return None
        del self.entries[seeker.player.id]
        event("queue_left", player=seeker.player.id, game=entry.game, players=entry.players)
        self._update(entry.game, entry.players)
        if not self.entries and self._timer is not None:
            self._timer.cancel()
            self._timer = None
        return entry

    def stop(self) -> None:
        """The lobby shuts down: everyone leaves their queue."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        entries, self.entries = list(self.entries.values()), {}
        for entry in entries:
            entry.seeker.send(encode(Unqueued(reason="left")))

    # Searching -----------------------------------------------------------------------------

    def _tick_later(self) -> None:
        if self.entries and self._timer is None:
            clock = self.lobby.clock
            self._timer = clock.call_at(clock.time() + SEARCH_EVERY, self._tick)

    def _tick(self) -> None:
        """A second passed: search every queue, then tell everyone still waiting."""
        self._timer = None
        for game, players in sorted({(e.game, e.players) for e in self.entries.values()}):
            self._search(game, players)
        for entry in sorted(self.entries.values(), key=lambda e: (e.since, e.seq)):
            self._tell(entry)
        self._tick_later()

    def _search(self, game: str, players: int) -> None:
        """Form and start the groups one queue allows now (the callers tell the rest)."""
        now = self.lobby.clock.time()
        for group in groups(self.waiting(game, players), players, now):
            for entry in group:
                del self.entries[entry.seeker.player.id]
            try:
                self.found(group, now)
            except Exception:  # a table that failed to open must not stop the queues
                log.exception("matchmaking failed to start %s for %d", game, players)
                for entry in group:
                    entry.seeker.send(encode(Unqueued(reason="left")))

    def found(self, group: list[Entry], now: float) -> Room:
        """Open the group's rated table, move everyone there and start it."""
        first = group[0]
        rules = GAMES[first.game]
        options = rules.parse_options({"players": first.players})
        seats = [Seat(SeatKind.HUMAN, entry.seeker.player, ready=True) for entry in group]
        names = " – ".join(entry.seeker.player.name for entry in group)
        title = f"{rules.INFO.title} · {names}"
        if len(title) > TITLE_CHARS:
            title = title[:TITLE_CHARS - 1] + "…"
        room = self.lobby._open(first.game, options, seats, first.seeker.player, title,
                                private=False, rated=True)
        event("queue_matched", code=room.code, game=first.game, players=first.players,
              ratings=[entry.rating for entry in group],
              waited=[round(now - entry.since, 1) for entry in group])
        try:
            for entry in group:
                self.lobby.end_tutorial(entry.seeker.player)
                entry.seeker.matched(room)
            room.start(first.seeker)
        except Exception:  # never leave a table of people who were told they were matched
            log.exception("starting the matched table %s failed", room.code)
            self.lobby.close(room)
            raise
        return room

    def _update(self, game: str, players: int) -> None:
        """One queue changed: everyone in it hears of it."""
        for entry in self.waiting(game, players):
            self._tell(entry)

    def _tell(self, entry: Entry) -> None:
        """Send ``entry``'s person how their queue stands."""
        now = self.lobby.clock.time()
        waited = now - entry.since
        entry.seeker.send(encode(Queue(
            game=entry.game, players=entry.players,
            waiting=sum(e.game == entry.game and e.players == entry.players
                        for e in self.entries.values()),
            since=round(entry.since * 1000), window=entry.window(now),
            bot=entry.offer if waited >= OFFER_BOT_AFTER - 1e-9 else None)))

