"""Players in the browser: claiming a name and signing in on another device, the account's
refusals in the reader's language, deleting an account, the leaderboard and a profile (from a
database of stored rated matches made beforehand), ratings beside waiting players in the
lobby, and axe on the new pages. Screenshots: ``players_*``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import argon2
import pytest

from e2e.axe import assert_accessible, low_contrast, report_contrast
from e2e.conftest import LiveServer
from e2e.kit import person, wait_for_js
from zackzack.ratings import NEW, Pool, Rating, match_changes
from zackzack.server.identity import token_hash
from zackzack.store import MatchStart, PlayerRecord, SeatRecord, Store, database_url
from zackzack.store.matches import Status
from zackzack.words.names import name_key

pytestmark = pytest.mark.e2e

PASSWORD = "richtig-geheim"
CROWD = 52  # more than one page of the leaderboard (50)


def account(page: Any) -> Any:
    """Open the account dialog by its key; the dialog."""
    page.keyboard.press("Shift+A")
    page.wait_for_selector("#account[open]")
    return page.locator("#account")


def header_says(page: Any, name: str, claimed: bool) -> None:
    wait_for_js(page, """([name, claimed]) => {
      const b = document.querySelector('#account-toggle');
      return b && b.textContent.includes(name) && b.dataset.claimed === String(claimed)
        && window.zackzack.net.open;
    }""", [name, claimed])


# Claim, sign in elsewhere, sign out, delete -------------------------------------------------


def test_a_claimed_name_signs_in_on_another_device_as_the_same_player(
        new_page: Any, shot: Any) -> None:
    anna = person(new_page, "Hanna Claim", locale="de-DE")
    header_says(anna, "Hanna Claim", False)
    player = anna.evaluate("window.zackzack.net.player")
    dialog = account(anna)
    assert "Gast" in dialog.locator(".account-status").inner_text()
    assert anna.get_attribute("#claim-name", "value") == "Hanna Claim"
    # Too short: said before asking the server, in German.
    anna.fill("#claim-password", "kurz")
    anna.click("#claim button[type=submit]")
    assert "8 bis 128 Zeichen" in anna.inner_text("#claim .error-sentence")
    # Show / hide the password: a switch with aria-pressed.
    anna.fill("#claim-password", PASSWORD)
    anna.click("#claim .password-show")
    assert anna.get_attribute("#claim-password", "type") == "text"
    assert anna.get_attribute("#claim .password-show", "aria-pressed") == "true"
    anna.click("#claim .password-show")
    assert anna.get_attribute("#claim-password", "type") == "password"
    assert_accessible(anna, "players_account_guest_de")
    shot(anna, "players_account_guest_de")
    anna.click("#claim button[type=submit]")
    anna.wait_for_selector("#account .account-notice")
    assert "Hanna Claim" in anna.inner_text("#account .account-notice")
    assert "Angemeldet als Hanna Claim" in anna.inner_text("#account .account-status")
    header_says(anna, "Hanna Claim", True)
    assert_accessible(anna, "players_account_claimed_de")
    shot(anna, "players_account_claimed_de")
    anna.keyboard.press("Escape")

    # Someone else cannot claim the same name in other letters' case.
    other = person(new_page, "hanna claim", locale="de-DE")
    account(other)
    other.fill("#claim-name", "hanna claim")
    other.fill("#claim-password", "ein-anderes-passwort")
    other.click("#claim button[type=submit]")
    other.wait_for_selector("#claim .error-text[data-code=name_taken]")
    assert other.inner_text("#claim .error-sentence").startswith("Diesen Namen gibt es schon")

    # A second device (English): a wrong password is refused in English, the right one
    # makes this browser Hanna.
    phone = person(new_page, "Gerät zwei", locale="en-GB")
    account(phone)
    phone.fill("#sign-in-name", "HANNA CLAIM")
    phone.fill("#sign-in-password", "falsch-falsch")
    phone.click("#sign-in button[type=submit]")
    phone.wait_for_selector("#sign-in .error-text[data-code=wrong_password]")
    assert phone.inner_text("#sign-in .error-sentence") == "Name or password is wrong."
    phone.fill("#sign-in-password", PASSWORD)
    phone.click("#sign-in button[type=submit]")
    header_says(phone, "Hanna Claim", True)
    assert phone.evaluate("window.zackzack.net.player") == player
    assert phone.evaluate("localStorage.getItem('zz.token')") != anna.evaluate(
        "localStorage.getItem('zz.token')")
    assert "Signed in as Hanna Claim" in phone.inner_text("#account .account-status")
    shot(phone, "players_account_signed_in_en")

    # Signing out here makes a new guest here; the first device stays Hanna.
    phone.click("#sign-out")
    wait_for_js(phone, "p => window.zackzack.net.open && window.zackzack.net.player"
                       " && window.zackzack.net.player !== p", player)
    header_says(phone, "Gast", False)
    assert "You play as the guest" in phone.inner_text("#account .account-status")
    assert anna.evaluate("window.zackzack.net.player") == player
    anna.reload()
    header_says(anna, "Hanna Claim", True)
    assert anna.evaluate("window.zackzack.net.player") == player


def test_deleting_an_account_asks_for_the_password_and_leaves_a_guest(
        new_page: Any, shot: Any) -> None:
    ida = person(new_page, "Ida Löscht", locale="de-DE")
    player = ida.evaluate("window.zackzack.net.player")
    account(ida)
    ida.fill("#claim-password", PASSWORD)
    ida.click("#claim button[type=submit]")
    header_says(ida, "Ida Löscht", True)
    ida.click("#account .account-delete summary")
    warning = ida.inner_text("#account .account-warning")
    assert "„gelöschter Spieler“" in warning and "nicht rückgängig" in warning
    ida.fill("#delete-password", "nicht-das-richtige")
    ida.click("#account-delete button[type=submit]")
    ida.wait_for_selector("#account-delete .error-text[data-code=wrong_password]")
    shot(ida, "players_account_delete_de")
    ida.fill("#delete-password", PASSWORD)
    ida.click("#account-delete button[type=submit]")
    wait_for_js(ida, "p => window.zackzack.net.open && window.zackzack.net.player"
                     " && window.zackzack.net.player !== p", player)
    header_says(ida, "Gast", False)
    assert "gelöscht" in ida.inner_text("#account .account-notice")
    ida.keyboard.press("Escape")
    ida.goto("/players/Ida%20L%C3%B6scht")
    ida.wait_for_selector(".profile-missing")
    assert ida.inner_text(".profile-missing h1") == "Diesen Spieler gibt es nicht."
    assert ida.locator(".profile-missing .error-text[data-code=no_such_player]").count() == 1


# A server with stored rated matches -----------------------------------------------------------


class Clock:
    """The store's wall clock, moved by hand (seconds)."""

    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def seed(db: str) -> dict[str, Any]:
    """Claimed players with rated matches: four regulars in Unter Spannung (8 matches),
    Anna and Ben in Schnelllauf (6), Anna against bots (casual, 2), Emil who played once
    with Anna and then deleted his account, and a crowd of 52 with 5 matches each."""
    clock = Clock(time.time() - 12 * 86400)
    store = Store(database_url(db), wall=clock)
    hasher = argon2.PasswordHasher()
    current: dict[tuple[str, Pool, str], Rating] = {}
    made: dict[str, Any] = {"matches": []}
    n = 0
    try:
        def player(name: str, password: str | None = None) -> str:
            pid = f"p_seed{len(made)}"
            made[pid] = name
            store.add_player(PlayerRecord(pid, name), token_hash(f"{pid}.token"))
            store.claim(pid, name, name_key(name), hasher.hash(password) if password else "x")
            return pid

        def match(game: str, seats: list[tuple[str | None, str | None, str]], placed: list[int],
                  rated: bool, minutes: float = 4.0) -> str:
            nonlocal n
            n += 1
            mid = f"m{n:04d}"
            records = tuple(SeatRecord(i, name, pid, bot)
                            for i, (pid, bot, name) in enumerate(seats))
            options = {"players": len(seats)}
            store.begin_match(MatchStart(mid, f"C{n:04d}", game, "Test", options, {}, n, None,
                                         records, False, 0, rated))
            result = {"placings": [{"seat": i, "place": p} for i, p in enumerate(placed)],
                      "rounds": 3}
            stats = [{"seat": i, "played": 20 + 3 * i, "wrong": i % 2, "late": 2,
                      "reaction_ms": 700 + 40 * i} for i in range(len(seats))]
            changes = match_changes(game, [(pid, bot) for pid, bot, _ in seats], placed,
                                    rated=rated, options=options,
                                    current=lambda p, pool: current.get((p, pool, game), NEW))
            for c in changes:
                current[c.player_id, c.pool, game] = c.after
            clock.now += minutes * 60
            store.finish_match(mid, Status.OVER, int(minutes * 60_000), result, stats=stats,
                               rated=changes)
            clock.now += 600
            made["matches"].append(mid)
            return mid

        anna, ben = player("Anna", PASSWORD), player("Ben")
        carla, dora = player("Carla"), player("Dora")
        emil = player("Emil")
        regulars = [(anna, "Anna"), (ben, "Ben"), (carla, "Carla"), (dora, "Dora")]
        orders = [[1, 2, 3, 4], [1, 3, 2, 4], [2, 1, 4, 3], [1, 2, 4, 3], [3, 1, 2, 4],
                  [1, 4, 2, 3], [2, 1, 3, 4], [1, 2, 3, 4]]
        for order in orders:
            match("unter-spannung", [(p, None, name) for p, name in regulars], order, rated=True)
            clock.now += 86400
        for i in range(6):
            match("schnelllauf", [(anna, None, "Anna"), (ben, None, "Ben")],
                  [1, 2] if i % 3 else [2, 1], rated=True, minutes=3)
        made["with_emil"] = match("unter-spannung", [(anna, None, "Anna"), (emil, None, "Emil")],
                                  [1, 2], rated=True)
        for placed in ([2, 1], [1, 2]):
            match("unter-spannung", [(anna, None, "Anna"), (None, "pro", "")], placed, rated=False)
        crowd = [player(f"Spieler {i:02d}") for i in range(CROWD)]
        for i in range(0, CROWD, 2):
            for k in range(5):
                match("schnelllauf", [(crowd[i], None, f"Spieler {i:02d}"),
                                      (crowd[i + 1], None, f"Spieler {i + 1:02d}")],
                      [1, 2] if k % 2 else [2, 1], rated=True, minutes=2)
        store.delete_player(emil)
        made.update(anna=anna, ben=ben)
    finally:
        store.close()
    return made


@pytest.fixture(scope="module")
def rated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, dict[str, Any]]]:
    db = tmp_path_factory.mktemp("players") / "zackzack.db"
    made = seed(str(db))
    live = LiveServer(db)
    live.start()
    yield live, made
    live.stop()


@pytest.fixture
def open_page(browser: Any, rated: tuple[LiveServer, dict[str, Any]]) -> Iterator[Any]:
    """``open_page(locale)``: a page on the server with stored rated matches."""
    contexts: list[Any] = []

    def make(locale: str = "de-DE", width: int = 1280, height: int = 800) -> Any:
        context = browser.new_context(base_url=rated[0].url, locale=locale,
                                      viewport={"width": width, "height": height})
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.js_errors = []
        page.on("pageerror", lambda error: page.js_errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        for page in context.pages:
            assert not page.js_errors, f"JavaScript errors: {page.js_errors}"
        context.close()


def test_the_leaderboard_lists_who_counts_with_pages_and_both_games(
        open_page: Any, shot: Any) -> None:
    page = open_page("de-DE")
    page.goto("/leaderboard")
    page.wait_for_selector(".board-table tbody tr")
    assert page.locator(".game-tab[aria-current=page]").inner_text() == "Unter Spannung"
    rule = page.inner_text("#board-rule")
    assert "mindestens 5 gewertete Partien" in rule and "14 Tagen" in rule
    rows = page.locator(".board-table tbody tr")
    names = rows.locator("th.who").all_inner_texts()
    assert sorted(names) == ["Anna", "Ben", "Carla", "Dora"], names  # not Emil (deleted)
    assert rows.locator("td.rank").all_inner_texts() == ["1", "2", "3", "4"]
    ratings = [int(r) for r in rows.locator(".rating-n").all_inner_texts()]
    assert ratings == sorted(ratings, reverse=True)
    assert rows.first.locator("td").nth(2).inner_text().strip() != ""  # matches
    link = rows.first.locator("th.who a")
    assert link.get_attribute("href") == f"/players/{names[0]}"
    assert_accessible(page, "players_leaderboard_de")
    assert not (low := low_contrast(page, "players_leaderboard_de")), report_contrast(low)
    shot(page, "players_leaderboard_de")

    # G: the other game; its crowd needs a second page (→ and ←).
    page.locator("h1").click()
    page.keyboard.press("g")
    page.wait_for_url("**/leaderboard/schnelllauf")
    wait_for_js(page, "document.querySelectorAll('.board-table tbody tr').length === 50")
    assert page.locator(".game-tab[aria-current=page]").inner_text() == "Schnelllauf"
    assert "Seite 1 von 2" in page.inner_text(".pager-where")
    # A provisional rating has "?" for the eye and the word for readers; a settled one neither.
    for cell in page.locator(".board-table .rating").all():
        marked = "provisional" in (cell.get_attribute("class") or "")
        assert (cell.locator(".rating-q").count() == 1) is marked
        if marked:
            assert cell.locator(".sr-only").inner_text().strip() == "(vorläufig)"
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**/leaderboard/schnelllauf?page=2")
    wait_for_js(page, "document.querySelectorAll('.board-table tbody tr').length === 54 - 50")
    assert page.locator(".board-table tbody td.rank").first.inner_text() == "51"
    page.keyboard.press("ArrowLeft")
    page.wait_for_url("**/leaderboard/schnelllauf")
    wait_for_js(page, "document.querySelectorAll('.board-table tbody tr').length === 50")

    # In English, by the header's link.
    page.keyboard.press("Shift+L")
    wait_for_js(page, "document.querySelector('.leaderboard h1')?.textContent"
                      ".startsWith('Leaderboard')")
    assert "at least 5 rated matches" in page.inner_text("#board-rule")
    assert_accessible(page, "players_leaderboard_en")
    page.click(".bar-nav a[href='/leaderboard']")
    page.wait_for_url("**/leaderboard")
    page.wait_for_selector(".game-tab[aria-current=page][data-game=unter-spannung]")
    page.wait_for_selector(".board-table tbody tr")
    shot(page, "players_leaderboard_en")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")  # nothing sideways
    shot(page, "players_leaderboard_en_phone")


def test_a_profile_shows_ratings_the_bot_ladder_a_chart_stats_and_matches(
        open_page: Any, rated: tuple[LiveServer, dict[str, Any]], shot: Any) -> None:
    made = rated[1]
    page = open_page("de-DE")
    page.goto("/leaderboard")
    page.click(".board-table a:text-is('Anna')")
    page.wait_for_url("**/players/Anna")
    page.wait_for_selector(".profile-game[data-game=unter-spannung]")
    us = page.locator(".profile-game[data-game=unter-spannung]")
    assert us.locator(".rating-box.rated .big-rating .rating-n").inner_text().isdigit()
    assert "9 gewertete Partien" in us.locator(".rating-box.rated").inner_text()
    assert "Platz" in us.locator(".rating-box.rated").inner_text()
    # Against bots: an estimate, "plays like", and the ladder with this player in its place.
    bots = us.locator(".rating-box.bots")
    assert "Spielt wie ein Bot" in bots.inner_text()
    ladder = bots.locator(".ladder-list li")
    assert ladder.count() == 5  # four levels and this player
    assert "dieser Spieler" in bots.locator(".ladder-list li.me").inner_text()
    # The chart: a picture with a name, its figures in words and in a table.
    chart = us.locator(".chart")
    assert chart.locator("svg.rating-chart[role=img]").get_attribute("aria-label")
    summary = chart.locator("figcaption").inner_text()
    assert summary.startswith("9 gewertete Partien") and "höchste" in summary
    heads = chart.locator(".chart-table th").all_inner_texts()
    assert [h.lower() for h in heads] == ["zuerst", "jetzt", "niedrigste", "höchste"]
    figures = [int(v) for v in chart.locator(".chart-table td").all_inner_texts()]
    assert figures[2] == min(figures) and figures[3] == max(figures)
    # How she plays.
    stats = us.locator(".profile-stats")
    assert stats.locator("[data-stat=matches] dd").inner_text() == "11"
    assert "%" in stats.locator("[data-stat=wins] dd").inner_text()
    assert stats.locator("[data-stat=reaction] dd").inner_text().endswith("ms")
    # Recent matches link to their replays; Emil is a deleted player now.
    recent = page.locator(".profile-recent .match-item")
    assert recent.count() >= 5
    with_emil = page.locator(f".profile-recent .match-item[data-id={made['with_emil']}]")
    assert with_emil.get_attribute("href") == f"/matches/{made['with_emil']}"
    assert "gelöschter Spieler" in with_emil.inner_text()
    assert "Emil" not in with_emil.inner_text()
    assert "gewertet" in with_emil.locator(".match-kind").inner_text().lower()
    assert_accessible(page, "players_profile_de")
    assert not (low := low_contrast(page, "players_profile_de")), report_contrast(low)
    shot(page, "players_profile_de", full_page=True)

    page.keyboard.press("Shift+L")
    wait_for_js(page, "document.querySelector('.profile-recent h2')?.textContent"
                      " === 'Recent matches'")
    assert "deleted player" in with_emil.inner_text()
    assert "Plays like a bot" in bots.inner_text()
    assert_accessible(page, "players_profile_en")
    shot(page, "players_profile_en")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    shot(page, "players_profile_en_phone", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})

    # An unknown name: a clear page with the way to the leaderboard.
    page.goto("/players/Niemand%20Hier")
    page.wait_for_selector(".profile-missing")
    assert page.inner_text(".profile-missing h1") == "There is no such player."
    assert "Niemand Hier" in page.inner_text(".profile-missing")
    assert_accessible(page, "players_profile_missing_en")
    page.click("#to-board")
    page.wait_for_url("**/leaderboard")


def test_waiting_players_show_their_rating_in_the_lobby(open_page: Any, shot: Any) -> None:
    anna = open_page("de-DE")
    anna.goto("/")
    anna.wait_for_function("window.zackzack?.net.open === true")
    account(anna)
    anna.fill("#sign-in-name", "anna")
    anna.fill("#sign-in-password", PASSWORD)
    anna.click("#sign-in button[type=submit]")
    header_says(anna, "Anna", True)
    anna.keyboard.press("Escape")
    anna.evaluate("window.zackzack.net.send({type: 'create', game: 'unter-spannung',"
                  " seats: [{kind: 'open'}, {kind: 'open'}], rated: true})")
    anna.wait_for_url("**/t/*")
    anna.wait_for_selector(".waiting .wait-seat.human .wait-rating .rating-n")
    assert anna.locator(".waiting h2 .rated-badge").inner_text().lower() == "gewertet"
    shown = anna.inner_text(".waiting .wait-seat.human .wait-rating .rating-n")

    ben = open_page("de-DE")
    ben.goto("/")
    chip = ben.locator(".table-item .seat-chip.human")
    chip.first.wait_for()
    assert chip.first.locator(".seat-name").inner_text() == "Anna"
    assert chip.first.locator(".rating-n").inner_text() == shown
    assert ben.locator(".table-item .rated-badge").first.inner_text().lower() == "gewertet"
    assert_accessible(ben, "players_lobby_ratings_de")
    ben.locator(".table-item").first.scroll_into_view_if_needed()
    shot(ben, "players_lobby_ratings_de")


def test_the_rated_switch_explains_a_refusal(open_page: Any) -> None:
    page = open_page("de-DE")
    page.goto("/")
    page.wait_for_function("window.zackzack?.net.open === true")
    # Rated play is for claimed names: claim one, as the account dialog does.
    status = page.evaluate("""async () => {
      const token = localStorage.getItem('zz.token');
      const answer = await fetch('/api/account/claim', {method: 'POST',
        headers: {'Authorization': `Bearer ${token}`, 'Content-Type': 'application/json'},
        body: JSON.stringify({name: 'Rita Wertet', password: 'rated-password'})});
      return answer.status;
    }""")
    assert status == 200
    page.reload()
    page.wait_for_function("window.zackzack?.net.open === true")
    page.click(".game-tile:has(input[value=schnelllauf])")
    page.check("#rated")
    # A bot seat: the form warns, and the server's refusal is explained in German.
    assert "Bot-Platz" in page.inner_text("#rated-hint")
    page.click("#create")
    page.wait_for_selector("#create-form .create-error .error-text[data-code=bad_options]")
    assert "kann nicht gewertet werden" in page.inner_text("#create-form .rated-why")
    assert "/t/" not in page.url
    page.uncheck("#rated")
