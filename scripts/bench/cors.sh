#!/usr/bin/env bash
# CORS on the hot path (issue 49): the same release stickerd as shipped, twice on one demo catalog, one with
# --cors-origin https://chat.example.com and one without; wrk alternates between them, the first asked with that
# Origin (so every answer carries Access-Control-Allow-Origin, -Expose-Headers and Vary), the second without.
# Cases: the manifest (200 and 304) and an image. Target: the CORS side within noise of the other (0.95x or better).
# Usage: scripts/bench.sh cors [path/to/stickerd]
# Environment: DURATION (default 5s), ROUNDS (3), CONNECTIONS (64), THREADS (2).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
duration=${DURATION:-5s}
rounds=${ROUNDS:-3}
connections=${CONNECTIONS:-64}
threads=${THREADS:-2}
origin=https://chat.example.com
work=$(mktemp -d /tmp/stickerd-bench-cors.XXXXXX)
chmod 755 "$work"
cleanup() { stop_stickerds; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

start_stickerd "$stickerd" "$work/plain.log" --demo --data-dir "$work/db"
plain=$STICKERD_URL
start_stickerd "$stickerd" "$work/cors.log" --demo --data-dir "$work/db" --cors-origin "$origin"
cors=$STICKERD_URL
headers=$(curl -sf -D - -o /dev/null -H "Origin: $origin" "$cors/v1/manifest" | tr -d '\r')
grep -qi "^access-control-allow-origin: $origin" <<<"$headers" || { echo "no CORS answer: $headers" >&2; exit 1; }
etag=$(grep -i '^etag:' <<<"$headers" | cut -d' ' -f2-)
asset=$(curl -sf "$plain/v1/manifest" | python3 scripts/lib/json_get.py groups.0.cover.url)

rps() { wrk -t"$threads" -c"$connections" -d"$duration" "$@" | awk '/Requests\/sec/ {print $2}'; }
best() { printf '%s\n' "$@" | sort -g | tail -1; }
printf '\n%-16s %14s %14s %8s\n' "case" "with CORS rps" "without rps" "ratio"
case_row() {  # NAME PATH [HEADER]
  local with=() without=()
  for _ in $(seq 1 "$rounds"); do
    with+=("$(rps -H "Origin: $origin" ${3:+-H "$3"} "$cors$2")")
    without+=("$(rps ${3:+-H "$3"} "$plain$2")")
  done
  local a b; a=$(best "${with[@]}"); b=$(best "${without[@]}")
  printf '%-16s %14.0f %14.0f %8s\n' "$1" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')"
}
case_row "manifest 200" /v1/manifest
case_row "manifest 304" /v1/manifest "If-None-Match: $etag"
case_row "asset 200" "$asset"
echo
echo "best of $rounds alternating runs of wrk -t$threads -c$connections -d$duration on $(nproc) cores shared by wrk and both servers"
