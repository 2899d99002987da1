"""Ratings: openskill's Plackett–Luce model, one rating per player, game and pool.

A *rated* match (people only, standard options) moves the ``rated`` pool; a casual match of
people against bots moves each person's ``bots`` pool, with the bots held at the ratings
their calibration found (``ratings/bots.json``, ``zackzack ratings calibrate``). Both pools
share one scale: calibration shifts the bots so that ``normal`` has the μ a new player starts
with. People see a scaled number, 1000 for a new player, with "?" while it is uncertain.

>>> shown(NEW), provisional(NEW.sigma)
(1000, True)
>>> a, b = update([NEW, NEW], [1, 2], "unter-spannung")
>>> shown(a) > 1000 > shown(b), a.sigma < NEW.sigma
(True, True)
>>> places({"placings": [{"seat": 0, "place": 1}, {"seat": 1, "place": 2},
...                      {"seat": 2, "place": 2}]}, 3, abandoned=[0])
[3, 1, 1]
"""

from __future__ import annotations

import enum
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from openskill.models import PlackettLuce

from zackzack.bots.spec import LEVELS
from zackzack.games import GAMES, entry

MU = 25.0
SIGMA = MU / 3
SCALE = 40.0
"""Shown points per unit of μ: 1000 + 40·(μ − 25)."""
PROVISIONAL_SIGMA = 6.0
"""A rating whose σ (grown with inactivity) is above this is shown with "?": about the first
dozen two-player matches."""
DRIFT_PER_DAY = 0.15
"""How much σ² grows per day without a match: a settled σ of 3 is provisional again after
half a year away."""
BOARD_MIN_MATCHES = 5
BOARD_ACTIVE_DAYS = 14
DAY_MS = 86_400_000
@cache
def model(game: str) -> PlackettLuce:
    """openskill's Plackett–Luce model with ``game``'s β."""
    beta = entry(game).front.beta if game in GAMES else None
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=SIGMA / 2 if beta is None else beta)


class Pool(enum.Enum):
    """Which matches a rating comes from."""

    RATED = "rated"
    """Rated tables: people against people."""
    BOTS = "bots"
    """Casual tables of people against bots, the bots held at their calibrated ratings."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float


NEW = Rating(MU, SIGMA)
"""A player who has not played yet."""


def shown(rating: Rating) -> int:
    """The number people see: 1000 for a new player.

    >>> shown(Rating(30.0, 2.0))
    1200
    """
    return round(1000 + SCALE * (rating.mu - MU))


def provisional(sigma: float) -> bool:
    """Whether a rating this uncertain is shown with "?"."""
    return sigma > PROVISIONAL_SIGMA


def drifted(rating: Rating, last_ms: int | None, now_ms: int) -> Rating:
    """``rating`` as it stands at ``now_ms``: σ grows with the days since its last match.

    >>> drifted(Rating(30.0, 3.0), 0, 180 * DAY_MS).sigma
    6.0
    >>> drifted(Rating(30.0, 8.0), 0, 900 * DAY_MS).sigma == SIGMA
    True
    """
    if last_ms is None or now_ms <= last_ms:
        return rating
    days = (now_ms - last_ms) / DAY_MS
    return Rating(rating.mu, min(SIGMA, math.sqrt(rating.sigma ** 2 + DRIFT_PER_DAY * days)))


def places(result: Mapping[str, Any] | None, seats: int,
           abandoned: Sequence[int] = ()) -> list[int] | None:
    """Each seat's place (1 is best; tied seats share one and the next is skipped, 1 1 3) from
    a match result's JSON; seats that ``abandoned`` come after everyone else, sharing the
    last place. ``None``: no result.

    >>> places({"placings": [{"seat": 0, "place": 2}, {"seat": 1, "place": 1}]}, 2)
    [2, 1]
    >>> places(None, 2) is None
    True
    """
    if result is None:
        return None
    found = {int(p["seat"]): int(p["place"]) for p in result.get("placings", [])}
    if sorted(found) != list(range(seats)):
        raise ValueError(f"the result places seats {sorted(found)}, not 0 to {seats - 1}")
    left = set(abandoned)
    staying = [found[seat] for seat in range(seats) if seat not in left]
    return [len(staying) + 1 if seat in left
            else 1 + sum(other < found[seat] for other in staying) for seat in range(seats)]


def update(before: Sequence[Rating], placed: Sequence[int], game: str) -> list[Rating]:
    """The ratings after a match of ``game`` where seat ``i`` (rated ``before[i]``) placed
    ``placed[i]``."""
    found = model(game)
    teams = [[found.create_rating([r.mu, r.sigma])] for r in before]
    after = found.rate(teams, ranks=[float(p) for p in placed])
    return [Rating(team[0].mu, team[0].sigma) for team in after]


def update_against_bots(people: Mapping[int, Rating], bots: Mapping[int, Rating],
                        placed: Sequence[int], game: str) -> dict[int, Rating]:
    """The people's new ratings after a match against bots held at their anchors (by seat)."""
    seats = sorted({*people, *bots})
    after = update([people[s] if s in people else bots[s] for s in seats],
                   [placed[s] for s in seats], game)
    return {seat: rating for seat, rating in zip(seats, after, strict=True) if seat in people}


def rated_options_problem(game: str, options: Mapping[str, Any]) -> str | None:
    """Why a table with these options (JSON) cannot be rated, or ``None``: the game's standard
    options, but for the ones its ``Front.rated_options`` lets a rated table choose.

    >>> rated_options_problem("schnelllauf", {"players": 2, "jokers": 0})
    'a rated table plays the standard rules: jokers must stay 3'
    """
    rules = GAMES.get(game)
    if rules is None:
        return f"there is no game {game!r}"
    standard = rules.options_to_json(rules.parse_options({}))
    for name, value in options.items():
        if name not in entry(game).front.rated_options and standard.get(name) != value:
            return (f"a rated table plays the standard rules: {name} must stay "
                    f"{json.dumps(standard.get(name))}")
    return None


@cache
def _anchors() -> dict[str, Any]:
    text = resources.files("zackzack").joinpath("ratings/bots.json").read_text()
    data: dict[str, Any] = json.loads(text)
    return data


def bot_anchor(game: str, level: str) -> Rating | None:
    """The calibrated rating of bot ``level`` in ``game`` (``None``: not calibrated)."""
    found = _anchors().get("games", {}).get(game, {}).get(level)
    return None if found is None else Rating(float(found["mu"]), float(found["sigma"]))


def bot_ladder(game: str) -> dict[str, int]:
    """Each calibrated bot level's shown rating in ``game``, weakest first."""
    ladder = {}
    for level in LEVELS:
        anchor = bot_anchor(game, level)
        if anchor is not None:
            ladder[level] = shown(anchor)
    return ladder


def plays_like(game: str, mu: float) -> str | None:
    """The strongest bot level whose rating ``mu`` reaches (the weakest if none does)."""
    found = [(level, a.mu) for level in LEVELS if (a := bot_anchor(game, level)) is not None]
    if not found:
        return None
    reached = [level for level, anchor in found if anchor <= mu]
    return reached[-1] if reached else found[0][0]


def bot_for(game: str, mu: float) -> str:
    """The bot level whose rating is nearest ``mu`` (``normal`` if none is calibrated)."""
    found = [(abs(a.mu - mu), level) for level in LEVELS
             if (a := bot_anchor(game, level)) is not None]
    return min(found)[1] if found else "normal"


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one match did to one person's rating in one pool."""

    player_id: str
    game: str
    pool: Pool
    seat: int
    place: int
    before: Rating
    after: Rating


def match_changes(game: str, seats: Sequence[tuple[str | None, str | None]],
                  placed: Sequence[int], *, rated: bool, options: Mapping[str, Any],
                  current: Callable[[str, Pool], Rating]) -> list[RatingChange]:
    """The rating changes of a finished match: ``seats`` are (person id, bot spec) per seat,
    ``placed`` each seat's place, ``current`` a person's rating now. A rated match of people
    moves the ``rated`` pool; a casual match of people against calibrated ``smart`` bots with
    standard options moves each person's ``bots`` pool; any other match moves nothing.

    >>> new = lambda player, pool: NEW
    >>> [(c.player_id, c.pool.value, c.place) for c in match_changes("schnelllauf",
    ...     [("p_a", None), (None, "pro")], [2, 1], rated=False,
    ...     options={"players": 2}, current=new)]
    [('p_a', 'bots', 2)]
    >>> match_changes("schnelllauf", [("p_a", None), (None, "pro:random")], [2, 1],
    ...               rated=False, options={"players": 2}, current=new)
    []
    """
    people = {seat: player for seat, (player, _) in enumerate(seats) if player is not None}
    if not people or rated_options_problem(game, options) is not None:
        return []
    if rated:
        if len(people) != len(seats):
            return []
        pool = Pool.RATED
        before = {seat: current(player, pool) for seat, player in people.items()}
        after = dict(enumerate(update([before[s] for s in range(len(seats))], placed, game)))
    else:
        bots = {}
        for seat, (player, bot) in enumerate(seats):
            if player is None:
                level, _, strategy = (bot or "").partition(":")
                anchor = bot_anchor(game, level) if strategy in ("", "smart") else None
                if anchor is None:
                    return []
                bots[seat] = anchor
        if not bots:
            return []
        pool = Pool.BOTS
        before = {seat: current(player, pool) for seat, player in people.items()}
        after = update_against_bots(before, bots, placed, game)
    return [RatingChange(player, game, pool, seat, placed[seat], before[seat], after[seat])
            for seat, player in sorted(people.items())]
