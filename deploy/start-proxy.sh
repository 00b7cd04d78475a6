#!/usr/bin/env bash
# nginx with TLS on localhost in front of running instances of the site (deploy/nginx.conf.template): a
# self-signed certificate for localhost in <run-folder>/cert.pem, the filled-in config, then nginx in the
# foreground until SIGTERM/SIGQUIT. Used by deploy/start-cluster.sh and the Observatory test.
#   UPSTREAM_PORTS="4241 4242" TLS_PORT=4243 [HTTP_PORT=4240] deploy/start-proxy.sh <run-folder>
set -euo pipefail
cd "$(dirname "$0")/.."
run="${1:?usage: deploy/start-proxy.sh <run-folder>}"
: "${UPSTREAM_PORTS:?UPSTREAM_PORTS must list the ports of the instances}"
: "${TLS_PORT:?TLS_PORT must be set}"
nginx_bin="${NGINX:-/usr/sbin/nginx}"
if [ ! -x "$nginx_bin" ]; then
  echo "nginx is missing: apt-get install -y nginx-light" >&2
  exit 1
fi
mkdir -p "$run"
# nginx started as root runs its workers as another user, which must reach the folders it makes here (the kept
# answers' cache among them); the key stays readable by root alone.
chmod 711 "$run"

openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=localhost" \
  -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -keyout "$run/key.pem" -out "$run/cert.pem" 2>/dev/null
upstreams=""
for port in $UPSTREAM_PORTS; do upstreams+="${upstreams:+\n    }server 127.0.0.1:$port max_fails=3 fail_timeout=2s;"; done
# Without HTTP_PORT the one-line http server is dropped.
drop_http='/@HTTP_PORT@/d'
[ -n "${HTTP_PORT:-}" ] && drop_http='s#@HTTP_PORT@#'"$HTTP_PORT"'#g'
sed -e "$drop_http" -e "s#@RUN@#$run#g" -e "s#@UPSTREAMS@#$upstreams#" -e "s#@TLS_PORT@#$TLS_PORT#g" \
  deploy/nginx.conf.template > "$run/nginx.conf"
exec "$nginx_bin" -c "$run/nginx.conf" -p "$run" -g "daemon off;"
