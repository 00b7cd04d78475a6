#!/usr/bin/env bash
# Screenshots of the parent's paths at 375 px and 1280 px, with and without JavaScript, into
# test-results/screenshots/ (git-ignored): builds the site, then runs the end-to-end test that takes them.
# Usage: bash scripts/screenshots.sh            (E2E_PORT picks the port, default 3100)
# A Traditional-Chinese font (Debian: fonts-noto-cjk) makes the text legible in them: installed as root when absent
# (scripts/cjk-font.sh); the tests do not need it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/cjk-font.sh
port="${E2E_PORT:-3100}"
rm -rf test-results/screenshots
BUILD_DIR=build-test SITE_URL="http://localhost:$port" npm run build >/dev/null
E2E_PORT="$port" BUILD_DIR=build-test npx vitest run --project e2e tests/e2e/parent-trips.test.ts
ls test-results/screenshots
