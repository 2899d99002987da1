"""Schnelllauf in the browser: play against a bot with the mouse, reload in the middle, go on."""

from __future__ import annotations

import contextlib
import time
from typing import Any

import pytest

from e2e.kit import phase, sl_fits, sl_state, wait_until

pytestmark = pytest.mark.e2e

PLACE = ".board.sl .side.me .place[data-place='{}']"


def create_sl_table(page: Any, level: str) -> None:
    """The lobby's form: Schnelllauf, me and a bot of ``level``, four cards per pile for me."""
    page.goto("/")
    page.fill("#name", "Ben")
    page.press("#name", "Tab")
    page.click("label.game-tile:has(input[value='schnelllauf'])")
    page.select_option("select[name=seat-1-kind]", "bot")
    page.select_option("select[name=seat-1-level]", level)
    page.check("input[name=seat-0-pile]")  # handicaps: 4 cards per pile for me,
    page.check("input[name=seat-1-one-hand]")  # one hand only for the bot
    page.click("#create")
    page.wait_for_selector(".waiting #start:not([disabled])")


def a_fitting_play(state: dict[str, Any]) -> tuple[int, int] | None:
    for place, spot in enumerate(state["mine"]):
        for pile in (0, 1):
            if spot["card"] and sl_fits(spot["card"], state["tops"][pile], state["stands"][pile]):
                return place, pile
    return None


def a_move(state: dict[str, Any]) -> tuple[int, int] | None:
    empty = [k for k, spot in enumerate(state["mine"]) if not spot["card"]]
    deep = [k for k, spot in enumerate(state["mine"]) if spot["card"] and spot["under"] > 0]
    return (deep[0], empty[0]) if empty and deep else None


def changed(page: Any, before: dict[str, Any]) -> bool:
    now = sl_state(page)
    return now is None or now["mine"] != before["mine"] or now["tops"] != before["tops"]


def play_by_mouse(page: Any, plays: int, timeout: float = 25, drag: bool = False) -> int:
    """Click a card: it goes onto the pile it fits, and when the board asks for the pile (it
    fits both), click that; or drag it there. When stuck, click an empty place, then the card
    to move into it."""
    done = 0
    deadline = time.monotonic() + timeout
    while done < plays and phase(page) == "playing" and time.monotonic() < deadline:
        state = sl_state(page)
        if not state or state["frozen"]:
            time.sleep(0.05)
            continue
        play, move = a_fitting_play(state), a_move(state)
        if play:
            place, pile = play
            card = page.locator(PLACE.format(place) + " > .card")
            target = page.locator(f".board.sl .pile-zone[data-pile='{pile}'] .pile")
            if drag:
                card.drag_to(target)
            else:
                card.click()
                if page.locator(".board.sl.choosing-pile").count():
                    target.click()
        elif move:
            page.locator(PLACE.format(move[1])).click()
            page.locator(PLACE.format(move[0]) + " > .card").click()
        else:
            time.sleep(0.1)  # a stalemate flip is coming
            continue
        try:
            wait_until(lambda before=state: changed(page, before), timeout=1.5, every=0.02)
            done += 1
        except AssertionError:
            pass  # too late: the bot was faster; look again
    return done


def test_schnelllauf_by_mouse_with_a_reload(new_page: Any, shot: Any) -> None:
    page = new_page()
    create_sl_table(page, "beginner")
    shot(page, "sl_0_waiting_room")
    page.click("#start")
    wait_until(lambda: phase(page) == "playing", timeout=8)
    page.wait_for_selector(PLACE.format(0) + " > .card")
    start = sl_state(page)
    assert start is not None and [spot["under"] for spot in start["mine"]] == [3] * 5
    shot(page, "sl_1_playing")

    assert play_by_mouse(page, 3, timeout=12) >= 1 or phase(page) in ("between", "over")
    # A card that leaves a choice (it fits both piles, or neither) is lifted and the board
    # asks for the pile; Escape lets go of it. (The bot may change the piles meanwhile, so
    # the card may be played instead; tests/e2e/test_boards.py checks this on a fixed deal.)
    state = sl_state(page)
    assert state is not None
    asks = [k for k, spot in enumerate(state["mine"]) if spot["card"] and sum(
        sl_fits(spot["card"], state["tops"][p], state["stands"][p]) for p in (0, 1)) != 1]
    if asks and phase(page) == "playing":
        page.locator(PLACE.format(asks[0]) + " > .card").click()
        chosen = PLACE.format(asks[0]) + ".selected"
        with contextlib.suppress(AssertionError):  # the bot moved a pile: the card went at once
            wait_until(lambda: page.locator(chosen).count() or changed(page, state), timeout=3)
        if page.locator(chosen).count():
            assert page.locator(".board.sl.choosing-pile .choose-prompt .prompt-text").count()
            shot(page, "sl_2_selected")
            page.keyboard.press("Escape")
            page.wait_for_selector(chosen, state="detached")

    # Reload in the middle: the seat comes back with the full state (how fast a page comes
    # back is measured in bench/page_load.py, not here: a busy machine is slower).
    before = sl_state(page)
    page.reload()
    first = PLACE.format(0)
    page.wait_for_selector(f"{first} > .card:not([hidden]), {first}.empty")
    after = sl_state(page)
    assert after is not None and before is not None
    mine_before = [spot["card"] for spot in before["mine"]]
    mine_after = [spot["card"] for spot in after["mine"]]
    assert mine_after == mine_before, "my layout after the reload is not the one before"
    assert "Ben" in page.inner_text(".board.sl .side.me .plate-name")
    shot(page, "sl_3_after_reload_resuming")

    # Back within the reconnect grace (1 s) the table did not pause; had the reload taken
    # longer, it goes on by itself after "3 – 2 – 1".
    wait_until(lambda: phase(page) != "paused", timeout=6)
    # ... and play goes on: by clicks, and once by dragging a card onto a pile.
    played = play_by_mouse(page, 2, timeout=10) + play_by_mouse(page, 1, timeout=8, drag=True)
    assert played >= 1 or phase(page) in ("between", "over")
    shot(page, "sl_4_playing_on")
