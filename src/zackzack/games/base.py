"""What every game provides: the protocol the table, bots and front ends rely on.

A game is a module (``unter_spannung``, ``schnelllauf``) that satisfies :class:`Rules`.
Its round state is mutable and private to the table; what a seat may know of it is
the frozen view returned by ``view(state, seat)``. Multi-round play lives in the
game's ``Match``, beside the round.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from zackzack.games.errors import LogError

_T = TypeVar("_T")


def fast_init(cls: type[_T]) -> type[_T]:
    """Give the frozen slotted dataclass ``cls`` a faster ``__init__`` with the same signature.

    A frozen dataclass's own ``__init__`` calls ``object.__setattr__`` for every field; this
    one sets each slot through its member descriptor directly, about twice as fast. For the
    hot value objects (views, events, actions, log entries): simulations make millions.
    Fields, equality, ``repr`` and ``dataclasses.replace`` stay those of the dataclass.
    """
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    if hasattr(cls, "__post_init__") or not all(f.init for f in fields) or any(
            f.default_factory is not dataclasses.MISSING for f in fields):
        raise TypeError(f"fast_init cannot build {cls.__name__}")
    names = [f.name for f in fields]
    scope: dict[str, Any] = {f"_set_{name}": getattr(cls, name).__set__ for name in names}
    scope.update({f"_default_{f.name}": f.default for f in fields
                  if f.default is not dataclasses.MISSING})
    params = "".join(f", {name}=_default_{name}" if f"_default_{name}" in scope else f", {name}"
                     for name in names)
    body = "".join(f"\n    _set_{name}(self, {name})" for name in names) or "\n    pass"
    exec(f"def __init__(self{params}):{body}", scope)  # as dataclasses itself makes __init__
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


class Event:
    """Something that happened at the table; subclasses are frozen slotted dataclasses."""

    __slots__ = ()
    kind: ClassVar[str] = "event"

    def seen_by(self, seat: int | None) -> Event | None:
        """This event as ``seat`` may see it (``None``: a spectator), or ``None`` if not at all."""
        return self


class Action:
    """Something a seat (or, for automatic steps, the table) asks to do."""

    __slots__ = ()
    kind: ClassVar[str] = "action"


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game is: its name, its players, and that nobody takes turns."""

    name: str
    title: str
    min_players: int
    max_players: int
    simultaneous: bool = True


@dataclass(frozen=True, slots=True)
class Placing:
    """Where one seat placed in a match, with its score and the reason."""

    seat: int
    place: int
    score: int
    why: str


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The end of one round: the winner (``None``: nobody) and the scores it added."""

    number: int
    winner: int | None
    reason: str
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The end of a match: who placed where and why; ties share a place."""

    placings: tuple[Placing, ...]
    rounds: int
    reason: str

    def place_of(self, seat: int) -> int:
        """The place of ``seat`` (1 is best)."""
        return next(p.place for p in self.placings if p.seat == seat)


class Match(Protocol):
    """Multi-round play: deals rounds, scores them, knows when the match is over."""

    @property
    def round(self) -> Any: ...
    @property
    def number(self) -> int: ...
    @property
    def results(self) -> Sequence[RoundResult]: ...
    @property
    def result(self) -> MatchResult | None: ...
    @property
    def totals(self) -> Sequence[int]: ...

    def finish_round(self) -> RoundResult: ...
    def next_round(self) -> Any: ...


class Rules(Protocol):
    """A game module: pure rules, no clock, no I/O, randomness only through ``rng``."""

    INFO: GameInfo

    def parse_options(self, data: Mapping[str, Any]) -> Any: ...
    def options_to_json(self, options: Any) -> dict[str, Any]: ...
    def new_match(self, options: Any, rng: random.Random, first_round: Any = None) -> Match: ...
    def apply(self, state: Any, seat: int | None, action: Any) -> list[Event]: ...
    def view(self, state: Any, seat: int | None) -> Any: ...
    def pending(self, state: Any) -> Action | None: ...
    def legal_actions(self, state: Any, seat: int) -> list[Any]: ...
    def action_from_json(self, data: Any) -> Any: ...
    def parse_deal(self, data: Any, options: Any) -> Any: ...
    def deal_to_json(self, state: Any) -> dict[str, Any]: ...
    def cards(self, state: Any) -> Counter[Any]: ...
    def versions(self, state: Any) -> tuple[int, ...]: ...
    def aim(self, state: Any, action: Any, newest: int) -> Any: ...


def to_json(obj: Any) -> Any:
    """Plain JSON data for events, actions, views and results; cards become their notation.

    >>> to_json(Placing(seat=0, place=1, score=0, why="won"))
    {'seat': 0, 'place': 1, 'score': 0, 'why': 'won'}
    """
    convert = _CONVERTERS.get(type(obj))
    if convert is None:
        convert = _CONVERTERS[type(obj)] = _converter(type(obj))
    return convert(obj)


_CONVERTERS: dict[type, Callable[[Any], Any]] = {}
"""How ``to_json`` converts each type it has met (worked out once per type: it is hot)."""


def _converter(cls: type) -> Callable[[Any], Any]:
    """The function that turns an instance of ``cls`` into JSON data."""
    if cls is type(None) or issubclass(cls, bool | int | float | str):
        return _same
    if issubclass(cls, enum.Enum):
        return _value
    if getattr(cls, "NOTATION", False):
        return str
    if dataclasses.is_dataclass(cls):
        names = tuple(field.name for field in dataclasses.fields(cls))
        kind = getattr(cls, "kind", None) if issubclass(cls, Event | Action) else None

        def convert(obj: Any) -> dict[str, Any]:
            data: dict[str, Any] = {"type": kind} if kind else {}
            for name in names:
                data[name] = to_json(getattr(obj, name))
            return data

        return convert
    if issubclass(cls, Mapping):
        return lambda obj: {str(k): to_json(v) for k, v in obj.items()}
    if issubclass(cls, list | tuple):
        return lambda obj: [to_json(item) for item in obj]
    if issubclass(cls, frozenset | set):
        return lambda obj: [to_json(item) for item in sorted(obj)]
    return _refuse


def _same(obj: Any) -> Any:
    return obj


def _value(obj: enum.Enum) -> Any:
    return obj.value


def _refuse(obj: Any) -> Any:
    raise TypeError(f"cannot encode {type(obj).__name__} as JSON")


def check_keys(data: Any, where: str, allowed: frozenset[str] | set[str],
               required: frozenset[str] | set[str] = frozenset()) -> Mapping[str, Any]:
    """``data`` as a mapping with only ``allowed`` keys and all ``required`` ones."""
    if not isinstance(data, Mapping):
        raise ValueError(f"{where}: expected an object, got {type(data).__name__}")
    unknown = set(data) - allowed
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {', '.join(sorted(map(str, unknown)))}")
    missing = required - set(data)
    if missing:
        raise ValueError(f"{where}: missing field(s) {', '.join(sorted(missing))}")
    return data


def whole(data: Mapping[str, Any], key: str, where: str, low: int, high: int,
          default: int | None = None) -> int:
    """``data[key]`` as an integer in ``low..high`` (``default`` when absent)."""
    if key not in data:
        if default is None:
            raise ValueError(f"{where}: missing {key}")
        return default
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where}: {key} must be a whole number, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{where}: {key} must be between {low} and {high}, got {value}")
    return value


def parse_cards(data: Any, where: str, parse: Callable[[str], _T], example: str) -> list[_T]:
    """``data`` as a list of cards read by ``parse``; an error names the card's place."""
    if not isinstance(data, list):
        raise ValueError(f"{where}: expected a list of cards like '{example}'")
    result = []
    for i, text in enumerate(data):
        try:
            result.append(parse(text))
        except ValueError as error:
            raise ValueError(f"{where}[{i}]: {error}") from None
    return result


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


def flag(data: Mapping[str, Any], key: str, where: str, default: bool) -> bool:
    """``data[key]`` as a boolean (``default`` when absent)."""
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise ValueError(f"{where}: {key} must be true or false, got {value!r}")
    return value
