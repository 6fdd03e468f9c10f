#!/usr/bin/env bash
# CORS on the hot path (issue 49): the same release stickerd as shipped, twice on one demo catalog, one with
# --cors-origin https://chat.example.com and one without; wrk alternates between them, the first asked with that
# Origin (so every answer carries Access-Control-Allow-Origin, -Expose-Headers and Vary), the second without.
# Cases: the manifest (200 and 304) and an image. Target: the CORS side within noise of the other (0.95x or better).
# Usage: scripts/bench.sh cors [path/to/stickerd]
# A round runs wrk on both, the first alternating between rounds (whichever runs first was up to 16% faster in an A/A
# run), and the median of the rounds' ratios is reported.
# Environment: DURATION (default 5s), ROUNDS (5), CONNECTIONS (64), THREADS (2).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
duration=${DURATION:-5s}
rounds=${ROUNDS:-5}
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
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '\n%-16s %14s %14s %8s %s\n' "case" "with CORS rps" "without rps" "ratio" "  (median of the rounds' ratios; each round's pair in turn)"
case_row() {  # NAME PATH [HEADER]: each round runs both sides, the first side alternating, and keeps their ratio
  local with=() without=() ratios=() a b
  for round in $(seq 1 "$rounds"); do
    if ((round % 2)); then
      a=$(rps -H "Origin: $origin" ${3:+-H "$3"} "$cors$2"); b=$(rps ${3:+-H "$3"} "$plain$2")
    else
      b=$(rps ${3:+-H "$3"} "$plain$2"); a=$(rps -H "Origin: $origin" ${3:+-H "$3"} "$cors$2")
    fi
    with+=("$a"); without+=("$b"); ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')")
  done
  printf '%-16s %14.0f %14.0f %8.2f\n' "$1" "$(median "${with[@]}")" "$(median "${without[@]}")" "$(median "${ratios[@]}")"
}
case_row "manifest 200" /v1/manifest
case_row "manifest 304" /v1/manifest "If-None-Match: $etag"
case_row "asset 200" "$asset"
echo
echo "medians of $rounds rounds, each running wrk -t$threads -c$connections -d$duration on each server in turn, on $(nproc) cores shared by wrk and both servers"
