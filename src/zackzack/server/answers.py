"""What a room answers its seats' actions: one answer per action id (a retry gets the first
one), and a budget of stored refusals per seat (``Limits.refusals_per_seat``)."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from zackzack.engine.race import Outcome
from zackzack.games.errors import IllegalAction, NoSuchSeat, NotPlaying, RoundOver, TooLate
from zackzack.server.limits import Limits, TokenBucket
from zackzack.server.protocol import Ack

ANSWERS_KEPT = 1024
"""How many answers to actions with an id a room remembers per seat (for retries)."""

Answer = Callable[[Ack], object]
"""Where an action's ``ack`` goes."""


class Answers:
    """The answers to the actions of a room's ``seats``, and what each seat may still have
    refused."""

    __slots__ = ("_kept", "_refusals")

    def __init__(self, seats: int, limits: Limits, time: Callable[[], float]) -> None:
        self._kept: list[dict[tuple[str, str], _Answer]] = [{} for _ in range(seats)]
        """Per seat, the answers to its actions with an id, by (player, id), oldest first
        (a watcher's actions are never remembered: they cannot push a seat's out)."""
        self._refusals = [TokenBucket(limits.refusals_per_seat_rate, limits.refusals_per_seat,
                                      time) for _ in range(seats)] \
            if limits.refusals_per_seat else []
        """The refused actions each seat may have stored, from all its person's connections
        together: while its bucket is empty, its actions are dropped before they reach the
        table or the store (``Limits.refusals_per_seat``)."""

    def admit(self, index: int, player: str, ref: int, answer: Answer,
              act_id: str | None) -> Answer | None:
        """Where the table's answer to action ``ref`` of seat ``index`` goes; ``None`` if the
        action goes no further: it repeats ``act_id``, which ``player`` used before (it gets
        the first answer, with its own ``ref``), or the seat used up its stored refusals (it
        is answered ``rate_limited`` before the table or the store sees it)."""
        if act_id is None:
            return None if self._refused_too_often(index, ref, answer) else answer
        key, answers = (player, act_id), self._kept[index]
        known = answers.get(key)
        if known is not None:
            known.join(ref, answer)
            return None
        if self._refused_too_often(index, ref, answer):
            return None
        known = answers[key] = _Answer()
        if len(answers) > ANSWERS_KEPT:
            del answers[next(iter(answers))]
        return known.first(answer)

    def decided(self, index: int, outcome: Outcome) -> None:
        """The table decided an action of seat ``index``: a refusal it stored counts against
        the seat's ``refusals_per_seat``."""
        if self._refusals and isinstance(outcome, IllegalAction) \
                and not isinstance(outcome, NotPlaying | RoundOver | NoSuchSeat):
            self._refusals[index].take()

    def _refused_too_often(self, index: int, ref: int, answer: Answer) -> bool:
        if not self._refusals or self._refusals[index].wait() == 0:
            return False
        answer(Ack(ref=ref, ok=False, code="rate_limited", reason="too many refused actions "
                   "from your seat; this one was dropped"))
        return True


def ack(ref: int, answer: Answer, outcome: Outcome) -> None:
    """The table's answer to action ``ref`` as an ``ack``."""
    if not isinstance(outcome, IllegalAction):
        answer(Ack(ref=ref, ok=True))
    elif isinstance(outcome, TooLate):
        answer(Ack(ref=ref, ok=False, code=outcome.code, reason=str(outcome),
                   winner=outcome.winner, margin_ms=outcome.margin_ms))
    else:
        answer(Ack(ref=ref, ok=False, code=outcome.code, reason=str(outcome)))


class _Answer:
    """The answer to one action with an id: given to the first ``ref`` and to every retry."""

    __slots__ = ("ack", "waiting")

    def __init__(self) -> None:
        self.ack: Ack | None = None
        self.waiting: list[tuple[int, Answer]] = []

    def first(self, answer: Answer) -> Answer:
        """``answer`` that also keeps the answer and gives it to the retries waiting for it."""

        def answered(ack: Ack) -> None:
            self.ack = ack
            answer(ack)
            for ref, retry in self.waiting:
                retry(msgspec.structs.replace(ack, ref=ref))
            self.waiting.clear()

        return answered

    def join(self, ref: int, answer: Answer) -> None:
        """A retry with ``ref``: the first answer, now or once it is known."""
        if self.ack is not None:
            answer(msgspec.structs.replace(self.ack, ref=ref))
        else:
            self.waiting.append((ref, answer))
