#!/usr/bin/env bash
# The tests of what a change touches: every test file that imports (directly or through others) a file changed
# since the base (default main: committed, staged and unstaged changes), by Vitest's own import graph (`--changed`).
# The node-side and component projects only: the e2e and fault tests start the built server, which no import
# reaches — run those by name (CONTRIBUTING.md).
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-main}"
shift || true
exec npx vitest run --changed "$base" --project unit --project unit-isolated --project postgres --project components --passWithNoTests "$@"
