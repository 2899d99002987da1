"""What every game provides: the typed seam the table, bots and front ends rely on.

A game is a module (``unter_spannung``, ``schnelllauf``) that satisfies :class:`Rules`.
Its round state is mutable and private to the table; what a seat may know of it is
the frozen view returned by ``view(state, seat)``. Multi-round play lives in the
game's ``Match``, beside the round.

Game data speaks JSON through msgspec alone: values are ``msgspec.Struct``s, cards are
:class:`Notation` values that travel as their notation, and :func:`encode`, :func:`plain`,
:func:`convert` and :func:`decode` are the one way in and out.

>>> plain(Placing(seat=0, place=1, score=0, why="won"))
{'seat': 0, 'place': 1, 'score': 0, 'why': 'won'}
>>> convert({"seat": 0, "place": "1", "score": 0, "why": "won"}, Placing)
Traceback (most recent call last):
...
ValueError: Expected `int`, got `str` - at `$.place`
"""

from __future__ import annotations

import functools
import random
import types
from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar, NoReturn, Protocol, Self, Union, get_args, get_origin, overload

import msgspec
import msgspec.inspect
from typing_extensions import TypeVar

from zackzack.games.errors import LogError, OptionsError

_T = TypeVar("_T")


class Notation:
    """A value that travels as its notation (a card: ``7±2``, ``Qs``): ``str`` and ``parse``."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Self:
        """The value written ``text``; raise ``ValueError`` saying how it is written."""
        raise NotImplementedError


class Interned(Notation):
    """A :class:`Notation` value that exists once (a card): ``==`` is identity, ``key`` is its
    hash and its order, it cannot change, and a copy or a pickle of it is itself. A subclass
    builds each value once (:meth:`_build`) and hands out that one."""

    __slots__ = ("key", "notation")
    key: int
    """Its hash and its place in the order."""
    notation: str
    """How it is written."""

    def __str__(self) -> str:
        return self.notation

    def __hash__(self) -> int:
        return self.key

    def __lt__(self, other: Self) -> bool:
        return self.key < other.key

    def __le__(self, other: Self) -> bool:
        return self.key <= other.key

    def __gt__(self, other: Self) -> bool:
        return self.key > other.key

    def __ge__(self, other: Self) -> bool:
        return self.key >= other.key

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"a card cannot change its {name}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"a card cannot lose its {name}")

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return type(self).parse, (self.notation,)

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: object) -> Self:
        return self

    @classmethod
    def _build(cls, **fields: object) -> Self:
        """A new value with ``fields`` set: how a subclass builds each of its values, once."""
        value = object.__new__(cls)
        for name, field in fields.items():
            object.__setattr__(value, name, field)
        return value


def enc_hook(obj: Any) -> Any:
    """msgspec's encoding hook: a :class:`Notation` value becomes its notation."""
    if isinstance(obj, Interned):  # (a card: its notation is kept)
        return obj.notation
    if isinstance(obj, Notation):
        return str(obj)
    raise NotImplementedError(f"cannot encode {type(obj).__name__}")


def dec_hook(kind: type, obj: Any) -> Any:
    """msgspec's decoding hook: notation becomes the :class:`Notation` type asked for."""
    if isinstance(kind, type) and issubclass(kind, Notation):
        if isinstance(obj, kind):
            return obj
        if not isinstance(obj, str):
            raise ValueError(f"expected a card's notation, got {type(obj).__name__}")
        return kind.parse(obj)
    raise NotImplementedError(f"cannot decode {kind!r}")


ENCODER = msgspec.json.Encoder(enc_hook=enc_hook, order="deterministic")
"""The one JSON encoder for game data; sets come out sorted (the ranks a joker stands for)."""


def encode(obj: Any) -> bytes:
    """``obj`` (Structs, enums, cards, containers) as JSON.

    >>> encode(RoundResult(1, None, "nichts_geht_mehr", (3, 4)))
    b'{"number":1,"winner":null,"reason":"nichts_geht_mehr","scores":[3,4]}'
    """
    return ENCODER.encode(obj)


def plain(obj: Any) -> Any:
    """``obj`` as the JSON data it encodes to (dicts, lists, strings, numbers, ``None``).

    >>> plain((RoundResult(1, 0, "went_out", (0, 7)),))
    [{'number': 1, 'winner': 0, 'reason': 'went_out', 'scores': [0, 7]}]
    """
    return msgspec.json.decode(ENCODER.encode(obj))


_DECODERS: dict[Any, msgspec.json.Decoder[Any]] = {}


@overload
def decoder(into: type[_T]) -> msgspec.json.Decoder[_T]: ...
@overload
def decoder(into: Any) -> msgspec.json.Decoder[Any]: ...
def decoder(into: Any) -> msgspec.json.Decoder[Any]:
    """The JSON decoder for ``into`` (made once per type)."""
    found = _DECODERS.get(into)
    if found is None:
        found = _DECODERS[into] = msgspec.json.Decoder(into, dec_hook=dec_hook)
    return found


@overload
def convert(data: Any, into: type[_T], error: type[ValueError] = ...,
            where: str = ...) -> _T: ...
@overload
def convert(data: Any, into: Any, error: type[ValueError] = ..., where: str = ...) -> Any: ...
def convert(data: Any, into: Any, error: type[ValueError] = ValueError, where: str = "") -> Any:
    """Plain data as ``into``, validated; refusals raise ``error`` naming the field.

    ``where`` prefixes the message (``"options: Expected `int` <= 6 - at `$.players`"``).
    Into a union of tagged Structs (a game's actions), data with one of their tags goes
    straight into the Struct it names: msgspec works out a union afresh at every call, a
    Struct once. What that Struct refuses goes through the union, for the union's message.
    """
    member = _member(data, into)
    if member is not None:
        try:
            return msgspec.convert(data, member, dec_hook=dec_hook)
        except msgspec.ValidationError:
            pass
    try:
        return msgspec.convert(data, into, dec_hook=dec_hook)
    except msgspec.ValidationError as refusal:
        raise error(f"{where}: {refusal}" if where else str(refusal)) from None


@functools.cache
def _tagged(into: Any) -> tuple[str, dict[Any, type]] | None:
    """If ``into`` is a union of Structs tagged in one field: that field, and each Struct by
    its tag (``None`` for anything else)."""
    if get_origin(into) not in (types.UnionType, Union):
        return None
    members = get_args(into)
    if not all(isinstance(kind, type) and issubclass(kind, msgspec.Struct)
               and kind.__struct_config__.tag is not None for kind in members):
        return None
    fields = {kind.__struct_config__.tag_field for kind in members}
    if len(fields) != 1:
        return None
    return fields.pop(), {kind.__struct_config__.tag: kind for kind in members}


def _member(data: Any, into: Any) -> type | None:
    """The Struct of union ``into`` that ``data``'s tag names (``None``: none, or no union of
    tagged Structs)."""
    if not isinstance(data, dict):
        return None
    tagged = _tagged(into)
    if tagged is None:
        return None
    field, members = tagged
    tag = data.get(field)
    return members.get(tag) if isinstance(tag, str | int) else None


@overload
def decode(raw: bytes | str, into: type[_T], error: type[ValueError] = ...,
           where: str = ...) -> _T: ...
@overload
def decode(raw: bytes | str, into: Any, error: type[ValueError] = ...,
           where: str = ...) -> Any: ...
def decode(raw: bytes | str, into: Any, error: type[ValueError] = ValueError,
           where: str = "") -> Any:
    """JSON text as ``into``, validated; refusals (bad JSON too) raise ``error``.

    >>> decode(b'{"number": 2, "winner": 1, "reason": "went_out", "scores": [9, 0]}',
    ...        RoundResult).scores
    (9, 0)
    """
    try:
        return decoder(into).decode(raw)
    except msgspec.DecodeError as refusal:
        raise error(f"{where}: {refusal}" if where else str(refusal)) from None


class _Kinded(msgspec.StructMeta):
    """Sets ``kind`` of each tagged Struct class to its tag (today's ``"type"`` on the wire)."""

    kind: str

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any],
                **config: Any) -> _Kinded:
        cls = super().__new__(mcls, name, bases, namespace, **config)
        tag = cls.__struct_config__.tag
        if isinstance(tag, str) and "kind" not in namespace:
            cls.kind = tag
        return cls


class Event(msgspec.Struct, frozen=True, gc=False, tag_field="type", metaclass=_Kinded):
    """Something that happened at the table; subclasses name their tag (``tag="played"``)."""

    kind: ClassVar[str] = "event"

    def seen_by(self, seat: int | None) -> Event | None:
        """This event as ``seat`` may see it (``None``: a spectator), or ``None`` if not at all."""
        return self


class PileEvent(Event, frozen=True):
    """An event on one of the piles: ``pile`` names it (0 when a game has one)."""

    kind: ClassVar[str] = "pile_event"


class Action(msgspec.Struct, frozen=True, gc=False, tag_field="type", forbid_unknown_fields=True,
             metaclass=_Kinded):
    """Something a seat (or, for automatic steps, the table) asks to do."""

    kind: ClassVar[str] = "action"


class GameInfo(msgspec.Struct, frozen=True):
    """What a game is: its name, its players, and that nobody takes turns."""

    name: str
    title: str
    min_players: int
    max_players: int
    simultaneous: bool = True


class Placing(msgspec.Struct, frozen=True):
    """Where one seat placed in a match, with its score and the reason."""

    seat: int
    place: int
    score: int
    why: str


class RoundResult(msgspec.Struct, frozen=True):
    """The end of one round: the winner (``None``: nobody) and the scores it added."""

    number: int
    winner: int | None
    reason: str
    scores: tuple[int, ...]


class MatchResult(msgspec.Struct, frozen=True):
    """The end of a match: who placed where and why; ties share a place."""

    placings: tuple[Placing, ...]
    rounds: int
    reason: str

    def place_of(self, seat: int) -> int:
        """The place of ``seat`` (1 is best)."""
        return next(p.place for p in self.placings if p.seat == seat)


def check_bounds(options: msgspec.Struct) -> None:
    """Refuse ``options`` made in Python with a field outside its declared ``msgspec.Meta`` bounds.

    Decoding checks the bounds itself; this gives options built directly the same check from
    the same declaration (call it first in the options' ``__post_init__``).

    >>> from zackzack.games import unter_spannung
    >>> unter_spannung.Options(players=7)
    Traceback (most recent call last):
    ...
    zackzack.games.errors.OptionsError: players must be between 2 and 6, got 7
    >>> from zackzack.games import schnelllauf
    >>> schnelllauf.Options(pile_size=(9, 9))
    Traceback (most recent call last):
    ...
    zackzack.games.errors.OptionsError: pile_size[0] must be between 3 and 4, got 9
    """
    for name, index, low, high in _bounds(type(options)):
        value = getattr(options, name)
        where = [(name, value)] if index is None else \
            [(f"{name}[{i}]", item) for i, item in enumerate(value) if index in (i, -1)]
        for label, item in where:
            if (low is not None and item < low) or (high is not None and item > high):
                raise OptionsError(f"{label} must be between {low} and {high}, got {item}")


@functools.cache
def _bounds(kind: type[msgspec.Struct]
            ) -> tuple[tuple[str, int | None, int | None, int | None], ...]:
    """The integer fields of ``kind`` that declare bounds, and the integer items of its tuple
    and list fields that do: name, the item's index (``None``: the field itself; ``-1``: every
    item), lowest, highest."""
    info = msgspec.inspect.type_info(kind)
    assert isinstance(info, msgspec.inspect.StructType)
    found: list[tuple[str, int | None, int | None, int | None]] = []
    for f in info.fields:
        places: list[tuple[int | None, Any]] = [(None, f.type)]
        if isinstance(f.type, msgspec.inspect.TupleType):
            places = list(enumerate(f.type.item_types))
        elif isinstance(f.type, msgspec.inspect.VarTupleType | msgspec.inspect.ListType):
            places = [(-1, f.type.item_type)]
        found += [(f.name, index, bound.ge, bound.le) for index, bound in places
                  if isinstance(bound, msgspec.inspect.IntType)
                  and (bound.ge is not None or bound.le is not None)]
    return tuple(found)


class GameOptions(Protocol):
    """What the table reads of a game's options."""

    @property
    def players(self) -> int: ...
    @property
    def penalty_ms(self) -> int: ...
    @property
    def countdown_ms(self) -> int: ...

    def one_hand(self, seat: int) -> bool: ...


class RoundState(Protocol):
    """What the table reads of a round's state: whether it is over."""

    @property
    def over(self) -> bool: ...


OptionsT = TypeVar("OptionsT", bound=GameOptions, default=Any)
StateT = TypeVar("StateT", bound=RoundState, default=Any)
StateT_co = TypeVar("StateT_co", bound=RoundState, covariant=True, default=Any)
ViewT = TypeVar("ViewT", default=Any)
ViewT_co = TypeVar("ViewT_co", covariant=True, default=Any)
ActionT = TypeVar("ActionT", bound=Action, default=Any)
EventT = TypeVar("EventT", bound=Event, default=Any)
EventT_co = TypeVar("EventT_co", bound=Event, covariant=True, default=Any)
"""The seam's type parameters; each defaults to ``Any`` (code that serves every game alike)."""


class Match(Protocol[StateT_co]):
    """Multi-round play: deals rounds, scores them, knows when the match is over."""

    @property
    def round(self) -> StateT_co: ...
    @property
    def number(self) -> int: ...
    @property
    def results(self) -> Sequence[RoundResult]: ...
    @property
    def result(self) -> MatchResult | None: ...
    @property
    def totals(self) -> Sequence[int]: ...

    def finish_round(self) -> RoundResult: ...
    def next_round(self) -> StateT_co: ...


class Rules(Protocol[OptionsT, StateT, ViewT_co, ActionT, EventT_co]):
    """A game module: pure rules, no clock, no I/O, randomness only through ``rng``.

    ``parse_options``/``action_from_json``/``parse_deal`` decode plain data with
    :func:`convert` (refusals: ``OptionsError``, ``BadAction``, ``LogError``).
    """

    @property
    def INFO(self) -> GameInfo: ...
    @property
    def Options(self) -> type[OptionsT]: ...
    @property
    def View(self) -> type[ViewT_co]: ...
    @property
    def ACTIONS(self) -> tuple[type[ActionT], ...]: ...
    @property
    def EVENTS(self) -> tuple[type[EventT_co], ...]: ...

    def parse_options(self, data: Any) -> OptionsT: ...
    def options_to_json(self, options: OptionsT) -> dict[str, Any]: ...
    def new_match(self, options: OptionsT, rng: random.Random,
                  first_round: StateT | None = None) -> Match[StateT]: ...
    def apply(self, state: StateT, seat: int | None, action: ActionT) -> list[Event]: ...
    def view(self, state: StateT, seat: int | None) -> ViewT_co: ...
    def pending(self, state: StateT) -> ActionT | None: ...
    def legal_actions(self, state: StateT, seat: int) -> Sequence[ActionT]: ...
    def action_from_json(self, data: Any) -> ActionT: ...
    def parse_deal(self, data: Any, options: OptionsT) -> StateT: ...
    def deal_to_json(self, state: StateT) -> dict[str, Any]: ...
    def cards(self, state: StateT) -> Counter[Any]: ...
    def versions(self, state: StateT) -> tuple[int, ...]: ...
    def aim(self, state: StateT, action: ActionT, newest: int) -> ActionT: ...


def check_cards(found: Counter[Any], deck: Counter[Any], where: str) -> None:
    """Raise ``LogError`` naming the cards missing from or extra in a deal."""
    missing, extra = deck - found, found - deck
    problems = []
    if missing:
        problems.append("cards missing from the deal: " + _card_counts(missing))
    if extra:
        problems.append("cards not in the deck or in two places: " + _card_counts(extra))
    if problems:
        raise LogError(f"{where}: " + "; ".join(problems))


def _card_counts(counter: Counter[Any]) -> str:
    return ", ".join(f"{card} ×{n}" if n > 1 else str(card) for card, n in sorted(counter.items()))
