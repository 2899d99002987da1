"""Unter Spannung in the browser: a table with three bots, a round by keyboard, its replay."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import pytest

from e2e.kit import phase, us_fits, us_state, wait_until
from zackzack.engine.matchlog import parse_log
from zackzack.engine.replay import replay

pytestmark = [pytest.mark.e2e, pytest.mark.wallclock]


def create_us_table(page: Any, level: str) -> str:
    """The lobby's form: Unter Spannung, me and three bots of ``level``; returns the code."""
    page.goto("/")
    page.fill("#name", "Anna")
    page.press("#name", "Tab")
    page.check("input[name=game][value='unter-spannung']")
    for seat in (1, 2, 3):
        page.select_option(f"select[name=seat-{seat}-kind]", "bot")
        page.select_option(f"select[name=seat-{seat}-level]", level)
    page.click("#create")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".waiting .big-code b")
    return str(page.inner_text(".waiting .big-code b"))


def play_round_by_keyboard(page: Any, shot: Any, still_for: float = 30,
                           at_most: float = 300) -> dict[str, int]:
    """Play like a quick, careful person: a fitting card by its key, else draw (D).

    The round's length is not the test's business (three bots and a random deal: 10–18 s
    measured on an idle machine; a fixed 45 s was missed by 48 ms on a loaded one), so the
    deadline is for standing still: the round fails if nothing on the board changes for
    ``still_for`` s (the longest such stretch measured was 6.3 s: a freeze, or "Nichts geht
    mehr!" counting down), and ``at_most`` only bounds a round that moves without ending."""
    done = {"played": 0, "drawn": 0}
    shown = False
    began = last_move = time.monotonic()
    seen = ""
    while phase(page) not in ("between", "over"):
        now = time.monotonic()
        assert now - began < at_most, f"the round did not end in {at_most} s"
        state = us_state(page)
        looks = json.dumps(state, sort_keys=True)  # the top, my hand, the draw pile, ...
        if looks != seen:
            seen, last_move = looks, now
        assert now - last_move < still_for, f"the round stood still for {still_for} s"
        if not state or state["phase"] != "playing" or state["frozen"] or not state["top"]:
            time.sleep(0.05)
            continue
        fitting = [c for c in state["hand"] if not c["sent"] and us_fits(c["card"], state["top"])]
        if fitting:
            page.keyboard.press(fitting[0]["key"])
            done["played"] += 1
            if not shown:
                time.sleep(0.12)
                shot(page, "us_2_playing")
                shown = True
        elif state["draw"] > 0:
            page.keyboard.press("d")
            done["drawn"] += 1
        else:
            time.sleep(0.1)  # nothing fits, nothing to draw: "Nichts geht mehr!" comes
            continue

        def moved(before: dict[str, Any] = state) -> bool:
            now = us_state(page)
            return now is None or now["top"] != before["top"] or now["hand"] != before["hand"] \
                or now["phase"] != "playing"

        # A card that came too late slides back: then just look again.
        with contextlib.suppress(AssertionError):
            wait_until(moved, timeout=1.0, every=0.02)
    return done


def test_unter_spannung_round_by_keyboard_then_replay(new_page: Any, shot: Any,
                                                       tmp_path: Any) -> None:
    page = new_page()
    code = create_us_table(page, "beginner")
    assert len(code) == 6
    assert page.input_value(".waiting .link").endswith(f"/t/{code}")
    shot(page, "us_0_waiting_room")

    page.keyboard.press("Enter")  # the creator starts (Enter = ready / start)
    wait_until(lambda: phase(page) == "starting")
    wait_until(lambda: page.inner_text(".starter") in ("3", "2", "1"))
    shot(page, "us_1_countdown")

    wait_until(lambda: phase(page) == "playing", timeout=6)
    page.wait_for_selector(".board.us .hand .card")
    hand = page.eval_on_selector_all(".board.us .hand .card",
                                     "els => els.map(e => e.dataset.hotkey)")
    assert hand[:4] == ["1", "2", "3", "4"]
    # The others, with their card counts; three plates, names shown as text.
    assert page.locator(".board.us .others .plate").count() == 3

    page.keyboard.press("?")
    page.wait_for_selector("#help[open] .keys")
    assert "D" in page.inner_text("#help .keys")
    shot(page, "us_help")
    page.keyboard.press("Escape")

    done = play_round_by_keyboard(page, shot)
    assert done["played"] + done["drawn"] > 0
    page.wait_for_selector(".overlay.on .round-end")
    text = page.inner_text(".round-end")
    assert "partie vorbei" in text.lower() and "minuspunkte" in text.lower()
    shot(page, "us_3_round_end")

    # The match is stored before anyone saw the result.
    stored = page.get_attribute(".round-end a[href^='/matches/']", "href")
    assert stored

    # A rematch: a new table with the same seats, and I am its creator.
    page.click("#rematch")
    page.wait_for_url(lambda url: "/t/" in url and not url.endswith(code))
    page.wait_for_selector(".waiting #start:not([disabled])")
    assert page.locator(".waiting .wait-seat.bot").count() == 3

    # Open the stored match and replay it.
    page.goto(stored)
    page.wait_for_selector(".replay-controls")
    page.wait_for_selector(".match-page .board.us")
    assert "Anna" in page.inner_text(".match-side .scores")
    shot(page, "us_4_replay_start")
    page.select_option("#replay-speed", "4")
    page.click("#replay-play")
    time.sleep(1.5)
    shot(page, "us_5_replay_playing")
    page.click("#replay-play")  # pause
    before = page.input_value(".timeline")
    page.click("#replay-step")
    assert int(page.input_value(".timeline")) == int(before) + 1 or \
        int(before) == int(page.get_attribute(".timeline", "max") or 0)

    with page.expect_download() as download:
        page.click("#download")
    path = tmp_path / "log.json"
    download.value.save_as(path)
    log = parse_log(json.loads(path.read_text()))
    assert log.game == "unter-spannung" and log.actions
    assert replay(log).table.match.result is not None
