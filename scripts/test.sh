#!/usr/bin/env bash
# Install what the tests need (a virtual environment, Debian's chromium, postgresql and
# redis-server) and run them all: ruff, mypy --strict, the browser client's tsc, ESLint and
# node --test, then pytest (unit, property, server, cluster and headless-browser tests).
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
# The npm devDependencies (package.json, pinned in package-lock.json): axe-core for the
# accessibility checks, TypeScript, ESLint and globals for the browser client's checks below.
# Installed again whenever package-lock.json differs from the one last installed (a fresh
# clone, an older checkout's node_modules, a changed lock).
if [ ! -f package-lock.json ]; then
    npm install --no-audit --no-fund --silent
elif ! cmp -s package-lock.json node_modules/.zackzack-installed-lock; then
    npm ci --no-audit --no-fund --silent
    cp package-lock.json node_modules/.zackzack-installed-lock
fi
.venv/bin/ruff check src tests bench scripts
# mypy (on one core, mostly with a cold cache) beside the browser client's checks on the other.
.venv/bin/mypy &
mypy=$!
# The browser client (docs/web.md): types (JSDoc, checked by tsc against types/protocol.d.ts,
# generated from the server's schemas: tests/test_protocol_types.py), ESLint, unit tests.
npx --no-install tsc --noEmit -p .
npx --no-install tsc --noEmit -p tests/js
npx --no-install eslint .
node --import ./tests/js/served.js --test tests/js/*.test.js
wait "$mypy"
if [ $# -eq 0 ]; then
    # Everything but the tests that add network devices (tests/delaynet.py: a browser cancels
    # its requests whenever the machine's network changes), then those alone.
    # The tests that mostly wait on real servers (outages, clusters, the terminal against a
    # server) in a lane of their own beside the two workers of the rest: they use little CPU,
    # and the browser tests do not wait behind them. Their output follows the others'.
    # (``waits``: marked by tests/conftest.py.)
    waits_log=$(mktemp)
    .venv/bin/python -m pytest -q -p no:cacheprovider -m "waits and not delaynet" \
        >"$waits_log" 2>&1 &
    waiting=$!
    rest=0
    .venv/bin/python -m pytest -n 2 -q -m "not delaynet and not waits" || rest=$?
    waited=0
    wait "$waiting" || waited=$?
    cat "$waits_log"
    rm -f "$waits_log"
    if [ "$rest" != 0 ] || [ "$waited" != 0 ]; then exit 1; fi
    # The compiled build (setup.py, ZACKZACK_COMPILE=1) against the tests of what it compiles,
    # meanwhile (it uses no network; the delaynet tests mostly wait on their sockets), its
    # output after theirs. The delaynet tests are collected from the files that mark them.
    compiled_log=$(mktemp)
    bash scripts/compiled.sh >"$compiled_log" 2>&1 &
    compiled=$!
    delaynet=0
    # shellcheck disable=SC2046
    .venv/bin/python -m pytest -q -p no:cacheprovider -m delaynet \
        $(grep -rlE 'mark\.delaynet' tests --include='*.py') || delaynet=$?
    built=0
    wait "$compiled" || built=$?
    cat "$compiled_log"
    rm -f "$compiled_log"
    if [ "$delaynet" != 0 ] || [ "$built" != 0 ]; then exit 1; fi
else
    .venv/bin/python -m pytest -n 2 -q "$@"
fi
