"""How long storing costs: one committed action, one round, reading a log back (SQLite, WAL).

    .venv/bin/python bench/store_append.py [ACTIONS]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from zackzack.store import MatchStart, RoundRecord, Store, database_url


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    store = Store(database_url(str(Path(tempfile.mkdtemp()) / "bench.db")))
    store.begin_match(MatchStart("m1", "ABCDEF", "unter-spannung", "bench", {"players": 2}, {},
                                 1, None, (), False, 0))
    began = time.perf_counter()
    for n in range(count):
        store.append_action("m1", n, n * 10, n % 2, {"type": "play", "card": "7±2", "seen": n})
    took = time.perf_counter() - began
    print(f"append_action: {took / count * 1e6:.0f} µs per committed action "
          f"({count / took:.0f}/s), journal_mode={store.journal_mode()}")
    began = time.perf_counter()
    for number in range(1, 201):
        store.record_round("m1", RoundRecord(number, 0, "went_out", (0, 12), (0, 12)))
    print(f"record_round: {(time.perf_counter() - began) / 200 * 1e6:.0f} µs per round")
    began = time.perf_counter()
    log = store.log("m1", finished=False)
    assert log is not None and len(log.actions) == count
    print(f"log of {count} actions read and parsed: {(time.perf_counter() - began) * 1e3:.0f} ms")
    store.close()


if __name__ == "__main__":
    main()
