#!/usr/bin/env bash
# Install what the tests need (a virtual environment, Debian's chromium, postgresql and
# redis-server) and run them all: ruff, mypy --strict, then pytest (unit, property, server,
# cluster and headless-browser tests).
set -euo pipefail
cd "$(dirname "$0")/.."
MISSING=""
command -v chromium >/dev/null 2>&1 || MISSING="$MISSING chromium"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || MISSING="$MISSING postgresql"
command -v redis-server >/dev/null 2>&1 || MISSING="$MISSING redis-server"
command -v npm >/dev/null 2>&1 || MISSING="$MISSING nodejs npm"
if [ -n "$MISSING" ]; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $MISSING >/dev/null
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test,postgres,env,ray]'
# axe-core (package.json, pinned in package-lock.json) for the accessibility checks.
if [ ! -f node_modules/axe-core/axe.min.js ]; then
    if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --silent
    else npm install --no-audit --no-fund --silent; fi
fi
.venv/bin/ruff check src tests bench
.venv/bin/mypy
.venv/bin/python -m pytest -n 2 -q "$@"
# The compiled build (setup.py, ZACKZACK_COMPILE=1) against the tests of what it compiles;
# only for a whole run (arguments above pick pytest's tests).
if [ $# -eq 0 ]; then bash scripts/compiled.sh; fi
