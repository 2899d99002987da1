"""Matchmaking in the browser: two people press "Find an opponent" and land at one rated
table; Esc leaves the queue; the bot offer (after a minute alone) makes an unrated table
against bots. Screenshots: ``queue_*``."""

from __future__ import annotations

from typing import Any

import pytest

from e2e.axe import assert_accessible
from e2e.kit import person, phase, wait_for_js, wait_until

pytestmark = pytest.mark.e2e

SEEKING = "document.querySelector('#queue-state') !== null"


def member(new_page: Any, name: str, **kwargs: Any) -> Any:
    """A person on the lobby who claimed ``name`` (rated play is for claimed names): the claim
    goes through the API with the page's own token, as the account dialog sends it."""
    page = person(new_page, name, **kwargs)
    status = page.evaluate("""async (name) => {
      const token = localStorage.getItem('zz.token');
      const answer = await fetch('/api/account/claim', {method: 'POST',
        headers: {'Authorization': `Bearer ${token}`, 'Content-Type': 'application/json'},
        body: JSON.stringify({name, password: 'queue-password'})});
      return answer.status;
    }""", name)
    assert status == 200
    return page


def test_a_guest_is_told_that_rated_play_needs_a_claimed_name(new_page: Any) -> None:
    gast = person(new_page, "Gast Sucht", locale="de-DE")
    gast.select_option("#find-game", "schnelllauf")
    gast.click("#seek")
    gast.wait_for_selector("[data-code='rated_needs_account']")
    assert "gesicherte Namen" in gast.inner_text("[data-code='rated_needs_account']")
    assert gast.evaluate(SEEKING) is False and gast.query_selector("#seek") is not None


def find(page: Any, game: str, players: int | None = None) -> None:
    """Choose the game (and the number of players) in the lobby's panel and press the button."""
    page.select_option("#find-game", game)
    if players is not None:
        page.select_option("#find-players", str(players))
    page.click("#seek")
    # The server's first `queue` message is in: its count replaces the "…".
    wait_for_js(page, "/^\\d+$/.test(document.querySelector('#queue-state .queue-count')"
                      "?.textContent.trim() ?? '')")


def test_two_people_in_the_queue_meet_at_one_rated_table(new_page: Any, shot: Any) -> None:
    ada = member(new_page, "Ada Sucht", locale="de-DE")
    find(ada, "schnelllauf")
    assert "Suche Gegner: Schnelllauf, 2 Spieler." in ada.inner_text("#queue-state .queue-what")
    assert ada.inner_text("#queue-state .queue-window").startswith("±")
    assert ada.evaluate("document.activeElement.id") == "unseek"
    wait_for_js(ada, "document.querySelector('#queue-state .queue-time').textContent !== '0:00'",
                timeout=5)
    assert_accessible(ada, "queue_waiting_de")
    ada.locator("#find").scroll_into_view_if_needed()
    shot(ada, "queue_waiting_de")

    # Esc leaves the queue; the button is back (and has the focus).
    ada.keyboard.press("Escape")
    wait_for_js(ada, "document.querySelector('#seek') !== null && !(" + SEEKING + ")")
    assert ada.evaluate("document.activeElement.id") == "seek"

    # Seeking again, and someone else seeks the same: both go to one rated table.
    find(ada, "schnelllauf")
    bea = member(new_page, "Bea Sucht", locale="en-GB")
    bea.select_option("#find-game", "schnelllauf")
    bea.click("#seek")
    for page in (ada, bea):
        page.wait_for_url("**/t/*", timeout=15_000)
    code = ada.evaluate("location.pathname")
    assert bea.evaluate("location.pathname") == code
    for page in (ada, bea):
        wait_for_js(page, "document.querySelector('.table-page') !== null")
        wait_until(lambda p=page: phase(p) in ("waiting", "starting", "playing", "between"))
        # A rated table: the head says so in words, beside the code.
        page.wait_for_selector(".rated-badge")
    shot(ada, "queue_matched_de")


def test_the_bot_offer_makes_an_unrated_table_against_bots(new_page: Any, shot: Any) -> None:
    """The server offers a bot after a minute alone; the offer is what the client shows
    then (the server's `queue` message with `bot`), answered by an ordinary create."""
    cleo = member(new_page, "Cleo Wartet", locale="en-GB")
    find(cleo, "unter-spannung", 3)
    # A minute later the server sets `bot`: here it is said at once, the way the server says it.
    cleo.evaluate("""() => {
      const last = {type: 'queue', game: 'unter-spannung', players: 3, waiting: 1,
                    since: Date.now() - 61000, window: 400, bot: 'pro'};
      window.zackzack.net.emit('queue', last);
    }""")
    cleo.wait_for_selector("#bot-offer")
    assert cleo.inner_text("#bot-offer") == "Play against bot pro (unrated)"
    assert "Nobody near your rating" in cleo.inner_text(".queue-offer")
    assert_accessible(cleo, "queue_offer_en")
    cleo.locator("#find").scroll_into_view_if_needed()
    shot(cleo, "queue_offer_en")
    cleo.click("#bot-offer")
    cleo.wait_for_url("**/t/*")
    wait_until(lambda: phase(cleo) in ("starting", "playing"), timeout=15)
    seats = cleo.evaluate("[...document.querySelectorAll('.plate')].length")
    assert seats == 3
