"""Schnelllauf: two players race to play their layout onto two piles, one rank up or down.

The pure rules of one round and of the match (``Match``), in which the round's winner sheds
cards until one player has none left. It is played with French cards
(``zackzack.games.french``; ``Card``, ``Suit``, ``JOKER`` and ``deck`` are re-exported here
as the game's own); the game's data (options, actions, events, views: msgspec Structs) is in
``data``, exported here too. Suits play no part; the ace sits between K and 2:

>>> fits(Card.parse("10s"), frozenset({11})), fits(Card.parse("Qd"), frozenset({11}))
(True, True)
>>> fits(Card.parse("2h"), frozenset({13})), fits(Card.parse("Ac"), frozenset({13}), wrap=False)
(False, False)
>>> stands_after(JOKER, frozenset({3})) == {2, 4}  # 3 – Joker – 5
True

Decisions RULES.md leaves open:

- ``Play`` names the card, not the place (two hands may have two actions in flight); with
  equal cards face up in two places, the first place gives it. A pile not started (short
  stack) or a place that does not exist is ``NoSuchPile``.
- A move must turn up a card: moving a pile's only card (``NothingToReveal``) changes
  nothing and would let a round go round in circles.
- A pile's version rises with every change of the pile: play, flip and reshuffle.
- A dead end (``EndRound``) ends the round with no winner: nobody can play or move, no
  reserve can flip and nothing is left to reshuffle; or a reshuffle is due again although
  nobody has played or moved since the last one and no joker waits under a top (every card
  has been on top once and nothing fitted, so nothing ever will). Each player then takes
  back their layout, their reserve and the pile they started.
- Reshuffles draw from ``random.Random`` seeded with the round's ``seed`` and the number of
  the reshuffle, so ``deal_to_json`` holds all a round needs to go on identically.
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
from zackzack.games.french import JOKER, RANK_NAMES, Card, Suit, deck
from zackzack.games.schnelllauf.data import (
    ACTIONS,
    EVENTS,
    INFO,
    PLACES,
    AnyAction,
    AnyEvent,
    Deal,
    EndReason,
    EndRound,
    Flip,
    Flipped,
    MatchEnd,
    Move,
    Moved,
    Options,
    Play,
    Played,
    Reshuffle,
    Reshuffled,
    RoundEnded,
    View,
)
from zackzack.games.schnelllauf.errors import NoSuchPile, NothingToReveal, PlaceNotEmpty
from zackzack.games.shuffling import shuffle

ALL_RANKS = frozenset(range(1, 14))
"""Every rank, A (1) to K (13): what fits on a free pile."""


def decks(options: Options) -> Counter[Card]:
    """Every card of a round: both players' decks, as a multiset."""
    counter = Counter(deck(options.jokers))
    return counter + counter


# Ranks, piles and what fits --------------------------------------------------------------


def _neighbours(rank: int, wrap: bool) -> frozenset[int]:
    if rank == 0:
        return frozenset()
    below = rank - 1 if rank > 1 else 13 if wrap else 0
    above = rank + 1 if rank < 13 else 1 if wrap else 0
    return frozenset(r for r in (below, above) if r)


_NEIGHBOURS: tuple[tuple[frozenset[int], ...], ...] = tuple(
    tuple(_neighbours(rank, bool(wrap)) for rank in range(14)) for wrap in (0, 1))
"""``_NEIGHBOURS[wrap][rank]``: the ranks next to ``rank`` (none for the joker, 0)."""
_SINGLE: tuple[frozenset[int], ...] = tuple(frozenset({rank}) for rank in range(14))
_REACH: dict[tuple[frozenset[int], bool], frozenset[int]] = {}


def neighbours(rank: object, wrap: bool = True) -> frozenset[int]:
    """The ranks one higher and one lower than ``rank``; with ``wrap`` the ace is next to K.
    Anything but a rank (``True`` too: ``rank`` is no ``int`` parameter, which the compiled
    build would make 1) raises ``ValueError``.

    >>> neighbours(11) == {10, 12}, neighbours(13) == {12, 1}, neighbours(1) == {13, 2}
    (True, True, True)
    >>> neighbours(13, wrap=False) == {12}, neighbours(1, wrap=False) == {2}
    (True, True)
    """
    if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= 13:
        raise ValueError(f"a rank is 1 (A) to 13 (K), got {rank!r}")
    return _NEIGHBOURS[wrap][rank]


def _reach(stands: frozenset[int], wrap: bool) -> frozenset[int]:
    """Every rank next to a rank in ``stands`` (memoized: piles stand for few distinct sets)."""
    key = (stands, wrap)
    found = _REACH.get(key)
    if found is None:
        table = _NEIGHBOURS[wrap]
        found = _REACH[key] = frozenset().union(*(table[rank] for rank in stands))
    return found


def fits(card: Card, stands: frozenset[int] | None, wrap: bool = True) -> bool:
    """Whether ``card`` may go on a pile whose top stands for ``stands`` (``None``: free).

    >>> fits(Card.parse("5c"), frozenset({4})), fits(Card.parse("6c"), frozenset({4}))
    (True, False)
    >>> fits(Card.parse("6c"), None), fits(JOKER, frozenset({4}))
    (True, True)
    """
    return card.rank == 0 or stands is None or card.rank in _reach(stands, wrap)


def stands_after(card: Card, stands: frozenset[int] | None,
                 wrap: bool = True) -> frozenset[int] | None:
    """What a pile stands for once ``card`` is played on a top standing for ``stands``.

    A normal card stands for its rank; a joker for whichever neighbour the next card needs,
    and on a free pile the pile stays free:

    >>> sorted(stands_after(JOKER, frozenset({4}))), stands_after(JOKER, None)
    ([3, 5], None)
    >>> sorted(stands_after(Card.parse("Kh"), None))
    [13]
    """
    if card.rank:
        return _SINGLE[card.rank]
    return None if stands is None else _reach(stands, wrap)


def _fitting(stands: frozenset[int] | None, started: bool, wrap: bool) -> frozenset[int]:
    """The ranks of normal cards that fit a pile now (none on a pile not started)."""
    if not started:
        return frozenset()
    return ALL_RANKS if stands is None else _reach(stands, wrap)


# Options ---------------------------------------------------------------------------------


def parse_options(data: Any) -> Options:
    """Options from JSON data (lists for the per-seat pairs); bad fields raise ``OptionsError``.

    >>> parse_options({"jokers": 0, "pile_size": [4, 3], "one_hand_seats": [False, True]})
    Options(players=2, jokers=0, wrap=True, pile_size=(4, 3), one_hand_seats=(False, True), \
max_rounds=200, penalty_ms=1000, countdown_ms=1500)
    >>> parse_options({"jokers": 4})
    Traceback (most recent call last):
    ...
    zackzack.games.errors.OptionsError: options: Expected `int` <= 3 - at `$.jokers`
    """
    return convert(data, Options, OptionsError, "options")


def options_to_json(options: Options) -> dict[str, Any]:
    """Options as JSON data that ``parse_options`` reads back.

    >>> options_to_json(Options(wrap=False, pile_size=(3, 4)))["pile_size"]
    [3, 4]
    """
    data: dict[str, Any] = plain(options)
    return data


# Actions ---------------------------------------------------------------------------------


_FLIP: Final = Flip()
_RESHUFFLE: Final = Reshuffle()
_END_ROUND: Final = EndRound()


def action_from_json(data: Any) -> AnyAction:
    """An action from JSON data such as ``{"type": "play", "card": "7h", "pile": 0, "seen": 3}``.

    >>> action_from_json({"type": "play", "card": "7h", "pile": 0, "seen": 3})
    Play(card=Card.parse('7h'), pile=0, seen=3)
    >>> action_from_json({"type": "move", "source": 1, "target": 4})
    Move(source=1, target=4)
    >>> action_from_json({"type": "play", "card": "7h", "pile": 2})
    Traceback (most recent call last):
    ...
    zackzack.games.errors.BadAction: Expected `int` <= 1 - at `$.pile`
    """
    result: AnyAction = convert(data, AnyAction, BadAction)
    return result


# The round -------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class State:
    """One round. All piles are lists from bottom to top; discard pile ``i`` is seat ``i``'s.

    ``layouts[seat][place]`` is a layout pile, its top face up; a discard pile not started is
    empty. ``stands[i]`` is what pile ``i``'s top stands for (``None``: free), ``versions[i]``
    counts its changes and ``history[i][v]`` is what it stood for at version ``v``. Reshuffles
    draw from ``random.Random`` seeded with ``seed`` and the number of earlier reshuffles.
    ``quiet`` says nobody has played or moved since the last reshuffle. ``shown[seat]`` is
    that seat's layout as views show it (``None``: to be worked out after a change).
    """

    options: Options
    layouts: list[list[list[Card]]]
    reserves: list[list[Card]]
    discard_piles: list[list[Card]]
    stands: list[frozenset[int] | None] = field(default_factory=list)
    seed: int = 0
    reshuffles: int = 0
    quiet: bool = False
    versions: list[int] = field(default_factory=list)
    history: list[list[frozenset[int] | None]] = field(default_factory=list)
    fitting: list[frozenset[int]] = field(default_factory=list, repr=False)
    winner: int | None = None
    over: bool = False
    shown: list[tuple[tuple[Card | None, int], ...] | None] = field(
        default_factory=lambda: [None, None], repr=False)

    def __post_init__(self) -> None:
        if not self.stands:
            self.stands = [None if not pile or pile[-1].rank == 0 else _SINGLE[pile[-1].rank]
                           for pile in self.discard_piles]
        if not self.history:
            self.versions = [0] * len(self.discard_piles)
            self.history = [[stands] for stands in self.stands]
        self.fitting = [_fitting(stands, bool(pile), self.options.wrap)
                        for stands, pile in zip(self.stands, self.discard_piles, strict=True)]

    @property
    def players(self) -> int:
        """The number of seats: 2."""
        return len(self.layouts)


def deal(options: Options, rng: random.Random,
         holdings: Sequence[Sequence[Card]] | None = None) -> State:
    """A new round: each seat shuffles their deck (or ``holdings``) and lays out.

    Five places of ``pile_size`` cards, one start card on their own discard pile, the rest is
    the reserve. A seat too short for that lays out everything from the left and starts no
    pile.

    >>> state = deal(Options(), random.Random(1))
    >>> [[len(p) for p in places] for places in state.layouts]
    [[3, 3, 3, 3, 3], [3, 3, 3, 3, 3]]
    >>> [len(r) for r in state.reserves], [len(p) for p in state.discard_piles]
    ([39, 39], [1, 1])
    >>> state = deal(Options(), random.Random(1), [deck()[:13], deck()[13:]])
    >>> [[len(p) for p in places] for places in state.layouts], state.discard_piles[0]
    ([[3, 3, 3, 3, 1], [3, 3, 3, 3, 3]], [])
    """
    if holdings is None:
        hands = [list(deck(options.jokers)) for _ in range(2)]
    else:
        if len(holdings) != 2:
            raise ValueError(f"Schnelllauf deals to 2 seats, not {len(holdings)}")
        hands = [list(held) for held in holdings]
    layouts, reserves, piles = [], [], []
    for seat, held in enumerate(hands):
        shuffle(rng, held)
        size = options.pile_size[seat]
        full = len(held) > PLACES * size
        layouts.append([held[i * size:(i + 1) * size] for i in range(PLACES)])
        piles.append(held[PLACES * size:PLACES * size + 1] if full else [])
        reserves.append(held[PLACES * size + 1:] if full else [])
    if not all(held for held in hands) or not any(piles):
        raise ValueError("cannot deal: a seat has no cards, or nobody can start a pile")
    return State(options, layouts, reserves, piles, seed=rng.getrandbits(64))


def cards_left(state: State) -> tuple[int, int]:
    """How many cards each seat still has in their layout."""
    left = [sum(map(len, places)) for places in state.layouts]
    return left[0], left[1]


def apply(state: State, seat: int | None, action: AnyAction) -> list[Event]:
    """Apply ``action`` by ``seat`` (``None``: the table's automatic step) or raise IllegalAction.

    >>> cs = lambda text: [Card.parse(t) for t in text.split()]
    >>> state = State(Options(), [[cs("2c Jh"), cs("*"), [], [], []],
    ...                           [cs("4h 9d"), [], [], [], []]], [[], []], [cs("10s"), cs("Ks")])
    >>> apply(state, 0, Play(Card.parse("Jh"), 0, seen=0))
    [Played(seat=0, card=Card.parse('Jh'), pile=0, version=1, place=0, revealed=Card.parse('2c'))]
    >>> apply(state, 1, Play(Card.parse("9d"), 0, seen=0))
    Traceback (most recent call last):
    ...
    zackzack.games.errors.TooLate: 9d fitted pile 0 at version 0, but now the Jh lies on top
    >>> apply(state, 1, Play(Card.parse("9d"), 0, seen=1))
    Traceback (most recent call last):
    ...
    zackzack.games.errors.DoesNotFit: 9d does not fit the Jh on pile 0
    >>> apply(state, 1, Move(0, 3))
    [Moved(seat=1, source=0, target=3, card=Card.parse('9d'), revealed=Card.parse('4h'))]
    """
    outcome = attempt(state, seat, action)
    if not isinstance(outcome, list):
        raise outcome
    return outcome


def attempt(state: State, seat: int | None, action: AnyAction) -> list[Event] | IllegalAction:
    """:func:`apply`, but a refusal is returned, not raised: the table's way (a simulation
    has thousands, and a raised one costs a traceback)."""
    if state.over:
        return RoundOver("the round is over")
    if seat is None:
        due = pending(state)
        if due is None or type(due) is not type(action):
            return NotPending(f"{action.kind} is not due")
        if isinstance(action, Flip):
            return _flip(state)
        if isinstance(action, Reshuffle):
            return _reshuffle(state)
        return _end(state, None, EndReason.DEAD_END)
    if not 0 <= seat < 2:
        return NoSuchSeat(f"there is no seat {seat}")
    if isinstance(action, Play):
        return _play(state, seat, action)
    if isinstance(action, Move):
        return _move(state, seat, action)
    if isinstance(action, Flip | Reshuffle | EndRound):
        return BadAction(f"{action.kind} is the table's automatic step, not a player's")
    return BadAction(f"Schnelllauf has no action {action.kind!r}")


def _play(state: State, seat: int, action: Play) -> list[Event] | IllegalAction:
    p = action.pile
    if p != 0 and p != 1:
        return NoSuchPile(f"there is no discard pile {p}")
    pile = state.discard_piles[p]
    if not pile:
        return NoSuchPile(f"discard pile {p} was not started this round")
    card = action.card
    places = state.layouts[seat]
    for index in range(PLACES):
        place = places[index]
        if place and place[-1] is card:  # one object per card
            break
    else:
        return NotYourCard(f"{card} is not face up in your layout")
    rank = card.rank
    wrap = state.options.wrap
    if rank:
        if rank not in state.fitting[p]:
            return _miss(state, p, action)
        stands: frozenset[int] | None = _SINGLE[rank]
        fitting = _NEIGHBOURS[wrap][rank]
    else:
        stands = state.stands[p]
        if stands is None:
            fitting = ALL_RANKS
        else:
            stands = _reach(stands, wrap)
            fitting = _reach(stands, wrap)
    place.pop()
    state.shown[seat] = None
    pile.append(card)
    state.stands[p] = stands
    state.fitting[p] = fitting
    state.history[p].append(stands)
    version = state.versions[p] = state.versions[p] + 1
    state.quiet = False
    events: list[Event] = [
        Played(seat, card, p, version, index, place[-1] if place else None)]
    if not place and not any(places):
        events.extend(_end(state, seat, EndReason.PLAYED_OUT))
    return events


def _miss(state: State, p: int, action: Play) -> IllegalAction:
    """``TooLate`` if the card fitted the version the player aimed at, else ``DoesNotFit``."""
    seen, version, card = action.seen, state.versions[p], action.card
    if seen is not None:
        if not 0 <= seen <= version:
            return BadAction(f"pile {p} version {seen} has not happened (now {version})")
        if seen < version and fits(card, state.history[p][seen], state.options.wrap):
            return TooLate(f"{card} fitted pile {p} at version {seen}, but now "
                           f"{_describe(state, p)} lies on top", pile=p, seen=seen)
    return DoesNotFit(f"{card} does not fit {_describe(state, p)} on pile {p}")


def _describe(state: State, p: int) -> str:
    top, stands = state.discard_piles[p][-1], state.stands[p]
    if top.rank:
        return f"the {top}"
    if stands is None:
        return "a free joker"
    names = [RANK_NAMES[rank] for rank in sorted(stands)]
    return "the joker standing for " + (
        names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1])


def _move(state: State, seat: int, action: Move) -> list[Event] | IllegalAction:
    places, s, t = state.layouts[seat], action.source, action.target
    if not (0 <= s < PLACES and 0 <= t < PLACES):
        return NoSuchPile(f"there is no place {s if not 0 <= s < PLACES else t}")
    source = places[s]
    if not source:
        return NoSuchPile(f"place {s} is empty")
    if places[t]:
        return PlaceNotEmpty(f"place {t} is not empty")
    if len(source) < 2:
        return NothingToReveal(f"place {s} has no card under its top to reveal")
    card = source.pop()
    state.shown[seat] = None
    places[t].append(card)
    state.quiet = False
    return [Moved(seat, s, t, card, source[-1])]


def _flip(state: State) -> list[Event]:
    flipped: list[Card | None] = [None, None]
    wrap = state.options.wrap
    for seat, reserve in enumerate(state.reserves):
        pile = state.discard_piles[seat]
        if reserve and pile:
            card = flipped[seat] = reserve.pop()
            pile.append(card)
            stands = None if card.rank == 0 else _SINGLE[card.rank]
            state.stands[seat] = stands
            state.fitting[seat] = _fitting(stands, True, wrap)
            state.history[seat].append(stands)
            state.versions[seat] += 1
    versions = state.versions
    return [Flipped((flipped[0], flipped[1]), (versions[0], versions[1]))]


def _reshuffle(state: State) -> list[Event]:
    state.reshuffles += 1
    rng = random.Random(f"schnelllauf {state.seed} {state.reshuffles}")
    for p, pile in enumerate(state.discard_piles):
        if len(pile) > 1:
            rest = pile[:-1]
            del pile[:-1]
            shuffle(rng, rest)
            state.reserves[p].extend(rest)
            state.history[p].append(state.stands[p])
            state.versions[p] += 1
    state.quiet = True
    reserves, versions = state.reserves, state.versions
    return [Reshuffled((len(reserves[0]), len(reserves[1])), (versions[0], versions[1]))]


def _end(state: State, winner: int | None, reason: EndReason) -> list[Event]:
    state.over = True
    state.winner = winner
    return [RoundEnded(winner, reason, cards_left(state))]


def pending(state: State) -> Flip | Reshuffle | EndRound | None:
    """The automatic step due now (``Flip``, ``Reshuffle``, ``EndRound``), or ``None``.

    Nothing is due while a seat can play a face-up card or reveal one by a move. Then, in
    this order: a ``Flip`` while a reserve has cards; a ``Reshuffle`` while a discard pile
    has more than its top; else ``EndRound``. The round also ends instead of a second
    reshuffle when nobody has played or moved since the first and no joker is waiting under
    a top: every card of both piles has then been on top once, nothing fitted, and nothing
    ever will.
    """
    if state.over:
        return None
    fit0, fit1 = state.fitting
    for places in state.layouts:
        empty = deep = False
        for place in places:
            if place:
                rank = place[-1].rank
                if rank == 0 or rank in fit0 or rank in fit1:
                    return None
                if len(place) > 1:
                    deep = True
            else:
                empty = True
        if empty and deep:
            return None
    piles = state.discard_piles
    for seat, reserve in enumerate(state.reserves):
        if reserve and piles[seat]:
            return _FLIP
    if len(piles[0]) > 1 or len(piles[1]) > 1:
        if state.quiet and not any(card.rank == 0 for pile in piles for card in pile[:-1]):
            return _END_ROUND
        return _RESHUFFLE
    return _END_ROUND


def view(state: State, seat: int | None) -> View:
    """What ``seat`` sees (``None``: a spectator): the same public table for everyone."""
    piles, reserves, versions, stands, shown = (
        state.discard_piles, state.reserves, state.versions, state.stands, state.shown)
    return View(
        seat,
        (shown[0] or _show(state, 0), shown[1] or _show(state, 1)),
        (len(reserves[0]), len(reserves[1])),
        (piles[0][-1] if piles[0] else None, piles[1][-1] if piles[1] else None),
        (len(piles[0]), len(piles[1])),
        (versions[0], versions[1]),
        (stands[0], stands[1]),
        state.winner,
        state.over,
    )


def _show(state: State, seat: int) -> tuple[tuple[Card | None, int], ...]:
    """``seat``'s layout as views show it, kept until the layout changes."""
    places: list[tuple[Card | None, int]] = []
    for place in state.layouts[seat]:  # a loop, not a comprehension: one call less
        places.append((place[-1], len(place) - 1) if place else _NO_PLACE)
    shown = state.shown[seat] = tuple(places)
    return shown


_NO_PLACE: tuple[Card | None, int] = (None, 0)


def legal_actions(state: State, seat: int) -> list[Play | Move]:
    """The actions ``seat`` could take now that the table would accept (equal cards once).

    Plays name the current pile version; moves go from every place with a card to reveal
    into every empty place.
    """
    if state.over:
        return []
    places = state.layouts[seat]
    actions: list[Play | Move] = []
    tops = dict.fromkeys(place[-1] for place in places if place)
    for p, pile in enumerate(state.discard_piles):
        if pile:
            fitting = state.fitting[p]
            actions.extend(Play(card, p, state.versions[p]) for card in tops
                           if card.rank == 0 or card.rank in fitting)
    empty = [t for t, place in enumerate(places) if not place]
    actions.extend(Move(s, t) for s, place in enumerate(places) if len(place) > 1
                   for t in empty)
    return actions


def versions(state: State) -> tuple[int, ...]:
    """The version of each discard pile: it goes up with every change of the pile."""
    return state.versions[0], state.versions[1]


def aim(state: State, action: AnyAction, newest: int) -> AnyAction:
    """``action`` aimed at the newest version of its pile from its ``seen`` to ``newest``
    that its card fitted, if it does not fit now (a reaction to any pile seen was too late).
    """
    if not isinstance(action, Play) or action.seen is None or action.pile not in (0, 1):
        return action
    p, card = action.pile, action.card
    if not state.discard_piles[p] or fits(card, state.stands[p], state.options.wrap):
        return action
    for version in range(min(newest, state.versions[p] - 1), action.seen, -1):
        if fits(card, state.history[p][version], state.options.wrap):
            return Play(card, p, version)
    return action


def cards(state: State) -> Counter[Card]:
    """Every card of the round wherever it lies; always equal to both decks."""
    counter: Counter[Card] = Counter()
    for zone in (*state.reserves, *state.discard_piles):
        counter.update(zone)
    for places in state.layouts:
        for place in places:
            counter.update(place)
    return counter


# Explicit deals (scenarios) --------------------------------------------------------------


def parse_deal(data: Any, options: Options) -> State:
    """A round laid out exactly as ``data`` says (a :class:`Deal`); the cards must be both decks.

    >>> state = parse_deal(deal_to_json(deal(Options(), random.Random(1))), Options())
    >>> parse_deal({**deal_to_json(state), "seed": -1}, Options())
    Traceback (most recent call last):
    ...
    zackzack.games.errors.LogError: deal: Expected `int` >= 0 - at `$.seed`
    """
    layout = convert(data, Deal, LogError, "deal")
    _check(layout)
    state = State(options, layout.layouts, layout.reserves, layout.discard_piles,
                  list(layout.stands or ()), layout.seed, layout.reshuffles, layout.quiet)
    check_cards(cards(state), decks(options), "deal")
    return state


def _check(layout: Deal) -> None:
    """Raise ``LogError`` for a deal no round can come from (its fields are each fine)."""
    piles = layout.discard_piles
    if not any(piles):
        raise LogError("deal.discard_piles: at least one pile must be started")
    for seat in range(2):
        if not any(layout.layouts[seat]):
            raise LogError(f"deal.layouts[{seat}]: a round needs a card in every layout")
        if layout.reserves[seat] and not piles[seat]:
            raise LogError(f"deal.reserves[{seat}]: a seat that started no discard pile "
                           "has no reserve")
    for p, stands in enumerate(layout.stands or ()):
        top = piles[p][-1] if piles[p] else None
        if stands is None:
            if top is not None and top.rank:
                raise LogError(f"deal.stands[{p}]: only a joker on top can be free")
        elif top is None or (top.rank and stands != {top.rank}):
            raise LogError(f"deal.stands[{p}]: {top or 'a pile not started'} stands for "
                           f"{top.rank if top else 'nothing'}, not {sorted(stands)}")


def deal_to_json(state: State) -> dict[str, Any]:
    """The round's layout as JSON data that ``parse_deal`` reads back."""
    data: dict[str, Any] = plain(Deal(state.layouts, state.reserves, state.discard_piles,
                                      state.stands, state.seed, state.reshuffles, state.quiet))
    return data


# The match -------------------------------------------------------------------------------


def holdings_after(state: State) -> list[list[Card]]:
    """What each seat holds once the round is over (RULES.md, end of a round).

    The winner keeps their reserve and takes the smaller discard pile (equal: pile 0); the
    loser takes the larger one, their layout and their reserve. After a dead end (no winner)
    each takes back their layout, their reserve and the pile they started.
    """
    if not state.over:
        raise ValueError("the round is not over")
    held = [list(reserve) for reserve in state.reserves]
    for seat, places in enumerate(state.layouts):
        for place in places:
            held[seat].extend(place)
    piles = state.discard_piles
    if state.winner is None:
        for seat in range(2):
            held[seat].extend(piles[seat])
    else:
        small = 0 if len(piles[0]) <= len(piles[1]) else 1
        held[state.winner].extend(piles[small])
        held[1 - state.winner].extend(piles[1 - small])
    return held


class Match:
    """Rounds until a player has no cards left, or ``max_rounds`` (fewer cards wins)."""

    def __init__(self, options: Options, rng: random.Random,
                 first_round: State | None = None) -> None:
        self.options = options
        self.rng = rng
        self.round: State = first_round if first_round is not None else deal(options, rng)
        self.number = 1
        self.results: list[RoundResult] = []
        self.holdings: list[list[Card]] = []
        self.result: MatchResult | None = None

    def finish_round(self) -> RoundResult:
        """Score the finished round: everyone takes their cards home; maybe the match is over."""
        state = self.round
        if not state.over or len(self.results) == self.number:
            raise ValueError("the round is not over or already scored")
        self.holdings = holdings_after(state)
        scores = tuple(map(len, self.holdings))
        reason = EndReason.PLAYED_OUT if state.winner is not None else EndReason.DEAD_END
        result = RoundResult(self.number, state.winner, reason, scores)
        self.results.append(result)
        if 0 in scores:
            winner = scores.index(0)
            self.result = MatchResult((
                Placing(winner, 1, 0, "no cards left"),
                Placing(1 - winner, 2, scores[1 - winner], f"{scores[1 - winner]} cards left"),
            ), self.number, MatchEnd.NO_CARDS_LEFT)
        elif self.number >= self.options.max_rounds:
            self.result = self._by_cards(scores)
        return result

    @property
    def totals(self) -> tuple[int, ...]:
        """The cards each seat holds now (the standing of a Schnelllauf match)."""
        if self.results:
            return self.results[-1].scores
        state = self.round
        return tuple(sum(map(len, state.layouts[seat])) + len(state.reserves[seat])
                     + len(state.discard_piles[seat]) for seat in range(2))

    def next_round(self) -> State:
        """Deal the next round: both shuffle everything they hold and lay out anew."""
        if self.result is not None or len(self.results) != self.number:
            raise ValueError("no next round: the match is over or this round is still on")
        self.number += 1
        self.round = deal(self.options, self.rng, self.holdings)
        return self.round

    def _by_cards(self, scores: tuple[int, ...]) -> MatchResult:
        after = f"after {self.number} rounds"
        if scores[0] == scores[1]:
            placings = tuple(Placing(seat, 1, scores[seat], f"as many cards {after}")
                             for seat in range(2))
        else:
            best = 0 if scores[0] < scores[1] else 1
            placings = (Placing(best, 1, scores[best], f"fewer cards {after}"),
                        Placing(1 - best, 2, scores[1 - best], f"more cards {after}"))
        return MatchResult(placings, self.number, MatchEnd.ROUND_LIMIT)


def new_match(options: Options, rng: random.Random, first_round: State | None = None) -> Match:
    """A match with ``options``; ``first_round`` replaces the first deal (a scenario)."""
    return Match(options, rng, first_round)


__all__: Sequence[str] = (
    "ACTIONS",
    "ALL_RANKS",
    "EVENTS",
    "INFO",
    "JOKER",
    "PLACES",
    "AnyAction",
    "AnyEvent",
    "Card",
    "Deal",
    "EndReason",
    "EndRound",
    "Flip",
    "Flipped",
    "Match",
    "MatchEnd",
    "Move",
    "Moved",
    "Options",
    "Play",
    "Played",
    "Reshuffle",
    "Reshuffled",
    "RoundEnded",
    "State",
    "Suit",
    "View",
    "action_from_json",
    "aim",
    "apply",
    "attempt",
    "cards",
    "cards_left",
    "deal",
    "deal_to_json",
    "deck",
    "decks",
    "fits",
    "holdings_after",
    "legal_actions",
    "neighbours",
    "new_match",
    "options_to_json",
    "parse_deal",
    "parse_options",
    "pending",
    "stands_after",
    "versions",
    "view",
)
