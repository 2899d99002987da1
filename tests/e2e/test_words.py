"""Errors in the reader's language, a dead table link, the language switch mid-game, the
bot-strategy list, and the feed and toasts without clutter."""

from __future__ import annotations

import re
from typing import Any

import pytest

from e2e.kit import create_by_message, person, phase, wait_for_js, wait_until

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844, "touch": True}
FEED_TITLE = ".feed-head > :is(h2, h3)"
ENGLISH_REASONS = ("there is no", "unknown bot", "not over", "the match", "strategies:")


def feed_lines(page: Any) -> list[str]:
    return [text.strip() for text in page.locator(".feed-list li").all_inner_texts()]


def test_an_unknown_table_link_shows_the_panel_and_the_way_back(new_page: Any, shot: Any) -> None:
    page = new_page(locale="de-DE")
    page.goto("/t/ZZZZZZ")
    page.wait_for_selector(".panel.missing")
    assert page.locator(".overlay.on .panel.missing").is_visible()
    panel = page.inner_text(".panel.missing")
    assert "Diesen Tisch gibt es nicht." in panel and "ZZZZZZ" in panel
    assert page.get_attribute(".table-page", "data-phase") == "missing"
    assert not page.locator(".feed").is_visible()  # no empty table around it
    shot(page, "words_missing_table")

    # The key: Enter (the way back has the focus) or Escape.
    page.keyboard.press("Escape")
    page.wait_for_url("**/")
    page.wait_for_selector(".lobby #create-form")

    # The button, on a phone, in English after Shift+L.
    phone = new_page(locale="de-DE", **PHONE)
    phone.goto("/t/ZZZZZZ")
    phone.wait_for_selector(".panel.missing")
    phone.keyboard.press("Shift+L")
    wait_for_js(phone, "document.querySelector('.panel.missing h2')?.textContent"
                       " === 'There is no such table.'")
    assert phone.inner_text("#to-lobby").startswith("To the lobby")
    shot(phone, "words_missing_table_phone")
    phone.tap("#to-lobby")
    phone.wait_for_selector(".lobby #create-form")
    assert phone.evaluate("location.pathname") == "/"

    # Enter on the focused way back works as well.
    again = new_page(locale="de-DE")
    again.goto("/t/ZZZZZZ")
    again.wait_for_selector(".panel.missing #to-lobby:focus")
    again.keyboard.press("Enter")
    again.wait_for_selector(".lobby #create-form")


def test_a_refusal_is_a_german_sentence_with_the_english_reason_as_a_detail(
        new_page: Any, shot: Any) -> None:
    page = person(new_page, "Greta", locale="de-DE")
    page.wait_for_selector("#create-form select[name=seat-1-strategy] option[value=random]",
                           state="attached")
    page.check("input[name=game][value='unter-spannung']")
    page.select_option("select[name=seat-1-kind]", "bot")
    # A strategy the server does not know (an out-of-date list): the create is refused with
    # bad_bot, and the form says so beside itself, in German.
    page.evaluate("""() => {
      const select = document.querySelector('select[name=seat-1-strategy]');
      select.append(new Option('Zauberer', 'zauberer'));
    }""")
    page.select_option("select[name=seat-1-strategy]", "zauberer")
    page.click("#create")
    error = page.locator("#create-form .create-error .error-text[data-code=bad_bot]")
    error.wait_for()
    sentence = page.inner_text("#create-form .error-sentence")
    assert sentence == "Diesen Bot gibt es nicht: wähle Stufe und Strategie aus den Listen."
    assert not any(english in sentence.lower() for english in ENGLISH_REASONS)
    assert "/t/" not in page.url  # nothing was made
    page.click("#create-form .error-detail summary")
    assert "unknown bot strategy 'zauberer'" in page.inner_text("#create-form .error-detail code")
    assert page.get_attribute("#create-form .error-detail code", "lang") == "en"
    page.locator("#create-form .create-error").scroll_into_view_if_needed()
    shot(page, "words_create_refused")
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#create-form .create-error").scroll_into_view_if_needed()
    shot(page, "words_create_refused_phone")
    page.set_viewport_size({"width": 1280, "height": 800})

    # Switching the language words the refusal again.
    page.keyboard.press("Shift+L")
    wait_for_js(page, "document.querySelector('#create-form .error-sentence')?.textContent"
                      ".startsWith('There is no such bot')")
    page.keyboard.press("Shift+L")

    # A refusal at the table is a toast in German; the reason is only its tooltip.
    create_by_message(page, {"type": "create", "game": "unter-spannung",
                             "seats": [{"kind": "open"}, {"kind": "open"}]})
    page.evaluate("window.zackzack.net.send({type: 'rematch'})")
    toast = page.locator(".toast").first
    toast.wait_for()
    assert toast.inner_text().strip() == "Die Partie ist noch nicht vorbei."
    assert toast.get_attribute("title") == "the match is not over yet"

    # A stored match that is not there: translated, the reason folded away.
    page.goto("/matches/nichtda")
    page.wait_for_selector(".load-failed .error-text[data-code=no_such_match]")
    text = page.inner_text(".load-failed .error-sentence")
    assert text == "Unter diesem Link ist keine Partie gespeichert."
    assert "Laden fehlgeschlagen." in page.inner_text(".load-failed")
    assert not page.locator(".load-failed code").is_visible()  # folded away until asked for
    shot(page, "words_match_missing")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "words_match_missing_phone")


def test_the_strategy_is_chosen_from_the_servers_list(new_page: Any, shot: Any,
                                                      server: Any) -> None:
    from zackzack.bots import STRATEGIES

    page = person(new_page, "Hanna", locale="de-DE")
    page.check("input[name=game][value='unter-spannung']")
    page.select_option("select[name=seat-1-kind]", "bot")
    strategy = "select[name=seat-1-strategy]"
    page.wait_for_selector(f"{strategy} option[value=random]", state="attached")
    assert page.locator(f"{strategy}").evaluate("el => el.tagName") == "SELECT"
    values = page.locator(f"{strategy} option").evaluate_all("os => os.map(o => o.value)")
    assert values == ["", *STRATEGIES[1:]]  # the first is the server's default
    labels = page.locator(f"{strategy} option").all_inner_texts()
    assert labels == ["schlau (üblich)", "zufällig", "gelernt"]
    page.select_option("select[name=seat-1-level]", "pro")
    page.select_option(strategy, "random")
    shot(page, "words_strategy_select")
    phone = person(new_page, "Ina", locale="en-GB", **PHONE)
    phone.select_option("select[name=seat-1-kind]", "bot")
    phone.wait_for_selector(f"{strategy} option[value=random]", state="attached")
    phone.locator("#create-form .seat-rows").scroll_into_view_if_needed()
    shot(phone, "words_strategy_select_phone")

    page.click("#create")
    page.wait_for_selector(".waiting .big-code b")
    code = page.inner_text(".waiting .big-code b")
    room = server.app.state.server.lobby.rooms[code]
    assert room.seats[1].bot == "pro:random"
    assert "Bot 2 · Profi · zufällig" in page.inner_text(".waiting .wait-seats")


def test_switching_language_mid_game_rewords_feed_hints_and_plates(new_page: Any,
                                                                   shot: Any) -> None:
    page = person(new_page, "Jana", locale="de-DE")
    bots = [{"kind": "bot", "bot": "beginner"}] * 3
    create_by_message(page, {"type": "create", "game": "unter-spannung",
                             "options": {"tournament": True},
                             "seats": [{"kind": "open"}, *bots]})
    page.click(".waiting #start:not([disabled])")
    wait_until(lambda: phase(page) == "playing", timeout=15)
    page.wait_for_selector(".board.us .hand .card")
    wait_until(lambda: "Runde 1 – los!" in feed_lines(page), timeout=15)
    assert page.locator(FEED_TITLE).text_content() == "Was gerade passiert ist"
    assert "Ziehen" in page.inner_text(".board.us .draw .key-hint")
    assert "Bot 2 · Anfänger" in page.locator(".plate-name").all_inner_texts()

    # Bots draw (their draw piles shrink), but their draws are not in the feed by default.
    piles = "() => [...document.querySelectorAll('.board.us .others .draw-n')]" \
        ".map(el => Number(el.textContent))"
    dealt = page.evaluate(piles)
    wait_until(lambda: any(now < then for now, then in zip(page.evaluate(piles), dealt,
                                                            strict=True)), timeout=60)
    assert page.locator(".feed-list li.feed-drew").count() == 0
    assert page.get_attribute(".feed-toggle", "aria-pressed") == "false"
    shot(page, "words_game_de")

    before = feed_lines(page)
    starts = [line.replace("Runde", "Round") for line in before
              if re.fullmatch(r"Runde \d+ – los!", line)]
    assert starts
    page.keyboard.press("Shift+L")
    wait_for_js(page, "title => document.querySelector(title)?.textContent"
                      " === 'What just happened'", FEED_TITLE)
    lines = feed_lines(page)
    assert len(lines) >= len(before)  # the older lines are there, worded again
    assert all(line in lines for line in starts)  # "Runde 1 – los!" is "Round 1 – los!" now
    assert not any(word in line for line in lines
                   for word in ("Runde", " legt ", " zieht ", "Minuspunkte"))
    assert "Draw" in page.inner_text(".board.us .draw .key-hint")
    assert "Bot 2 · beginner" in page.locator(".plate-name").all_inner_texts()
    assert page.inner_text(".feed-toggle").startswith("☐ Bot draws")
    shot(page, "words_game_en")
    # New words are English from now on.
    page.evaluate("window.zackzack.net.send({type: 'rematch'})")
    page.wait_for_selector(".toast:has-text('The match is not over yet.')")

    # Shift+B shows the bots' draws: the earlier ones are worded from what happened.
    page.keyboard.press("Shift+B")
    page.wait_for_selector(".feed-list li.feed-drew")
    assert page.get_attribute(".feed-toggle", "aria-pressed") == "true"
    assert any(" draws a card (" in line for line in feed_lines(page))
    assert page.evaluate("localStorage.getItem('zz.feed.botdraws')") == "1"
    shot(page, "words_game_bot_draws")
    page.keyboard.press("Shift+B")
    wait_for_js(page, "document.querySelectorAll('.feed-list li.feed-drew').length === 0")
    page.set_viewport_size({"width": 390, "height": 844})  # on a phone the switch stays
    assert page.locator(".feed-toggle").is_visible()
    shot(page, "words_game_phone")


def test_equal_toasts_collapse_into_one_with_a_count(new_page: Any, shot: Any) -> None:
    page = person(new_page, "Kai", locale="de-DE")
    create_by_message(page, {"type": "create", "game": "schnelllauf",
                             "seats": [{"kind": "open"}, {"kind": "open"}]})
    # Three equal refusals in a row (as keys racing a round's end would bring): one toast.
    page.evaluate("for (let i = 0; i < 3; i++) window.zackzack.net.send({type: 'rematch'})")
    wait_for_js(page, "document.querySelector('.toast .toast-count')?.textContent === '×3'")
    assert page.locator(".toast").count() == 1
    assert page.inner_text(".toast .toast-text") == "Die Partie ist noch nicht vorbei."
    shot(page, "words_toast_count")
    # A different one is a toast of its own; each text shows once, however often it came.
    page.evaluate("""() => {
      window.zackzack.net.send({type: 'seat', seat: 5, kind: 'open'});
      window.zackzack.net.send({type: 'rematch'});
    }""")
    texts = """() => [...document.querySelectorAll('.toast:not(.out) .toast-text')]
      .map(el => el.textContent)"""
    wait_for_js(page, f"({texts})().includes('Diesen Platz gibt es an diesem Tisch nicht.')"
                      f" && ({texts})().includes('Die Partie ist noch nicht vorbei.')")
    shown = page.evaluate(texts)
    assert len(shown) == len(set(shown)) == 2
