#!/usr/bin/env bash
# Benchmarks stickerd as shipped (default flags and log level, so with its access log line per request) on the demo
# catalog, with wrk, next to two anchors serving the very same bytes:
# nginx from disk, and a bare Hummingbird app from memory (the framework's own ceiling, on the same paths; stickerd's
# cached manifests and assets should reach 0.9x of it).
# Usage: scripts/bench.sh manifest [path/to/stickerd] [path/to/baseline-server]   (make bench builds both in release mode)
# Each case runs ROUNDS times, the three servers alternating, and the best of each is compared: on a shared machine a
# burst of other work in one run decided a ratio by 10%.
# Environment: DURATION (default 5s), ROUNDS (3), CONNECTIONS (64), THREADS (2).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
baseline=${2:-.build/release/baseline-server}
duration=${DURATION:-5s}
rounds=${ROUNDS:-3}
connections=${CONNECTIONS:-64}
threads=${THREADS:-2}
sport=$(free_port)
nport=18081
bport=18082

work=$(mktemp -d /tmp/stickerd-bench.XXXXXX)
chmod 755 "$work"   # the embedded cluster's user and nginx's workers must reach it
pids=()   # nginx and the bare Hummingbird app (stickerd: stop_stickerds)
cleanup() {
  for pid in "${pids[@]-}"; do kill "$pid" 2>/dev/null || true; done
  stop_stickerds
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "Starting stickerd --demo on :$sport"
start_stickerd --port "$sport" "$stickerd" "$work/stickerd.log" --demo --data-dir "$work/db"

mkdir -p "$work/www"
header() { { grep -i "^$1:" "$2" || true; } | cut -d' ' -f2- | tr -d '\r'; }
curl -sf -D "$work/manifest.headers" "http://127.0.0.1:$sport/v1/manifest" -o "$work/www/manifest.json"
etag=$(header etag "$work/manifest.headers")
asset=$(python3 scripts/lib/json_get.py groups.0.cover.url "$work/www/manifest.json")
curl -sf -D "$work/asset.headers" "http://127.0.0.1:$sport$asset" -o "$work/www/asset.png"
filtered="/v1/manifest?filter=chocoholic&locale=fr&scale=2"
curl -sf -D "$work/filtered.headers" "http://127.0.0.1:$sport$filtered" -o "$work/www/filtered.json"
curl -sf -D "$work/br.headers" -H 'Accept-Encoding: gzip, br' "http://127.0.0.1:$sport/v1/manifest" -o "$work/www/manifest.json.br"
chmod -R a+rX "$work/www"

cat >"$work/nginx.conf" <<CONF
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  types { application/json json; image/png png; }
  server {
    listen 127.0.0.1:$nport;
    root $work/www;
    etag on;
  }
}
CONF
echo "Starting nginx on :$nport"
nginx -c "$work/nginx.conf" -p "$work" -g 'daemon off;' &
pids+=($!)
nginx_etag_file() { curl -sI "http://127.0.0.1:$nport/$1" | grep -i '^etag:' | cut -d' ' -f2- | tr -d '\r'; }

route() {  # PATH FILE HEADERS-FILE: the bytes and the headers stickerd sent for them
  local args=("$1=$2")
  for name in content-type etag cache-control vary content-encoding x-content-type-options; do
    local value; value=$(header "$name" "$3")
    if [[ -n "$value" ]]; then args+=("+$name:$value"); fi
  done
  printf '%s\n' "${args[@]}"
}
mapfile -t baseline_args < <(route /v1/manifest "$work/www/manifest.json" "$work/manifest.headers"
  route /filtered "$work/www/filtered.json" "$work/filtered.headers"
  route "$asset" "$work/www/asset.png" "$work/asset.headers"
  route /manifest-br "$work/www/manifest.json.br" "$work/br.headers")
echo "Starting the bare Hummingbird app on :$bport"
"$baseline" "$bport" "${baseline_args[@]}" >"$work/baseline.log" 2>&1 &
pids+=($!)
sleep 1
curl -sf "http://127.0.0.1:$bport/v1/manifest" -o /dev/null || { cat "$work/baseline.log"; exit 1; }

# Requests per second that wrk reports for one run.
rps() { wrk -t"$threads" -c"$connections" -d"$duration" "$@" | awk '/Requests\/sec/ {print $2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

printf '\n%-24s %12s %12s %8s %14s %8s\n' "case" "stickerd rps" "nginx rps" "ratio" "Hummingbird rps" "ratio"
row() {  # NAME STICKERD NGINX [BASELINE]
  if [[ -n "${4:-}" ]]; then
    printf '%-24s %12.0f %12.0f %8s %14.0f %8s\n' "$1" "$2" "$3" "$(ratio "$2" "$3")" "$4" "$(ratio "$2" "$4")"
  else
    printf '%-24s %12.0f %12.0f %8s %14s %8s\n' "$1" "$2" "$3" "$(ratio "$2" "$3")" "-" "-"
  fi
}
# One case: each side's best rps over the rounds, the sides alternating. Sides are functions printing one run's rps.
best() { printf '%s\n' "$@" | sort -g | tail -1; }
case_row() {  # NAME STICKERD-FN NGINX-FN [BASELINE-FN]
  local s=() n=() b=()
  for _ in $(seq 1 "$rounds"); do
    s+=("$($2)"); n+=("$($3)")
    if [[ -n "${4:-}" ]]; then b+=("$($4)"); fi
  done
  row "$1" "$(best "${s[@]}")" "$(best "${n[@]}")" "${4:+$(best "${b[@]}")}"
}
s_manifest() { rps "http://127.0.0.1:$sport/v1/manifest"; }
n_manifest() { rps "http://127.0.0.1:$nport/manifest.json"; }
b_manifest() { rps "http://127.0.0.1:$bport/v1/manifest"; }
s_304() { rps -H "If-None-Match: $etag" "http://127.0.0.1:$sport/v1/manifest"; }
n_304() { rps -H "If-None-Match: $nginx_etag" "http://127.0.0.1:$nport/manifest.json"; }
b_304() { rps -H "If-None-Match: $etag" "http://127.0.0.1:$bport/v1/manifest"; }
s_filtered() { rps "http://127.0.0.1:$sport$filtered"; }
n_filtered() { rps "http://127.0.0.1:$nport/filtered.json"; }
b_filtered() { rps "http://127.0.0.1:$bport/filtered"; }
s_brotli() { rps -H 'Accept-Encoding: gzip, br' "http://127.0.0.1:$sport/v1/manifest"; }
n_brotli() { rps "http://127.0.0.1:$nport/manifest.json.br"; }
b_brotli() { rps "http://127.0.0.1:$bport/manifest-br"; }
s_asset() { rps "http://127.0.0.1:$sport$asset"; }
n_asset() { rps "http://127.0.0.1:$nport/asset.png"; }
b_asset() { rps "http://127.0.0.1:$bport$asset"; }
nginx_etag=$(nginx_etag_file manifest.json)
case_row "manifest 200" s_manifest n_manifest b_manifest
case_row "manifest 304" s_304 n_304 b_304
case_row "manifest ?filter= 200" s_filtered n_filtered b_filtered
case_row "manifest brotli 200" s_brotli n_brotli b_brotli
case_row "asset 200" s_asset n_asset b_asset
echo
echo "manifest: $(wc -c <"$work/www/manifest.json") bytes ($(wc -c <"$work/www/manifest.json.br") brotli), asset: $(wc -c <"$work/www/asset.png") bytes;" \
  "best of $rounds alternating runs of wrk -t$threads -c$connections -d$duration on $(nproc) cores shared by wrk and the servers"
