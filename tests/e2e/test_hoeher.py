"""Höher, the test's third game (``tests/third_game``), played through in the browser: its own
board, stylesheet, words and rules page come from its folder alone, registered in the running
server only for this test; the shared client names no game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import third_game
from e2e.kit import create_by_message, person, phase, wait_until
from zackzack.games import Game, register, unregister

HAND = """() => [...document.querySelectorAll('.board.hoeher .hoeher-card')]
  .map((b) => Number(b.dataset.card))"""
TOP = "() => Number(document.querySelector('.board.hoeher .hoeher-top')?.dataset.card ?? -1)"


@pytest.fixture()
def hoeher(server: Any) -> Iterator[Game]:
    """Höher, registered in the live server's process for this test only."""
    found = register(third_game)
    yield found
    unregister(found.name)


def test_hoeher_is_played_through_in_the_browser(hoeher: Game, new_page: Any, shot: Any) -> None:
    anna = person(new_page, "Anna", locale="en-GB")
    create_by_message(anna, {"type": "create", "game": "hoeher", "options": {"cards": 4},
                             "seats": [{"kind": "open"}, {"kind": "bot", "bot": "beginner"}]})
    anna.locator("#start:not([disabled])").click()
    wait_until(lambda: phase(anna) == "playing", timeout=10)
    anna.wait_for_selector(".board.hoeher .hoeher-card")
    # The game's stylesheet is linked by the page and styles its board.
    assert anna.evaluate("""() => getComputedStyle(document.querySelector('.hoeher-top'))
      .fontWeight""") == "900"
    shot(anna, "hoeher_playing")
    while phase(anna) == "playing":
        hand = anna.evaluate(HAND)
        top = anna.evaluate(TOP)
        higher = sorted(card for card in hand if card > top)
        if higher:
            anna.keyboard.press(str(hand.index(higher[0]) + 1))
            # The card leaves the hand, or another card beat the top first: either way on.
            wait_until(lambda h=hand, t=top: phase(anna) != "playing"
                       or anna.evaluate(HAND) != h or anna.evaluate(TOP) != t, timeout=5)
        else:
            wait_until(lambda t=top: phase(anna) != "playing" or anna.evaluate(TOP) != t,
                       timeout=10)
    wait_until(lambda: phase(anna) in ("between", "over"), timeout=10)
    anna.wait_for_selector(".round-end")
    # The feed said the game's own events in its own words (its words folder).
    assert "higher than before" in anna.inner_text(".feed-list")
    shot(anna, "hoeher_over")


def test_hoeher_has_a_rules_page(hoeher: Game, new_page: Any, shot: Any) -> None:
    anna = person(new_page, "Anna", locale="en-GB")
    assert hoeher.describe()["rules"] == "/rules/hoeher"
    anna.goto("/rules/hoeher")
    anna.wait_for_selector("#rule-fit")
    assert "higher than the top card" in anna.inner_text("#rule-fit")
    shot(anna, "hoeher_rules", full_page=True)
