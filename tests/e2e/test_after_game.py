"""Hear it, and after the game: sounds (a hook counts them), statistics at the end of a match
and on its replay page, the tournament total during the rounds, and names (asked of someone
who came by a link; changed in the waiting room)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from e2e.kit import create_by_message, dealt, person, phase, us_state, wait_for_js, wait_until
from zackzack.games import unter_spannung as us

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}


def short_deal() -> dict[str, Any]:
    """5±1 on the pile. Anna holds 6±1 (fits: playing it leaves her one card, she wins) and
    9±1 (a wrong card); the bot holds two cards that never fit and has nothing to draw, so
    the pile stays as it is until Anna plays."""
    rest = [str(card) for card in us.Options(players=2).deck]
    for card in ("6±1", "9±1", "1±1", "2±1", "5±1"):
        rest.remove(card)
    return {"hands": [["6±1", "9±1"], ["1±1", "2±1"]], "draw_piles": [rest, []],
            "discard_pile": ["5±1"]}


def heard(page: Any) -> dict[str, list[str]]:
    found: dict[str, list[str]] = page.evaluate(
        "({sounds: [...zackzack.sound.heard.sounds], buzzes: [...zackzack.sound.heard.buzzes]})")
    return found


def key_of(page: Any, card: str) -> str:
    state = wait_until(lambda: us_state(page))
    return str(next(c["key"] for c in state["hand"] if c["card"] == card))


def test_statistics_after_a_match_and_on_its_replay(new_page: Any, shot: Any,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    anna = person(new_page, "Anna")
    with dealt(monkeypatch, short_deal()):
        create_by_message(anna, {"type": "create", "game": "unter-spannung", "options": {},
                                 # machine: a bot that never plays a wrong card by mistake
                                 "seats": [{"kind": "open"}, {"kind": "bot", "bot": "machine"}]})
    anna.locator("#start:not([disabled])").click()
    wait_for_js(anna, "document.querySelector('.table-page')?.dataset.phase === 'playing'"
                      " && document.querySelectorAll('.board.us .hand .card').length === 2")
    anna.keyboard.press(key_of(anna, "9±1"))  # a wrong card: heard, felt, frozen
    anna.wait_for_selector(".freeze.on")
    wait_for_js(anna, "!document.querySelector('.freeze.on')")
    anna.keyboard.press(key_of(anna, "6±1"))  # down to one card: the match is won
    wait_until(lambda: phase(anna) == "over")
    panel = anna.wait_for_selector(".round-end.over .stats-table")

    heads = [h.strip().lower() for h in anna.locator(".stats-table thead th").all_inner_texts()]
    assert heads == ["spieler", "karten", "falsch", "zu spät", "reaktion (median)"]
    rows = anna.locator(".stats-table tbody tr")
    assert rows.count() == 2
    mine = rows.nth(0).locator("td").all_inner_texts()
    assert mine[:3] == ["1", "1", "0"] and re.fullmatch(r"\d+ ms", mine[3])
    assert "(Du)" in rows.nth(0).inner_text()
    bot = rows.nth(1)
    assert "bot" in (bot.get_attribute("class") or "") and "(Bot)" in bot.inner_text()
    assert bot.locator("td").all_inner_texts() == ["0", "0", "0", "–"]
    assert panel.is_visible()
    sounds = heard(anna)
    for name in ("tick", "go", "wrong", "own", "won"):
        assert name in sounds["sounds"], f"no {name!r} sound: {sounds}"
    if anna.evaluate("typeof navigator.vibrate === 'function'"):
        assert sounds["buzzes"] == ["wrong"]
    shot(anna, "feel_stats_desktop")
    anna.set_viewport_size(PHONE)
    anna.wait_for_selector(".round-end.over .stats-table")
    shot(anna, "feel_stats_phone")
    anna.set_viewport_size({"width": 1280, "height": 800})

    reaction = mine[3]
    anna.click(".round-end a[href^='/matches/']")
    table = anna.wait_for_selector("#match-stats .stats-table")
    cells = anna.locator("#match-stats tbody tr").nth(0).locator("td").all_inner_texts()
    assert cells == ["1", "1", "0", reaction]  # the same numbers, from the stored log
    assert "(Bot)" in anna.locator("#match-stats tbody tr").nth(1).inner_text()
    assert table.is_visible()
    shot(anna, "feel_replay_stats_desktop")
    anna.set_viewport_size(PHONE)
    anna.locator("#match-stats").scroll_into_view_if_needed()
    shot(anna, "feel_replay_stats_phone")


def test_the_tournament_total_shows_during_the_rounds(new_page: Any, shot: Any) -> None:
    page = person(new_page, "Carla")
    create_by_message(page, {"type": "create", "game": "unter-spannung",
                             "options": {"tournament": True, "countdown_ms": 300},
                             "seats": [{"kind": "bot", "bot": "machine"},
                                       {"kind": "bot", "bot": "machine"}]})
    page.locator("#start:not([disabled])").click()
    assert page.locator(".standings-line").count() == 0  # nothing to total before a round ends
    wait_until(lambda: phase(page) == "between", timeout=90)
    line = page.wait_for_selector(".table-head .standings-line")
    items = page.locator(".standings-line li")
    assert items.count() == 2
    figures = sorted(int(x) for x in page.locator(".standings-line li b").all_inner_texts())
    totals = sorted(int(x) for x in page.locator(".round-end .scores td.total").all_inner_texts())
    assert figures == totals  # the same as the round's result says
    assert "1." in items.nth(0).inner_text()
    assert line.is_visible()
    shot(page, "feel_standings_desktop")
    wait_until(lambda: phase(page) == "playing", timeout=20)  # still there in round 2
    assert page.locator(".table-head .standings-line li").count() == 2
    page.set_viewport_size(PHONE)
    shot(page, "feel_standings_phone")


def test_a_joiner_by_link_is_asked_for_a_name(new_page: Any, shot: Any) -> None:
    anna = person(new_page, "Anna")
    code = create_by_message(anna, {"type": "create", "game": "unter-spannung", "options": {},
                                    "seats": [{"kind": "open"}] * 3})
    guest = new_page()  # nobody: no name remembered
    guest.goto(f"/t/{code}")
    dialog = guest.wait_for_selector(".name-dialog[open]")
    assert re.search(r"Weiter als Gast \d{4}", guest.inner_text("#name-skip"))
    shot(guest, "feel_name_prompt_desktop")
    guest.fill("#name-ask", "  Zoë  ")
    guest.press("#name-ask", "Enter")
    guest.wait_for_selector(".name-dialog", state="detached")
    assert dialog is not None
    assert guest.evaluate("localStorage.getItem('zz.name')") == "Zoë"
    guest.locator(".wait-seat.open button").first.click()
    wait_until(lambda: "Zoë" in anna.inner_text(".wait-seats"))
    wait_until(lambda: "Zoë (Du)" in guest.inner_text(".wait-seats"))  # its own message
    # Once answered, a link never asks again (a reload here, with a name).
    guest.reload()
    guest.wait_for_selector(".waiting .wait-seats")
    assert guest.locator(".name-dialog").count() == 0

    phone = new_page(width=PHONE["width"], height=PHONE["height"], touch=True)
    phone.goto(f"/t/{code}")
    phone.wait_for_selector(".name-dialog[open]")
    shot(phone, "feel_name_prompt_phone")
    phone.click("#name-skip")  # going on as the guest is fine too, and is not asked again
    phone.wait_for_selector(".name-dialog", state="detached")
    assert phone.evaluate("localStorage.getItem('zz.named')") == "1"

    # Nobody is asked where there is no seat to take: at a full table one just watches.
    anna.select_option(".wait-seat[data-seat='2'] select.seat-change", "normal")
    wait_until(lambda: anna.locator(".wait-seat.open").count() == 0)
    late = new_page()
    late.goto(f"/t/{code}")
    late.wait_for_selector(".waiting .wait-seats")
    wait_until(lambda: "Zoë" in late.inner_text(".wait-seats"))
    assert late.locator(".name-dialog").count() == 0


def test_a_seated_player_renames_in_the_waiting_room(new_page: Any, shot: Any) -> None:
    anna = person(new_page, "Anna")
    ben = person(new_page, "Ben")
    code = create_by_message(anna, {"type": "create", "game": "unter-spannung", "options": {},
                                    "seats": [{"kind": "open"}, {"kind": "open"}]})
    ben.goto(f"/t/{code}")
    ben.locator(".wait-seat.open button").first.click()
    ben.wait_for_selector(".wait-seat #rename")
    ben.keyboard.press("n")
    ben.wait_for_selector(".name-dialog[open]")
    assert ben.input_value("#name-ask") == "Ben"
    ben.fill("#name-ask", "Benno")
    shot(ben, "feel_rename_desktop")
    ben.click("#name-ok")
    wait_until(lambda: "Benno" in anna.inner_text(".wait-seats"))
    assert "Benno (Du)" in ben.inner_text(".wait-seats")
    shot(anna, "feel_renamed_desktop")
    assert ben.evaluate("localStorage.getItem('zz.name')") == "Benno"  # said in every hello
    ben.set_viewport_size(PHONE)
    ben.click("#rename")
    ben.wait_for_selector(".name-dialog[open]")
    shot(ben, "feel_rename_phone")
    ben.keyboard.press("Escape")  # cancelled: the name stays
    ben.wait_for_selector(".name-dialog", state="detached")
    assert "Benno" in anna.inner_text(".wait-seats")


def test_the_sound_switch_and_volume_are_remembered(new_page: Any, shot: Any) -> None:
    page = person(new_page, "Anna")
    toggle = page.locator("#sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "false"
    play = "name => zackzack.sound.play(name)"
    page.evaluate(play, "own")
    assert heard(page)["sounds"] == ["own"]
    shot(page, "feel_header_desktop")
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    page.evaluate(play, "other")
    assert heard(page)["sounds"] == ["own"]  # muted: nothing is played
    page.focus("#sound-volume")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("localStorage.getItem('zz.volume')") == "65"
    assert toggle.get_attribute("aria-pressed") == "false"  # turning it down is wanting it
    toggle.click()
    page.reload()
    page.wait_for_function("window.zackzack?.net.open === true")
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "true"
    assert page.input_value("#sound-volume") == "65"
    page.keyboard.press("Shift+M")  # the key: sound on again
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('zz.mute')") == "off"
    phone = person(new_page, "Ben", width=PHONE["width"], height=PHONE["height"], touch=True)
    assert phone.locator("#sound-toggle").is_visible()
    shot(phone, "feel_header_phone")
