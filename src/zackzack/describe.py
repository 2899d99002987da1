"""Events as sentences a person reads, in German or English; the games' German calls stay.

The sentences are the catalogue's ``events`` (``zackzack.words``), which the browser's
``describe.js`` reads too; a key with a ``_you`` form is said so to its own reader. A game's
event ``kind`` is said by its own key ``<game>.<kind>`` when the catalogue has one (the
template filled with the event's fields, ``who`` for its ``seat``), so a new game brings
sentences and no code; the two first games' keys predate that and stay plain (``played``,
``played_on``).

>>> from zackzack.games import unter_spannung as us
>>> describe(us.Rotated(us.Card(3, 1), 7, 1), ("Anna", "Ben"))
'Nichts geht mehr! The bottom card 3±1 goes on top.'
>>> describe(us.Played(1, us.Card(7, 2), 4), ("Anna", "Ben"), lang="de")
'Ben legt 7±2 – „7!“'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from zackzack.games import registered
from zackzack.games.base import Event, MatchResult, PileEvent, RoundResult
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
             seat: int | None = None, now: int = 0) -> str:
    """``event`` as a sentence; ``seat`` is the reader (``You``), ``now`` the table time.

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
    own = f"{game_of(event)}.{kind}"
    if own in catalogue(lang)["events"]:
        fields = msgspec.structs.asdict(event)
        if "seat" in fields:
            fields["who"] = who(fields["seat"])
        return t(own, **fields)
    data: Any = event
    handlers: dict[str, Callable[[], str]] = {
        "drew": lambda: t("drew_own", who=who(data.seat), card=data.card, left=data.left)
        if data.card is not None else t("drew", who=who(data.seat), left=data.left),
        "went_out": lambda: t("went_out", who=who(data.seat)),
        "rotated": lambda: t("rotated", card=data.card),
        "flipped": lambda: t("flipped", cards=", ".join(
            str(c) for c in data.cards if c is not None) or "–"),
        "reshuffled": lambda: t("reshuffled"),
        "announced": lambda: _announced(data.step, data.due - now, lang),
        "cancelled": lambda: t("cancelled"),
        "penalised": lambda: t("penalised", who=who(data.seat), s=seconds(data.until - now)),
        "starting": lambda: t("starting"),
        "round_started": lambda: t("round_started", n=data.number),
        "round_scored": lambda: _round(data.result, who, lang, t),
        "next_round": lambda: t("next_round", n=data.number, s=seconds(data.at - now)),
        "match_ended": lambda: t("match_ended", placings=_placings(data.result, who)),
        "paused": lambda: t("paused"),
        "resuming": lambda: t("resuming", s=seconds(data.in_ms)),
        "resumed": lambda: t("resumed"),
        "moved": lambda: t("moved", who=who(data.seat), card=data.card, target=data.target + 1)
        + (t("turns_up", who=who(data.seat), card=data.revealed)
           if data.revealed is not None else ""),
    }
    if kind == "played" and isinstance(event, PileEvent):
        line = t("played_on", who=who(data.seat), card=data.card, pile=data.pile + 1)
        return line + (t("turns_up", who=who(data.seat), card=data.revealed)
                       if data.revealed is not None else "")
    if kind == "played":
        return t("played", who=who(data.seat), card=data.card, value=data.card.value)
    if kind == "round_ended":
        return ""
    handler = handlers.get(kind)
    return handler() if handler is not None else kind


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
           t: Callable[..., str]) -> str:
    if result.winner is None:
        line = text("round_drawn", lang, n=result.number)
    else:
        line = t("round_won", n=result.number, who=who(result.winner))
    scores = ", ".join(f"{who(s)} {score}" for s, score in enumerate(result.scores))
    key = "scores_us" if result.reason in ("went_out", "nichts_geht_mehr") else "scores_sl"
    return line + text(key, lang, scores=scores)


def _placings(result: MatchResult, who: Callable[[int], str]) -> str:
    return ", ".join(f"{p.place}. {who(p.seat)} ({p.why})" for p in result.placings)
