"""``zackzack ratings rebuild``: replaying the stored matches gives back every stored rating
exactly, restores a tampered one, and ``--check`` reports without writing."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from sqlalchemy import select, update

from zackzack.cli import main
from zackzack.commands.ratings import rebuild
from zackzack.ratings import DAY_MS, NEW, Pool, Rating, drifted, match_changes, places
from zackzack.store import MatchStart, PlayerRecord, SeatRecord, Status, Store, database_url
from zackzack.store.schema import rating_changes, ratings

START = 1_780_000_000.0


class Wall:
    """The store's clock: it moves only when the test says."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def where(tmp_path: Path) -> str:
    return str(tmp_path / "zackzack.db")


@pytest.fixture
def wall() -> Wall:
    return Wall()


@pytest.fixture
def store(where: str, wall: Wall) -> Iterator[Store]:
    opened = Store(database_url(where), wall=wall)
    yield opened
    opened.close()


def finish(store: Store, match_id: str, game: str, seats: Sequence[tuple[str | None, str | None]],
           placed: Sequence[int], *, rated: bool, abandoned: Sequence[int] = ()) -> int:
    """A match finished as the live server finishes one: the changes from ``match_changes``
    on the stored ratings (σ grown with the time away), written with ``finish_match``."""
    records = tuple(SeatRecord(n, person or "Bot", person, bot)
                    for n, (person, bot) in enumerate(seats))
    options = {"players": len(seats)}
    store.begin_match(MatchStart(match_id, match_id[-6:].upper().rjust(6, "X"), game, "t",
                                 options, {}, 1, None, records, False, 0, rated=rated))
    result = {"placings": [{"seat": n, "place": p} for n, p in enumerate(placed)], "rounds": 1}
    now = int(store.wall() * 1000)

    def current(player: str, pool: Pool) -> Rating:
        row = store.ratings_of(player).get((game, pool.value))
        return NEW if row is None else drifted(row.rating, row.last_at, now)

    final = places(result, len(seats), abandoned)
    assert final is not None
    changes = match_changes(game, seats, final, rated=rated, options=options, current=current)
    store.finish_match(match_id, Status.OVER, 60_000, result, abandoned=abandoned,
                       rated=changes)
    return len(changes)


def history(store: Store) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Every stored rating and rating change, in a fixed order (``seq`` left out)."""
    with store.engine.connect() as conn:
        rows = conn.execute(select(ratings).order_by(ratings.c.player_id, ratings.c.game,
                                                     ratings.c.pool)).all()
        changes = conn.execute(select(rating_changes).order_by(rating_changes.c.seq)).all()
    return ([tuple(r) for r in rows],
            [tuple(v for k, v in c._mapping.items() if k != "seq") for c in changes])


def fill(store: Store, wall: Wall) -> None:
    """Rated matches of two, three and four people (ties, a leaver), casual matches against
    bots, a casual match of people and one against a random bot (neither changes anything),
    days apart so that σ grows in between."""
    for player in ("p_ann", "p_bob", "p_cem", "p_dia"):
        store.add_player(PlayerRecord(player, player[2:].title()), f"h-{player}")
    us, sl = "unter-spannung", "schnelllauf"
    people = [("p_ann", None), ("p_bob", None), ("p_cem", None), ("p_dia", None)]
    made = [
        finish(store, "m_01", us, people, [2, 1, 3, 3], rated=True),
        finish(store, "m_02", sl, people[:2], [1, 2], rated=True),
        finish(store, "m_03", us, [("p_ann", None), (None, "pro")], [2, 1], rated=False),
        finish(store, "m_04", us, [(None, "beginner"), ("p_cem", None), (None, "machine")],
               [3, 1, 2], rated=False),
    ]
    wall.now += 3 * DAY_MS / 1000
    made += [
        finish(store, "m_05", us, people[:3], [1, 2, 3], rated=True, abandoned=[0]),
        finish(store, "m_06", us, people[:2], [1, 2], rated=False),
        finish(store, "m_07", sl, [("p_bob", None), (None, "pro:random")], [1, 2], rated=False),
    ]
    wall.now += 40 * DAY_MS / 1000
    made += [
        finish(store, "m_08", us, people, [1, 1, 2, 4], rated=True),
        finish(store, "m_09", sl, [(None, "normal"), ("p_dia", None)], [2, 1], rated=False),
    ]
    assert made == [4, 2, 1, 1, 3, 0, 0, 4, 1]


def test_rebuild_gives_back_every_stored_rating_exactly(store: Store, wall: Wall) -> None:
    fill(store, wall)
    before = history(store)
    rebuilt = rebuild(store)
    assert rebuilt.differences == [] and rebuilt.matches == 7
    assert history(store) == before  # ==: the same floats, not approximately
    assert rebuild(store, check=True).differences == []


def test_rebuild_restores_a_tampered_rating_and_check_finds_it(
        store: Store, wall: Wall, where: str, capsys: pytest.CaptureFixture[str]) -> None:
    fill(store, wall)
    before = history(store)
    with store.engine.begin() as conn:
        conn.execute(update(ratings).where(ratings.c.player_id == "p_bob",
                                           ratings.c.pool == "rated",
                                           ratings.c.game == "unter-spannung")
                     .values(mu=99.0))
        conn.execute(update(rating_changes).where(rating_changes.c.match_id == "m_08",
                                                  rating_changes.c.player_id == "p_cem")
                     .values(sigma_after=1.5))
    assert main(["ratings", "rebuild", "--db", where, "--check"]) == 1
    out = capsys.readouterr()
    assert "p_bob unter-spannung rated: stored μ 99.000000" in out.out
    assert "match m_08 p_cem rated: stored" in out.out
    assert "7 matches, 16 rating changes" in out.err and "2 differences" in out.err
    assert history(store) != before  # --check writes nothing
    assert main(["ratings", "rebuild", "--db", where]) == 0
    assert history(store) == before
    assert main(["ratings", "rebuild", "--db", where, "--check"]) == 0


def test_a_deleted_players_changes_are_replayed_but_get_no_rating(store: Store,
                                                                 wall: Wall) -> None:
    fill(store, wall)
    store.delete_player("p_dia")
    before = history(store)
    assert not any(row[0] == "p_dia" for row in before[0])
    rebuilt = rebuild(store)
    assert rebuilt.differences == [] and ("p_dia", "unter-spannung", "rated") in rebuilt.ratings
    assert history(store) == before


def test_rebuild_of_an_empty_database_and_a_missing_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ratings", "rebuild", "--db", str(tmp_path / "new.db"), "--check"]) == 0
    assert "0 matches, 0 rating changes" in capsys.readouterr().err
    assert main(["ratings", "rebuild", "--db", str(tmp_path / "no" / "z.db")]) == 2
    assert "zackzack ratings: error:" in capsys.readouterr().err


def test_mark_remove_results_rebuilds_without_the_players_matches(
        store: Store, wall: Wall, where: str, capsys: pytest.CaptureFixture[str]) -> None:
    fill(store, wall)
    _, changes = history(store)
    assert main(["moderation", "mark", "p_dia", "--remove-results", "--reason", "scripted",
                 "--db", where, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "done": "mark", "player": "p_dia", "removed_matches": ["m_01", "m_08", "m_09"]}
    _, after = history(store)
    # every participant's changes of Dia's matches are gone; m_02 to m_04 never depended on
    # them, m_05 is replayed from new ratings
    assert [c for c in after if c[0] != "m_05"] == [
        c for c in changes if c[0] in ("m_02", "m_03", "m_04")]
    assert {(c[1], c[6], c[7]) for c in after if c[0] == "m_05"} == {
        (player, NEW.mu, NEW.sigma) for player in ("p_ann", "p_bob", "p_cem")}
    assert store.ratings_of("p_dia") == {}
    assert rebuild(store, check=True).differences == []  # a plain rebuild keeps it so
