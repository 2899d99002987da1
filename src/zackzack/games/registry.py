"""The registry of games: a game is one folder, registered by one line in ``games/__init__``.

A game's folder holds its pure rules (the package itself, which imports none of its
siblings) and, found there by name and imported only when asked for, its front-end parts:
``bot.py`` (the bots' ``Brain``), ``board.py`` (the terminal board, ``make``), ``front.py``
(what front ends need beyond the rules: :class:`Front`), ``web/*.js`` (the web board, and
the card art, rules page and tutorial: ``cards.js``, ``rules.js``, ``learn.js``).

>>> from zackzack.games import entry
>>> us = entry("unter-spannung")
>>> us.title, us.front.opponents, us.front.handicaps
('Unter Spannung', ('normal', 'normal'), {})
>>> entry("schnelllauf").options_from_args(["jokers=0", "wrap=false"], ["2:pile=4"])
{'jokers': 0, 'wrap': False, 'pile_size': [3, 4]}
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

import msgspec

from zackzack.games.base import GameInfo, Rules
from zackzack.games.declarations import BoardMaker, Brain, Flag, Front
from zackzack.games.errors import ALL, BadAction, IllegalAction

if TYPE_CHECKING:
    from zackzack.tui.board import Board
    from zackzack.tui.session import Session


@dataclass(frozen=True)
class Game:
    """A registered game: its rules module and the parts found by name in its folder."""

    rules: Rules
    """The rules: the game's package (its ``__init__``), pure."""

    @property
    def info(self) -> GameInfo:
        """Name, title and players."""
        return self.rules.INFO

    @property
    def name(self) -> str:
        """The game's name in URLs, logs and on the command line (``unter-spannung``)."""
        return self.rules.INFO.name

    @property
    def title(self) -> str:
        """The game's title (``Unter Spannung``)."""
        return self.rules.INFO.title

    @property
    def package(self) -> str:
        """The dotted name of the game's folder."""
        return getattr(self.rules, "__name__", "")

    @property
    def folder(self) -> Path:
        """The game's folder."""
        return Path(getattr(self.rules, "__file__", ".")).parent

    def part(self, name: str) -> ModuleType:
        """The module ``name`` of the game's folder (``bot``, ``board``), imported now."""
        return importlib.import_module(f"{self.package}.{name}")

    def brain(self) -> type[Brain]:
        """The bots' strategy (``bot.py``'s ``Brain``); a game without one raises
        ``ModuleNotFoundError``, one whose ``Brain`` lacks a part ``TypeError``."""
        found = self.part("bot").Brain
        missing = [name for name in ("CHANGES", "OWN", "HANDS", "work", "choose", "mistake")
                   if not hasattr(found, name)]
        if not isinstance(found, type) or missing:
            raise TypeError(f"{self.package}.bot.Brain is no bot strategy: it lacks "
                            f"{', '.join(missing) or 'a class'}")
        return cast(type[Brain], found)

    def actions(self) -> tuple[str, ...]:
        """The ``type`` of each action a player sends (``Front.actions``, else every one)."""
        return self.front.actions or tuple(
            str(kind.__struct_config__.tag) for kind in self.rules.ACTIONS)

    def action_from_json(self, data: Any) -> Any:
        """A player's action from JSON data (the rules' ``action_from_json``); an unknown
        ``type`` raises ``BadAction`` naming the players' actions.

        >>> from zackzack.games import entry
        >>> entry("unter-spannung").action_from_json({"type": "dance"})
        Traceback (most recent call last):
        ...
        zackzack.games.errors.BadAction: unknown action 'dance'; Unter Spannung knows play, \
draw - at `$.type`
        >>> entry("schnelllauf").action_from_json({"type": ["play"]})
        Traceback (most recent call last):
        ...
        zackzack.games.errors.BadAction: unknown action ['play']; Schnelllauf knows play, \
move - at `$.type`
        """
        if isinstance(data, Mapping) and "type" in data:  # no type: msgspec says so
            kind = data["type"]
            if not isinstance(kind, str) or kind not in self._action_types:
                raise BadAction(f"unknown action {kind!r}; {self.title} knows "
                                f"{', '.join(self.actions())} - at `$.type`")
        return self.rules.action_from_json(data)

    @cached_property
    def _action_types(self) -> frozenset[Any]:
        """The ``type`` of each of the game's actions (read once)."""
        return frozenset(known.__struct_config__.tag for known in self.rules.ACTIONS)

    def board(self, session: Session, lang: str, layout: str | None = None) -> Board:
        """The terminal board for ``session`` (``board.py``'s ``make``), checked to be one."""
        from zackzack.tui.board import Board  # only here: the rules need no terminal

        made = cast(BoardMaker, self.part("board").make)(session, lang, layout)
        if not isinstance(made, Board):
            raise TypeError(f"{self.package}.board.make gave {type(made).__name__}, "
                            "not a Board")
        return made

    @cached_property
    def front(self) -> Front:
        """The front ends' data (``front.py``'s ``FRONT``; defaults without one), read once."""
        try:
            module = self.part("front")
        except ModuleNotFoundError as error:
            if error.name != f"{self.package}.front":
                raise
            return Front(opponents=("normal",) * (self.info.min_players - 1))
        found: Front = module.FRONT
        return found

    @property
    def web(self) -> Path | None:
        """The folder of the web board (``web/board.js`` in it), if the game has one."""
        folder = self.folder / "web"
        return folder if (folder / "board.js").is_file() else None

    @property
    def options_type(self) -> type:
        """The game's options type (its rules' ``Options``)."""
        found: type = self.rules.Options
        return found

    def fields(self) -> dict[str, Any]:
        """The options' fields by name, as ``msgspec.inspect`` sees them."""
        info = msgspec.inspect.type_info(self.options_type)
        return {f.name: f for f in getattr(info, "fields", ())}

    def options(self) -> list[dict[str, Any]]:
        """Each option: its name, kind (``int``, ``bool``, ``list``, …), default and bounds
        (``min``/``max`` from the options type's constraints, ``players``' from the game's
        ``INFO``; ``item``: a list's kind). A default the options' JSON leaves out (the
        standard deck) has no ``default`` but a ``note``.

        >>> from zackzack.games import entry
        >>> [o["name"] for o in entry("schnelllauf").options()][:3]
        ['players', 'jokers', 'wrap']
        """
        try:
            defaults = self.rules.options_to_json(self.rules.parse_options({}))
        except ValueError:
            defaults = {}
        found = []
        for name, info in self.fields().items():
            option: dict[str, Any] = {"name": name, **_kind(info.type)}
            if name == "players":  # the game's own bounds, whatever the type allows
                option |= {"min": self.info.min_players, "max": self.info.max_players}
            if name in defaults or info.required:
                option["default"] = defaults.get(name)
            else:  # a default the options' JSON leaves out (Unter Spannung's whole deck):
                # no "default" (a client must not send one back), a note saying why
                option["note"] = "default: the game's standard value; leave the option out"
            found.append(option | {"required": info.required})
        return found

    def web_modules(self) -> dict[str, str]:
        """The addresses of the game's web modules by name (``web/*.js``: ``board``, and
        ``cards``, ``rules``, ``learn``, ``describe`` when it has them).

        >>> from zackzack.games import entry
        >>> sorted(entry("schnelllauf").web_modules())
        ['board', 'cards', 'describe', 'learn', 'rules']
        """
        web = self.web
        return {} if web is None else {
            path.stem: f"/static/games/{self.name}/{path.name}"
            for path in sorted(web.glob("*.js"))}

    def refusals(self) -> tuple[type[IllegalAction], ...]:
        """The game's own refusal classes (its folder's ``errors.py``: ``REFUSALS``; none
        without one)."""
        try:
            module = self.part("errors")
        except ModuleNotFoundError as error:
            if error.name != f"{self.package}.errors":
                raise
            return ()
        found: tuple[type[IllegalAction], ...] = module.REFUSALS
        return found

    def describer(self) -> ModuleType | None:
        """The game's describer of its own events (``describe.py``: ``say`` and ``SCORES``),
        if it has one."""
        try:
            return self.part("describe")
        except ModuleNotFoundError as error:
            if error.name != f"{self.package}.describe":
                raise
            return None

    def describe(self) -> dict[str, Any]:
        """The game as ``GET /api/games`` lists it: name, title, players, options, and the
        addresses of its web modules (``board``; all of them in ``web``) and of its rules page
        and tutorial (``rules``, ``learn``: ``None`` when it has no ``rules.js``/``learn.js``).

        >>> from zackzack.games import entry
        >>> listed = entry("schnelllauf").describe()
        >>> listed["rules"], listed["learn"], listed["options"][0]
        ('/rules/schnelllauf', '/learn/schnelllauf', \
{'name': 'players', 'type': 'int', 'min': 2, 'max': 2, 'default': 2, 'required': False})
        """
        web = self.web_modules()
        return {"name": self.name, "title": self.title, "min_players": self.info.min_players,
                "max_players": self.info.max_players, "options": self.options(),
                "board": web.get("board"), "web": web,
                **{page: f"/{page}/{self.name}" if page in web else None
                   for page in ("rules", "learn")},
                "preview": list(self.front.preview),
                "handicaps": {kind: {"option": option, "value": value}
                              for kind, (option, value) in self.front.handicaps.items()},
                "tournament": None if self.front.tournament is None else {
                    "option": self.front.tournament.option,
                    "rounds_per_player": self.front.tournament.rounds_per_player},
                "low_wins": self.front.low_wins, "noisy": list(self.front.noisy)}

    def options_from_args(self, items: Sequence[str] = (),
                          handicaps: Sequence[str] = ()) -> dict[str, Any]:
        """Options data (for ``rules.parse_options``) from ``--option KEY=VALUE`` items and
        ``--handicap SEAT[:KIND[=VALUE],…]`` specs; a bad one raises ``ValueError``.

        A value is read as JSON (``3``, ``true``, ``[3, 4]``) or else as text; for a list
        option, comma-separated values (``deck=7±2,5±1``).

        >>> from zackzack.games import entry
        >>> entry("unter-spannung").options_from_args(["players=3", "tournament=true"])
        {'players': 3, 'tournament': True}
        >>> entry("unter-spannung").options_from_args(["spread=2"])
        Traceback (most recent call last):
        ...
        ValueError: --option spread=2: Unter Spannung has no option spread; it has players, \
tournament, deck, penalty_ms, countdown_ms
        """
        fields = self.fields()
        data: dict[str, Any] = {}
        for item in items:
            key, equals, text = item.partition("=")
            key = key.strip().replace("-", "_")
            if not equals or not key:
                raise ValueError(f"--option {item!r}: write KEY=VALUE, as in players=3")
            if key not in fields:
                raise ValueError(f"--option {item}: {self.title} has no option {key}; "
                                 f"it has {', '.join(fields)}")
            data[key] = _value(text.strip(), _is_list(fields[key].type))
        if handicaps:
            data |= self.handicap(handicaps, data)
        return data

    def options_from_flags(self, given: Any) -> dict[str, Any]:
        """Options data from the parsed arguments' game flags (:func:`add_flags`); a flag of
        another game raises ``ValueError``.

        >>> import argparse
        >>> parser = argparse.ArgumentParser()
        >>> add_flags(parser)
        >>> entry("schnelllauf").options_from_flags(parser.parse_args(["--no-wrap"]))
        {'wrap': False}
        >>> entry("unter-spannung").options_from_flags(parser.parse_args(["--jokers", "1"]))
        Traceback (most recent call last):
        ...
        ValueError: --jokers: Unter Spannung has no option jokers
        """
        data: dict[str, Any] = {}
        mine = {flag.flag: flag for flag in self.front.flags}
        for flag in flags():
            value = getattr(given, flag.dest, None)
            if value is None or (value is False and flag.value is not None):
                continue
            if flag.flag not in mine:
                raise ValueError(f"{flag.flag}: {self.title} has no option {flag.option}")
            own = mine[flag.flag]
            data[own.option] = own.value if own.value is not None else value
        return data

    def handicap(self, specs: Sequence[str], data: Mapping[str, Any] | None = None
                 ) -> dict[str, Any]:
        """The per-seat options for handicaps ``SEAT``, ``SEAT:KIND`` or ``SEAT:KIND=VALUE``
        (several kinds comma-separated; players numbered from 1; a bare ``SEAT``: every kind).

        >>> from zackzack.games import entry
        >>> entry("schnelllauf").handicap(["1", "2:one-hand"])
        {'pile_size': [4, 3], 'one_hand_seats': [True, True]}
        """
        kinds = self.front.handicaps
        if not kinds:
            raise ValueError(f"{self.title} has no handicaps")
        defaults = self.rules.options_to_json(self.rules.parse_options(dict(data or {})))
        players = int(defaults.get("players", self.info.max_players))
        found: dict[str, Any] = {}
        form = ", ".join(f"{kind}={value}" if not isinstance(value, bool) else kind
                         for kind, (_, value) in kinds.items())
        for spec in specs:
            seat_text, _, items = spec.strip().partition(":")
            if not seat_text.isdigit() or not 1 <= int(seat_text) <= players:
                raise ValueError(_old(spec) or f"--handicap {spec!r}: start with the player, "
                                 f"1 to {players}, as in 1:{form.split(', ')[0]}")
            seat = int(seat_text) - 1
            for item in (items.split(",") if items else list(kinds)):
                kind, equals, text = item.strip().partition("=")
                if kind not in kinds:
                    raise ValueError(f"--handicap {spec!r}: {kind!r} is not one of {form}")
                key, bare = kinds[kind]
                value = _value(text, False) if equals else bare
                row = found.setdefault(key, list(defaults[key]))
                row[seat] = value
        try:
            self.rules.parse_options(dict(data or {}) | found)
        except ValueError as error:  # the other options passed above: the handicap's fault
            raise ValueError(f"--handicap {', '.join(specs)}: {error}") from None
        return found


_KINDS: dict[type, str] = {msgspec.inspect.IntType: "int", msgspec.inspect.BoolType: "bool",
          msgspec.inspect.StrType: "str", msgspec.inspect.FloatType: "float"}


def _kind(info: Any) -> dict[str, Any]:
    """An option's kind and bounds, from its ``msgspec.inspect`` type."""
    if isinstance(info, msgspec.inspect.ListType | msgspec.inspect.VarTupleType):
        return {"type": "list", **{f"item_{k}" if k != "type" else "item": v
                                   for k, v in _kind(info.item_type).items()}}
    if isinstance(info, msgspec.inspect.TupleType):
        items = [_kind(item) for item in info.item_types]
        return {"type": "list", "length": len(items),
                **({f"item_{k}" if k != "type" else "item": v for k, v in items[0].items()}
                   if items and all(item == items[0] for item in items) else {})}
    kind: dict[str, Any] = {"type": _KINDS.get(type(info), "other")}
    low = getattr(info, "ge", None)
    high = getattr(info, "le", None)
    if low is not None:
        kind["min"] = low
    if high is not None:
        kind["max"] = high
    return kind


def _is_list(info: Any) -> bool:
    return isinstance(info, msgspec.inspect.ListType | msgspec.inspect.TupleType
                      | msgspec.inspect.VarTupleType)


def _value(text: str, listed: bool) -> Any:
    try:
        return msgspec.json.decode(text)
    except msgspec.DecodeError:
        if listed:
            return [_value(part.strip(), False) for part in text.split(",")]
        return text


_OLD_SEATS = {"me": 1, "left": 1, "bot": 2, "right": 2}
_OLD_KINDS = {"": "", "piles": ":pile=4", "one-hand": ":one-hand"}


def old_handicap(spec: str) -> str | None:
    """The new spelling of an old ``me:piles`` handicap (``None``: not an old one).

    >>> old_handicap("me:piles"), old_handicap("2")
    ('1:pile=4', None)
    """
    who, _, kind = spec.strip().lower().partition(":")
    if who in _OLD_SEATS and kind in _OLD_KINDS:
        return f"{_OLD_SEATS[who]}{_OLD_KINDS[kind]}"
    return None


def _old(spec: str) -> str | None:
    """The refusal of an old ``me:piles`` handicap, naming its new form."""
    new = old_handicap(spec)
    if new is not None:
        return (f"--handicap {spec}: a handicap now names the player by number "
                f"(you are 1): write --handicap {new}")
    return None


REGISTRY: dict[str, Game] = {}
"""Every registered game by name, in the order registered."""

GAMES: dict[str, Rules] = {}
"""Every registered game's rules by name (the same order)."""


def register(rules: Rules) -> Game:
    """Register the game whose rules are ``rules`` (its package); a name taken raises. A game
    kept outside ``zackzack/games/`` brings its words folder too (the catalogue finds those
    inside by looking)."""
    found = Game(rules)
    if found.name in REGISTRY and REGISTRY[found.name].rules is not rules:
        raise ValueError(f"a game called {found.name!r} is registered already")
    words = found.folder / "words"
    if words.is_dir() and found.folder.parent != Path(__file__).resolve().parent:
        from zackzack.words import add_folder  # only then: the rules need no words

        add_folder(words)
    REGISTRY[found.name] = found
    GAMES[found.name] = rules
    return found


def unregister(name: str) -> None:
    """Forget the game called ``name`` (for tests that register one of their own), and the
    words folder its registration added."""
    found = REGISTRY.pop(name, None)
    GAMES.pop(name, None)
    if found is not None and found.folder.parent != Path(__file__).resolve().parent:
        from zackzack.words import remove_folder

        remove_folder(found.folder / "words")


def entry(name: str) -> Game:
    """The registered game called ``name``; an unknown one raises ``ValueError``."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(REGISTRY)}"
                         ) from None


def refusals() -> tuple[type[IllegalAction], ...]:
    """Every refusal class: the shared ones (``games/errors.py``), then each registered
    game's own; their codes are stable and documented in docs/protocol.md.

    >>> "place_not_empty" in {refusal.code for refusal in refusals()}
    True
    """
    return (*ALL, *(refusal for found in REGISTRY.values() for refusal in found.refusals()))


def flags() -> list[Flag]:
    """Every registered game's command-line flags, each flag once (the first game's)."""
    found: dict[str, Flag] = {}
    for game_ in REGISTRY.values():
        for flag in game_.front.flags:
            found.setdefault(flag.flag, flag)
    return list(found.values())


def add_flags(parser: Any) -> None:
    """Add every registered game's flags to an ``argparse`` parser, each said to be whose
    (``Schnelllauf: jokers per deck``)."""
    for flag in flags():
        owners = [g.title for g in REGISTRY.values()
                  if any(own.flag == flag.flag for own in g.front.flags)]
        text = f"{', '.join(owners)}: {flag.help}"
        if flag.value is None:
            parser.add_argument(flag.flag, type=int, dest=flag.dest, help=text)
        else:
            parser.add_argument(flag.flag, action="store_true", dest=flag.dest, help=text)


def registered() -> list[Game]:
    """Every registered game, in the order registered."""
    return list(REGISTRY.values())


def game(name: str) -> Rules:
    """The rules module of the game called ``name`` (``unter-spannung``, ``schnelllauf``)."""
    return entry(name).rules
