"""The waiting room keeps a press: a table message that comes while a button is held down
(someone's lag flipping, someone coming to watch or leaving) does not swallow the click.

Each message used to rebuild the panel, so the button under the pointer was a new element at
release and the browser sent no click: on a busy machine ``sit_down`` once waited in vain for
``#ready`` after Ben's "take seat". Here the message is made to come during the press.
"""

from __future__ import annotations

from typing import Any

import pytest

from e2e.kit import create_by_message, person, wait_for_js

pytestmark = pytest.mark.e2e

WATCHERS = "document.querySelector('.table-head .watchers')?.textContent ?? ''"


def held(page: Any, selector: str) -> None:
    """Put the mouse on ``selector`` (once it stands still) and press the button down."""
    page.locator(selector).hover()
    page.mouse.down()


def test_a_table_message_during_a_press_keeps_the_click(new_page: Any) -> None:
    anna = person(new_page, "Anna")
    ben = person(new_page, "Ben")
    code = create_by_message(anna, {"type": "create", "game": "unter-spannung", "options": {},
                                    "seats": [{"kind": "open"}, {"kind": "open"}]})
    ben.goto(f"/t/{code}")
    wait_for_js(ben, f"({WATCHERS}).startsWith('1 ')")

    # Carla comes to watch while Ben holds "take seat" down: the head counts her at once,
    # the panel waits for the release, and the click sits Ben down.
    held(ben, ".wait-seat.open button")
    carla = person(new_page, "Carla")
    carla.goto(f"/t/{code}")
    wait_for_js(ben, f"({WATCHERS}).startsWith('2 ')")
    assert ben.locator(".wait-seat.open button").count() == 1  # still the one pressed
    ben.mouse.up()
    ben.locator("#ready").wait_for()
    wait_for_js(anna, "document.querySelectorAll('.wait-seat.human').length === 2")

    # Carla leaves while Ben holds "I'm ready" down: Ben is ready after the release.
    held(ben, "#ready")
    carla.goto("/")
    wait_for_js(ben, f"({WATCHERS}) === ''")
    ben.mouse.up()
    ben.wait_for_selector(".wait-seat.ready:has(#rename)")
    anna.locator("#start:not([disabled])").wait_for()
