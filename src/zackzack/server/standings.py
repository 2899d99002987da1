"""The JSON API of standings: leaderboards per game and each player's profile.

Ratings are shown as people see them (``zackzack.ratings.shown``), with σ grown by the time
since the last match, read at the moment of the request.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from zackzack.games import GAMES
from zackzack.ratings import (
    BOARD_ACTIVE_DAYS,
    BOARD_MIN_MATCHES,
    Pool,
    Rating,
    bot_ladder,
    drifted,
    plays_like,
    provisional,
    shown,
)
from zackzack.server.api import BadQuery, answering, error_response, json_response, whole
from zackzack.store import GameStats, Profile, RatingRow, Store


def _store(request: Request) -> Store:
    store: Store = request.app.state.server.store
    return store


def _now(store: Store) -> int:
    return int(store.wall() * 1000)


def _game(request: Request) -> str:
    game = request.query_params.get("game", next(iter(GAMES)))
    if game not in GAMES:
        raise BadQuery(f"game must be one of {', '.join(GAMES)}")
    return game


def _rating(rating: Rating, last_at: int | None, now: int) -> dict[str, Any]:
    """A rating as people see it at ``now``: the number, "?" or not, μ and σ."""
    now_rating = drifted(rating, last_at, now)
    return {"rating": shown(now_rating), "provisional": provisional(now_rating.sigma),
            "mu": round(now_rating.mu, 4), "sigma": round(now_rating.sigma, 4)}


async def leaderboard(request: Request) -> Response:
    """``GET /api/leaderboard?game=…&limit=&offset=``: claimed players with enough recent
    rated matches, best first."""
    store = _store(request)
    try:
        game = _game(request)
        limit = whole(request, "limit", 1, 100, 50)
        offset = whole(request, "offset", 0, 10**9, 0)
    except BadQuery as error:
        return error_response(400, "bad_field", str(error))
    now = _now(store)
    rows, total = await run_in_threadpool(store.leaderboard, game, now_ms=now, limit=limit,
                                          offset=offset)
    return json_response({
        "game": game, "total": total, "min_matches": BOARD_MIN_MATCHES,
        "active_days": BOARD_ACTIVE_DAYS,
        "players": [{"rank": row.rank, "player": row.player_id, "name": row.name,
                     **_rating(Rating(row.mu, row.sigma), row.last_at, now),
                     "matches": row.matches, "last_at": row.last_at} for row in rows]})


def _stats(found: GameStats | None) -> dict[str, Any]:
    if found is None:
        return {"matches": 0, "wins": 0, "win_rate": None, "cards_per_minute": None,
                "wrong_per_round": None, "late_per_round": None, "reaction_ms": None}
    per_round = found.rounds or None
    return {
        "matches": found.matches, "wins": found.wins,
        "win_rate": round(found.wins / found.matches, 4) if found.matches else None,
        "cards_per_minute": round(found.played / (found.played_ms / 60_000), 2)
        if found.played_ms else None,
        "wrong_per_round": round(found.wrong / per_round, 3) if per_round else None,
        "late_per_round": round(found.late / per_round, 3) if per_round else None,
        "reaction_ms": found.reaction_ms}


def profile_json(profile: Profile, rank: dict[str, int | None], now: int) -> dict[str, Any]:
    """A player's page as JSON data (docs/protocol.md)."""
    player = profile.player
    games: dict[str, Any] = {}
    for game in GAMES:
        rated: RatingRow | None = profile.ratings.get((game, Pool.RATED.value))
        bots: RatingRow | None = profile.ratings.get((game, Pool.BOTS.value))
        history = profile.history.get((game, Pool.RATED.value), ())
        either = bots or rated
        games[game] = {
            "rated": None if rated is None else {
                **_rating(rated.rating, rated.last_at, now), "matches": rated.matches,
                "last_at": rated.last_at, "rank": rank.get(game)},
            "bots": None if bots is None else {
                **_rating(bots.rating, bots.last_at, now), "matches": bots.matches,
                "plays_like": plays_like(game, bots.mu)},
            "plays_like": None if either is None else plays_like(game, either.mu),
            "stats": _stats(profile.stats.get(game)),
            "history": [{"at": point.at, "match": point.match_id,
                         "rating": shown(Rating(point.mu, point.sigma)),
                         "provisional": provisional(point.sigma)} for point in history],
        }
    return {
        "player": player.id, "name": player.name, "claimed": player.claimed,
        "created_at": profile.created_at, "games": games,
        "bots": {game: bot_ladder(game) for game in GAMES},
        "recent": [{
            "id": recent.match.id, "game": recent.match.game, "title": recent.match.title,
            "ended_at": recent.match.ended_at, "rated": recent.match.rated,
            "seat": recent.seat, "place": recent.place, "status": recent.match.status.value,
            "players": [seat.to_json() for seat in recent.match.seats],
            "links": {"replay": f"/matches/{recent.match.id}",
                      "log": f"/api/matches/{recent.match.id}/log"},
        } for recent in profile.recent],
    }


async def player(request: Request) -> Response:
    """``GET /api/players/{name}``: a claimed name (any case or lookalike) or a public id;
    asked with the player's own token, their mark too (``mark``: reason, when, by whom)."""
    from zackzack.moderation import marked
    from zackzack.server.moderating import viewer

    key = request.path_params["name"]
    store = _store(request)
    now = _now(store)
    asking = viewer(request)

    def build() -> dict[str, Any] | None:
        found = store.profile(key)
        if found is None:
            return None
        ranks = {game: store.rank_of(found.player.id, game, now) for game in GAMES}
        data = profile_json(found, ranks, now)
        if asking is not None and asking.id == found.player.id:
            data["mark"] = marked(store, found.player.id)
        return data

    data = await run_in_threadpool(build)
    if data is None:
        return error_response(404, "no_such_player", f"there is no player {key!r}")
    return json_response(data, headers=None if asking is None else {"Cache-Control": "no-store"})


routes = [
    Route("/api/leaderboard", answering(leaderboard)),
    Route("/api/players/{name}", answering(player)),
]
