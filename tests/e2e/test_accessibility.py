"""Everyone can play: axe-core finds no serious or critical problem on any page, in German and
English; opponents' counts are sentences, the header's buttons have names, and the table
speaks through one polite live region (and one assertive one for what must interrupt).

The pages: the lobby (and its help dialog), an Unter Spannung table while playing and at the
end of its match, a Schnelllauf table while playing, the list of stored matches, a replay, the
rules pages and the tutorials. See docs/web.md, "Accessibility".
"""

from __future__ import annotations

import importlib.util
import re
from typing import Any

import pytest

from e2e.axe import assert_accessible, low_contrast, report_contrast
from e2e.kit import create_by_message, dealt, person, phase, start_two, wait_for_js, wait_until
from zackzack.games import unter_spannung as us

pytestmark = pytest.mark.e2e


@pytest.fixture(autouse=True)
def never_skipped() -> None:
    """Missing tools fail these checks instead of skipping them (a skip would pass silently):
    chromium, Playwright and axe-core are all installed by scripts/test.sh."""
    from e2e.axe import AXE
    from e2e.conftest import chromium_path

    assert chromium_path() is not None, "chromium is missing (scripts/test.sh installs it)"
    assert importlib.util.find_spec("playwright") is not None, "Playwright is missing"
    assert AXE.exists(), f"axe-core is missing ({AXE}): run `npm ci` (scripts/test.sh does)"

LIVE = """() => [...document.querySelectorAll(
    '[aria-live]:not([aria-live="off"]), [role=status], [role=alert], [role=log], output')]
  .filter(el => !el.closest('[hidden]'))
  .map(el => ({id: el.id, cls: el.className,
               live: el.getAttribute('aria-live') ?? el.getAttribute('role')}))"""


def name_of(page: Any, selector: str) -> str:
    """The accessible name Chromium computes for the element (via Playwright's ARIA snapshot)."""
    snapshot = str(page.locator(selector).first.aria_snapshot())
    first = snapshot.splitlines()[0] if snapshot else ""
    match = re.search(r'"((?:[^"\\]|\\.)*)"', first)
    return match.group(1) if match else ""


def check(page: Any, name: str) -> None:
    """axe finds nothing serious or critical, and every line of text has its contrast."""
    wait_for_js(page, "!document.querySelector('.starter')?.textContent")  # "los!" has gone
    assert_accessible(page, name)
    low = low_contrast(page, name)
    assert not low, f"text below its contrast on {name}:\n{report_contrast(low)}"


def say(page: Any, selector: str) -> str:
    """The sentence a plate says to a screen reader (a busy machine may add ", slow
    connection" to it: the tests compare its beginning)."""
    return str(page.locator(f"{selector} .plate-say").text_content()).strip()


def assert_one_polite_region(page: Any) -> None:
    """The live-region policy: exactly one polite region (#live) and one assertive (#alert);
    besides them only the lobby's form errors (role=alert: the answer to one's own click)."""
    regions = [r for r in page.evaluate(LIVE)
               if not (r["live"] == "alert" and "create-error" in r["cls"])]
    assert sorted((r["id"], r["live"]) for r in regions) == [
        ("alert", "assertive"), ("live", "polite")], regions


def assert_header_named(page: Any, lang: str) -> None:
    help_name, speech, switch = {
        "de": ("Tasten und Hilfe", "Ansagen vorlesen", "EN"),
        "en": ("Keys and help", "Speak the calls aloud", "DE"),
    }[lang]
    assert help_name in name_of(page, "#help-toggle")
    assert name_of(page, "#lang-toggle").startswith(switch)
    if page.locator("#speech-toggle:not([hidden])").count():
        assert name_of(page, "#speech-toggle") == speech
        assert page.get_attribute("#speech-toggle", "aria-pressed") in ("true", "false")


def test_lobby_help_and_waiting_room_in_both_languages(new_page: Any, shot: Any) -> None:
    page = new_page(locale="de-DE")
    page.goto("/")
    page.wait_for_selector(".lobby h2")
    wait_for_js(page, "window.zackzack?.net.open === true")
    assert page.get_attribute("html", "lang") == "de"
    check(page, "lobby_de")
    assert_header_named(page, "de")
    assert_one_polite_region(page)
    shot(page, "a11y_lobby_de")

    # The first Tab shows the skip link; Enter on it puts the focus on the content.
    page.keyboard.press("Tab")
    wait_for_js(page, "document.activeElement?.id === 'skip'"
                      " && document.activeElement.getBoundingClientRect().top >= 0")
    assert page.inner_text("#skip") == "Zum Inhalt springen"
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    shot(page, "a11y_skip_link_de")
    page.keyboard.press("Enter")
    wait_for_js(page, "document.activeElement?.id === 'app'")
    assert page.url.endswith("/")

    page.keyboard.press("?")
    page.wait_for_selector("#help[open]")
    assert name_of(page, "#help") == "Tasten"
    check(page, "help_de")
    page.keyboard.press("Escape")
    wait_for_js(page, "!document.querySelector('#help').open")

    page.click("#lang-toggle")
    wait_for_js(page, "document.documentElement.lang === 'en'")
    check(page, "lobby_en")
    assert_header_named(page, "en")
    shot(page, "a11y_lobby_en", full_page=True)

    # The "remove this seat" button says what it does, in words.
    page.select_option("select[name=seat-1-kind]", "bot")
    remove = page.locator(".seat-row .icon-btn").first
    assert re.search(r"Remove seat \d", name_of(page, ".seat-row .icon-btn")), remove

    # The waiting room (a table with an open seat).
    page.select_option("select[name=seat-1-kind]", "open")
    page.click("#create")
    page.wait_for_selector(".waiting #start")
    check(page, "waiting_en")
    assert_one_polite_region(page)


def us_deal() -> dict[str, Any]:
    """5±1 on the pile; Anna holds 6±1 (fits) and 1±1, so one play ends the match; Ben
    holds five cards."""
    rest = [str(card) for card in us.Options(players=2).deck]

    def take(*cards: str) -> list[str]:
        for card in cards:
            rest.remove(card)
        return list(cards)

    anna = take("6±1", "1±1")
    ben = take("9±2", "1±2", "2±3", "3±1", "8±3")
    start = take("5±1")
    return {"hands": [anna, ben], "draw_piles": [rest[:12], rest[12:]], "discard_pile": start}


def test_unter_spannung_table_match_list_and_replay(new_page: Any, shot: Any,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    with dealt(monkeypatch, us_deal()):
        anna = person(new_page, "Anna", locale="de-DE")
        ben = person(new_page, "Ben", locale="de-DE")
        code = create_by_message(anna, {"type": "create", "game": "unter-spannung", "options": {},
                                        "seats": [{"kind": "open"}, {"kind": "open"}]})
        start_two(anna, ben, code)
    wait_for_js(anna, "document.querySelectorAll('.board.us .hand .card').length === 2 && "
                      "document.querySelector('.board.us .others .hand-n')?.textContent === '5'")
    draw_anna, draw_ben = (len(pile) for pile in us_deal()["draw_piles"])
    # Ben draws ten cards: Anna's feed fills up (its oldest lines must stay readable).
    for n in range(1, 11):
        ben.keyboard.press("d")
        wait_for_js(anna, "n => document.querySelector('.board.us .others .hand-n')?.textContent"
                          " === String(5 + n)", arg=n)
    wait_for_js(anna, "document.querySelectorAll('.feed-list li').length >= 10")
    hand, draw = 15, draw_ben - 10

    # German, playing.
    check(anna, "us_playing_de")
    assert_one_polite_region(anna)
    assert_header_named(anna, "de")
    plate = ".board.us .others .plate[data-seat='1']"
    assert say(anna, plate).startswith(f"Ben: {hand} Karten auf der Hand, Nachziehstapel {draw}")
    assert anna.get_attribute(f"{plate} .plate-text", "aria-hidden") == "true"
    assert anna.get_attribute(f"{plate} .draw-n-wrap", "title") == f"Nachziehstapel von Ben: {draw}"
    assert anna.get_attribute(f"{plate} .counts", "title") == f"{hand} Karten auf der Hand"
    own = ".board.us .hand-wrap > .plate"
    assert say(anna, own).startswith(
        f"Du (Anna): 2 Karten auf der Hand, Nachziehstapel {draw_anna}")
    assert name_of(anna, ".board.us .draw .stack").startswith(f"Dein Nachziehstapel: {draw_anna}")
    shot(anna, "a11y_us_playing_de")

    # English, playing.
    anna.click("#lang-toggle")
    wait_for_js(anna, "document.documentElement.lang === 'en'")
    check(anna, "us_playing_en")
    assert_header_named(anna, "en")
    assert say(anna, plate).startswith(f"Ben: {hand} cards in hand, draw pile {draw}")
    assert anna.get_attribute(f"{plate} .draw-n-wrap", "title") == f"Ben's draw pile: {draw}"
    assert say(anna, own).startswith(f"You (Anna): 2 cards in hand, draw pile {draw_anna}")
    shot(anna, "a11y_us_playing_en")

    # Ben goes away: his plate says so in words, and keeps its contrast (no fading).
    ben.close()
    wait_for_js(anna, "sel => document.querySelector(sel + ' .plate-say')?.textContent"
                      ".endsWith(', away')", arg=plate, timeout=15)
    assert anna.locator(f"{plate} .plate-away").inner_text() == "away"
    check(anna, "us_away_en")

    # Anna plays her 6±1 and is down to one card: the match is over, and the one polite
    # region says who won.
    key = anna.get_attribute(".board.us .hand .card[data-card='6±1']", "data-hotkey")
    anna.keyboard.press(str(key))
    wait_until(lambda: phase(anna) == "over", timeout=15)
    anna.wait_for_selector(".round-end a[href^='/matches/']")
    wait_for_js(anna, "/you win/i.test(document.querySelector('#live').textContent)")
    check(anna, "us_over_en")
    shot(anna, "a11y_us_over_en")

    # The stored matches, then the replay.
    anna.click(".bar-nav a[href='/matches']")
    anna.wait_for_selector(".match-list .match-item")
    check(anna, "matches_en")
    shot(anna, "a11y_matches_en")
    anna.click(".match-item >> nth=0")
    anna.wait_for_selector(".match-page .board.us")
    anna.keyboard.press("ArrowRight")  # one step in
    replayed = ".match-page .board.us .others .plate[data-seat='1']"
    anna.wait_for_selector(replayed)
    said = say(anna, replayed)
    assert re.fullmatch(r"Ben: \d+ cards in hand, draw pile \d+", said), said
    check(anna, "replay_en")
    shot(anna, "a11y_replay_en")


def test_schnelllauf_table_in_both_languages(new_page: Any, shot: Any) -> None:
    anna = person(new_page, "Anna", locale="en-GB")
    ben = person(new_page, "Ben", locale="en-GB")
    code = create_by_message(anna, {"type": "create", "game": "schnelllauf", "options": {},
                                    "seats": [{"kind": "open"}, {"kind": "open"}]})
    start_two(anna, ben, code)
    wait_for_js(anna, "document.querySelectorAll('.board.sl .side.me .place > .card[data-card]')"
                      ".length === 5")
    # The start was said in the assertive region: "3", "2", "1", then "los!" (it stays there).
    wait_for_js(anna, "document.querySelector('#alert').textContent.trim() === 'los!'")
    check(anna, "sl_playing_en")
    assert_one_polite_region(anna)
    plate = ".board.sl .side.them .plate"
    said = say(anna, plate)
    assert re.fullmatch(r"Ben: \d+ cards in the layout, reserve \d+(, slow connection)?",
                        said), said
    shot(anna, "a11y_sl_playing_en")

    anna.click("#lang-toggle")
    wait_for_js(anna, "document.documentElement.lang === 'de'")
    check(anna, "sl_playing_de")
    said = say(anna, plate)
    assert re.fullmatch(r"Ben: \d+ Karten in der Auslage, Reserve \d+(, langsame Verbindung)?",
                        said), said
    shot(anna, "a11y_sl_playing_de")


@pytest.mark.parametrize("path", ["/rules/unter-spannung", "/rules/schnelllauf",
                                  "/learn/unter-spannung", "/learn/schnelllauf"])
def test_rules_pages_and_tutorials(new_page: Any, shot: Any, path: str) -> None:
    page = new_page(locale="de-DE")
    response = page.goto(path)
    assert response is not None and response.ok, f"{path}: {response and response.status}"
    # The page itself, not the lobby as a fallback: a heading in the main area, no lobby.
    wait_for_js(page, "document.querySelector('#app h1, #app h2') !== null")
    assert page.locator("#app .lobby").count() == 0, f"{path} shows the lobby"
    name = path.strip("/").replace("/", "_")
    check(page, f"{name}_de")
    shot(page, f"a11y_{name}_de")
    page.click("#lang-toggle")
    wait_for_js(page, "document.documentElement.lang === 'en'")
    check(page, f"{name}_en")
