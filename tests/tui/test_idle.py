"""The idle rule in the terminal (docs/rules.md, *A round always ends*): the person the table
waits on reads the warning with its countdown, then that a stand-in plays for them; the
others read it after their name."""

from __future__ import annotations

import random

import pytest

from tui.kit import Still, shown, text, until
from zackzack.engine.table import Phase, TableView
from zackzack.games import unter_spannung as us
from zackzack.tui.app import PlayApp
from zackzack.tui.board import Board
from zackzack.tui.session import Seat


def playing(now: int) -> TableView:
    """An Unter Spannung round on, as seat 0 sees it at table time ``now``."""
    state = us.deal(us.Options(players=2), random.Random(1))
    return TableView(game="unter-spannung", phase=Phase.PLAYING, now=now, seat=0, players=2,
                     round=1, state=us.view(state, 0), frozen_until=(0, 0), countdown=None,
                     next_round_at=None, starts_at=None, results=(), totals=(0, 0),
                     result=None)


@pytest.mark.parametrize(("lang", "warning", "mark"), [
    ("en", "The table is waiting for you – in 7 s a stand-in plays for you", "stand-in playing"),
    ("de", "Du bist dran – in 7 s spielt eine Vertretung für dich", "Vertretung spielt"),
])
async def test_the_warning_and_the_stand_in_in_words(lang: str, warning: str,
                                                     mark: str) -> None:
    still = Still(us, playing(5_000),
                  [Seat("Tui", stand_in_at=11_500), Seat("Anna", stand_in=True)])
    app = PlayApp(lang, lambda: still)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: warning in shown(app, "#banner"))
        await until(pilot, lambda: f"Anna ({mark})" in text(app.screen.query_one(Board).render()))


async def test_a_stand_in_playing_for_you_says_how_to_take_the_seat_back() -> None:
    still = Still(us, playing(5_000), [Seat("Tui", stand_in=True), Seat("Anna")])
    app = PlayApp("en", lambda: still)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: "A stand-in is playing for you – your next key takes your "
                    "seat back" in shown(app, "#banner"))
