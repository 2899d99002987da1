"""A room: one live table with its seats, the people looking at it, its bots and its storage.

The table knows nothing of people; the room knows who sits where, who is ready and who is
watching, sends every viewer the events and the view of their own seat, and writes the match
to the store as it happens: each action as it arrives, each result before anyone is told.
"""

from __future__ import annotations

import enum
import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from zackzack.engine.clock import Clock, Timer
from zackzack.engine.matchlog import MatchLog
from zackzack.engine.race import (
    REACTION_MS,
    Arbiter,
    ArbitratedLink,
    Ledger,
    Outcome,
    Sightings,
    Wire,
)
from zackzack.engine.replay import replay, table_log
from zackzack.engine.stats import match_stats, stats_json
from zackzack.engine.table import (
    Entry,
    MatchEnded,
    NextRound,
    Penalised,
    Phase,
    Resumed,
    RoundScored,
    RoundStarted,
    Settings,
    Table,
)
from zackzack.games import entry
from zackzack.games.base import Event, MatchResult, RoundResult, Rules, plain
from zackzack.games.errors import (
    BadAction,
)
from zackzack.ratings import match_changes, places
from zackzack.server.answers import Answer, Answers, ack
from zackzack.server.identity import Player
from zackzack.server.journal import Journal, Write
from zackzack.server.limits import Limits, TokenBucket
from zackzack.server.logs import event
from zackzack.server.protocol import (
    Ack,
    Events,
    LobbyTable,
    ProtocolError,
    SeatInfo,
    TableInfo,
    TableRef,
    TableState,
    encode,
    lobby_options,
)
from zackzack.server.ratingbook import RatingBook
from zackzack.server.standins import (
    RUNNING,
    STALL_STAND_IN,
    STALL_WARNING,
    STAND_IN_AFTER,
    STAND_IN_BOT,
    StandIns,
)
from zackzack.server.tutorial import TUTOR, Tutor
from zackzack.store import MatchStart, RoundRecord, SeatRecord, Status, Store

LOBBY_EVENTS = frozenset({"starting", "round_started", "round_scored", "match_ended", "paused",
                          "resumed"})
"""Events after which the lobby shows a table differently (its phase)."""
NOT_DEALT = (Phase.WAITING, Phase.STARTING)
"""The phases before the first round is dealt: no pile is shown yet, none is noted."""
RESUME_MS = 3000
"""The countdown before a paused table goes on."""
RECONNECT_GRACE = 1.0
"""Seconds a person whose last connection to a table dropped still counts as there: a reload
or a short network gap does not pause the table (nor list it as deserted). Their seat shows
``connected: false`` meanwhile: that is the truth."""
TABLE_BURST = 20
"""``table`` messages a room sends each viewer at once when it changes (seats, readiness,
viewers, names); beyond them the changes are coalesced: one message every ``TABLE_EVERY``
seconds at most carries them all."""
TABLE_EVERY = 0.25


def rated_check(player: Player, store: Store | None = None) -> None:
    """Refuse a rated table or queue to ``player`` unless they claimed their name
    (``rated_needs_account``): ratings are people's, and a guest is made in one click; or
    if an operator marked them (``rated_barred``, ``zackzack.moderation``)."""
    if not player.claimed:
        raise ProtocolError("rated_needs_account", "rated play is for claimed names: claim "
                            "yours (the account button) or sign in, or play unrated")
    if store is not None:
        from zackzack.moderation import barred

        if barred(store, player.id):
            raise ProtocolError("rated_barred", "an operator marked your account: rated play "
                                "is closed to you (your profile says why); play unrated")


class Viewer(Protocol):
    """A connection as a room sees it: whose it is, where it is, and a way to tell it things."""

    @property
    def player(self) -> Player: ...
    @property
    def origin(self) -> str: ...
    @property
    def wire(self) -> Wire: ...

    def send(self, text: str) -> None: ...
    def moved_out(self, room: Room) -> None: ...
    def relocate(self, code: str, url: str | None) -> None: ...


class Stoppable(Protocol):
    """A running bot."""

    def stop(self) -> None: ...


class BotMaker(Protocol):
    """Checks bot specs and puts bots at tables (``zackzack.bots`` behind a narrow door)."""

    def check(self, spec: str, game: str) -> str: ...
    def make(self, table: Table, seat: int, spec: str, rng: random.Random,
             link: ArbitratedLink | None = None) -> Stoppable: ...


class SeatKind(enum.Enum):
    """Who a seat is for."""

    OPEN = "open"
    HUMAN = "human"
    BOT = "bot"


@dataclass(slots=True)
class Seat:
    """A seat: open, a person's (``player``) or a bot's (``bot``, its spec)."""

    kind: SeatKind = SeatKind.OPEN
    player: Player | None = None
    bot: str | None = None
    ready: bool = False

    @property
    def name(self) -> str | None:
        """The name to show."""
        if self.player is not None:
            return self.player.name
        return f"Bot ({self.bot})" if self.bot is not None else None


class Room:
    """One live table and everything around it."""

    def __init__(self, *, code: str, rules: Rules, options: Any, seats: list[Seat],
                 creator: Player, title: str, private: bool, clock: Clock, settings: Settings,
                 store: Store, journal: Journal, bots: BotMaker,
                 on_change: Callable[[Room], object], table: Table | None = None,
                 stand_in_after: float = STAND_IN_AFTER,
                 stall_warning: float = STALL_WARNING, stall_stand_in: float = STALL_STAND_IN,
                 reconnect_grace: float = RECONNECT_GRACE, tutorial: bool = False,
                 rated: bool = False, ratings: RatingBook | None = None,
                 reaction_ms: int = REACTION_MS, limits: Limits | None = None) -> None:
        self.code, self.rules, self.options, self.title = code, rules, options, title
        self.tutorial = tutorial
        """A tutorial table (``server/tutorial.py``): never stored, no rematch."""
        self.rated = rated
        """Its result moves the rated ratings of its people (``zackzack.ratings``)."""
        self.ratings = ratings or RatingBook(store)
        self.seats, self.creator, self.private, self.clock = seats, creator, private, clock
        self.store, self.journal, self.bots, self.on_change = store, journal, bots, on_change
        if table is None:
            table = Table(rules, options, clock=clock, seed=secrets.randbits(63),
                          settings=settings)
        self.table = table
        self.arbiter = Arbiter(table)
        self._ledgers = [Ledger(Sightings(window_ms=reaction_ms)) for _ in seats]
        """What each seat was shown and its lag credit: the seat's, not a connection's, so
        that a new connection starts with what the seat had (``docs/fairness.md``)."""
        self._round_ready: set[int] = set()
        """Between rounds: the seats whose person said "ready" (``set_ready``)."""
        self.options_json = rules.options_to_json(options)
        """The options as JSON (they never change), as ``table`` messages carry them."""
        self.lobby_options = lobby_options(self.options_json)
        """What lobby entries carry of them (never a deck or anything else bulky)."""
        table.on_result, table.on_entry = self._on_result, self._on_entry
        for seat in (*range(len(seats)), None):
            self.table.subscribe(seat, partial(self._on_events, seat))
        self.viewers: dict[Viewer, None] = {}
        self._entry: LobbyTable | None = None
        """The lobby's entry of the room as last made (``None``: make it afresh)."""
        self._refs: list[tuple[str, TableRef]] | None = None
        self.match_id: str | None = None
        self.rematch: str | None = None
        self.started_at = 0
        """The table time of the start signal (the match log's ``start_ms``)."""
        self.stats: list[dict[str, Any]] | None = None
        """How each seat played, once the match is over (``zackzack.engine.stats``)."""
        self.closed = False
        self.released = False
        """Another process has the table now (``release``)."""
        self.idle_since: float | None = clock.time()
        self.over_since: float | None = None
        self.entries = 0
        self._bots: list[Stoppable] = []
        self.stand_ins = StandIns(self, after=stand_in_after, stall_warning=stall_warning,
                                  stall_stand_in=stall_stand_in)
        self.reconnect_grace = reconnect_grace
        self._leaving: dict[Player, Timer] = {}
        """People whose last connection here dropped less than ``reconnect_grace`` ago (they
        still count as there), with the timer that ends it."""
        self._answers = Answers(len(seats), limits or Limits(), clock.time)
        self._broadcasts = TokenBucket(1 / TABLE_EVERY, TABLE_BURST, clock.time)
        self._table_due: Timer | None = None
        """The coalesced ``table`` message to every viewer, when one is due (``changed``)."""
        self.store_waiting = False
        """The store cannot take this table's writes now: the table stands paused, and its
        viewers were told why (``store_behind``)."""

    # Looking -----------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """Where the table is in its life."""
        return self.table.phase

    def seat_of(self, player: Player) -> int | None:
        """The seat ``player`` holds here, if any."""
        for index, seat in enumerate(self.seats):
            if seat.player is player:
                return index
        return None

    def seat_infos(self) -> list[SeatInfo]:
        """Every seat as everybody may see it."""
        present = {viewer.player: viewer.wire.stats.quality for viewer in self.viewers}
        game, warned = self.rules.INFO.name, self.stand_ins.warned
        infos = []
        for index, seat in enumerate(self.seats):
            rating, provisional = (None, False) if seat.player is None \
                else self.ratings.shown(seat.player.id, game)
            infos.append(SeatInfo(
                kind=seat.kind.value, name=seat.name,
                player=seat.player.id if seat.player else None,
                bot=STAND_IN_BOT if index in self.stand_ins.playing else seat.bot,
                stand_in_at=None if index not in warned else self.table.time_ms()
                + max(0, round((warned[index] - self.clock.time()) * 1000)),
                connected=seat.kind is SeatKind.BOT or seat.player in present,
                ready=self._seat_ready(index, seat),
                lag=present.get(seat.player) if seat.player is not None else None,
                rating=rating, provisional=provisional))
        return infos

    def _seat_ready(self, index: int, seat: Seat) -> bool:
        """A bot or stand-in always; a person before the start as they said, between rounds
        once they said "ready" for the next one, else (the match runs) yes."""
        if seat.kind is SeatKind.BOT or index in self.stand_ins.playing:
            return True
        if self.phase is Phase.BETWEEN:
            return index in self._round_ready
        return seat.ready

    def watchers(self) -> int:
        """How many connections look at the table without a seat."""
        return sum(self.seat_of(viewer.player) is None for viewer in self.viewers)

    def lobby_entry(self) -> LobbyTable:
        """The room as the lobby lists it (kept until the lobby is told of a change)."""
        if self._entry is None:
            self._entry = LobbyTable(
                code=self.code, game=self.rules.INFO.name, title=self.title,
                options=self.lobby_options, seats=self.seat_infos(), phase=self.phase.value,
                watchers=self.watchers(), private=self.private, rated=self.rated)
        return self._entry

    def refs(self) -> list[tuple[str, TableRef]]:
        """Each seated person's public id with the room as their list of tables shows it
        (kept, as ``lobby_entry``)."""
        if self._refs is None:
            game, phase = self.rules.INFO.name, self.phase.value
            self._refs = [(seat.player.id, TableRef(code=self.code, seat=index, game=game,
                                                    phase=phase))
                          for index, seat in enumerate(self.seats) if seat.player is not None]
        return self._refs

    def _tell_lobby(self) -> None:
        """The room looks different in the lobby now."""
        self._entry = self._refs = None
        self.on_change(self)

    def state_for(self, viewer: Viewer) -> TableState:
        """The whole table as ``viewer`` may see it."""
        return self._state_for(viewer, self.seat_infos(), self.watchers())

    def _state_for(self, viewer: Viewer, seats: list[SeatInfo], watchers: int) -> TableState:
        """``state_for`` with the seats and watchers, which are everyone's, made already."""
        you = self.seat_of(viewer.player)
        info = TableInfo(
            code=self.code, game=self.rules.INFO.name, title=self.title,
            options=self.options_json, seats=seats,
            creator=self.creator.id, you=you, phase=self.phase.value,
            link=f"{viewer.origin}/t/{self.code}", private=self.private,
            watchers=watchers, match=self.match_id, rematch=self.rematch,
            stats=self.stats, rated=self.rated)
        self._note_sent(viewer)
        return TableState(table=info, view=self.table.view(you),
                          now=self.table.time_ms())

    def _note_sent(self, viewer: Viewer) -> None:
        """Remember which pile versions went to ``viewer`` when (``docs/fairness.md``)."""
        index = self.seat_of(viewer.player)
        if index is not None:
            self._note_seat(index, self.table.time_ms())

    def _note_seat(self, index: int, now: int) -> None:
        """Remember that seat ``index`` was sent the piles as they are at table time ``now``
        (once, however many of its person's connections show it: a version is noted once)."""
        table = self.table
        if table.phase not in NOT_DEALT:
            self._ledgers[index].sightings.note(self.rules.versions(table.match.round), now)

    def shown(self, viewer: Viewer, versions: list[int]) -> None:
        """``viewer``'s page says it shows the piles at ``versions`` now (``docs/fairness.md``:
        the page's drawing counts as part of the trip)."""
        index = self.seat_of(viewer.player)
        if index is not None and self.phase not in NOT_DEALT:
            self._ledgers[index].sightings.shown(versions, self.table.time_ms())

    def lag_measured(self, viewer: Viewer, quality: str | None) -> None:
        """``viewer``'s lag was measured again; ``quality`` is what it was shown as before."""
        index = self.seat_of(viewer.player)
        if index is None:
            return
        self._reach(index)
        if viewer.wire.stats.quality != quality:
            self.changed()

    def _reach(self, index: int) -> None:
        """Tell the arbiter how far seat ``index`` is: the farthest of its person's connections
        here, since any of them may act (none: nothing to wait for)."""
        player = self.seats[index].player
        self.arbiter.set_reach(index, max(
            (v.wire.lag for v in self.viewers if v.player is player), default=0))

    # Coming and going ----------------------------------------------------------------------

    def attach(self, viewer: Viewer) -> bool:
        """Show ``viewer`` the table (from their seat, if they hold one); whether that was
        news. A viewer that shows the table already changes nothing and is sent nothing."""
        if viewer in self.viewers:
            return False
        self.viewers[viewer] = None
        self.idle_since = None
        timer = self._leaving.pop(viewer.player, None)
        if timer is not None:  # back within the grace: nobody noticed
            timer.cancel()
        index = self.seat_of(viewer.player)
        if index is not None:  # a connection measured already is known to be this far
            self._reach(index)
        self.stand_ins.update()  # a returning person's stand-in leaves before anyone is told
        self.changed()
        if self._table_due is not None:  # the others' message waits; the newcomer's cannot
            viewer.send(encode(self.state_for(viewer)))
        self._pause_or_resume()
        self.stand_ins.watch()
        return True

    def detach(self, viewer: Viewer) -> None:
        """``viewer`` no longer looks at the table; their seat, if any, stays theirs."""
        if self.viewers.pop(viewer, 0) is None:
            index = self.seat_of(viewer.player)
            if index is not None:
                self._reach(index)
            if not self.viewers:
                self.idle_since = self.clock.time()
            player = viewer.player
            if player not in self._leaving and not any(v.player is player for v in self.viewers):
                self._leaving[player] = self.clock.call_at(
                    self.clock.time() + self.reconnect_grace, partial(self._gone, player))
            self.changed()
            self._pause_or_resume()

    def _gone(self, player: Player) -> None:
        """``player`` stayed away longer than the grace: now they are away for everyone."""
        self._leaving.pop(player, None)
        self.changed()
        self._pause_or_resume()

    def present(self) -> set[Player]:
        """Who is here: looking at the table, or gone for less than ``reconnect_grace``."""
        return {viewer.player for viewer in self.viewers} | set(self._leaving)

    def people(self) -> set[Player]:
        """The people holding the table's seats."""
        return {seat.player for seat in self.seats if seat.player is not None}

    def people_away(self) -> bool:
        """Whether the table has people's seats and none of those people is here."""
        people = self.people()
        return bool(people) and not people & self.present()

    @property
    def deserted(self) -> bool:
        """Nobody the table is for is here (the lobby does not list it): none of the people
        holding its seats, or, at a table of bots only, nobody at all. The room lives on for
        its people's return until ``Timing.idle``."""
        present, people = self.present(), self.people()
        return not (people & present if people else present)

    def _pause_or_resume(self) -> None:
        """Halt play while every person at the table is away (longer than the grace); go on
        (3-2-1) when one is back. A table that did not pause goes on untouched."""
        if self.closed:
            return
        if self.stand_ins.update():
            self.changed()
        if self.phase is Phase.PAUSED:
            if not self.people_away() and not self.store_waiting:
                self.table.resume(RESUME_MS)
        elif self.phase in RUNNING and (self.people_away() or self.store_waiting):
            self.table.pause()

    def store_behind(self, behind: bool) -> None:
        """The store cannot take writes (``behind``), or can again: a running match pauses
        (its people are told why by a ``notice`` to every connection: ``server/app.py``); it
        goes on by itself (3-2-1) once everything is stored."""
        if self.closed or self.match_id is None or behind == self.store_waiting:
            return
        self.store_waiting = behind
        event("table_store_wait" if behind else "table_store_back", code=self.code,
              match=self.match_id, phase=self.phase.value)
        if self.phase is not Phase.OVER:
            self._pause_or_resume()

    def join(self, viewer: Viewer, index: int | None) -> None:
        """Seat ``viewer``'s player (back in their own seat if they have one) and show them;
        one ``table`` message to everyone if that changed anything, none if not."""
        seated = False
        if self.seat_of(viewer.player) is None:
            if self.phase is not Phase.WAITING:
                raise ProtocolError("already_started", "the match has started; you can watch")
            if index is None:
                index = next((i for i, s in enumerate(self.seats) if s.kind is SeatKind.OPEN),
                             None)
                if index is None:
                    raise ProtocolError("table_full", "every seat is taken; you can watch")
            self._check_index(index)
            if self.rated:
                rated_check(viewer.player, self.store)
            if self.seats[index].kind is not SeatKind.OPEN:
                raise ProtocolError("seat_taken", f"seat {index} is {self.seats[index].name}'s")
            self.seats[index] = Seat(SeatKind.HUMAN, viewer.player)
            seated = True
        if not self.attach(viewer) and seated:
            self.changed()

    def leave(self, viewer: Viewer) -> None:
        """``viewer`` goes; before the start their player also gives up the seat."""
        index = self.seat_of(viewer.player)
        if index is not None and self.phase is Phase.WAITING:
            self.seats[index] = Seat()
            self.arbiter.set_reach(index, 0)
            if viewer.player is self.creator:
                heirs = [s.player for s in self.seats if s.player is not None]
                self.creator = heirs[0] if heirs else self.creator
        self.detach(viewer)

    def _check_index(self, index: int) -> None:
        if not 0 <= index < len(self.seats):
            raise ProtocolError("no_such_seat", f"the seats are 0 to {len(self.seats) - 1}")

    # Before the start ----------------------------------------------------------------------

    def _own_seat(self, viewer: Viewer) -> Seat:
        index = self.seat_of(viewer.player)
        if index is None:
            raise ProtocolError("not_seated", "you have no seat at this table")
        return self.seats[index]

    def _before_start(self, viewer: Viewer, *, creator: bool) -> None:
        if creator and viewer.player is not self.creator:
            raise ProtocolError("not_creator", "only the table's creator may do this")
        if self.phase is not Phase.WAITING:
            raise ProtocolError("already_started", "the match has started")

    def set_ready(self, viewer: Viewer, ready: bool) -> None:
        """Say whether ``viewer``'s player is ready: to start, or between rounds for the next
        round, which starts at once when every person is (bots and stand-ins always are)."""
        seat = self._own_seat(viewer)
        if self.phase is Phase.BETWEEN:
            index = self.seat_of(viewer.player)
            assert index is not None
            (self._round_ready.add if ready else self._round_ready.discard)(index)
            waiting = [i for i, s in enumerate(self.seats) if not self._seat_ready(i, s)]
            if not waiting and self.table.skip_wait():
                return  # the round's events go out; ``_on_events`` tells the seats
            self.changed()
            return
        self._before_start(viewer, creator=False)
        seat.ready = ready
        self.changed()

    def set_seat(self, viewer: Viewer, index: int, bot: str | None) -> None:
        """The creator opens seat ``index`` (``bot`` ``None``) or puts a (checked) bot in it."""
        self._before_start(viewer, creator=True)
        self._check_index(index)
        if self.rated and bot is not None:
            raise ProtocolError("bad_bot", "a rated table seats people only")
        if self.seats[index].player is viewer.player:
            raise ProtocolError("seat_taken", "that is your own seat; leave to give it up")
        self.seats[index] = Seat(SeatKind.BOT, bot=bot) if bot is not None else Seat()
        self.changed()

    def start(self, viewer: Viewer) -> None:
        """The creator starts the match: bots sit down, the store opens it, the countdown runs."""
        self._before_start(viewer, creator=True)
        own = self.seat_of(viewer.player)
        if own is not None:
            self.seats[own].ready = True
        waiting = [i for i, s in enumerate(self.seats)
                   if s.kind is SeatKind.OPEN or (s.kind is SeatKind.HUMAN and not s.ready)]
        if waiting:
            self.changed()
            raise ProtocolError("not_ready", "seats " + ", ".join(map(str, waiting))
                                + " are open or not ready")
        at = self.table.time_ms()
        if not self.tutorial:  # a tutorial is no match: without a match id nothing is stored
            match_id = secrets.token_urlsafe(8)
            try:
                if self.journal.behind:
                    raise RuntimeError("the store is behind")
                self.store.begin_match(MatchStart(
                    id=match_id, code=self.code, game=self.rules.INFO.name, title=self.title,
                    options=self.rules.options_to_json(self.options),
                    settings=plain(self.table.settings), seed=self.table.seed,
                    deal=self.table.first_deal, seats=self.seat_records(),
                    private=self.private, start_ms=at, rated=self.rated))
            except Exception as error:
                event("match_not_started", logging.ERROR, code=self.code,
                      reason=" ".join(str(error).split())[:300])
                raise ProtocolError("store_unavailable", "the server cannot store matches "
                                    "right now; try again in a moment") from None
            self.match_id = match_id
            self.journal.own(self.match_id, 0)
        self.start_bots()
        self.stand_ins.update()
        self.started_at = at
        self.table.start(at=at)
        event("match_started", code=self.code, match=self.match_id, game=self.rules.INFO.name)
        self.changed()

    def start_bots(self) -> None:
        """Seat the bots: from now on they play (and rest while the table is paused)."""
        for index, seat in enumerate(self.seats):
            if seat.bot == TUTOR:
                self._bots.append(Tutor())
            elif seat.bot is not None:
                rng = random.Random(secrets.randbits(64))
                self._bots.append(self.bots.make(self.table, index, seat.bot, rng,
                                                 ArbitratedLink(self.arbiter, index)))

    def restored(self, match_id: str, log: MatchLog, stored: int) -> None:
        """The room was rebuilt from ``log``, the log of ``match_id`` (of which ``stored``
        round results are in the store)."""
        self.match_id, self.entries = match_id, len(log.actions)
        self.started_at = log.start_ms
        self._entry = self._refs = None
        self.start_bots()
        self.stand_ins.update()
        missing = self.table.match.results[stored:]
        if missing:  # the crash came between a round's last action and its result
            totals = {event.result.number: event.totals for step in replay(log).steps
                      for event in step.events if isinstance(event, RoundScored)}
            for result in missing:
                self._store_round(result, totals[result.number])
        final = self.table.match.result
        if final is not None:  # the log ends the match, but the store did not say so yet
            self._store_end(final)
            self.over_since = self.clock.time()
            self.stop_bots()
            self._note_stats()
        elif not any(seat.player for seat in self.seats):
            self.table.resume(RESUME_MS)  # bots only: they go on by themselves
        event("table_restored", code=self.code, match=match_id, actions=self.entries,
              phase=self.phase.value)

    def seat_records(self) -> tuple[SeatRecord, ...]:
        """Who sits where, for the store."""
        return tuple(SeatRecord(i, s.name or "", s.player.id if s.player else None, s.bot)
                     for i, s in enumerate(self.seats))

    # Playing -------------------------------------------------------------------------------

    def act(self, viewer: Viewer, ref: int, data: dict[str, Any],
            answer: Answer, act_id: str | None = None) -> None:
        """Submit ``viewer``'s action; ``answer`` gets whether the table took it and why not,
        once the arbiter has decided (at once, or after the decision window). An action
        with an ``act_id`` this player used before is not applied again: it gets the first
        answer (with its own ``ref``)."""
        index = self.seat_of(viewer.player)
        if index is None:
            answer(Ack(ref=ref, ok=False, code="not_seated", reason="you are watching"))
            return
        kept = self._answers.admit(index, viewer.player.id, ref, answer, act_id)
        if kept is None:
            return
        answer = kept
        self.stand_ins.take_back(index)
        if self.phase is Phase.WAITING:
            answer(Ack(ref=ref, ok=False, code="not_playing",
                       reason="the match has not started"))
            return
        try:
            action = entry(self.rules.INFO.name).action_from_json(data)  # names the actions
        except BadAction as error:
            answer(Ack(ref=ref, ok=False, code=error.code, reason=str(error)))
            return
        admitted = viewer.wire.admit(action, self.table.time_ms(), self.table.settings,
                                     self._ledgers[index])
        self.arbiter.submit(index, admitted.action, admitted.credit,
                            partial(self._answer, ref, answer, index), admitted.newest)

    def _answer(self, ref: int, answer: Answer, index: int,
                outcome: Outcome) -> None:
        """The table's answer to action ``ref`` of seat ``index``, unless the table was taken
        over meanwhile (then nothing of it may be told: it was not stored). A refusal the
        table stored counts against the seat's ``refusals_per_seat``."""
        self._answers.decided(index, outcome)
        if not self.released:
            ack(ref, answer, outcome)

    def _on_entry(self, entry: Entry) -> None:
        """Every action that reaches the table is journaled (a later restore replays it)."""
        if self.match_id is None or self.closed:
            return
        self.journal.append(self.match_id, self.entries, entry.t, entry.seat,
                            plain(entry.action))
        self.entries += 1

    def _on_result(self, table: Table, result: RoundResult, final: MatchResult | None) -> None:
        """Store a round's (and the match's) result before the table tells anyone."""
        if self.match_id is None or self.closed:
            return
        # Queued behind the actions (a stored result always has its whole log) and stored
        # now; if the store cannot take it, the journal keeps it and tries again, and nothing
        # is told to anyone meanwhile (the connections wait for the journal).
        totals = tuple(table.match.totals)
        self.journal.write(Write(self.match_id, "round", partial(
            self._store_round, result, totals)))
        if final is not None and not self.closed:  # (closed: the match was taken over)
            self.journal.write(self._end_write(final))

    def _store_round(self, result: RoundResult, totals: tuple[int, ...]) -> None:
        assert self.match_id is not None
        self.store.record_round(self.match_id, RoundRecord(
            result.number, result.winner, result.reason, result.scores, totals),
            epoch=self.journal.epoch(self.match_id))

    def _store_end(self, final: MatchResult) -> None:
        """The match is over: store its result, how each seat played and what it did to
        the ratings, in one transaction; then keep the rating book in step."""
        write = self._end_write(final)
        write.store()
        write.then()

    def _end_write(self, final: MatchResult) -> Write:
        """The write of the match's end (``_store_end``), to store now or to try again."""
        match_id = self.match_id
        assert match_id is not None
        self._note_stats()
        result = plain(final)
        abandoned = sorted(i for i in self.stand_ins.playing if self.seats[i].player is not None)
        placed = places(result, len(self.seats), abandoned)
        game, end_ms = self.rules.INFO.name, self.table.now
        done: list[tuple[list[Any], int]] = []

        def store() -> None:
            now = int(self.store.wall() * 1000)
            self.ratings.fresh(seat.player.id for seat in self.seats if seat.player is not None)
            changes = [] if placed is None else match_changes(
                game, [(s.player.id if s.player else None, s.bot) for s in self.seats], placed,
                rated=self.rated, options=self.options_json,
                current=lambda player, pool: self.ratings.current(player, pool, game, now))
            self.store.finish_match(match_id, Status.OVER, end_ms, result,
                                    stats=self.stats, abandoned=abandoned, rated=changes,
                                    at=now, epoch=self.journal.epoch(match_id))
            done.append((changes, now))

        def then() -> None:
            changes, now = done[-1]
            self.ratings.applied(changes, now)
            self.journal.done(match_id)
            event("match_stored", code=self.code, match=match_id, status="over",
                  actions=self.entries, rounds=len(self.table.match.results),
                  rated=len(changes), abandoned=abandoned)

        return Write(match_id, "end", store, then)

    def _on_events(self, seat: int | None, events: list[Event]) -> None:
        """Send the events (as ``seat`` may see them) with a fresh view to that seat's viewers."""
        if self.closed:
            return
        ended = between = False
        if seat is None:
            if not all(type(event) is Penalised for event in events):
                self.stand_ins.moved()
            if any(isinstance(event, MatchEnded) for event in events):
                self.over_since = self.clock.time()
                self.stop_bots()
                ended = True
            if any(isinstance(event, Resumed) for event in events):  # all gone again meanwhile?
                self.clock.call_at(self.clock.time(), self._pause_or_resume)
            if any(event.kind in LOBBY_EVENTS for event in events):
                self._tell_lobby()
            if any(isinstance(event, NextRound | RoundStarted) for event in events):
                self._round_ready.clear()  # who is ready for the next round: nobody yet
                between = True
        if seat is None:  # the watchers
            seated = {held.player for held in self.seats}
            targets = [v for v in self.viewers if v.player not in seated]
        else:  # (the hot path: one comparison per viewer)
            holder = self.seats[seat].player
            targets = [v for v in self.viewers if v.player is holder] \
                if holder is not None and self.seat_of(holder) == seat else []
        if targets:
            now = self.table.time_ms()
            if seat is not None:  # (a watcher's pile versions are nobody's to note)
                self._note_seat(seat, now)
            text = encode(Events(events=events, view=self.table.view(seat), now=now))
            for viewer in targets:
                viewer.send(text)
        if ended:  # everyone has seen the end: now how each seat played, in a table message
            self._note_stats()
            self.changed()
        elif between:  # the seats' "ready" between rounds
            self.changed()

    def _note_stats(self) -> None:
        """The match is over: work out how each seat played, from the table's own log."""
        if self.stats is not None:
            return
        log = table_log(self.table, start_ms=self.started_at, end_ms=self.table.now)
        self.stats = stats_json(match_stats(log), [seat.bot for seat in self.seats])

    # Changes and the end -------------------------------------------------------------------

    def changed(self) -> None:
        """Seats, readiness or viewers changed: tell every viewer and the lobby. Beyond
        ``TABLE_BURST`` changes at once the viewers' ``table`` messages are coalesced (one
        every ``TABLE_EVERY`` seconds, built when it is sent), so that nobody's watching,
        joining or renaming in a loop floods the others."""
        if self.closed:
            return
        if self._table_due is None:
            if self._broadcasts.take():
                self._send_tables()
            else:
                self._table_due = self.clock.call_at(
                    self.clock.time() + self._broadcasts.wait(), self._coalesced)
        self._tell_lobby()

    def _coalesced(self) -> None:
        self._table_due = None
        if not self.closed:
            self._broadcasts.take()
            self._send_tables()

    def _send_tables(self) -> None:
        seats, watchers = self.seat_infos(), self.watchers()  # the same for every viewer
        for viewer in list(self.viewers):
            viewer.send(encode(self._state_for(viewer, seats, watchers)))

    def stop_bots(self) -> None:
        """Stop every bot at the table, stand-ins too."""
        for bot in self._bots:
            bot.stop()
        self._bots.clear()
        self.stand_ins.stop()

    def close(self) -> None:
        """Close the room: bots stop, a running match is stored as abandoned, viewers leave."""
        if self.closed:
            return
        self._stop_timers()
        if self.match_id is not None and self.phase is not Phase.OVER:
            self.journal.flush()
            if not self.closed:  # not taken over meanwhile
                match_id, end_ms = self.match_id, self.table.time_ms()
                self.journal.write(Write(match_id, "abandoned", lambda: self.store.finish_match(
                    match_id, Status.ABANDONED, end_ms, None,
                    epoch=self.journal.epoch(match_id)), partial(self._abandoned, match_id)))
        self.closed = True
        for viewer in list(self.viewers):
            viewer.moved_out(self)
        self.viewers.clear()

    def _stop_timers(self) -> None:
        """Bots stop, and so do the coalesced ``table`` message and the reconnect graces."""
        self.stop_bots()
        if self._table_due is not None:
            self._table_due.cancel()
        for timer in self._leaving.values():
            timer.cancel()
        self._leaving.clear()

    def _abandoned(self, match_id: str) -> None:
        """The match is stored as abandoned."""
        self.journal.done(match_id)
        event("match_stored", code=self.code, match=match_id, status="abandoned",
              actions=self.entries, rounds=len(self.table.match.results))

    def release(self, url: str | None) -> None:
        """Another process has the table now: stop at once, write nothing, and send every
        viewer there (``url``; ``None``: back to their home server, which finds it)."""
        if self.closed:
            return
        self.closed = self.released = True
        self._stop_timers()
        self.table.halt()  # now, and once more after the table's own call that led here (a
        self.clock.call_at(self.clock.time(), self.table.halt)  # round may be ending in it)
        for viewer in list(self.viewers):
            viewer.relocate(self.code, url)
        self.viewers.clear()

