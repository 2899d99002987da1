"""The lobby, the languages, watching, the stored matches, and a phone-sized screen."""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.request import urlopen

import pytest

from e2e.kit import phase, sl_state, us_fits, us_state, wait_until
from zackzack.engine.matchlog import parse_log

pytestmark = pytest.mark.e2e


def heading_texts(page: Any) -> list[str]:
    return [text.strip() for text in page.locator("h2").all_inner_texts()]


def test_switch_to_english_and_back(new_page: Any, shot: Any) -> None:
    page = new_page(locale="de-DE")
    page.goto("/")
    page.wait_for_selector(".table-list, .lobby .empty")
    assert "Tische" in heading_texts(page) and page.get_attribute("html", "lang") == "de"
    shot(page, "lobby_de", full_page=True)

    page.click("#lang-toggle")
    assert "Tables" in heading_texts(page) and "New table" in heading_texts(page)
    assert page.get_attribute("html", "lang") == "en"
    page.reload()  # remembered
    page.wait_for_selector(".lobby h2")
    assert "Tables" in heading_texts(page)
    shot(page, "lobby_en", full_page=True)

    # A waiting room in English, then back to German without leaving it.
    page.fill("#name", "Chris <b>&amp;")
    page.press("#name", "Tab")
    page.check("input[name=game][value='unter-spannung']")
    page.select_option("select[name=seat-1-kind]", "open")
    page.click("#create")
    page.wait_for_selector(".waiting #start")
    assert page.inner_text(".waiting #start").startswith("Start")
    assert "Invite" in page.inner_text(".waiting .share")
    # Names are text, never markup.
    assert "Chris <b>&amp;" in page.inner_text(".waiting .wait-seats")
    assert page.locator(".waiting .wait-seats b").count() == 0
    shot(page, "waiting_en")
    page.click("#lang-toggle")
    assert page.inner_text(".waiting #start").startswith("Starten")
    assert "Einladen" in page.inner_text(".waiting .share")
    assert page.get_attribute("html", "lang") == "de"

    # Without a choice, the browser's language decides.
    english = new_page(locale="en-US")
    english.goto("/")
    english.wait_for_selector(".lobby h2")
    assert "Tables" in heading_texts(english)


def test_a_file_that_did_not_load_loads_again(new_page: Any) -> None:
    """A module or a style sheet the network lost (Chromium drops every request under way
    when an address of the machine changes) does not leave a dead page: it loads again."""
    page = new_page()
    lost: list[str] = []

    def once(route: Any) -> None:
        if lost:
            route.continue_()
        else:
            lost.append(route.request.url)
            route.abort("internetdisconnected")

    page.route("**/js/live.js", once)
    page.goto("/")
    page.wait_for_selector(".lobby h2")
    assert len(lost) == 1
    wait_until(lambda: page.evaluate("sessionStorage.getItem('zz.reloads')") == "1")


def test_watch_a_bot_table_then_its_stored_match(new_page: Any, shot: Any, server: Any) -> None:
    page = new_page()
    page.goto("/")
    page.check("input[name=game][value='unter-spannung']")
    for seat in range(4):
        page.select_option(f"select[name=seat-{seat}-kind]", "bot")
        page.select_option(f"select[name=seat-{seat}-level]", "machine" if seat == 3 else "pro")
    page.click("#create")
    page.wait_for_selector(".waiting #start:not([disabled])")
    code = page.inner_text(".waiting .big-code b")

    # Somebody else sees the table in the lobby's live list.
    other = new_page()
    other.goto("/")
    other.wait_for_selector(f".table-item[data-code='{code}']")

    page.click("#start")
    wait_until(lambda: phase(page) == "playing", timeout=8)
    page.wait_for_selector(".board.us.watching .others .plate")
    assert page.locator(".watch-chip").count() == 1
    assert page.locator(".board.us .hand .card").count() == 0  # spectators see no hand
    time.sleep(0.3)
    shot(page, "watch_us")
    # A dropped connection comes back by itself, with the table.
    page.evaluate("window.dropped = zackzack.net.ws; zackzack.net.ws.close()")
    page.wait_for_function("zackzack.net.open && zackzack.net.ws !== window.dropped", timeout=5000)
    page.wait_for_selector(".board.us .others .plate")
    other.wait_for_selector(f".table-item[data-code='{code}'] :is(.phase-playing, .phase-over)")
    shot(other, "lobby_live_list")
    # To the stored matches and back: the list shows at once (the server does not send a
    # version of it twice to one connection; the page keeps the latest).
    other.click(".bar-nav a[href='/matches']")
    other.wait_for_selector("body[data-page='matches']")
    other.click(".bar-nav a[href='/']")
    other.wait_for_selector(f".table-item[data-code='{code}']")

    wait_until(lambda: phase(page) == "over", timeout=50)
    page.wait_for_selector(".round-end")
    shot(page, "watch_us_over")

    page.click(".bar-nav a[href='/matches']")
    page.wait_for_selector(".match-list .match-item")
    shot(page, "matches_list")
    page.click(".match-item >> nth=0")
    page.wait_for_selector(".match-page .board.us")
    page.keyboard.press("ArrowRight")  # step
    page.keyboard.press(" ")  # play
    time.sleep(1)
    page.keyboard.press(" ")  # pause
    assert int(page.input_value(".timeline")) > 0
    shot(page, "match_replay")

    # The log download is a match log that `zackzack replay` reads.
    href = page.get_attribute("#download", "href")
    assert href
    with urlopen(server.url + href) as response:
        log = parse_log(json.loads(response.read()))
    assert log.game == "unter-spannung" and len(log.players) == 4


def test_a_phone_sized_screen(new_page: Any, shot: Any) -> None:
    page = new_page(width=390, height=844, touch=True)
    page.goto("/")
    page.wait_for_selector(".quick")
    shot(page, "phone_lobby", full_page=True)
    page.tap("[data-quick='unter-spannung']")  # quick game: starts at once
    wait_until(lambda: phase(page) == "playing", timeout=8)
    page.wait_for_selector(".board.us .hand .card")
    for _ in range(40):  # tap a fitting card when there is one
        state = us_state(page)
        if not state or state["phase"] != "playing":
            break
        fitting = [c for c in state["hand"] if us_fits(c["card"], state["top"])]
        if fitting:
            # force: on a busy machine the hand may still be settling (cards glide into
            # place), which Playwright's "stable" check would wait out past its timeout
            page.tap(f".board.us .hand .card[data-hotkey='{fitting[0]['key']}']", force=True)
            break
        page.tap(".board.us .draw", force=True)
        time.sleep(0.3)
    time.sleep(0.4)
    shot(page, "phone_us")

    page.goto("/")
    page.tap("[data-quick='schnelllauf']")
    wait_until(lambda: phase(page) == "playing", timeout=8)
    page.wait_for_selector(".board.sl .side.me .place")
    state = sl_state(page)
    assert state is not None and len(state["mine"]) == 5
    # All five places fit on the screen.
    boxes = [page.locator(f".board.sl .side.me .place[data-place='{k}']").bounding_box()
             for k in range(5)]
    assert all(box and box["x"] >= 0 and box["x"] + box["width"] <= 390 for box in boxes)
    shot(page, "phone_sl")
