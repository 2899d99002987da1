"""The CPU one action costs in process: from a client's text to every seat's events, no sockets.

A lobby on a virtual clock with a real store on a temporary SQLite file and the real journal
(the test kit's ``World``, tests/server/kit.py), four connections (the kit's ``Client``: a
``Session`` each, its ``send`` a callback) at an Unter Spannung table in tournament mode, made
the way bench/load.py makes them (create with four open seats, three joins, ready, start).
Each connection acts on its latest view as bench/load.py's clients do — a card that fits, else
a draw — by handing ``Session.receive`` the text a websocket frame would carry
(``{"type":"act","ref":…,"action":{…}}``). After every round of the four seats, virtual time
moves on by ``--step`` seconds: the journal commits what the seats did (one transaction for up
to four actions; the server commits once per turn of its event loop, 6 actions per commit at
250 clients), the pings go out and are answered, the table's timers run. When a match ends the
four sit down at a new table.

Only the server's part is timed (``time.process_time``): ``Session.receive`` with everything
it causes — the arbiter, the table, the rules, the room's events and views for every seat,
encoding, the ack — and the virtual clock's turns (the journal's commits, pings, the table's
countdowns). Choosing an action (decoding the view) and sitting down at a new table are not.
The deals are seeded (``--seed``: ``secrets.randbits``, which the room draws a table's seed
from, is a seeded generator's during a run), so every run plays the same actions and the
server sends the same texts; ``--digest`` prints a hash of every ``events`` and ``ack`` text
the clients received, to check that a change to the server leaves the wire as it was (the
``table`` messages are left out: they carry random codes and ids). CPU time on a shared machine
varies by ±10 % from run to run: compare two versions of the code alternating, e.g. the
committed one from an exported tree (``git archive HEAD src | tar -x -C /tmp/base``, then
``PYTHONPATH=/tmp/base/src``).

    .venv/bin/python bench/actions.py [--actions 20000] [--repeats 5] [--digest]
    .venv/bin/python bench/actions.py --actions 20000 --repeats 1 --profile
    MYPYPATH=tests .venv/bin/mypy --strict --follow-imports=silent bench/actions.py
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import hashlib
import itertools
import json
import pstats
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from server.kit import Client, World, us_action
from zackzack.store import Store, database_url

CREATE = {"type": "create", "game": "unter-spannung", "options": {"tournament": True},
          "seats": [{"kind": "open"}] * 4}
"""The table bench/load.py makes."""


class Seat(Client):
    """A kit client that, once ``quiet``, only keeps the texts it is sent (the kit decodes each
    one): what the timed part pays for a message is then the server's, not the client's."""

    def __init__(self, world: World, name: str) -> None:
        self.quiet = False
        self.latest = ""
        """The latest ``events`` or ``table`` text (kept by ``read``)."""
        super().__init__(world, name)

    def _got(self, text: str) -> None:
        if not self.quiet:
            super()._got(text)
        elif text.startswith('{"type":"ping"'):  # answered at once, as the kit does
            self.session.receive(json.dumps({"type": "pong", "n": json.loads(text)["n"]}))
        else:
            self.texts.append(text)

    def read(self) -> list[str]:
        """The texts kept since the last ``read``; the latest view noted."""
        texts: list[str] = self.texts
        self.texts = []
        for text in reversed(texts):
            if text.startswith(('{"type":"events"', '{"type":"table"')):
                self.latest = text
                break
        return texts


class Bench:
    """One run: a world, four seats, ``actions`` actions."""

    def __init__(self, path: Path, step: float, profile: cProfile.Profile | None) -> None:
        self.step, self.profile = step, profile
        self.store = Store(database_url(str(path)))
        self.world = World(self.store)
        self.digest = hashlib.sha256()
        self.seats = [Seat(self.world, name) for name in ("Anna", "Ben", "Cleo", "Dan")]
        self.cpu = 0.0
        self.sent = self.accepted = self.matches = 0

    def read(self) -> None:
        """Take in what the seats were sent (untimed): the digest, the accepted actions."""
        for seat in self.seats:
            for text in seat.read():
                if text.startswith(('{"type":"events"', '{"type":"ack"')):
                    self.digest.update(text.encode())
                    if text.startswith('{"type":"ack"') and '"ok":true' in text:
                        self.accepted += 1

    @contextmanager
    def timed(self) -> Iterator[None]:
        """Count the CPU of the block (and profile it, with ``--profile``)."""
        if self.profile is not None:
            self.profile.enable()
        began = time.process_time()
        try:
            yield
        finally:
            self.cpu += time.process_time() - began
            if self.profile is not None:
                self.profile.disable()

    def sit_down(self) -> None:
        """The four at a new table, as bench/load.py seats them; its start countdown run."""
        for seat in self.seats:
            seat.quiet = False
            seat.inbox.clear()
            seat.texts.clear()
        host = self.seats[0]
        host.send(**CREATE)
        code = host.table["code"]
        for seat in self.seats[1:]:
            seat.send(type="join", code=code)
            seat.send(type="ready", ready=True)
        host.send(type="start")
        self.world.wait(self.world.settings.start_ms / 1000)
        for seat in self.seats:
            seat.latest = json.dumps({"type": "events", "view": seat.view})
            seat.texts.clear()
            seat.quiet = True
        self.matches += 1

    def play(self, actions: int) -> None:
        """``actions`` actions, each seat in turn on its latest view."""
        self.sit_down()
        while self.sent < actions:
            acted = False
            for seat in self.seats:
                text = self.action_of(seat)
                if text is None:
                    continue
                with self.timed():
                    seat.session.receive(text)
                self.read()
                self.sent += 1
                acted = True
            if not acted and json.loads(self.seats[0].latest)["view"]["phase"] == "over":
                self.sit_down()
                continue
            with self.timed():
                self.world.wait(self.step if acted else 1.0)
            self.read()

    def action_of(self, seat: Seat) -> str | None:
        """The text of ``seat``'s action on its latest view (``None``: none possible now)."""
        view = json.loads(seat.latest)["view"]
        room = seat.session.room
        if view["phase"] != "playing" or room is None \
                or view["frozen_until"][view["seat"]] > room.table.time_ms():
            return None
        action = us_action(view)
        if action is None:
            return None
        ref = next(Client.refs) % 2**31
        return json.dumps({"type": "act", "ref": ref, "action": action},
                          separators=(",", ":"), ensure_ascii=False)

    def close(self) -> None:
        """Commit what is left and close the store."""
        self.world.lobby.journal.flush()
        self.store.close()


def run(actions: int, seed: int, step: float,
        profile: cProfile.Profile | None) -> tuple[float, Bench]:
    """One run on a fresh store: µs of CPU per action, and the run."""
    deals = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder, \
            mock.patch.object(secrets, "randbits", deals.getrandbits):
        Client.refs = itertools.count()  # the same refs in every run
        bench = Bench(Path(folder) / "bench.db", step, profile)
        gc.collect()
        try:
            bench.play(actions)
        finally:
            bench.close()
    return bench.cpu / bench.sent * 1e6, bench


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1, help="of the deals")
    parser.add_argument("--step", type=float, default=0.25,
                        help="virtual seconds after each round of the four seats")
    parser.add_argument("--digest", action="store_true",
                        help="print a hash of every events and ack text sent")
    parser.add_argument("--profile", action="store_true",
                        help="a cProfile of the timed part: top 30 cumulative and tottime")
    args = parser.parse_args()
    profile = cProfile.Profile() if args.profile else None
    figures, digests = [], set()
    for _ in range(args.repeats):
        us, bench = run(args.actions, args.seed, args.step, profile)
        figures.append(us)
        digests.add(bench.digest.hexdigest())
        print(f"{us:7.1f} µs CPU per action  ({bench.sent} actions, {bench.accepted} accepted, "
              f"{bench.matches} matches)", flush=True)
    print(f"median {statistics.median(figures):.1f}, least {min(figures):.1f} µs CPU per action "
          f"over {args.repeats} runs")
    if args.digest:
        print(f"digest of the events and acks: {', '.join(sorted(digests))}")
    if profile is not None:
        for order in ("cumulative", "tottime"):
            print(f"\n--- top 30 by {order} (all runs) ---")
            pstats.Stats(profile).strip_dirs().sort_stats(order).print_stats(30)


if __name__ == "__main__":
    main()
