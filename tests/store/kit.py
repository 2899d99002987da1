"""Store test kit: a wall clock the test moves, and quick ways to make players and matches."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from zackzack.ratings import NEW, Pool, RatingChange, places, update
from zackzack.store import MatchStart, PlayerRecord, SeatRecord, Status, Store

DAY = 86_400.0
START = 1_780_000_000.0
"""The wall clock's start (seconds): tests never read the real time."""


class Wall:
    """A wall clock that moves only when told."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def ms(self) -> int:
        """Now in whole milliseconds, as the store writes it."""
        return int(self.now * 1000)


def guest(store: Store, player_id: str, name: str = "Gast") -> PlayerRecord:
    """A new guest known by the token hash ``h-<id>``."""
    record = PlayerRecord(player_id, name)
    store.add_player(record, f"h-{player_id}")
    return record


def claimed(store: Store, player_id: str, name: str) -> PlayerRecord:
    """A new player who claimed ``name`` (its key: the name in lower case)."""
    guest(store, player_id, name)
    store.claim(player_id, name, name.lower(), "hash")
    return PlayerRecord(player_id, name, claimed=True)


def play(store: Store, match_id: str, game: str, people: Sequence[str | None],
         placed: Sequence[int], *, rated: bool = True, pool: Pool = Pool.RATED,
         stats: Sequence[dict[str, Any]] | None = None, abandoned: Sequence[int] = (),
         end_ms: int = 60_000) -> list[RatingChange]:
    """A finished match of ``people`` (``None``: a bot) with these places; the people's
    ratings in ``pool`` change as openskill says (unless ``rated`` is false). The changes."""
    seats = tuple(SeatRecord(n, "Bot" if p is None else p, p, None if p else "normal")
                  for n, p in enumerate(people))
    store.begin_match(MatchStart(match_id, "ABCDEF", game, "t", {"players": len(people)}, {},
                                 1, None, seats, False, 0,
                                 rated=rated and pool is Pool.RATED))
    result = {"placings": [{"seat": n, "place": place} for n, place in enumerate(placed)],
              "rounds": 2}
    changes: list[RatingChange] = []
    if rated:
        final = places(result, len(people), abandoned) or []
        before = []
        for person in people:
            row = store.ratings_of(person).get((game, pool.value)) if person else None
            before.append(row.rating if row else NEW)
        after = update(before, final, game)
        changes = [RatingChange(p, game, pool, n, final[n], before[n], after[n])
                   for n, p in enumerate(people) if p is not None]
    store.finish_match(match_id, Status.OVER, end_ms, result, stats=stats, abandoned=abandoned,
                       rated=changes)
    return changes
