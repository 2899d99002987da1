"""Issue 30, "ready when you are": between rounds every person can say ready and the next
round starts when all are (bots always are); the tournament is offered in the lobby as
prominently as the single round; on a phone the after-match actions show without scrolling."""

from __future__ import annotations

import time
from typing import Any

import pytest

from e2e.kit import (
    create_by_message,
    dealt,
    person,
    phase,
    sit_down,
    us_state,
    wait_for_js,
    wait_until,
)
from zackzack.games import unter_spannung as us

pytestmark = pytest.mark.e2e


def short_deal() -> dict[str, Any]:
    """5±1 on the pile; Anna (seat 0) holds 6±1 (playing it leaves her one card: she wins the
    round) and 9±1; Ben holds two cards that never fit and has nothing to draw."""
    rest = [str(card) for card in us.Options(players=2).deck]
    for card in ("6±1", "9±1", "1±1", "2±1", "5±1"):
        rest.remove(card)
    return {"hands": [["6±1", "9±1"], ["1±1", "2±1"]], "draw_piles": [rest, []],
            "discard_pile": ["5±1"]}


def win_the_round(anna: Any) -> None:
    wait_for_js(anna, "document.querySelectorAll('.board.us .hand .card').length === 2")
    state = wait_until(lambda: us_state(anna))
    anna.keyboard.press(next(c["key"] for c in state["hand"] if c["card"] == "6±1"))


def test_the_next_round_starts_when_both_people_are_ready(new_page: Any, shot: Any,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    anna = person(new_page, "Anna")
    ben = person(new_page, "Ben", width=390, height=844, touch=True)
    with dealt(monkeypatch, short_deal()):
        code = create_by_message(anna, {"type": "create", "game": "unter-spannung",
                                        "options": {"tournament": True},
                                        "seats": [{"kind": "open"}, {"kind": "open"}]})
    sit_down(ben, code)
    anna.locator("#start:not([disabled])").click()
    wait_until(lambda: phase(anna) == "playing", timeout=15)
    win_the_round(anna)
    for page in (anna, ben):
        wait_until(lambda page=page: phase(page) == "between")
        page.locator("#ready-next").wait_for()
    wait_for_js(anna, "/\\d/.test(document.querySelector('.next-round')?.textContent ?? '')")
    left = int("".join(ch for ch in anna.inner_text(".next-round") if ch.isdigit()))
    assert left >= 6, left  # the full wait is there: 8 s
    anna.locator("#ready-next").click()
    anna.locator(".ready-next-done").wait_for()
    assert "ein Mitspieler fehlt" in anna.inner_text(".ready-next-done")  # the singular
    ben.locator(".round-end .ready-mark").wait_for()  # Ben sees Anna ready
    assert phase(ben) == "between"
    shot(anna, "ready_between_desktop")
    shot(ben, "ready_between_phone")
    box = ben.locator("#ready-next").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844, box  # no scrolling on a phone
    pressed = time.monotonic()
    ben.locator("#ready-next").tap()
    for page in (anna, ben):
        wait_until(lambda page=page: phase(page) == "playing", timeout=5)
    assert time.monotonic() - pressed < 3  # not the 8 s countdown
    assert "Runde 2 von 4" in anna.inner_text(".table-head")


def test_the_tournament_is_a_quick_game_as_big_as_the_single_round(new_page: Any,
                                                                   shot: Any) -> None:
    anna = person(new_page, "Anna")
    single = anna.locator("[data-quick='unter-spannung']")
    tournament = anna.locator("[data-quick='unter-spannung:quick_us_tournament']")
    a, b = single.bounding_box(), tournament.bounding_box()
    assert a is not None and b is not None
    assert abs(a["width"] - b["width"]) < 2 and abs(a["height"] - b["height"]) < 2, (a, b)
    assert b["y"] + b["height"] <= 800, b  # above the fold at 1280 × 800
    assert "Turnier" in tournament.inner_text()
    shot(anna, "ready_quick_desktop")
    tournament.click()
    anna.wait_for_url("**/t/*")
    wait_for_js(anna, "document.querySelector('.table-page')?.dataset.phase === 'playing'",
                timeout=15)
    assert "Runde 1 von 8" in anna.inner_text(".table-head")
    phone = person(new_page, "Ben", width=390, height=844, touch=True)
    phone.locator("[data-quick='unter-spannung:quick_us_tournament']").wait_for()
    shot(phone, "ready_quick_phone", full_page=True)


@pytest.mark.parametrize("size", [(390, 844), (360, 740), (412, 915)])
def test_the_after_match_actions_show_on_a_phone(new_page: Any, shot: Any, size: tuple[int, int],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    width, height = size
    anna = person(new_page, "Annabella Maximiliane Schmidt-Rottluff"[:24], width=width,
                  height=height, touch=True)
    with dealt(monkeypatch, short_deal()):
        create_by_message(anna, {"type": "create", "game": "unter-spannung", "options": {},
                                 "seats": [{"kind": "open"}, {"kind": "bot", "bot": "pro"}]})
    anna.locator("#start:not([disabled])").tap()
    wait_until(lambda: phase(anna) == "playing", timeout=15)
    win_the_round(anna)
    wait_until(lambda: phase(anna) == "over")
    anna.locator(".round-end.over #rematch").wait_for()
    wait_for_js(anna, "!document.querySelector('.round-end.over:not(.still)')"
                      " || document.getAnimations().length === 0")
    shot(anna, f"ready_after_match_{width}x{height}")
    assert anna.evaluate("scrollY") == 0
    for selector in ("#rematch", ".round-end.over a[href='/']"):
        box = anna.locator(selector).bounding_box()
        assert box is not None, selector
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, box)
    # names not cut silently: where a name is shortened, its whole text is in a title
    cut = anna.evaluate("""() => [...document.querySelectorAll('.round-end .who, .plate .name')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .filter((el) => !(el.title || el.closest('[title]')?.title || '').includes('Annabella'))
        .map((el) => el.textContent)""")
    assert cut == [], cut


def test_the_sound_buttons_name_and_tooltip_agree(new_page: Any) -> None:
    page = person(new_page, "Anna")
    toggle = page.locator("#sound-toggle")
    for _ in range(2):
        name, title = toggle.get_attribute("aria-label"), toggle.get_attribute("title")
        assert name and title and title.startswith(name), (name, title)
        toggle.click()
