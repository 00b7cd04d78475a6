#!/usr/bin/env bash
# Two instances of the built site on PostgreSQL + Redis behind nginx with TLS on localhost: the deploy recipe
# in miniature, to run by hand (the scale-out tests start the same through tests/helpers/cluster.ts).
#   DATABASE_URL=postgres://… REDIS_URL=redis://… deploy/start-cluster.sh [run-folder]
# Optional: TLS_PORT (4243), PORT_A (4241), PORT_B (4242), HTTP_PORT (none: no http redirect), BUILD_DIR (build).
# Runs until SIGTERM/SIGINT, then stops nginx (deploy/start-proxy.sh) and both instances (each drains and exits
# on its own SIGTERM).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${DATABASE_URL:?DATABASE_URL must point at PostgreSQL}"
: "${REDIS_URL:?REDIS_URL must point at Redis}"
run="${1:-$(mktemp -d)}"
tls_port="${TLS_PORT:-4243}"
port_a="${PORT_A:-4241}"
port_b="${PORT_B:-4242}"
nginx_bin="${NGINX:-/usr/sbin/nginx}"
mkdir -p "$run"

# One process per instance here (two instances on a small machine); WEB_CONCURRENCY=auto would fork one per core each.
export NODE_ENV=production SITE_URL="https://localhost:$tls_port" TRUSTED_PROXIES=127.0.0.1 DATABASE_URL REDIS_URL WEB_CONCURRENCY="${WEB_CONCURRENCY:-1}"
pids=()
stop() {
  trap - TERM INT EXIT
  "$nginx_bin" -c "$run/nginx.conf" -p "$run" -s quit 2>/dev/null || true
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait || true
}
trap stop TERM INT EXIT

# The first instance migrates; the second waits for it (Kysely's migration lock makes either order safe).
PORT="$port_a" node server.mjs > "$run/instance-a.log" 2>&1 &
pids+=($!)
PORT="$port_b" node server.mjs > "$run/instance-b.log" 2>&1 &
pids+=($!)
for port in "$port_a" "$port_b"; do
  for _ in $(seq 1 150); do
    curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break
    sleep 0.2
  done
  curl -sf "http://127.0.0.1:$port/readyz" >/dev/null || { echo "instance on $port did not become ready" >&2; cat "$run"/instance-*.log >&2; exit 1; }
done
UPSTREAM_PORTS="$port_a $port_b" TLS_PORT="$tls_port" deploy/start-proxy.sh "$run" &
pids+=($!)
for _ in $(seq 1 50); do
  curl -sfk "https://localhost:$tls_port/readyz" >/dev/null && break
  sleep 0.2
done
curl -sfk "https://localhost:$tls_port/readyz" >/dev/null || { echo "nginx did not start" >&2; cat "$run/error.log" >&2 || true; exit 1; }
echo "cluster ready: https://localhost:$tls_port (certificate $run/cert.pem)"
wait
