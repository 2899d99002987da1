"""How fast ratings are: openskill updates per second (alone, and stored with their match by
``Store.finish_match``), and leaderboard, rank and profile queries over a big store (100,000
players, 1,000,000 matches by default) in SQLite and PostgreSQL, with the leaderboard's plan.

    .venv/bin/python bench/ratings.py [--players N] [--matches N] [--queries N]
                                      [--updates N] [--sqlite | --postgres]

The big store is filled with synthetic rows (matches, seats with places and statistics,
rating changes as random walks, the ratings they end at; no actions) written in bulk. The
PostgreSQL server is a throwaway local one (``tests/pg.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import text

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from pg import fresh_database, postgres_server
from zackzack.ratings import BOARD_ACTIVE_DAYS, DAY_MS, NEW, Pool, RatingChange, update
from zackzack.store import MatchStart, PlayerRecord, SeatRecord, Status, Store
from zackzack.store.ratings import BOARD_TOTAL_FRESH_MS

GAMES = ("unter-spannung", "schnelllauf")
NOW_MS = 1_780_000_000_000
"""The bench's wall clock (fixed: the data are made relative to it)."""
SPAN_DAYS = 60
"""The synthetic matches are spread over this many days before ``NOW_MS``."""


def timed(count: int, work: Callable[[int], object]) -> float:
    """Seconds ``work(i)`` takes for i in range(count), in all."""
    began = time.perf_counter()
    for i in range(count):
        work(i)
    return time.perf_counter() - began


def percentiles(samples: Sequence[float]) -> str:
    """Median and 99th percentile of ``samples`` (seconds), in ms."""
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"median {statistics.median(ordered) * 1e3:7.2f} ms   p99 {p99 * 1e3:7.2f} ms"


# Rating updates -----------------------------------------------------------------------------

def pure_updates(count: int) -> None:
    """openskill Plackett–Luce updates, 2 and 4 players, without a store."""
    for seats in (2, 4):
        before, placed = [NEW] * seats, list(range(1, seats + 1))
        took = timed(count, lambda _, before=before, placed=placed:
                     update(before, placed, GAMES[0]))
        print(f"  openskill update, {seats} players: {count / took:9.0f} matches/s "
              f"({count * seats / took:9.0f} ratings/s)")


def stored_updates(url: str, count: int, wall: Callable[[], float]) -> None:
    """``Store.finish_match`` with the rating changes of 2- and 4-player rated matches."""
    store = Store(url, wall=wall)
    try:
        people = [f"p_{n}" for n in range(8)]
        for person in people:
            store.add_player(PlayerRecord(person, person), f"h-{person}")
        current = {person: NEW for person in people}
        for seats in (2, 4):
            finishing = 0.0
            for i in range(count):
                match_id = f"m{seats}-{i}"
                sat = [people[(i + k) % len(people)] for k in range(seats)]
                store.begin_match(MatchStart(
                    match_id, "ABCDEF", GAMES[0], "bench", {"players": seats}, {}, i, None,
                    tuple(SeatRecord(k, p, p) for k, p in enumerate(sat)), False, 0, rated=True))
                placed = list(range(1, seats + 1))
                began = time.perf_counter()
                before = [current[p] for p in sat]
                after = update(before, placed, GAMES[0])
                changes = [RatingChange(p, GAMES[0], Pool.RATED, k, placed[k], before[k],
                                        after[k]) for k, p in enumerate(sat)]
                store.finish_match(match_id, Status.OVER, 1000, {
                    "placings": [{"seat": k, "place": placed[k]} for k in range(seats)],
                    "rounds": 1}, rated=changes, stats=[
                        {"seat": k, "played": 10, "wrong": 1, "late": 0, "reaction_ms": 700}
                        for k in range(seats)])
                finishing += time.perf_counter() - began
                current.update(zip(sat, after, strict=True))
            print(f"  update + finish_match, {seats} players: {count / finishing:9.0f} matches/s "
                  f"({finishing / count * 1e3:.2f} ms each)")
    finally:
        store.close()


# The big store ------------------------------------------------------------------------------

def synthetic(players: int, count: int, seed: int = 1) -> dict[str, list[tuple[Any, ...]]]:
    """Rows of every table for ``players`` players and ``count`` rated matches (plus their
    seats, statistics, changes and the ratings those end at)."""
    rng = random.Random(seed)
    rows: dict[str, list[tuple[Any, ...]]] = {
        "players": [], "matches": [], "match_players": [], "rating_changes": [], "ratings": []}
    deleted, listed = set(), set()
    for n in range(players):
        player = f"p_{n:08d}"
        if rng.random() < 0.01:
            deleted.add(player)
            rows["players"].append((player, "", 0, None, None, None, NOW_MS - DAY_MS))
        elif rng.random() < 0.9:
            listed.add(player)
            rows["players"].append((player, f"Spieler {n}", 0, f"spleler {n}", "$argon2id$x",
                                    0, None))
        else:
            rows["players"].append((player, f"Gast {n}", 0, None, None, None, None))
    ids = [row[0] for row in rows["players"]]
    state: dict[tuple[str, str], list[Any]] = {}
    seq = 0
    start = NOW_MS - SPAN_DAYS * DAY_MS
    for m in range(count):
        at = start + (SPAN_DAYS * DAY_MS * m) // count
        game = GAMES[m % 5 >= 3]
        seats = 2 if rng.random() < 0.5 else 4
        sat = rng.sample(ids, seats)
        placed = list(range(1, seats + 1))
        rng.shuffle(placed)
        match_id = f"m{m:09d}"
        seat_json = json.dumps([{"seat": k, "name": p, "player": p, "bot": None}
                                for k, p in enumerate(sat)])
        result = json.dumps({"placings": [{"seat": k, "place": placed[k]}
                                          for k in range(seats)], "rounds": 3})
        rows["matches"].append((match_id, "ABCDEF", game, "bench", f'{{"players": {seats}}}',
                                "{}", m, None, seat_json, False, "over", at - 300_000, at, 0,
                                300_000, result, True, None, None))
        for k, player in enumerate(sat):
            rows["match_players"].append((match_id, k, player, placed[k], rng.randrange(40),
                                          rng.randrange(5), rng.randrange(5),
                                          rng.randrange(400, 1500), 3))
            if player in deleted:
                continue
            mu, sigma, played, _ = state.get((player, game), [25.0, 25 / 3, 0, 0])
            after_mu = mu + rng.gauss((seats + 1) / 2 - placed[k], 1.0) * sigma / 8
            after_sigma = max(1.0, sigma * 0.97)
            seq += 1
            rows["rating_changes"].append((seq, match_id, player, game, "rated", k, placed[k],
                                           mu, sigma, after_mu, after_sigma, at))
            state[player, game] = [after_mu, after_sigma, played + 1, at]
    rows["ratings"] = [(player, game, "rated", mu, sigma, played, last, player in listed)
                       for (player, game), (mu, sigma, played, last) in state.items()]
    return rows


COLUMNS = {
    "players": "id, name, created_at, name_key, password_hash, claimed_at, deleted_at",
    "matches": "id, code, game, title, options, settings, seed, deal, seats, private, status, "
               "started_at, ended_at, start_ms, end_ms, result, rated, abandoned, stats",
    "match_players": "match_id, seat, player_id, place, played, wrong, late, reaction_ms, "
                     "rounds",
    "rating_changes": "seq, match_id, player_id, game, pool, seat, place, mu_before, "
                      "sigma_before, mu_after, sigma_after, at",
    "ratings": "player_id, game, pool, mu, sigma, matches, last_at, listed",
}


def load_sqlite(path: Path, rows: dict[str, list[tuple[Any, ...]]]) -> None:
    """Write the rows into the (migrated, empty) SQLite file at ``path``."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous=OFF")
        conn.execute("BEGIN")
        for table, columns in COLUMNS.items():
            marks = ", ".join("?" * (columns.count(",") + 1))
            conn.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows[table])
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def load_postgres(store: Store, rows: dict[str, list[tuple[Any, ...]]]) -> None:
    """Write the rows into the (migrated, empty) PostgreSQL database with COPY."""
    raw = store.engine.raw_connection()
    try:
        cursor = raw.cursor()
        for table, columns in COLUMNS.items():
            with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows[table]:
                    copy.write("\t".join(_copy_field(value) for value in row) + "\n")
        cursor.execute("SELECT setval('rating_changes_seq_seq', "
                       "(SELECT max(seq) FROM rating_changes))")
        raw.commit()
        raw.dbapi_connection.autocommit = True  # type: ignore[union-attr]
        raw.cursor().execute("VACUUM ANALYZE")
    finally:
        raw.close()


def _copy_field(value: Any) -> str:
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    return str(value).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def plans(store: Store) -> None:
    """The leaderboard's plans: from the ratings index, matches never read."""
    page, total = store.leaderboard_queries(GAMES[0], now_ms=NOW_MS)
    with store.engine.connect() as conn:
        for name, statement in (("page", page), ("total", total)):
            compiled = statement.compile(conn, compile_kwargs={"literal_binds": True})
            if conn.dialect.name == "sqlite":
                found = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}").all()
                lines = [str(row[-1]) for row in found]
            else:
                found = conn.exec_driver_sql(f"EXPLAIN (ANALYZE, COSTS OFF, BUFFERS) {compiled}")
                lines = [str(row[0]) for row in found]
            print(f"  plan of the leaderboard's {name}:")
            for line in lines:
                print(f"    {line}")
            if name == "page":
                assert any("ratings_board" in line for line in lines), "no index"
            assert not any(word in line for line in lines
                           for word in ("SCAN matches", "on matches")), "matches scanned"


def queries(store: Store, count: int, players: int) -> None:
    """Leaderboard pages, ranks and profiles: median and p99 over ``count`` each."""
    rng = random.Random(2)
    board, total = store.leaderboard(GAMES[0], now_ms=NOW_MS, limit=50)
    print(f"  leaderboard of {GAMES[0]}: {total} eligible players; first: "
          f"{board[0].name if board else '-'} μ={board[0].mu if board else 0:.2f}")
    samples = []
    for i in range(count):
        began = time.perf_counter()
        store.leaderboard(GAMES[i % 2], now_ms=NOW_MS, limit=50)
        samples.append(time.perf_counter() - began)
    print(f"  leaderboard, first page (50 rows, the count kept): {percentiles(samples)}")
    samples = []
    for i in range(count):  # each as the first request after the count went stale
        began = time.perf_counter()
        store.leaderboard(GAMES[i % 2], now_ms=NOW_MS + (i + 1) * BOARD_TOTAL_FRESH_MS,
                          limit=50)
        samples.append(time.perf_counter() - began)
    print(f"  leaderboard, first page, counted anew:          {percentiles(samples)}")
    samples = []
    for i in range(count):
        offset = rng.randrange(0, max(1, total - 50))
        began = time.perf_counter()
        store.leaderboard(GAMES[i % 2], now_ms=NOW_MS, limit=50, offset=offset)
        samples.append(time.perf_counter() - began)
    print(f"  leaderboard, a random page (offset < {total}):  {percentiles(samples)}")
    samples = []
    for i in range(count):
        player = f"p_{rng.randrange(players):08d}"
        began = time.perf_counter()
        store.rank_of(player, GAMES[i % 2], NOW_MS)
        samples.append(time.perf_counter() - began)
    print(f"  rank_of a random player:                       {percentiles(samples)}")
    samples = []
    for _ in range(count):
        player = f"p_{rng.randrange(players):08d}"
        began = time.perf_counter()
        store.profile(player)
        samples.append(time.perf_counter() - began)
    print(f"  profile of a random player:                    {percentiles(samples)}")


@contextlib.contextmanager
def big_store(kind: str, folder: Path, rows: dict[str, list[tuple[Any, ...]]],
              server: str | None) -> Iterator[Store]:
    """A store of ``kind`` holding ``rows``."""
    wall = lambda: NOW_MS / 1000  # noqa: E731
    began = time.perf_counter()
    if kind == "sqlite":
        path = folder / "big.db"
        Store(f"sqlite:///{path}", wall=wall).close()
        load_sqlite(path, rows)
        store = Store(f"sqlite:///{path}", wall=wall)
        size = path.stat().st_size
    else:
        assert server is not None
        store = Store(fresh_database(server), wall=wall)
        load_postgres(store, rows)
        with store.engine.connect() as conn:
            size = int(conn.execute(text("SELECT pg_database_size(current_database())"))
                       .scalar_one())
    print(f"  loaded in {time.perf_counter() - began:.0f} s, {size / 1e6:.0f} MB")
    try:
        yield store
    finally:
        store.close()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--updates", type=int, default=2000)
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--sqlite", action="store_true", help="SQLite only")
    only.add_argument("--postgres", action="store_true", help="PostgreSQL only")
    args = parser.parse_args(argv)
    kinds = ["sqlite"] if args.sqlite else ["postgresql"] if args.postgres else \
        ["sqlite", "postgresql"]
    clock = iter(range(10**12))
    wall = lambda: NOW_MS / 1000 + next(clock)  # noqa: E731
    with tempfile.TemporaryDirectory(prefix="zackzack-bench-") as name, \
            (postgres_server("shared_buffers=256MB") if "postgresql" in kinds
             else contextlib.nullcontext()) as server:
        folder = Path(name)
        print("rating updates:")
        pure_updates(args.updates)
        for kind in kinds:
            url = f"sqlite:///{folder / 'updates.db'}" if kind == "sqlite" else \
                fresh_database(server or "")
            print(f" {kind}:")
            stored_updates(url, args.updates // 4, wall)
        began = time.perf_counter()
        rows = synthetic(args.players, args.matches)
        print(f"\nsynthetic data: {args.players} players, {args.matches} matches, "
              f"{len(rows['match_players'])} seats, {len(rows['rating_changes'])} rating "
              f"changes, {len(rows['ratings'])} ratings (made in "
              f"{time.perf_counter() - began:.0f} s); now = {NOW_MS}, "
              f"active = the last {BOARD_ACTIVE_DAYS} of {SPAN_DAYS} days")
        for kind in kinds:
            print(f"\n{kind}:")
            with big_store(kind, folder, rows, server) as store:
                plans(store)
                store.leaderboard(GAMES[0], now_ms=NOW_MS)  # warm the cache
                queries(store, args.queries, args.players)


if __name__ == "__main__":
    main()
