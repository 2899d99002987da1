"""A card sent as the connection drops is sent again after the reconnect, applied once."""

from __future__ import annotations

import time
from typing import Any

import pytest

from e2e.kit import create_by_message, person, start_two, us_state, wait_for_js, wait_until

pytestmark = pytest.mark.e2e

DROP_NEXT_ACT = """() => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (!window.dropped && typeof data === 'string' && data.includes('"type":"act"')) {
      window.dropped = data;  // lost on the way: the connection drops before it leaves
      this.close();
      return;
    }
    return send.call(this, data);
  };
}"""


def test_a_draw_lost_in_a_dropped_connection_is_drawn_once_after_the_reconnect(
        new_page: Any) -> None:
    anna, ben = person(new_page, "Anna"), person(new_page, "Ben")  # Ben keeps the table going
    code = create_by_message(anna, {"type": "create", "game": "unter-spannung",
                                    "seats": [{"kind": "open"}, {"kind": "open"}]})
    start_two(anna, ben, code)
    before = wait_until(lambda: us_state(anna) if us_state(anna) else None)
    anna.evaluate(DROP_NEXT_ACT)
    anna.keyboard.press("d")
    wait_for_js(anna, "window.dropped !== undefined")
    wait_until(lambda: us_state(anna)["draw"] == before["draw"] - 1)  # type: ignore[index]
    after = us_state(anna)
    assert after is not None and len(after["hand"]) == len(before["hand"]) + 1
    # the lost frame turns up after all, on the new connection: it is not applied twice
    anna.evaluate("() => window.zackzack.net.ws.send(window.dropped)")
    time.sleep(0.5)
    assert us_state(anna)["draw"] == before["draw"] - 1  # type: ignore[index]
