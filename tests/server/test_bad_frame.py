"""A text frame that is not UTF-8, sent to a real ``zackzack serve`` process (issue 26): the
connection is closed with 1007, standard error gets one JSON line (``client_closed``,
``bad_utf8``) and no traceback, and the server goes on."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from server.wire import serve

pytestmark = pytest.mark.wallclock


def test_a_frame_that_is_not_utf8_is_one_json_line_and_no_traceback(tmp_path: Path) -> None:
    with serve(tmp_path / "z.db") as (http, process):
        ws_url = http.replace("http://", "ws://") + "/ws"
        with connect(ws_url) as ws:
            ws.send(b'{"type": "hello", "name": "\xff\xfe"}', text=True)
            with pytest.raises(ConnectionClosed):
                ws.recv(10)
            assert ws.close_code == 1007
        with connect(ws_url) as ws:  # the server goes on
            ws.send(json.dumps({"type": "hello", "name": "Anna"}))
            assert json.loads(ws.recv(10))["type"] == "welcome"
        time.sleep(0.3)  # the log line is written as the connection closes
        process.terminate()
        _, stderr = process.communicate(timeout=20)
    lines = [line for line in stderr.splitlines() if "bad_utf8" in line]
    assert len(lines) == 1 and json.loads(lines[0])["event"] == "client_closed"
    assert "Traceback" not in stderr
    assert all(line.startswith("{") or line.startswith("zackzack:")
               for line in stderr.splitlines()), stderr
