"""``zackzack serve --open`` opens the lobby in the user's web browser."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path


def test_serve_open_hands_the_printed_address_to_the_browser(tmp_path: Path) -> None:
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.py"
    browser.write_text(f"import sys\nopen({str(opened)!r}, 'w').write(sys.argv[1])\n")
    env = {**os.environ, "BROWSER": f"{sys.executable} {browser} %s"}
    process = subprocess.Popen(
        [sys.executable, "-m", "zackzack.cli", "serve", "--port", "0", "--open", "--db",
         str(tmp_path / "z.db")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=env)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        address = line.split("serving on ")[1].split()[0]
        deadline = time.monotonic() + 30  # a bound on a busy machine, not a pace
        while time.monotonic() < deadline and not (opened.exists() and opened.read_text()):
            time.sleep(0.05)  # the browser's file exists before its address is written
        assert opened.read_text() == address
    finally:
        process.terminate()
        process.wait(10)
