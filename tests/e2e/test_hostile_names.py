"""Hostile names and titles are shown as text, never as markup: no script runs, no element is made.

Names are at most 24 characters, so the 28-character ``<img src=x onerror=alert(1)>`` goes
into the table's title (shown to everyone in the lobby and at the table), and the name is
the 21-character ``<svg onload=alert(1)>``.
"""

from __future__ import annotations

from typing import Any

import pytest

from e2e.kit import phase, wait_until

pytestmark = pytest.mark.e2e

NAME = "<svg onload=alert(1)>"
TITLE = "<img src=x onerror=alert(1)>"
INJECTED = """() => document.querySelectorAll(
  'img[src="x"], svg[onload], [onerror], [onload]').length"""


def guarded(page: Any) -> list[str]:
    """Record every dialog (an ``alert`` would be one) the page opens."""
    dialogs: list[str] = []

    def note(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", note)
    return dialogs


def clean(page: Any, dialogs: list[str]) -> None:
    """Nothing was injected and nothing ran."""
    assert page.evaluate(INJECTED) == 0
    assert dialogs == []


def test_a_hostile_name_and_title_stay_text(new_page: Any, shot: Any) -> None:
    mallory = new_page()
    mallory_dialogs = guarded(mallory)
    mallory.goto("/")
    mallory.fill("#name", NAME)
    mallory.press("#name", "Tab")
    mallory.check("input[name=game][value='unter-spannung']")
    mallory.select_option("select[name=seat-1-kind]", "bot")
    mallory.click("details.more summary")
    mallory.fill("input[name=title]", TITLE)
    mallory.press("input[name=title]", "Tab")
    mallory.click("#create")
    mallory.wait_for_selector(".waiting #start")
    code = mallory.inner_text(".waiting .big-code b")
    assert NAME in mallory.inner_text(".waiting .wait-seats")
    clean(mallory, mallory_dialogs)

    anna = new_page()
    anna_dialogs = guarded(anna)
    anna.goto("/")
    item = anna.wait_for_selector(f".table-item[data-code='{code}']")
    assert TITLE in item.inner_text() and NAME in item.inner_text()
    clean(anna, anna_dialogs)
    shot(anna, "hostile_lobby")

    mallory.click("#start")
    wait_until(lambda: phase(mallory) == "playing", timeout=8)
    anna.goto(f"/t/{code}")
    anna.wait_for_selector(".board.us.watching .others .plate")
    wait_until(lambda: NAME in anna.inner_text("body"))
    assert TITLE in anna.inner_text("body")
    shot(anna, "hostile_table")
    clean(anna, anna_dialogs)
    clean(mallory, mallory_dialogs)
