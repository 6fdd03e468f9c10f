#!/usr/bin/env bash
# Benchmarks stickerd on the demo catalog against nginx serving the very same bytes from disk, with wrk.
# Usage: scripts/bench.sh [path/to/stickerd]   (make bench builds it in release mode first)
# Environment: DURATION (default 10s), CONNECTIONS (64), THREADS (2).
set -euo pipefail
cd "$(dirname "$0")/.."
stickerd=${1:-.build/release/stickerd}
duration=${DURATION:-10s}
connections=${CONNECTIONS:-64}
threads=${THREADS:-2}
sport=18080
nport=18081

work=$(mktemp -d /tmp/stickerd-bench.XXXXXX)
chmod 755 "$work"   # the embedded cluster's user and nginx's workers must reach it
pids=()
cleanup() {
  for pid in "${pids[@]-}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "Starting stickerd --demo on :$sport"
LOG_LEVEL=warning "$stickerd" serve --demo --port "$sport" --data-dir "$work/db" >"$work/stickerd.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$sport/readyz" >/dev/null 2>&1 && break
  sleep 0.5
done
curl -sf "http://127.0.0.1:$sport/readyz" >/dev/null || { cat "$work/stickerd.log"; exit 1; }

mkdir -p "$work/www"
curl -sf -D "$work/manifest.headers" "http://127.0.0.1:$sport/v1/manifest" -o "$work/www/manifest.json"
etag=$(grep -i '^etag:' "$work/manifest.headers" | cut -d' ' -f2- | tr -d '\r')
asset=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["groups"][0]["cover"]["url"])' "$work/www/manifest.json")
curl -sf "http://127.0.0.1:$sport$asset" -o "$work/www/asset.png"
filtered="/v1/manifest?filter=chocoholic&locale=fr&scale=2"
curl -sf "http://127.0.0.1:$sport$filtered" -o "$work/www/filtered.json"
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
    location = /manifest { default_type application/json; try_files /manifest.json =404; }
  }
}
CONF
echo "Starting nginx on :$nport"
nginx -c "$work/nginx.conf" -p "$work" -g 'daemon off;' &
pids+=($!)
sleep 1
nginx_etag=$(curl -sI "http://127.0.0.1:$nport/manifest.json" | grep -i '^etag:' | cut -d' ' -f2- | tr -d '\r')

# Requests per second that wrk reports for one run.
rps() { wrk -t"$threads" -c"$connections" -d"$duration" "$@" | awk '/Requests\/sec/ {print $2}'; }

printf '\n%-22s %14s %14s %8s\n' "case" "stickerd rps" "nginx rps" "ratio"
row() {
  local name=$1 ours=$2 theirs=$3
  printf '%-22s %14.0f %14.0f %8.2f\n' "$name" "$ours" "$theirs" "$(python3 -c "print($ours/$theirs)")"
}
m200=$(rps "http://127.0.0.1:$sport/v1/manifest")
n200=$(rps "http://127.0.0.1:$nport/manifest.json")
row "manifest 200" "$m200" "$n200"
m304=$(rps -H "If-None-Match: $etag" "http://127.0.0.1:$sport/v1/manifest")
n304=$(rps -H "If-None-Match: $nginx_etag" "http://127.0.0.1:$nport/manifest.json")
row "manifest 304" "$m304" "$n304"
f200=$(rps "http://127.0.0.1:$sport$filtered")
nf200=$(rps "http://127.0.0.1:$nport/filtered.json")
row "manifest ?filter= 200" "$f200" "$nf200"
a200=$(rps "http://127.0.0.1:$sport$asset")
na200=$(rps "http://127.0.0.1:$nport/asset.png")
row "asset 200" "$a200" "$na200"
echo
echo "manifest: $(wc -c <"$work/www/manifest.json") bytes, asset: $(wc -c <"$work/www/asset.png") bytes; wrk -t$threads -c$connections -d$duration on $(nproc) cores shared with both servers"
