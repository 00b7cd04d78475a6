#!/usr/bin/env bash
# Runs the unit and integration suites on other Node.js versions, each in a temporary copy of the repository
# with better-sqlite3 rebuilt for that version's ABI — the main node_modules is never touched.
#   scripts/node-matrix.sh [versions…]        (default: 22 24)
# Node itself comes from the registry's `node` package, whose platform package carries the headers node-gyp needs.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then versions=("$@"); else versions=(22 24); fi
results=()
for version in "${versions[@]}"; do
  work="$(mktemp -d)"
  echo "== Node $version in $work"
  npm install --prefix "$work/node" --no-audit --no-fund --silent "node@$version" >/dev/null
  bin="$work/node/node_modules/node/bin"
  nodedir="$(dirname "$(dirname "$(readlink -f "$bin/node")")")"
  git archive HEAD | tar -x -C "$work"
  cp -r node_modules "$work/node_modules"
  (
    cd "$work"
    export PATH="$bin:$PATH" npm_config_nodedir="$nodedir"
    echo "node $(node --version)"
    npm rebuild better-sqlite3 >/dev/null
    npx vitest run --project unit
  ) && results+=("Node $version: passed") || results+=("Node $version: FAILED")
  rm -rf "$work"
done
printf '%s\n' "${results[@]}"
[[ "${results[*]}" != *FAILED* ]]
