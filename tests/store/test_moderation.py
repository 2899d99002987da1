"""Moderation in the store: roles, marks that hide a player from the leaderboard and bar
rated play, renames, closed accounts, reports into the queue, and the audit log of it all."""

from __future__ import annotations

from pathlib import Path

import pytest

from store.kit import play
from zackzack import moderation
from zackzack.commands.ratings import rebuild
from zackzack.ratings import NEW, Pool, update
from zackzack.server.identity import Player
from zackzack.server.protocol import ProtocolError
from zackzack.server.room import rated_check
from zackzack.store import PlayerRecord, RatingRow, Store, database_url

GAME = "unter-spannung"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    found = Store(database_url(str(tmp_path / "z.db")), wall=lambda: 1_000_000.0)
    for n, name in enumerate(["Anna", "Ben", "Cleo"]):
        found.add_player(PlayerRecord(f"p{n}", name), f"h{n}")
        found.claim(f"p{n}", name, name.lower(), "x")
    found.replace_ratings([], {(f"p{n}", GAME, Pool.RATED.value): RatingRow(
        1000.0 + n, 5.0, 30, 999_000_000) for n in range(3)})
    return found


def board(store: Store) -> list[str]:
    return [row.name for row in store.leaderboard(GAME, now_ms=1_000_000_000)[0]]


def test_a_mark_hides_from_the_leaderboard_bars_rated_play_and_is_logged(store: Store) -> None:
    assert board(store) == ["Cleo", "Ben", "Anna"]
    moderation.mark(store, moderation.find(store, "ben"), "scripted timing", actor="cli:op")
    assert board(store) == ["Cleo", "Anna"]
    assert moderation.marked(store, "p1") == {"reason": "scripted timing",
                                              "at": 1_000_000_000, "by": "cli:op"}
    with pytest.raises(ProtocolError) as refused:
        rated_check(Player("p1", "Ben", claimed=True), store)
    assert refused.value.code == "rated_barred"
    rated_check(Player("p0", "Anna", claimed=True), store)
    # a rebuild of the ratings keeps the mark
    store.replace_ratings([], {(f"p{n}", GAME, Pool.RATED.value): RatingRow(
        1000.0 + n, 5.0, 30, 999_000_000) for n in range(3)})
    assert board(store) == ["Cleo", "Anna"]
    moderation.unmark(store, "p1", "reviewed: a fast person", actor="cli:op")
    assert board(store) == ["Cleo", "Ben", "Anna"]
    assert [(e["act"], e["player"], e["reason"]) for e in moderation.audit_log(store)] == [
        ("unmark", "p1", "reviewed: a fast person"), ("mark", "p1", "scripted timing")]


def test_every_act_needs_a_reason(store: Store) -> None:
    with pytest.raises(ValueError, match="reason"):
        moderation.mark(store, "p1", "  ", actor="cli:op")
    with pytest.raises(ValueError, match="not marked"):
        moderation.unmark(store, "p1", "why not", actor="cli:op")


def test_roles_renames_and_closed_accounts(store: Store) -> None:
    moderation.grant(store, "p0", "operator", actor="cli:root", reason="runs it")
    assert moderation.role_of(store, "p0") == "operator"
    moderation.rename(store, "p2", "Player42", "offensive name", actor="p0")
    assert store.find_player("p2") == PlayerRecord("p2", "Player42", claimed=True)
    moderation.close(store, "p2", "asked to", actor="p0")
    assert store.find_player("p2") is not None and store.find_player("p2").deleted  # type: ignore[union-attr]
    moderation.revoke(store, "p0", actor="cli:root", reason="left")
    assert moderation.role_of(store, "p0") is None
    assert [e["act"] for e in moderation.audit_log(store)] == [
        "revoke", "close", "rename", "grant"]
    assert moderation.audit_log(store, "p2")[1]["detail"] == {"from": "Cleo", "to": "Player42"}


def test_the_queue_takes_flags_and_clears_them(store: Store) -> None:
    assert moderation._flag(store, "p1", GAME, "timing", 12.5, {"n": 200})
    assert [(f["name"], f["score"]) for f in moderation.queue(store)] == [("Ben", 12.5)]
    assert moderation.clear(store, "p1", GAME, "a fast person", actor="p0") == 1
    assert moderation.queue(store) == []
    assert not moderation._flag(store, "p1", GAME, "timing", 12.0, {"n": 210})
    assert moderation._flag(store, "p1", GAME, "timing", 14.0, {"n": 260})
    assert len(moderation.queue(store)) == 1


def test_a_mark_can_remove_the_players_rated_results(tmp_path: Path) -> None:
    store = Store(database_url(str(tmp_path / "r.db")), wall=lambda: 1_000_000.0)
    for n, name in enumerate(["Anna", "Ben", "Cleo"]):
        store.add_player(PlayerRecord(f"p{n}", name), f"h{n}")
    play(store, "m1", GAME, ["p0", "p1"], [1, 2])
    play(store, "m2", GAME, ["p0", "p2"], [2, 1])
    play(store, "m3", GAME, ["p1", "p2"], [1, 2])
    play(store, "m4", GAME, ["p0", "p2"], [1, 2])
    anna_before = store.ratings_of("p0")[GAME, "rated"]
    assert anna_before.matches == 3

    removed = moderation.mark(store, "p1", "scripted", actor="cli:op", remove_results=True)
    assert removed == ["m1", "m3"]
    anna, cleo = update([NEW, NEW], [2, 1], GAME)  # m2 and m4 only, from new ratings
    anna, cleo = update([anna, cleo], [1, 2], GAME)
    assert store.ratings_of("p0")[GAME, "rated"] == RatingRow(anna.mu, anna.sigma, 2,
                                                              1_000_000_000)
    assert store.ratings_of("p2")[GAME, "rated"] == RatingRow(cleo.mu, cleo.sigma, 2,
                                                              1_000_000_000)
    assert store.ratings_of("p1") == {}  # Ben's and his opponents' changes of m1, m3 gone
    assert [(c.match_id, c.change.player_id) for m in store.rated_matches_in_order()
            for c in m.changes] == [("m2", "p0"), ("m2", "p2"), ("m4", "p0"), ("m4", "p2")]
    assert [(e["act"], e["detail"]) for e in moderation.audit_log(store)] == [
        ("remove_results", {"matches": ["m1", "m3"], "replayed": 2}),
        ("mark", {"remove_results": True})]
    # unmarking lists Ben again but brings nothing back, nor does a rebuild
    moderation.unmark(store, "p1", "appeal", actor="cli:op")
    assert rebuild(store).differences == []
    assert store.ratings_of("p1") == {} and store.ratings_of("p0")[GAME, "rated"].matches == 2
    store.close()
