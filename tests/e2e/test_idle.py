"""The idle rule on the table page (docs/rules.md, *Eine Runde endet immer*): the person the
table waits on reads the warning counting down, then that a stand-in plays for them, and any
key of theirs takes the seat back; the others' plates say it in words."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from e2e.conftest import LiveServer
from e2e.kit import create_by_message, person, start_two, wait_for_js

pytestmark = pytest.mark.e2e

NOTE = "document.querySelector('.idle-note')"
BEN = "document.querySelector('.board.us .others .plate[data-seat=\"1\"] .plate-away')"


def test_the_warning_then_the_stand_in_then_the_seat_back(
        new_page: Any, server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    lobby = server.app.state.server.lobby
    monkeypatch.setattr(lobby, "timing", dataclasses.replace(
        lobby.timing, stall_warning=2.0, stall_stand_in=4.0))
    anna, ben = person(new_page, "Anna"), person(new_page, "Ben")
    code = create_by_message(anna, {"type": "create", "game": "unter-spannung", "options": {},
                                    "seats": [{"kind": "open"}, {"kind": "open"}]})
    start_two(anna, ben, code)
    # Nobody acts, though both could draw: both are warned, and see each other's warning.
    wait_for_js(anna, f"/^Du bist dran – in [1-4] s spielt eine Vertretung für dich$/"
                      f".test({NOTE}?.textContent ?? '')")
    assert anna.evaluate(f"{BEN}?.textContent") == "Vertretung kommt gleich"
    # Then stand-ins play for both.
    wait_for_js(anna, f"{NOTE}?.textContent === 'Eine Vertretung spielt für dich – deine "
                      "nächste Aktion übernimmt wieder'")
    wait_for_js(anna, f"{BEN}?.textContent === 'Vertretung spielt'")
    # Anna draws: her seat is hers again; Ben's stand-in plays on.
    anna.keyboard.press("d")
    wait_for_js(anna, f"{NOTE}.hidden")
    assert anna.evaluate(f"{BEN}?.textContent") == "Vertretung spielt"
    assert not anna.js_errors and not ben.js_errors
