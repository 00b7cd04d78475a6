#!/usr/bin/env bash
# Builds one release: a folder with the build, the production dependencies (npm ci --omit=dev, which brings the
# Node.js 24 the site runs on: node_modules/.bin/node), the start script and the deploy files. The same folder is
# deployed unchanged to staging and to production: the build reads no deployment variable, each server starts it
# with its own (docs/operations.md, *Releases*). Pack it with `tar -czf release.tgz -C <folder> .` if you ship a file.
#   scripts/release.sh [target-folder]   (default: release/<commit>)
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-release/$(git rev-parse --short HEAD)}"
rm -rf "$target" && mkdir -p "$target"
target="$(cd "$target" && pwd)"

# Built straight into the release. The build reads no deployment variable; NODE_ENV is set here, not inherited (a
# test runner's NODE_ENV=test would make Vite build a development server).
NODE_ENV=production BUILD_DIR="$target/build" npm run build
cp -r package.json package-lock.json server.mjs .env.example deploy "$target/"
mkdir -p "$target/server" && cp server/json-console.mjs server/metrics-port.mjs "$target/server/"
# The operator commands (`npm run user:role`, `npm run user:sign-out`) run on the release's build.
mkdir -p "$target/scripts" && cp scripts/server-bundle.mjs scripts/user-role.mjs scripts/user-sign-out.mjs "$target/scripts/"
(cd "$target" && npm ci --omit=dev --no-audit --no-fund --loglevel=error)
git rev-parse HEAD > "$target/REVISION"
echo "release ready: $target (Node $("$target/node_modules/.bin/node" --version))"
