#!/usr/bin/env bash
# The compiled build (setup.py with ZACKZACK_COMPILE=1; docs/design.md, "A compiled build"):
# build its wheel, install it in a fresh venv, run the tests of what it compiles against it
# (zackzack imported from that venv, never from src/), and print the simulator's speed.
#   scripts/compiled.sh [DIR]    DIR keeps the wheel and the venv (default: a temporary one)
# Needs the project's .venv (its Python; pip's cache makes the installs quick) and a C compiler.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -gt 0 ]]; then
  work=$1
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
rm -rf "$work/wheel" "$work/venv"

echo "== compiled wheel"
ZACKZACK_COMPILE=1 .venv/bin/python -m pip wheel -q --no-deps -w "$work/wheel" .
wheel=$(ls "$work"/wheel/zackzack-*.whl)

echo "== fresh venv with $(basename "$wheel")"
.venv/bin/python -m venv "$work/venv"
# The test tools at the ranges pyproject.toml's test extra gives them.
mapfile -t tools < <(.venv/bin/python - <<'EOF'
import re, tomllib
test = tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["test"]
for requirement in test:
    if re.match(r"(pytest|pytest-asyncio|hypothesis)[<>=]", requirement):
        print(requirement)
EOF
)
"$work/venv/bin/python" -m pip install -q "$wheel" "${tools[@]}"

echo "== tests against the compiled build"
# One process: the simulator's own process pool would fork pytest-xdist's workers.
# (Ray's pool is not compiled code, and the extra is not in this venv.)
ZACKZACK_COMPILED=1 "$work/venv/bin/python" -m pytest -q -p no:cacheprovider \
  --ignore=tests/sim/test_ray.py tests/test_compiled.py tests/sim tests/test_table.py tests/test_table_schnelllauf.py \
  tests/test_matchlog.py tests/games tests/bots

if [[ -d ../shared/yardsticks ]]; then
  echo "== simulator speed, compiled"
  "$work/venv/bin/python" bench/simulate.py --rounds 3000 --repeat 3
else
  echo "== no yardsticks beside the repository: bench/simulate.py --yardsticks DIR times it"
fi
