#!/usr/bin/env bash
# Manifest builds at 10,000 stickers (200 groups of 50, scripts/bench/catalog-10k.sql) on a live release stickerd:
#  1. after a restart: how long until /readyz (the catalog read and the default manifest made before traffic), then the
#     first default manifest and the first of a query not warmed (built, compressed in the encoding asked);
#  2. the first manifest after a one-sticker change, in each encoding;
#  3. isolation: right after a change, the 18 size x scale x format variants asked at once while wrk fetches a cached
#     asset: the asset's p99 and when the last variant was answered.
# Targets (issue 12): 1 and 2 within 300 ms; the asset's p99 under 50 ms while the variants build.
# Usage: scripts/bench.sh manifest-build [path/to/stickerd]   Environment: REPEAT (3).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
repeat=${REPEAT:-3}
port=$(free_port)
work=$(mktemp -d /tmp/stickerd-bench-build.XXXXXX)
chmod 755 "$work"
cleanup() { stop_stickerds; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
admin="bench-admin-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
base="http://127.0.0.1:$port"

start() {
  started=$(date +%s.%N)
  STICKER_ADMIN_TOKEN=$admin start_stickerd --append --port "$port" "$stickerd" "$work/stickerd.log" --demo --data-dir "$work/db"
  ready_ms=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", (b - a) * 1000 }')
}
stop() { stop_stickerds; }
sql() { psql -q -X -v ON_ERROR_STOP=1 -h "$work/db" -U stickerd stickerd "$@"; }
# Seconds to the last byte of one manifest in `$1` (br, gzip or identity), and its size.
fetch() { curl -s -o "$work/body" -w '%{time_total} %{size_download}' -H "Accept-Encoding: $1" "$base/v1/manifest${2:-}"; }
ms() { awk -v s="$1" 'BEGIN { printf "%.0f", s * 1000 }'; }
sticker=
change() {
  curl -sf -X PATCH -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' \
    -d "{\"description\":\"changed $RANDOM$RANDOM\"}" "$base/v1/admin/stickers/$sticker" >/dev/null
  sleep 0.3   # the change's NOTIFY reaches the listener
}

start
echo "Seeding 10,000 stickers (200 groups of 50) beside the demo"
sql -f scripts/bench/catalog-10k.sql
sticker=$(curl -sf -H "Authorization: Bearer $admin" "$base/v1/admin/groups/bench-7" \
  | python3 scripts/lib/json_get.py stickers.0.id)
read -r _ identity_bytes <<<"$(fetch identity)"
read -r _ gzip_bytes <<<"$(fetch gzip)"
read -r _ br_bytes <<<"$(fetch br)"
printf 'Manifest: %s bytes, gzip %s, brotli %s\n' "$identity_bytes" "$gzip_bytes" "$br_bytes"

echo
echo "After a restart: ready (catalog read, default manifest made), then the first default manifest and the first of a"
echo "query not warmed, in the encoding asked (target 300 ms):"
for coding in br gzip identity; do
  ready=() warmed=() cold=()
  for _ in $(seq 1 "$repeat"); do
    stop; start
    ready+=("$ready_ms")
    read -r seconds _ <<<"$(fetch "$coding")"
    warmed+=("$(ms "$seconds")")
    read -r seconds _ <<<"$(fetch "$coding" "?size=small&scale=2")"
    cold+=("$(ms "$seconds")")
  done
  echo "  $coding: ready after ${ready[*]} ms; default manifest ${warmed[*]} ms; a query not warmed ${cold[*]} ms"
done
grep 'Warmed the manifest cache' "$work/stickerd.log" | tail -1 | sed 's/^/  last warm-up: /'

echo "A query never asked before, the catalog in memory (built, compressed in the encoding asked; target 300 ms):"
for pair in br:small gzip:medium identity:large; do
  coding=${pair%%:*} size=${pair#*:}
  times=()
  for scale in 1 2; do
    read -r seconds _ <<<"$(fetch "$coding" "?locale=fr&size=$size&scale=$scale")"
    times+=("$(ms "$seconds")")
  done
  echo "  $coding: ${times[*]} ms"
done

echo "First manifest after a one-sticker change (target 300 ms):"
for coding in br gzip identity; do
  times=()
  for _ in $(seq 1 "$repeat"); do
    change
    read -r seconds _ <<<"$(fetch "$coding")"
    times+=("$(ms "$seconds")")
  done
  echo "  $coding: ${times[*]} ms"
done

echo "A cached asset while the 18 size x scale x format variants build at once after a change (target p99 < 50 ms):"
asset=$(python3 scripts/lib/json_get.py groups.0.cover.url "$work/body" 2>/dev/null \
  || curl -s "$base/v1/manifest" | python3 scripts/lib/json_get.py groups.0.cover.url)
curl -sf -o /dev/null "$base$asset"
for _ in $(seq 1 "$repeat"); do
  change
  started=$(date +%s.%N)
  variants=()
  for size in small medium large; do for scale in 1 2 3; do for format in png apng; do
    curl -s -o /dev/null -H 'Accept-Encoding: gzip, deflate, br' "$base/v1/manifest?size=$size&scale=$scale&format=$format" &
    variants+=($!)
  done; done; done
  out=$(wrk -t1 -c4 -d5s --latency "$base$asset")
  wait "${variants[@]}"
  last=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  p99=$(awk '/^ +99%/ {print $2}' <<<"$out")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  echo "  asset p99 $p99 at $rps req/s; the 18 variants all answered within ${last} s (wrk ran 5 s)"
done
