"""The table's data: its phases, settings, events, log entries and views (msgspec Structs).

They live apart from the table (``zackzack.engine.table``) so that a compiled build (``setup.py``),
which compiles the table, leaves them plain Python: mypyc would drop a Struct's class
keywords (``tag``, ``frozen``, …) and its annotations. zackzack.engine.table exports every
name here.
"""

from __future__ import annotations

import enum
from typing import Annotated, Generic

import msgspec

from zackzack.games.base import (
    ActionT,
    Event,
    MatchResult,
    RoundResult,
    ViewT,
    check_bounds,
)


class Phase(enum.Enum):
    """Where a table is in its life."""

    WAITING = "waiting"
    """Made, not started: the seats are filling."""
    STARTING = "starting"
    """The start countdown ("3 – 2 – 1 – los!") runs."""
    PLAYING = "playing"
    """A round is on."""
    BETWEEN = "between"
    """A round ended; the next one is dealt when its countdown ends."""
    OVER = "over"
    """The match has ended."""
    PAUSED = "paused"
    """Play is halted (after a restart, or everyone is away); table time stands still."""


Delay = Annotated[int, msgspec.Meta(ge=0, le=600_000)]
"""Milliseconds a table setting may be: up to ten minutes."""


class Settings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """How the table runs, beyond the game's options; part of every match log.

    ``late_grace_ms``: a card aimed at a pile version that was replaced longer ago than this
    is a wrong card, not one that was too late (otherwise a client could dodge every penalty
    by naming an old version). ``compensation_ms``: the most lag credit one action gets
    (``zackzack.engine.race.Arbiter``; 0: cards are judged as they arrive). ``revision`` of these
    digital rules: 2 keeps the one-hand pause after refused actions too; 1 is how logs made
    before that replay (``docs/fairness.md``).

    >>> Settings(revision=7)
    Traceback (most recent call last):
    ...
    zackzack.games.errors.OptionsError: revision must be between 1 and 2, got 7
    """

    start_ms: Delay = 0
    between_rounds_ms: Delay = 0
    late_grace_ms: Delay = 1000
    compensation_ms: Delay = 250
    revision: Annotated[int, msgspec.Meta(ge=1, le=2)] = 2

    def __post_init__(self) -> None:
        check_bounds(self)


LIVE = Settings(start_ms=3000, between_rounds_ms=8000)
"""Settings for people: a start countdown and time to look at a round's result."""


class Starting(Event, frozen=True, tag="starting"):
    """The match starts (round 1 is dealt) at table time ``at``."""

    at: int


class RoundStarted(Event, frozen=True, tag="round_started"):
    """Round ``number`` is dealt and on: every seat should look at its new view."""

    number: int


class Announced(Event, frozen=True, tag="announced"):
    """Nobody can act: the automatic step ``step`` (e.g. ``rotate``, ``flip``) runs at ``due``."""

    step: str
    due: int


class Cancelled(Event, frozen=True, tag="cancelled"):
    """An accepted action cancelled the countdown of ``step``."""

    step: str


class Penalised(Event, frozen=True, tag="penalised"):
    """``seat`` played a wrong card and is frozen until table time ``until``."""

    seat: int
    until: int


class RoundScored(Event, frozen=True, tag="round_scored"):
    """The finished round's result; the round was stored before anyone saw this."""

    result: RoundResult
    totals: tuple[int, ...]


class NextRound(Event, frozen=True, tag="next_round"):
    """Round ``number`` will be dealt at table time ``at``."""

    number: int
    at: int


class MatchEnded(Event, frozen=True, tag="match_ended"):
    """The match is over; it was stored before anyone saw this."""

    result: MatchResult


class Paused(Event, frozen=True, tag="paused"):
    """Play is halted; table time stands still until it resumes."""


class Resuming(Event, frozen=True, tag="resuming"):
    """Play resumes in ``in_ms`` real milliseconds ("3 – 2 – 1 – los!"); table time stands still."""

    in_ms: int


class Resumed(Event, frozen=True, tag="resumed"):
    """Play goes on where it was halted."""


EVENTS: tuple[type[Event], ...] = (Starting, RoundStarted, Announced, Cancelled, Penalised,
                                   RoundScored, NextRound, MatchEnded, Paused, Resuming, Resumed)
"""The table's own events (a game's are its rules' ``EVENTS``)."""


class Entry(msgspec.Struct, Generic[ActionT], frozen=True, gc=False):
    """One line of the match log: at table time ``t``, ``seat`` sent ``action``."""

    t: int
    seat: int
    action: ActionT


class TableView(msgspec.Struct, Generic[ViewT], frozen=True, gc=False):
    """What a seat (``None``: a spectator) may see of the whole table; ``state`` is the game's."""

    game: str
    phase: Phase
    now: int
    seat: int | None
    players: int
    round: int
    state: ViewT | None
    frozen_until: tuple[int, ...]
    countdown: Announced | None
    next_round_at: int | None
    starts_at: int | None
    results: tuple[RoundResult, ...]
    totals: tuple[int, ...]
    result: MatchResult | None
    resumes_in: int | None = None
    """Real milliseconds until a paused table plays again, once its countdown runs."""

    @property
    def shown(self) -> ViewT:
        """The game's view, for a table whose round is shown (``ValueError`` before)."""
        if self.state is None:
            raise ValueError("the table shows no round yet")
        return self.state
