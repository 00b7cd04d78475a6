#!/usr/bin/env bash
# Builds a self-contained release folder: the build, production dependencies only (npm ci --omit=dev), the start
# script and the deploy files. Copy the folder to the server and run `npm start` in it (or the systemd unit).
#   scripts/release.sh [target-folder]   (default: release/<commit>)
# Build with the production environment (.env or exported variables): prerendered pages carry the public settings.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-release/$(git rev-parse --short HEAD)}"
rm -rf "$target" && mkdir -p "$target"

BUILD_DIR=build npm run build
cp -r build package.json package-lock.json server.mjs .env.example deploy "$target/"
# The operator commands (`npm run user:role`, `npm run user:sign-out`) run on the release's build.
mkdir -p "$target/scripts" && cp scripts/server-bundle.mjs scripts/user-role.mjs scripts/user-sign-out.mjs "$target/scripts/"
(cd "$target" && npm ci --omit=dev --ignore-scripts=false --no-audit --no-fund)
git rev-parse HEAD > "$target/REVISION"
echo "release ready: $target"
