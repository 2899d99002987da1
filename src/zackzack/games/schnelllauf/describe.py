"""Schnelllauf's own events as sentences (``zackzack.words.describe`` asks here first).

>>> from zackzack.words.describe import describe
>>> from zackzack.games.schnelllauf import Card
>>> describe(Moved(1, 0, 4, Card.parse("2c"), Card.parse("As")), ("Anna", "Ben"), seat=1)
'You move 2c to the empty place 5, turning up As'
"""

from __future__ import annotations

from collections.abc import Callable

from zackzack.games.base import Event
from zackzack.games.schnelllauf.data import Flipped, Moved, Played, Reshuffled

SCORES = "scores_sl"
"""The words of a round's scores: the cards each holds."""


def say(event: Event, t: Callable[..., str], who: Callable[[int], str]) -> str | None:
    """``event`` as a sentence by ``t`` (a key and its fields); ``None``: not one of ours."""
    if isinstance(event, Played):
        line = t("played_on", who=who(event.seat), card=event.card, pile=event.pile + 1)
    elif isinstance(event, Moved):
        line = t("moved", who=who(event.seat), card=event.card, target=event.target + 1)
    elif isinstance(event, Flipped):
        return t("flipped", cards=", ".join(str(c) for c in event.cards if c is not None) or "–")
    elif isinstance(event, Reshuffled):
        return t("reshuffled")
    else:
        return None
    if event.revealed is None:
        return line
    return line + t("turns_up", who=who(event.seat), card=event.revealed)
