"""The ratings of the people the server has met, read once from the store and kept current.

Rooms ask it for a seat's shown rating (lobby and table) and for the ratings a finished
match starts from; the store is written first (``Store.finish_match``), then the book.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from zackzack.ratings import NEW, Pool, Rating, RatingChange, drifted, provisional, shown
from zackzack.store import Store


@dataclass(frozen=True, slots=True)
class Standing:
    """A person's rating in one game and pool, as stored."""

    rating: Rating
    matches: int
    last_at: int | None


class RatingBook:
    """Ratings by (player id, game, pool), loaded per player on first use."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.shared = False
        """Other processes change ratings in the same store too (a cluster): ``fresh``
        reads them again before a match's changes are worked out."""
        self._known: dict[str, dict[tuple[str, Pool], Standing]] = {}

    def fresh(self, player_ids: Iterable[str]) -> None:
        """Read these players' ratings from the store again at their next use, if shared."""
        if self.shared:
            for player_id in player_ids:
                self._known.pop(player_id, None)

    def forget(self) -> None:
        """Read every rating from the store again at its next use (they were rebuilt)."""
        self._known.clear()

    def _of(self, player_id: str) -> dict[tuple[str, Pool], Standing]:
        found = self._known.get(player_id)
        if found is None:
            rows = self.store.ratings_of(player_id)
            found = self._known[player_id] = {
                (game, Pool(pool)): Standing(Rating(row.mu, row.sigma), row.matches, row.last_at)
                for (game, pool), row in rows.items()}
        return found

    def standing(self, player_id: str, game: str, pool: Pool = Pool.RATED) -> Standing | None:
        """The stored standing, or ``None`` before the first match of that kind."""
        return self._of(player_id).get((game, pool))

    def current(self, player_id: str, pool: Pool, game: str, now_ms: int | None = None
                ) -> Rating:
        """The rating at ``now_ms`` (default: now): stored μ, σ grown with the time away."""
        found = self.standing(player_id, game, pool)
        if found is None:
            return NEW
        now = int(self.store.wall() * 1000) if now_ms is None else now_ms
        return drifted(found.rating, found.last_at, now)

    def level(self, player_id: str, game: str) -> float:
        """Where a person stands against the bots: μ of their games against bots if they
        played any, else their rated μ (both pools share the bots' scale)."""
        pool = Pool.BOTS if self.standing(player_id, game, Pool.BOTS) else Pool.RATED
        return self.current(player_id, pool, game).mu

    def shown(self, player_id: str, game: str) -> tuple[int, bool]:
        """The rated number a seat shows in ``game``, and whether it is provisional."""
        rating = self.current(player_id, Pool.RATED, game)
        return shown(rating), provisional(rating.sigma)

    def applied(self, changes: Sequence[RatingChange], at: int) -> None:
        """``changes`` were stored at wall time ``at``: keep the book in step."""
        for change in changes:
            table = self._of(change.player_id)
            old = table.get((change.game, change.pool))
            table[change.game, change.pool] = Standing(
                change.after, (old.matches if old else 0) + 1, at)
