"""Moderation: operators, the review queue, marks, renames, closed accounts, the audit log.

Whoever runs a server makes an account an *operator* from the command line
(``zackzack moderation grant NAME``); operators (and the command line) review the queue of
flags — the fair-play detector's (``zackzack.moderation.fairplay``, source ``timing``) and players'
reports (source ``reports``) — and act: *mark* a player (hidden from every leaderboard,
barred from rated tables and queues; the player reads the reason on their profile; if asked,
their past results removed from the ratings by a rebuild without their matches), unmark,
rename an offensive name, close an account, clear a flag. Every act goes into the audit log
with who did it and why; nothing is ever done automatically to a player.

>>> import tempfile, pathlib
>>> from zackzack.store import PlayerRecord, Store, database_url
>>> store = Store(database_url(str(pathlib.Path(tempfile.mkdtemp()) / "z.db")))
>>> store.add_player(PlayerRecord("p1", "Anna"), "h1")
>>> mark(store, "p1", "scripted play", actor="cli:root")
>>> marked(store, "p1")["reason"], [entry["act"] for entry in audit_log(store)]
('scripted play', ['mark'])
>>> store.close()
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, delete, func, insert, select, update

from zackzack.store import RatedMatch, Status, Store
from zackzack.store.schema import (
    audit,
    flags,
    marks,
    match_players,
    matches,
    players,
    ratings,
    reports,
    roles,
)

if TYPE_CHECKING:  # the detector (numpy) is imported when it is run
    from zackzack.moderation.fairplay import Reaction

OPERATOR = "operator"
ROLES = (OPERATOR,)
REASONS = ("scripted", "offensive_name", "abuse", "other")
"""The reasons a player may give for a report (one click after a match)."""
SCAN_MATCHES = 30
"""The detector reads a player's newest this many rated matches per game."""
_BARRED_FRESH = 30.0
"""Seconds a looked-up mark stays fresh for the live server (a mark made from the command
line bars rated play within this)."""
_barred: dict[tuple[int, str], tuple[float, bool]] = {}


def _ms(store: Store) -> int:
    return int(store.wall() * 1000)


def _log(conn: Any, store: Store, actor: str, act: str, player_id: str | None, reason: str,
         detail: dict[str, Any] | None = None) -> None:
    conn.execute(insert(audit).values(at=_ms(store), actor=actor, act=act,
                                      player_id=player_id, reason=reason, detail=detail))


def _require(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise ValueError("say why: every act of moderation needs a reason")
    if len(reason) > 500:
        raise ValueError("a reason is at most 500 characters")
    return reason


def find(store: Store, who: str) -> str:
    """The id of the player named ``who`` (a claimed name) or with that id; ``ValueError``
    if there is none."""
    from zackzack.words.names import name_key

    try:
        found = store.account(name_key(who))
    except ValueError:
        found = None
    if found is not None:
        return found[0].id
    record = store.find_player(who)
    if record is None:
        raise ValueError(f"no player is named {who!r} (a claimed name) or has that id")
    return record.id


# Roles ------------------------------------------------------------------------------------


def grant(store: Store, player_id: str, role: str, *, actor: str, reason: str) -> None:
    """Give ``player_id`` the ``role`` (the command line only)."""
    if role not in ROLES:
        raise ValueError(f"no role {role!r}; roles: {', '.join(ROLES)}")
    reason = _require(reason)
    with store.engine.begin() as conn:
        conn.execute(delete(roles).where(roles.c.player_id == player_id))
        conn.execute(insert(roles).values(player_id=player_id, role=role, granted_at=_ms(store)))
        _log(conn, store, actor, "grant", player_id, reason, {"role": role})


def revoke(store: Store, player_id: str, *, actor: str, reason: str) -> None:
    """Take ``player_id``'s role away."""
    reason = _require(reason)
    with store.engine.begin() as conn:
        conn.execute(delete(roles).where(roles.c.player_id == player_id))
        _log(conn, store, actor, "revoke", player_id, reason)


def role_of(store: Store, player_id: str) -> str | None:
    """The player's role, if any."""
    with store.engine.connect() as conn:
        found = conn.execute(select(roles.c.role).where(roles.c.player_id == player_id)).first()
    return None if found is None else str(found.role)


# Marks ------------------------------------------------------------------------------------


def mark(store: Store, player_id: str, reason: str, *, actor: str,
         remove_results: bool = False) -> list[str] | None:
    """Mark the player: off every leaderboard, barred from rated play; the reason is theirs
    to read. A mark already there gets the new reason.

    ``remove_results``: then rebuild every rating (``zackzack ratings rebuild``'s
    :func:`zackzack.commands.ratings.rebuild`) without the stored matches that changed ratings
    and that the player took part in; every participant's changes from those matches are
    dropped for good (unmarking does not bring them back). The ids of those matches (also in
    the audit log, act ``remove_results``); ``None`` without ``remove_results``."""
    reason = _require(reason)
    with store.engine.begin() as conn:
        conn.execute(delete(marks).where(marks.c.player_id == player_id))
        conn.execute(insert(marks).values(player_id=player_id, reason=reason,
                                          marked_at=_ms(store), marked_by=actor))
        conn.execute(update(ratings).where(ratings.c.player_id == player_id)
                     .values(listed=False))
        _log(conn, store, actor, "mark", player_id, reason,
             {"remove_results": True} if remove_results else None)
    _barred.clear()
    if not remove_results:
        return None
    from zackzack.commands.ratings import rebuild

    def took_part(match: RatedMatch) -> bool:
        return any(seat.player == player_id for seat in match.seats)

    rebuilt = rebuild(store, skip=took_part)
    removed = list(rebuilt.skipped)
    with store.engine.begin() as conn:
        _log(conn, store, actor, "remove_results", player_id, reason,
             {"matches": removed, "replayed": rebuilt.matches})
    return removed


def unmark(store: Store, player_id: str, reason: str, *, actor: str) -> None:
    """Lift the player's mark: listed again if their name is claimed."""
    reason = _require(reason)
    with store.engine.begin() as conn:
        gone = conn.execute(delete(marks).where(marks.c.player_id == player_id)).rowcount
        if not gone:
            raise ValueError("the player is not marked")
        claimed = conn.execute(select(players.c.name_key, players.c.deleted_at)
                               .where(players.c.id == player_id)).first()
        if claimed is not None and claimed.name_key is not None and claimed.deleted_at is None:
            conn.execute(update(ratings).where(ratings.c.player_id == player_id)
                         .values(listed=True))
        _log(conn, store, actor, "unmark", player_id, reason)
    _barred.clear()


def marked(store: Store, player_id: str) -> dict[str, Any] | None:
    """The player's mark (reason, when, by whom), if any: what they read on their profile."""
    with store.engine.connect() as conn:
        row = conn.execute(select(marks).where(marks.c.player_id == player_id)).first()
    return None if row is None else {"reason": row.reason, "at": row.marked_at,
                                     "by": row.marked_by}


def barred(store: Store, player_id: str) -> bool:
    """Whether the player is barred from rated play (marked); looked up at most every
    :data:`_BARRED_FRESH` seconds per player, for the live server."""
    key = (id(store), player_id)
    now = time.monotonic()
    found = _barred.get(key)
    if found is None or now - found[0] > _BARRED_FRESH:
        found = _barred[key] = (now, marked(store, player_id) is not None)
        if len(_barred) > 10_000:
            _barred.clear()
    return found[1]


def marked_ids(store: Store) -> set[str]:
    """Every marked player's id (a ratings rebuild keeps them off the leaderboards)."""
    with store.engine.connect() as conn:
        return {row.player_id for row in conn.execute(select(marks.c.player_id))}


# Renames and closed accounts ------------------------------------------------------------


def rename(store: Store, player_id: str, name: str, reason: str, *, actor: str) -> None:
    """Give the player another name (an offensive one replaced); claimed names stay unique."""
    from zackzack.words.names import name_key

    reason = _require(reason)
    record = store.find_player(player_id)
    if record is None or record.deleted:
        raise ValueError("no such player, or the account is closed")
    store.rename_player(player_id, name, name_key(name) if record.claimed else None)
    with store.engine.begin() as conn:
        _log(conn, store, actor, "rename", player_id, reason, {"from": record.name, "to": name})


def close(store: Store, player_id: str, reason: str, *, actor: str) -> None:
    """Close the account (as the player's own deletion does: nameless, no ratings)."""
    reason = _require(reason)
    record = store.find_player(player_id)
    if record is None or record.deleted:
        raise ValueError("no such player, or the account is already closed")
    store.delete_player(player_id)
    with store.engine.begin() as conn:
        _log(conn, store, actor, "close", player_id, reason, {"name": record.name})


# The review queue -----------------------------------------------------------------------


def player_reactions(store: Store, player_id: str, game: str,
                     limit: int = SCAN_MATCHES) -> list[Reaction]:
    """The player's reactions in their newest ``limit`` rated matches of ``game``, oldest
    first (each match's log replayed)."""
    from zackzack.moderation.fairplay import reactions
    query = (select(match_players.c.match_id, match_players.c.seat)
             .join(matches, matches.c.id == match_players.c.match_id)
             .where(match_players.c.player_id == player_id, matches.c.game == game,
                    matches.c.rated.is_(True), matches.c.status == Status.OVER.value)
             .order_by(matches.c.started_at.desc()).limit(limit))
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
    found: list[Reaction] = []
    for row in reversed(rows):
        log = store.log(row.match_id)
        if log is not None:
            found.extend(reactions(log)[row.seat])
    return found


def scan(store: Store, *, games: Sequence[str] | None = None,
         players_ids: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """Run the detector over every player with rated matches (or ``players_ids``): each
    flagged one goes into the review queue with the evidence (a flag already cleared comes
    back only with a higher score). The flags raised, as JSON data."""
    query = (select(match_players.c.player_id, matches.c.game).distinct()
             .join(matches, matches.c.id == match_players.c.match_id)
             .where(matches.c.rated.is_(True), matches.c.status == Status.OVER.value))
    if games:
        query = query.where(matches.c.game.in_(list(games)))
    if players_ids is not None:
        query = query.where(match_players.c.player_id.in_(list(players_ids)))
    with store.engine.connect() as conn:
        pairs = conn.execute(query).all()
    from zackzack.moderation.fairplay import assess
    raised: list[dict[str, Any]] = []
    for player_id, game in sorted(pairs):
        evidence = assess(player_reactions(store, player_id, game))
        if not evidence.flagged:
            continue
        data = evidence.to_json()
        if _flag(store, player_id, game, "timing", evidence.score, data):
            raised.append({"player": player_id, "game": game, "score": evidence.score})
    return raised


def _flag(store: Store, player_id: str, game: str, source: str, score: float,
          evidence: dict[str, Any]) -> bool:
    """Put a flag into the queue (or refresh it); whether it is open now and new or higher."""
    key = and_(flags.c.player_id == player_id, flags.c.game == game, flags.c.source == source)
    with store.engine.begin() as conn:
        old = conn.execute(select(flags).where(key)).first()
        if old is None:
            conn.execute(insert(flags).values(player_id=player_id, game=game, source=source,
                                              score=score, evidence=evidence, at=_ms(store)))
        elif old.cleared_at is not None and score <= old.score:
            return False
        else:
            conn.execute(update(flags).where(key).values(score=score, evidence=evidence,
                                                         at=_ms(store), cleared_at=None))
        if source == "timing" and (old is None or old.cleared_at is not None):
            _log(conn, store, "detector", "flag", player_id,
                 f"{game}: timing score {score:.1f}", {"game": game})
    return old is None or old.cleared_at is not None or score > old.score


def queue(store: Store, *, cleared: bool = False) -> list[dict[str, Any]]:
    """The open flags (``cleared``: the cleared ones too), highest score first, with each
    player's name and mark."""
    query = (select(flags, players.c.name, marks.c.reason.label("mark"))
             .join(players, players.c.id == flags.c.player_id)
             .outerjoin(marks, marks.c.player_id == flags.c.player_id)
             .order_by(flags.c.score.desc(), flags.c.at))
    if not cleared:
        query = query.where(flags.c.cleared_at.is_(None))
    with store.engine.connect() as conn:
        return [{"player": row.player_id, "name": row.name, "game": row.game,
                 "source": row.source, "score": round(row.score, 2), "at": row.at,
                 "cleared_at": row.cleared_at, "marked": row.mark, "evidence": row.evidence}
                for row in conn.execute(query)]


def clear(store: Store, player_id: str, game: str, reason: str, *, actor: str,
          source: str | None = None) -> int:
    """Clear the player's open flags of ``game`` (of ``source`` only, if given): reviewed,
    nothing to do. How many were cleared."""
    reason = _require(reason)
    where = [flags.c.player_id == player_id, flags.c.game == game, flags.c.cleared_at.is_(None)]
    if source is not None:
        where.append(flags.c.source == source)
    with store.engine.begin() as conn:
        count = conn.execute(update(flags).where(*where).values(cleared_at=_ms(store))).rowcount
        if count:
            _log(conn, store, actor, "clear", player_id, reason, {"game": game})
    return int(count)


def report(store: Store, reporter_id: str, match_id: str, player_id: str, reason: str) -> None:
    """``reporter_id`` reports ``player_id`` after the match ``match_id`` they both played
    (one report per match and player): the report feeds the review queue."""
    if reason not in REASONS:
        raise ValueError(f"a reason is one of {', '.join(REASONS)}")
    if reporter_id == player_id:
        raise ValueError("one cannot report oneself")
    with store.engine.connect() as conn:
        seated = {row.player_id for row in conn.execute(
            select(match_players.c.player_id).where(match_players.c.match_id == match_id))}
        game = conn.execute(select(matches.c.game).where(matches.c.id == match_id)).scalar()
    if game is None or not {reporter_id, player_id} <= seated:
        raise ValueError("both must have played in that match")
    with store.engine.begin() as conn:
        already = conn.execute(select(reports.c.seq).where(
            reports.c.match_id == match_id, reports.c.reporter_id == reporter_id,
            reports.c.player_id == player_id)).first()
        if already is not None:
            return
        conn.execute(insert(reports).values(match_id=match_id, reporter_id=reporter_id,
                                            player_id=player_id, reason=reason,
                                            at=_ms(store)))
        counts = conn.execute(select(reports.c.reason, func.count())
                              .join(matches, matches.c.id == reports.c.match_id)
                              .where(reports.c.player_id == player_id, matches.c.game == game)
                              .group_by(reports.c.reason)).all()
    by_reason = {str(reason_): int(count) for reason_, count in counts}
    _flag(store, player_id, str(game), "reports", float(sum(by_reason.values())),
          {"reports": by_reason})


def audit_log(store: Store, player_id: str | None = None, limit: int = 100
              ) -> list[dict[str, Any]]:
    """The newest acts of moderation (of one player's, if given), newest first."""
    query = select(audit).order_by(audit.c.seq.desc()).limit(limit)
    if player_id is not None:
        query = query.where(audit.c.player_id == player_id)
    with store.engine.connect() as conn:
        return [{"seq": row.seq, "at": row.at, "actor": row.actor, "act": row.act,
                 "player": row.player_id, "reason": row.reason, "detail": row.detail}
                for row in conn.execute(query)]

