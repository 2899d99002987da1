"""Höher, a test-only third game: each player holds the cards 1…n and plays onto one pile a
card higher than its top; the first with an empty hand wins. When nobody holds a higher
card the round ends, won by whoever holds the fewest cards.

It lives outside ``zackzack.games`` and is registered by a fixture through the public call
(:func:`zackzack.games.register`): what a game's folder and its one registry line bring is
enough for the table, the simulator, the bots and the server.
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Final

import msgspec

from zackzack.games.base import (
    Action,
    Event,
    GameInfo,
    MatchResult,
    Placing,
    RoundResult,
    check_cards,
    convert,
    plain,
)
from zackzack.games.errors import (
    BadAction,
    DoesNotFit,
    LogError,
    NoSuchSeat,
    NotPending,
    NotYourCard,
    OptionsError,
    RoundOver,
    TooLate,
)

INFO = GameInfo("hoeher", "Höher", min_players=2, max_players=4)

Milliseconds = Annotated[int, msgspec.Meta(ge=0, le=10_000)]


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Players and the highest card: every hand is 1…``cards``."""

    players: Annotated[int, msgspec.Meta(ge=INFO.min_players, le=INFO.max_players)] = 2
    cards: Annotated[int, msgspec.Meta(ge=2, le=9)] = 5
    penalty_ms: Milliseconds = 1000
    countdown_ms: Milliseconds = 1500

    def one_hand(self, seat: int) -> bool:
        """No handicaps."""
        return False


def parse_options(data: Any) -> Options:
    """Options from JSON data."""
    return convert(data, Options, OptionsError, "options")


def options_to_json(options: Options) -> dict[str, Any]:
    """Options as JSON data."""
    data: dict[str, Any] = plain(options)
    return data


class Play(Action, frozen=True, tag="play"):
    """Play ``card``, aimed at pile version ``seen``."""

    card: int
    seen: int | None = None


class EndRound(Action, frozen=True, tag="end_round"):
    """Nobody holds a higher card: the table ends the round."""


AnyAction = Play | EndRound
ACTIONS = (Play, EndRound)


class EndReason(enum.StrEnum):
    """Why a round ended."""

    EMPTY = "empty_hand"
    STUCK = "stuck"


class Played(Event, frozen=True, tag="played"):
    """``seat`` played ``card``; the pile is at ``version``."""

    seat: int
    card: int
    version: int


class RoundEnded(Event, frozen=True, tag="round_ended"):
    """The round is over; each hand's cards left."""

    winner: int | None
    reason: EndReason
    left: tuple[int, ...]


AnyEvent = Played | RoundEnded
EVENTS = (Played, RoundEnded)


@dataclass(slots=True, eq=False)
class State:
    """One round: the hands and the pile (bottom to top)."""

    options: Options
    hands: list[list[int]]
    pile: list[int] = field(default_factory=list)
    version: int = 0
    tops: list[int] = field(default_factory=lambda: [0])
    winner: int | None = None
    over: bool = False


class View(msgspec.Struct, frozen=True, gc=False):
    """What a seat sees: the top (0: none yet), its own hand, the others' counts."""

    seat: int | None
    top: int
    version: int
    hand: tuple[int, ...]
    counts: tuple[int, ...]
    winner: int | None
    over: bool


def deal(options: Options) -> State:
    """Everyone holds 1…n."""
    return State(options, [list(range(1, options.cards + 1)) for _ in range(options.players)])


def top(state: State) -> int:
    """The top card (0: the pile is empty)."""
    return state.pile[-1] if state.pile else 0


def apply(state: State, seat: int | None, action: AnyAction) -> list[Event]:
    """Apply ``action`` by ``seat`` (``None``: the table)."""
    if state.over:
        raise RoundOver("the round is over")
    if seat is None:
        if not isinstance(action, EndRound) or pending(state) is None:
            raise NotPending(f"{action.kind} is not due")
        return _end(state, EndReason.STUCK)
    if not 0 <= seat < len(state.hands):
        raise NoSuchSeat(f"there is no seat {seat}")
    if not isinstance(action, Play):
        raise BadAction(f"{action.kind} is the table's step")
    hand = state.hands[seat]
    if action.card not in hand:
        raise NotYourCard(f"{action.card} is not in your hand")
    if action.card <= top(state):
        seen = action.seen
        if seen is not None and seen < state.version and action.card > state.tops[seen]:
            raise TooLate(f"{action.card} was higher than {state.tops[seen]}", seen=seen)
        raise DoesNotFit(f"{action.card} is not higher than {top(state)}")
    hand.remove(action.card)
    state.pile.append(action.card)
    state.version += 1
    state.tops.append(action.card)
    events: list[Event] = [Played(seat, action.card, state.version)]
    if not hand:
        events += _end(state, EndReason.EMPTY, seat)
    return events


def _end(state: State, reason: EndReason, winner: int | None = None) -> list[Event]:
    left = tuple(map(len, state.hands))
    if winner is None and left.count(min(left)) == 1:
        winner = left.index(min(left))
    state.over, state.winner = True, winner
    return [RoundEnded(winner, reason, left)]


_END: Final = EndRound()


def pending(state: State) -> EndRound | None:
    """``EndRound`` when nobody holds a card higher than the top."""
    if state.over or any(hand and max(hand) > top(state) for hand in state.hands):
        return None
    return _END


def view(state: State, seat: int | None) -> View:
    """What ``seat`` sees."""
    return View(seat, top(state), state.version,
                tuple(state.hands[seat]) if seat is not None else (),
                tuple(map(len, state.hands)), state.winner, state.over)


def legal_actions(state: State, seat: int) -> list[Play]:
    """The cards ``seat`` may play now."""
    if state.over:
        return []
    return [Play(card, state.version) for card in state.hands[seat] if card > top(state)]


def versions(state: State) -> tuple[int, ...]:
    """One pile, one version."""
    return (state.version,)


def aim(state: State, action: AnyAction, newest: int) -> AnyAction:
    """``action`` aimed at the newest version its card beat, if it does not beat the top."""
    if not isinstance(action, Play) or action.seen is None or action.card > top(state):
        return action
    for version in range(min(newest, state.version - 1), action.seen, -1):
        if action.card > state.tops[version]:
            return Play(action.card, version)
    return action


def cards(state: State) -> Counter[int]:
    """Every card of the round."""
    counter = Counter(state.pile)
    for hand in state.hands:
        counter.update(hand)
    return counter


def action_from_json(data: Any) -> AnyAction:
    """An action from JSON data."""
    found: AnyAction = convert(data, AnyAction, BadAction)
    return found


class Deal(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A round as written down."""

    hands: list[list[int]]
    pile: list[int] = []


def parse_deal(data: Any, options: Options) -> State:
    """A round laid out as ``data`` says."""
    layout = convert(data, Deal, LogError, "deal")
    state = State(options, [list(h) for h in layout.hands], list(layout.pile))
    state.tops = [0, *state.pile]
    state.version = len(state.pile)
    check_cards(cards(state), Counter({c: options.players for c in range(1, options.cards + 1)}),
                "deal")
    return state


def deal_to_json(state: State) -> dict[str, Any]:
    """The round as JSON data."""
    data: dict[str, Any] = plain(Deal(state.hands, state.pile))
    return data


class Match:
    """One round."""

    def __init__(self, options: Options, rng: random.Random,
                 first_round: State | None = None) -> None:
        self.options = options
        self.round = first_round if first_round is not None else deal(options)
        self.number = 1
        self.results: list[RoundResult] = []
        self.totals = [0] * options.players
        self.result: MatchResult | None = None

    def finish_round(self) -> RoundResult:
        """Score the round: the cards left; the match is over."""
        state = self.round
        left = tuple(map(len, state.hands))
        reason = EndReason.EMPTY if not min(left) else EndReason.STUCK
        result = RoundResult(1, state.winner, reason, left)
        self.results.append(result)
        self.totals = list(left)
        order = sorted(range(len(left)), key=lambda s: left[s])
        placings = tuple(Placing(s, 1 + sorted(left).index(left[s]), left[s], f"{left[s]} left")
                         for s in order)
        self.result = MatchResult(placings, 1, "round")
        return result

    def next_round(self) -> State:
        """There is only one round."""
        raise ValueError("Höher has one round")


def new_match(options: Options, rng: random.Random, first_round: State | None = None) -> Match:
    """A match of one round."""
    return Match(options, rng, first_round)


__all__: Sequence[str] = ("ACTIONS", "EVENTS", "INFO", "Options", "View", "new_match")
