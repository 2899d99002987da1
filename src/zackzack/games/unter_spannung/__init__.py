"""Unter Spannung: race to play a card whose value is the top card's value ± its spread.

The pure rules of one round and of the tournament (``Match``); the game's data (cards,
options, actions, events, views: msgspec Structs) is in ``data``, exported here too. Values
wrap round 10:

>>> allowed_values(Card(5, 2)) == {3, 7}
True
>>> allowed_values(Card(9, 3)) == {2, 6}
True
>>> allowed_values(Card(1, 2)) == {9, 3}
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from zackzack.games.base import (
    Event,
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
    IllegalAction,
    LogError,
    NoSuchSeat,
    NotPending,
    NotYourCard,
    OptionsError,
    RoundOver,
    TooLate,
)
from zackzack.games.shuffling import shuffle
from zackzack.games.unter_spannung.data import (
    ACTIONS,
    EVENTS,
    HAND_SIZE,
    INFO,
    STANDARD_DECK,
    AnyAction,
    AnyEvent,
    Card,
    Deal,
    Draw,
    Drew,
    EndReason,
    EndRound,
    Options,
    Play,
    Played,
    Rotate,
    Rotated,
    RoundEnded,
    View,
    WentOut,
    wrap,
)
from zackzack.games.unter_spannung.errors import EmptyDrawPile


def allowed_values(card: Card) -> frozenset[int]:
    """The values that may be played on ``card``: its value ± its spread, wrapped into 1…10.

    >>> sorted(allowed_values(Card(9, 3)))
    [2, 6]
    """
    return card.allowed


def fits(card: Card, top: Card) -> bool:
    """Whether ``card`` may be played on ``top``.

    >>> fits(Card(3, 1), Card(5, 2)), fits(Card(4, 1), Card(5, 2))
    (True, False)
    """
    return card.value in top.allowed


def parse_options(data: Any) -> Options:
    """Options from JSON data; unknown or wrong fields raise ``OptionsError`` naming them.

    >>> parse_options({"players": 3, "tournament": True}).players
    3
    >>> parse_options({"players": 7})
    Traceback (most recent call last):
    ...
    zackzack.games.errors.OptionsError: options: Expected `int` <= 6 - at `$.players`
    """
    return convert(data, Options, OptionsError, "options")


def options_to_json(options: Options) -> dict[str, Any]:
    """Options as JSON data that ``parse_options`` reads back (the standard deck left out)."""
    data: dict[str, Any] = plain(options)
    if options.deck == STANDARD_DECK:
        del data["deck"]
    return data


# Actions ---------------------------------------------------------------------------------


def action_from_json(data: Any) -> AnyAction:
    """An action from JSON data such as ``{"type": "play", "card": "7±2", "seen": 3}``.

    >>> action_from_json({"type": "play", "card": "7±2", "seen": 3})
    Play(card=Card(value=7, spread=2), seen=3)
    >>> action_from_json({"type": "play", "card": "7±9"})
    Traceback (most recent call last):
    ...
    zackzack.games.errors.BadAction: '7±9': card spread must be 1, 2 or 3, got 9 - at `$.card`
    """
    result: AnyAction = convert(data, AnyAction, BadAction)
    return result


# The round -------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class State:
    """One round. Piles are lists from bottom to top; ``tops[v]`` is the top at version ``v``."""

    options: Options
    hands: list[list[Card]]
    draw_piles: list[list[Card]]
    discard_pile: list[Card]
    face_down: int = 0
    version: int = 0
    tops: list[Card] = field(default_factory=list)
    rotations: int = 0
    winner: int | None = None
    over: bool = False
    last_card: Card | None = None

    def __post_init__(self) -> None:
        if not self.tops:
            self.tops = [self.discard_pile[-1]]
            self.version = 0

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.hands)

    @property
    def top(self) -> Card:
        """The face-up top card of the discard pile."""
        return self.discard_pile[-1]


def deal(options: Options, rng: random.Random) -> State:
    """A new round: shuffle, start card on the pile, draw piles, four cards in every hand.

    >>> state = deal(Options(players=4), random.Random(1))
    >>> [len(h) for h in state.hands], [len(p) for p in state.draw_piles], len(state.discard_pile)
    ([4, 4, 4, 4], [14, 14, 14, 14], 1)
    """
    deck = list(options.deck)
    shuffle(rng, deck)
    start = deck.pop()
    share = len(deck) // options.players
    draw_piles = [deck[i * share:(i + 1) * share] for i in range(options.players)]
    leftover = deck[options.players * share:]
    hands = [[pile.pop() for _ in range(HAND_SIZE)] for pile in draw_piles]
    return State(options, hands, draw_piles, [*leftover, start], face_down=len(leftover))


def minus_points(state: State) -> tuple[int, ...]:
    """The sum of the values in each hand (the winner's hand is empty)."""
    return tuple(_points(hand) for hand in state.hands)


def _points(hand: list[Card]) -> int:
    points = 0
    for card in hand:
        points += card.value
    return points


def apply(state: State, seat: int | None, action: AnyAction) -> list[Event]:
    """Apply ``action`` by ``seat`` (``None``: the table's own step) or raise ``IllegalAction``.

    >>> deck = tuple(map(Card.parse, "3±1 8±2 6±1 9±3 1±1 2±2 5±2 4±1 4±2 4±3 7±1".split()))
    >>> state = parse_deal({"hands": [["3±1", "8±2", "4±1"], ["6±1", "9±3", "4±2"]],
    ...     "draw_piles": [["1±1", "4±3"], ["2±2", "7±1"]], "discard_pile": ["5±2"]},
    ...     Options(players=2, deck=deck))
    >>> apply(state, 0, Play(Card(3, 1), seen=0))
    [Played(seat=0, card=Card(value=3, spread=1), version=1)]
    >>> apply(state, 1, Play(Card(6, 1), seen=0))
    Traceback (most recent call last):
    ...
    zackzack.games.errors.DoesNotFit: 6±1 does not fit 3±1
    """
    outcome = attempt(state, seat, action)
    if not isinstance(outcome, list):
        raise outcome
    return outcome


def attempt(state: State, seat: int | None, action: AnyAction) -> list[Event] | IllegalAction:
    """:func:`apply`, but a refusal is returned, not raised: the table's way (a simulation
    has thousands, and a raised one costs a traceback).

    >>> state = State(Options(players=2), [[Card(2, 2)], []], [[], []], [Card(5, 2)])
    >>> attempt(state, 0, Play(Card(2, 2), seen=0))
    DoesNotFit('2±2 does not fit 5±2')
    """
    if state.over:
        return RoundOver("the round is over")
    if seat is None:
        due = pending(state)
        if due is None or type(due) is not type(action):
            return NotPending("{} is not due", action.kind)
        if isinstance(action, Rotate):
            return _rotate(state)
        return _end(state, None, EndReason.NICHTS_GEHT_MEHR)
    if not 0 <= seat < len(state.hands):
        return NoSuchSeat("there is no seat {}", seat)
    if isinstance(action, Play):
        return _play(state, seat, action)
    if isinstance(action, Draw):
        pile = state.draw_piles[seat]
        if not pile:
            return EmptyDrawPile("your draw pile is empty")
        card = pile.pop()
        state.hands[seat].append(card)
        return [Drew(seat, card, len(pile))]
    if isinstance(action, Rotate | EndRound):
        return BadAction("{} is the table's automatic step, not a player's", action.kind)
    return BadAction("Unter Spannung has no action {!r}", action.kind)


def _play(state: State, seat: int, action: Play) -> list[Event] | IllegalAction:
    hand = state.hands[seat]
    card = action.card
    for index in range(len(hand)):
        if hand[index] is card:  # one object per card; ``==`` would try each card's ordering slots
            break
    else:
        return NotYourCard("{} is not in your hand", card)
    top = state.discard_pile[-1]
    if card.value not in top.allowed:
        seen = action.seen
        if seen is not None and seen > state.version:
            return BadAction("pile version {} has not happened yet (now {})", seen,
                             state.version)
        if seen is not None and seen < state.version and card.value in state.tops[seen].allowed:
            return TooLate("{} fitted {}, but {} lies on top now", card, state.tops[seen], top,
                           seen=seen)
        return DoesNotFit("{} does not fit {}", card, top)
    del hand[index]
    state.discard_pile.append(card)
    state.version += 1
    state.tops.append(card)
    state.rotations = 0
    events: list[Event] = [Played(seat, card, state.version)]
    if len(hand) == 1:
        state.last_card = hand.pop()
        events.append(WentOut(seat))
        events.extend(_end(state, seat, EndReason.WENT_OUT))
    return events


def _rotate(state: State) -> list[Event]:
    card = state.discard_pile.pop(0)
    state.discard_pile.append(card)
    if state.face_down:
        state.face_down -= 1
    state.version += 1
    state.tops.append(card)
    state.rotations += 1
    return [Rotated(card, state.version, state.rotations)]


def _end(state: State, winner: int | None, reason: EndReason) -> list[Event]:
    state.over = True
    state.winner = winner
    return [RoundEnded(winner, reason, minus_points(state))]


def pending(state: State) -> Rotate | EndRound | None:
    """The automatic step due now: ``Rotate`` or ``EndRound`` (Nichts geht mehr), or ``None``.

    It is due when every draw pile is empty and no hand holds a card that fits.
    """
    if state.over or any(state.draw_piles):
        return None
    allowed = state.discard_pile[-1].allowed
    for hand in state.hands:
        for card in hand:
            if card.value in allowed:
                return None
    if state.rotations >= len(state.discard_pile) - 1:
        return _END_ROUND
    return _ROTATE


_ROTATE: Final = Rotate()
_END_ROUND: Final = EndRound()
_DRAW: Final = Draw()
_VIEW: Final = View
"""Final: the compiled build keeps it in a C variable, not in the module's dict."""


def view(state: State, seat: int | None) -> View:
    """What ``seat`` may see; ``None`` is a spectator, who sees no hand."""
    hands = state.hands
    hand_counts: list[int] = []
    draw_counts: list[int] = []
    for hand in hands:  # loops, not generators: a view is made for every decision, and the
        hand_counts.append(len(hand))  # live server runs the interpreter
    for pile in state.draw_piles:
        draw_counts.append(len(pile))
    return _VIEW(
        seat,
        state.discard_pile[-1],
        state.version,
        len(state.discard_pile) + (state.last_card is not None),
        tuple(hands[seat]) if seat is not None else (),
        tuple(hand_counts),
        tuple(draw_counts),
        state.rotations,
        state.winner,
        state.over,
    )


def legal_actions(state: State, seat: int) -> list[Play | Draw]:
    """The actions ``seat`` could take now that the table would accept (equal cards once)."""
    if state.over:
        return []
    allowed = state.discard_pile[-1].allowed
    actions: list[Play | Draw] = [
        Play(card, state.version) for card in dict.fromkeys(state.hands[seat])
        if card.value in allowed]
    if state.draw_piles[seat]:
        actions.append(_DRAW)
    return actions


def versions(state: State) -> tuple[int, ...]:
    """The version of each discard pile (Unter Spannung has one)."""
    return (state.version,)


def aim(state: State, action: AnyAction, newest: int) -> AnyAction:
    """``action`` aimed at the newest version from its ``seen`` to ``newest`` that its card
    fitted, if it does not fit now (a player reacting to any pile they saw was too late).

    >>> state = State(Options(players=2), [[Card(2, 2)], []], [[], []], [Card(5, 2)])
    >>> state.tops, state.version = [Card(5, 2), Card(3, 1), Card(4, 3)], 2
    >>> aim(state, Play(Card(2, 2), seen=0), 2)
    Play(card=Card(value=2, spread=2), seen=1)
    >>> aim(state, Play(Card(2, 2), seen=0), 0)  # it never saw the 3±1
    Play(card=Card(value=2, spread=2), seen=0)
    """
    if not isinstance(action, Play) or action.seen is None:
        return action
    value = action.card.value
    if value in state.discard_pile[-1].allowed:
        return action
    for version in range(min(newest, state.version - 1), action.seen, -1):
        if value in state.tops[version].allowed:
            return Play(action.card, version)
    return action


def cards(state: State) -> Counter[Card]:
    """Every card of the round wherever it lies; always equal to the deck."""
    counter: Counter[Card] = Counter(state.discard_pile)
    for zone in (*state.hands, *state.draw_piles):
        counter.update(zone)
    if state.last_card is not None:
        counter[state.last_card] += 1
    return counter


# Explicit deals (scenarios) --------------------------------------------------------------


def parse_deal(data: Any, options: Options) -> State:
    """A round laid out exactly as ``data`` says: hands, draw and discard piles, bottom to top."""
    layout = convert(data, Deal, LogError, "deal")
    for name, seats in (("hands", layout.hands), ("draw_piles", layout.draw_piles)):
        if len(seats) != options.players:
            raise LogError(f"deal.{name}: {len(seats)} seats, but the options say "
                           f"{options.players} players")
    state = State(options, [list(h) for h in layout.hands],
                  [list(p) for p in layout.draw_piles], list(layout.discard_pile),
                  face_down=layout.face_down)
    check_cards(cards(state), Counter(options.deck), "deal")
    return state


def deal_to_json(state: State) -> dict[str, Any]:
    """The round's layout as JSON data that ``parse_deal`` reads back."""
    data: dict[str, Any] = plain(Deal(state.hands, state.draw_piles, state.discard_pile,
                                      state.face_down))
    return data


# The match -------------------------------------------------------------------------------


class Match:
    """A single round, or the tournament: 2 × players rounds scored by minus points."""

    def __init__(self, options: Options, rng: random.Random,
                 first_round: State | None = None) -> None:
        self.options = options
        self.rng = rng
        self.rounds = 2 * options.players if options.tournament else 1
        self.round: State = first_round if first_round is not None else deal(options, rng)
        self.number = 1
        self.results: list[RoundResult] = []
        self.totals = [0] * options.players
        self.result: MatchResult | None = None

    def finish_round(self) -> RoundResult:
        """Score the finished round; the match ends after its last round."""
        state = self.round
        if not state.over or len(self.results) == self.number:
            raise ValueError("the round is not over or already scored")
        points = minus_points(state)
        for seat, p in enumerate(points):
            self.totals[seat] += p
        reason = EndReason.WENT_OUT if state.winner is not None else EndReason.NICHTS_GEHT_MEHR
        result = RoundResult(self.number, state.winner, reason, points)
        self.results.append(result)
        if self.number == self.rounds:
            self.result = self._placings(state)
        return result

    def next_round(self) -> State:
        """Deal the next round of the tournament."""
        if self.result is not None or len(self.results) != self.number:
            raise ValueError("no next round: the match is over or this round is still on")
        self.number += 1
        self.round = deal(self.options, self.rng)
        return self.round

    def _placings(self, last: State) -> MatchResult:
        order = sorted(range(self.options.players), key=lambda s: self.totals[s])
        placings: list[Placing] = []
        for rank, seat in enumerate(order):
            place = rank + 1
            if rank and self.totals[seat] == self.totals[order[rank - 1]]:
                place = placings[-1].place
            if not self.options.tournament and seat == last.winner:
                why = "went out"
            else:
                why = f"{self.totals[seat]} minus points"
            placings.append(Placing(seat, place, self.totals[seat], why))
        reason = "tournament" if self.options.tournament else "round"
        return MatchResult(tuple(placings), self.number, reason)


def new_match(options: Options, rng: random.Random, first_round: State | None = None) -> Match:
    """A match with ``options``; ``first_round`` replaces the first deal (a scenario)."""
    return Match(options, rng, first_round)


__all__: Sequence[str] = (
    "ACTIONS",
    "EVENTS",
    "INFO",
    "STANDARD_DECK",
    "AnyAction",
    "AnyEvent",
    "Card",
    "Deal",
    "Draw",
    "Drew",
    "EndReason",
    "EndRound",
    "Match",
    "Options",
    "Play",
    "Played",
    "Rotate",
    "Rotated",
    "RoundEnded",
    "State",
    "View",
    "WentOut",
    "action_from_json",
    "aim",
    "allowed_values",
    "apply",
    "attempt",
    "cards",
    "deal",
    "deal_to_json",
    "fits",
    "legal_actions",
    "new_match",
    "options_to_json",
    "parse_deal",
    "parse_options",
    "pending",
    "versions",
    "view",
    "wrap",
)
