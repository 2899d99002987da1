"""The stored matches: an abandoned match says so in words, a replay's rounds have column names.

The matches are made beforehand on a virtual clock (bots only, in-process) in a database of
this test's own, served by a server of its own: the other tests' match lists stay theirs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from e2e.conftest import LiveServer
from server.kit import World
from zackzack.engine.table import Settings
from zackzack.store import Store, database_url

pytestmark = pytest.mark.e2e


def bot_match(world: World, rounds: int, abandon: bool) -> str:
    """A Schnelllauf match of two bots (watched by Carla) with ``rounds`` rounds played; then
    the table closes (an unfinished match is stored as abandoned). Its id."""
    carla = world.client("Carla")
    carla.send(type="create", game="schnelllauf", options={"max_rounds": rounds + abandon},
               seats=[{"kind": "bot", "bot": "pro"}, {"kind": "bot", "bot": "machine"}])
    room = world.lobby.rooms[carla.table["code"]]
    carla.send(type="start")
    world.clock.run(until=world.clock.time() + 3600,
                    stop=lambda: len(room.table.match.results) >= rounds)
    assert (room.phase.value == "over") is not abandon
    world.lobby.close(room)
    return str(carla.table["match"])


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, str, str]]:
    """A server whose store has a finished match and, newer, an abandoned one (2 rounds)."""
    db = tmp_path_factory.mktemp("matches") / "zackzack.db"
    store = Store(database_url(str(db)))
    try:
        world = World(store, settings=Settings())
        over = bot_match(world, 1, abandon=False)
        abandoned = bot_match(world, 2, abandon=True)
    finally:
        store.close()
    live = LiveServer(db)
    live.start()
    yield live, over, abandoned
    live.stop()


@pytest.fixture
def page(browser: Any, stored: tuple[LiveServer, str, str]) -> Iterator[Any]:
    context = browser.new_context(base_url=stored[0].url, locale="de-DE",
                                  viewport={"width": 1280, "height": 800})
    context.set_default_timeout(10_000)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_an_abandoned_match_is_marked_in_words(page: Any, stored: tuple[LiveServer, str, str],
                                              shot: Any) -> None:
    _, over, abandoned = stored
    page.goto("/matches")
    page.wait_for_selector(".match-list .match-item")
    item = page.locator(f".match-item[data-id='{abandoned}']")
    assert item.get_attribute("data-status") == "abandoned"
    assert item.locator(".match-abandoned").inner_text().strip() == "abgebrochen"
    assert item.locator(".match-winner").count() == 0
    finished = page.locator(f".match-item[data-id='{over}']")
    assert finished.locator(".match-abandoned").count() == 0
    assert finished.locator(".match-winner").inner_text().strip()  # the winner's name
    shot(page, "matches_abandoned_de")
    page.click("#lang-toggle")
    assert item.locator(".match-abandoned").inner_text().strip() == "abandoned"


def test_the_rounds_of_a_match_have_column_names(page: Any, stored: tuple[LiveServer, str, str],
                                                 shot: Any) -> None:
    _, _, abandoned = stored
    page.goto(f"/matches/{abandoned}")
    page.wait_for_selector(".scores.rounds")
    assert "Abgebrochen" in page.inner_text("#abandoned-note")
    assert "abgebrochen" in page.inner_text(".match-head .match-abandoned")
    heads = page.locator(".scores.rounds thead th[scope=col]").all_text_contents()
    assert heads[:2] == ["Runde", "Gewonnen von"] and len(heads) == 4, heads
    assert all("Bot" in name for name in heads[2:]), heads  # one column per player
    rows = page.locator(".scores.rounds tbody tr")
    assert rows.count() == 2
    assert page.locator(".scores.rounds tbody th[scope=row]").all_text_contents() == ["1", "2"]
    assert rows.nth(0).locator("td.num").count() == 2  # a number per player, under their name
    shot(page, "match_abandoned_rounds_de")
