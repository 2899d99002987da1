"""How each seat played a match, computed from its log: cards, wrong cards, late cards, reactions.

A *reaction* is the table time from the pile change a card answered to the moment the table
took the card. The change it answered is the newest change of the pile the card went on
before it: a card played there, the table's own step (Nichts geht mehr, a flip) or the deal
of the round. Pauses are not table time, so they never count.

>>> from zackzack.engine.matchlog import parse_log
>>> log = parse_log({"game": "unter-spannung", "seed": 0,
...     "options": {"players": 2, "deck": ["3±1", "8±2", "4±1", "6±1", "9±3", "4±2", "1±1",
...                                        "4±3", "2±2", "7±1", "5±2"]},
...     "deal": {"hands": [["3±1", "8±2", "4±1"], ["6±1", "9±3", "4±2"]],
...              "draw_piles": [["1±1", "4±3"], ["2±2", "7±1"]], "discard_pile": ["5±2"]},
...     "actions": [{"t": 100, "seat": 1, "action": {"type": "play", "card": "6±1", "seen": 0}},
...                 {"t": 200, "seat": 0, "action": {"type": "play", "card": "3±1", "seen": 0}},
...                 {"t": 1300, "seat": 0, "action": {"type": "play", "card": "4±1", "seen": 1}}]})
>>> [(s.played, s.wrong, s.late, s.reaction_ms) for s in match_stats(log)]
[(2, 0, 0, 650), (0, 1, 0, None)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from zackzack.engine.matchlog import MatchLog
from zackzack.engine.replay import Step, replay
from zackzack.engine.table import RoundStarted, Table


@dataclass(frozen=True, slots=True)
class SeatStats:
    """One seat's match: cards the table took, wrong cards, cards too late, median reaction."""

    seat: int
    played: int = 0
    wrong: int = 0
    """Cards that did not fit (each froze the seat when the table has a penalty)."""
    late: int = 0
    """Cards that fitted a pile that had just changed: another card (or step) was faster."""
    reaction_ms: int | None = None
    """The median reaction in whole milliseconds (``None``: no card taken)."""

    def to_json(self) -> dict[str, Any]:
        """The seat's statistics as JSON data.

        >>> SeatStats(1, played=3, reaction_ms=712).to_json()
        {'seat': 1, 'played': 3, 'wrong': 0, 'late': 0, 'reaction_ms': 712}
        """
        return {"seat": self.seat, "played": self.played, "wrong": self.wrong,
                "late": self.late, "reaction_ms": self.reaction_ms}


def median(values: Iterable[int]) -> int | None:
    """The median of ``values`` in whole milliseconds (halves round to even); ``None`` if none.

    >>> median([300, 100, 200]), median([100, 200]), median([])
    (200, 150, None)
    """
    ordered = sorted(values)
    if not ordered:
        return None
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return round((ordered[middle - 1] + ordered[middle]) / 2)


@dataclass(slots=True)
class _Tally:
    played: int = 0
    wrong: int = 0
    late: int = 0
    reactions: list[int] = field(default_factory=list)


def match_stats(log: MatchLog) -> tuple[SeatStats, ...]:
    """Every seat's statistics of the match in ``log``, by seat (a replay on the virtual clock)."""
    tallies = [_Tally() for _ in range(log.options.players)]
    versions: tuple[int, ...] = ()
    changed: list[int] = []
    """Per pile: the table time of its newest change."""

    def on_step(step: Step, table: Table) -> None:
        nonlocal versions, changed
        action = step.action
        if action is not None and step.seat is not None and action.kind == "play":
            tally = tallies[step.seat]
            if step.outcome == "accepted":
                tally.played += 1
                tally.reactions.append(step.t - changed[getattr(action, "pile", 0)])
            elif step.code == "does_not_fit":
                tally.wrong += 1
            elif step.code == "too_late":
                tally.late += 1
        now = tuple(table.rules.versions(table.match.round))
        if any(isinstance(event, RoundStarted) for event in step.events) or \
                len(now) != len(versions):
            changed = [step.t] * len(now)
        else:
            changed = [step.t if new != old else at
                       for new, old, at in zip(now, versions, changed, strict=True)]
        versions = now

    replay(log, on_step=on_step)
    return tuple(SeatStats(seat, tally.played, tally.wrong, tally.late, median(tally.reactions))
                 for seat, tally in enumerate(tallies))


def stats_json(stats: Sequence[SeatStats], bots: Sequence[str | None] = ()) -> list[dict[str, Any]]:
    """The statistics as the server sends them: each seat's, with ``bot`` (its bot spec, or
    ``None`` for a person) so that people can compare themselves with the bots.

    >>> stats_json([SeatStats(0), SeatStats(1, played=2, reaction_ms=480)], [None, "normal"])[1]
    {'seat': 1, 'played': 2, 'wrong': 0, 'late': 0, 'reaction_ms': 480, 'bot': 'normal'}
    """
    return [{**seat.to_json(), "bot": bots[seat.seat] if seat.seat < len(bots) else None}
            for seat in stats]
