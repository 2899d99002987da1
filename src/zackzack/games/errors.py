"""The illegal-action hierarchy: every refusal carries a stable reason ``code``.

>>> try:
...     raise DoesNotFit("7±2 does not fit 5±1")
... except IllegalAction as error:
...     print(error.code, "-", error)
does_not_fit - 7±2 does not fit 5±1
"""

from __future__ import annotations

from typing import ClassVar


class IllegalAction(ValueError):
    """An action the table refuses; the state is unchanged.

    A reason with ``{}`` is filled in from ``about`` only when it is put into words
    (``str``): a simulation refuses thousands of cards and reads none of the reasons.

    >>> refusal = DoesNotFit("{} does not fit {}", "7±2", "5±1")
    >>> str(refusal), refusal.about
    ('7±2 does not fit 5±1', ('7±2', '5±1'))
    """

    code: ClassVar[str] = "illegal_action"

    def __init__(self, reason: str = "", *about: object) -> None:
        super().__init__(reason or self.code.replace("_", " "))
        self.about = about
        """What the reason's ``{}`` stand for, in order."""

    def __str__(self) -> str:
        reason: str = self.args[0]
        return reason.format(*self.about) if self.about else reason

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"


class BadAction(IllegalAction):
    """The action is malformed: unknown kind, bad card notation, bad pile."""

    code = "bad_action"


class NoSuchSeat(IllegalAction):
    """The seat does not exist at this table."""

    code = "no_such_seat"


class NotYourCard(IllegalAction):
    """The card is not in the player's hand or face up in their layout."""

    code = "not_your_card"


class DoesNotFit(IllegalAction):
    """The card did not fit the pile, not even the version the player aimed at."""

    code = "does_not_fit"


class TooLate(IllegalAction):
    """The card fitted version ``seen`` of pile ``pile`` the player aimed at, but it moved on.

    The table says who won the race: ``winner`` is the seat whose action moved the pile on
    (``None``: the table's own step) and ``margin_ms`` how much sooner it was.
    """

    code = "too_late"
    winner: int | None = None
    margin_ms: int | None = None

    def __init__(self, reason: str = "", *about: object, pile: int = 0, seen: int = 0) -> None:
        super().__init__(reason, *about)
        self.pile, self.seen = pile, seen


class Frozen(IllegalAction):
    """The player is serving the penalty for a wrong card."""

    code = "frozen"


class OneHand(IllegalAction):
    """The one-hand handicap: the player's previous action was too recent."""

    code = "one_hand"


class NotPending(IllegalAction):
    """An automatic step (Nichts geht mehr, a stalemate flip) that is not due."""

    code = "not_pending"


class RoundOver(IllegalAction):
    """The round has ended; no more actions until the next one starts."""

    code = "round_over"


class NotPlaying(IllegalAction):
    """The table is between rounds, not started yet or paused."""

    code = "not_playing"


ALL: tuple[type[IllegalAction], ...] = (
    IllegalAction, BadAction, NoSuchSeat, NotYourCard, DoesNotFit, TooLate, Frozen, OneHand,
    NotPending, RoundOver, NotPlaying,
)
"""Every shared refusal class; their codes are stable and documented in docs/protocol.md. A
game's own are in its folder's ``errors.py`` (``REFUSALS``); ``games.registry.refusals()``
gives them all."""


class OptionsError(ValueError):
    """Table options that the rules cannot play with (7 players, a deck of 3 cards)."""


class LogError(ValueError):
    """A match log that is malformed or inconsistent; the message says where."""
