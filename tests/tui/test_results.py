"""Results that fit: every place and the hint on an 80 × 24 terminal, with six players and a
tournament's twelve rounds, or with a Schnelllauf match of 35 rounds; the rounds scroll."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from tui.kit import Still, screenshot, shown, until
from zackzack.engine.table import Phase, TableView
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.base import MatchResult, Placing, RoundResult
from zackzack.tui.app import PlayApp
from zackzack.tui.results import Results
from zackzack.tui.session import Seat

NAMES = ("Anna", "Ben (Profi)", "Carla (normal)", "Dieter (Anfänger)", "Emil (Maschine)",
         "Frida (normal)")


def _over(game: str, players: int, rounds: int) -> TableView:
    results = tuple(RoundResult(n, n % players, "went_out",
                                tuple((n * 7 + seat * 3) % 11 for seat in range(players)))
                    for n in range(1, rounds + 1))
    totals = tuple(sum(r.scores[seat] for r in results) for seat in range(players))
    order = sorted(range(players), key=lambda seat: totals[seat])
    placings = tuple(Placing(seat, place, totals[seat], "fewest")
                     for place, seat in enumerate(order, 1))
    return TableView(game=game, phase=Phase.OVER, now=600_000, seat=0, players=players,
                     round=rounds, state=None, frozen_until=(0,) * players, countdown=None,
                     next_round_at=None, starts_at=None, results=results, totals=totals,
                     result=MatchResult(placings, rounds, "rounds_played"))


def _visible(app: PlayApp, widget: Static | DataTable[object]) -> bool:
    """Whether ``widget`` lies wholly on the screen."""
    region, screen = widget.region, app.screen.region
    return region.height > 0 and screen.contains_region(region)


async def test_six_players_and_twelve_rounds_fit_80_by_24() -> None:
    view = _over("unter-spannung", 6, 12)
    seats = [Seat(name, "human" if i == 0 else "bot") for i, name in enumerate(NAMES)]
    app = PlayApp("de", lambda: Still(us, view, seats))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Partie vorbei" in shown(app, "#results"))
        await pilot.pause(0.1)
        results = app.screen.query_one(Results)
        table = results.table
        assert table.row_count == 6 and table.max_scroll_y == 0  # every place without scrolling
        places = [str(table.get_row_at(row)[0]) for row in range(6)]
        assert places == ["1.", "2.", "3.", "4.", "5.", "6."]
        labels = [str(column.label) for column in table.columns.values()]
        assert labels[:4] == ["Platz", "", "Summe", "12"]  # totals first, then the last round
        hint = results.query_one("#hint", Static)
        assert _visible(app, table) and _visible(app, hint)
        assert "Enter: neue Partie · Esc: beenden" in str(hint.content)
        # Nothing to scroll to: not offered, once the table knows its size (after a refresh,
        # which a loaded machine may not have reached 0.1 s in).
        await until(pilot, lambda: "blättern" not in str(hint.content))
        screenshot(app, "results_us_6_players_de")


async def test_35_schnelllauf_rounds_fit_and_scroll() -> None:
    view = _over("schnelllauf", 2, 35)
    app = PlayApp("en", lambda: Still(sl, view, [Seat("Tui"), Seat("Ben (pro)", "bot")]),
                  again=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Match over" in shown(app, "#results"))
        await pilot.pause(0.1)
        results = app.screen.query_one(Results)
        table = results.table
        labels = [str(column.label) for column in table.columns.values()]
        assert labels[:5] == ["Place", "", "Total", "35", "34"] and len(labels) == 38
        assert table.max_scroll_x > 0  # the older rounds lie to the right
        hint = results.query_one("#hint", Static)
        assert _visible(app, table) and _visible(app, hint)
        assert "Esc: quit" in str(hint.content) and "scroll" in str(hint.content)
        screenshot(app, "results_sl_35_rounds")
        await pilot.press("right", "right")
        await until(pilot, lambda: table.scroll_x > 0)
        await pilot.press("left", "left", "left")
        await until(pilot, lambda: table.scroll_x == 0)
        assert app.is_running  # scrolling is all the arrows do here
