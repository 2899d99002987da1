"""Events as sentences a person reads, in German or English; the games' German calls stay.

The sentences are the catalogue's ``events`` (``zackzack.words``), which the browser's
``describe.js`` reads too; a key with a ``_you`` form is said so to its own reader. A game's
event ``kind`` is said by its own key ``<game>.<kind>`` when the catalogue has one (the
template filled with the event's fields, ``who`` for its ``seat``), so a new game brings
sentences and no code. A game may instead say its events itself: its folder's
``describe.py`` (``say``, and ``SCORES``, the key of a round's scores), asked first; the two
first games' keys predate the rule and stay plain (``played``, ``played_on``).

>>> from zackzack.games import unter_spannung as us
>>> describe(us.Rotated(us.Card(3, 1), 7, 1), ("Anna", "Ben"))
'Nichts geht mehr! The bottom card 3±1 goes on top.'
>>> describe(us.Played(1, us.Card(7, 2), 4), ("Anna", "Ben"), lang="de")
'Ben legt 7±2 – „7!“'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import msgspec

from zackzack.games import registered
from zackzack.games.base import Event, MatchResult, RoundResult
from zackzack.words import LANGS, catalogue

__all__ = ["LANGS", "describe", "game_of", "seconds", "text"]


def text(key: str, lang: str = "en", **fields: Any) -> str:
    """The sentence ``key`` in ``lang`` with ``fields`` filled in (the catalogue's ``events``)."""
    return catalogue(lang)["events"][key].format(**fields)


def seconds(ms: float) -> str:
    """Milliseconds as seconds for people, to the tenth and without a trailing ``.0`` (as the
    browser's ``seconds``): never ``0.999`` nor ``7.999``, never below 0.

    >>> seconds(999), seconds(7999), seconds(1500), seconds(649), seconds(-20)
    ('1', '8', '1.5', '0.6', '0')
    """
    return f"{max(0, math.floor(ms / 100 + 0.5)) / 10:g}"


def describe(event: Event, names: Sequence[str] = (), lang: str = "en",
             seat: int | None = None, now: int = 0, game: str | None = None) -> str:
    """``event`` as a sentence; ``seat`` is the reader (``You``), ``now`` the table time,
    ``game`` the table's game (else the one whose rules define ``event``: a table's own event,
    such as a round's scores, is then said without its game's words).

    >>> from zackzack.games.unter_spannung import WentOut
    >>> describe(WentOut(0), ("Anna", "Ben"), seat=0)
    'You lay the last card face down and win the round!'
    """
    you = text("you", lang)

    def who(s: int) -> str:
        if s == seat:
            return you
        return names[s] if s < len(names) else text("seat", lang, n=s + 1)

    def t(key: str, **fields: Any) -> str:
        if fields.get("who") is you and f"{key}_you" in catalogue(lang)["events"]:
            key = f"{key}_you"  # the reader's own action: "You play", "Du legst"
        return text(key, lang, **fields)

    kind = event.kind
    game = game or game_of(event)
    own = f"{game}.{kind}"
    if own in catalogue(lang)["events"]:
        fields = msgspec.structs.asdict(event)
        if "seat" in fields:
            fields["who"] = who(fields["seat"])
        return t(own, **fields)
    describer = _describer(game)
    said = describer.say(event, t, who) if describer is not None else None
    if said is not None:
        return str(said)
    data: Any = event
    handlers: dict[str, Callable[[], str]] = {
        "announced": lambda: _announced(data.step, data.due - now, lang),
        "cancelled": lambda: t("cancelled"),
        "penalised": lambda: t("penalised", who=who(data.seat), s=seconds(data.until - now)),
        "starting": lambda: t("starting"),
        "round_started": lambda: t("round_started", n=data.number),
        "round_scored": lambda: _round(data.result, who, lang, t, describer),
        "next_round": lambda: t("next_round", n=data.number, s=seconds(data.at - now)),
        "match_ended": lambda: t("match_ended", placings=_placings(data.result, who)),
        "paused": lambda: t("paused"),
        "resuming": lambda: t("resuming", s=seconds(data.in_ms)),
        "resumed": lambda: t("resumed"),
        "round_ended": lambda: "",
    }
    handler = handlers.get(kind)
    return handler() if handler is not None else kind


def _describer(game: str | None) -> ModuleType | None:
    """The describer of the registered game called ``game`` (``None``: none, or no game)."""
    found = next((found for found in registered() if found.name == game), None)
    return found.describer() if found is not None else None


def game_of(event: Event) -> str | None:
    """The name of the registered game whose rules define ``event`` (``None``: the table's).

    >>> from zackzack.games import unter_spannung as us
    >>> game_of(us.WentOut(0)), game_of(Event())
    ('unter-spannung', None)
    """
    module = type(event).__module__
    return next((found.name for found in registered()
                 if module == found.package or module.startswith(found.package + ".")), None)


def _announced(step: str, ms: int, lang: str) -> str:
    key = f"ann_{step}"
    if key not in catalogue("en")["events"]:
        return text("ann_other", lang, s=seconds(ms), step=step)
    return text(key, lang, s=seconds(ms))


def _round(result: RoundResult, who: Callable[[int], str], lang: str,
           t: Callable[..., str], describer: ModuleType | None) -> str:
    if result.winner is None:
        line = text("round_drawn", lang, n=result.number)
    else:
        line = t("round_won", n=result.number, who=who(result.winner))
    scores = ", ".join(f"{who(s)} {score}" for s, score in enumerate(result.scores))
    key = getattr(describer, "SCORES", "scores")
    return line + text(key, lang, scores=scores)


def _placings(result: MatchResult, who: Callable[[int], str]) -> str:
    return ", ".join(f"{p.place}. {who(p.seat)} ({p.why})" for p in result.placings)
