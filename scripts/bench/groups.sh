#!/usr/bin/env bash
# The group index (issue 47) on a live release stickerd at 100,000 stickers in 2,000 groups of 50
# (scripts/bench/catalog-search.sql), beside the whole manifest of the same catalog:
#  1. start to ready and RSS, with the default cache (the whole manifest refused: 413) and with a cache large enough to
#     make it (--manifest-cache-mib 256, as before the index);
#  2. the whole index, every page (limit 100, then 500): each page's first (cold) build, bytes as JSON and with brotli;
#  3. one group of 50 built cold, and its brotli bytes;
#  4. a one-sticker change: which groups' versions move, and the next index page's time.
# Targets: whole index <= 150 KB brotli, a page cold <= 50 ms, a group of 50 cold <= 10 ms and <= 8 KB brotli, one
# version moved, the index after a change <= 50 ms; start to ready and memory no worse than the whole manifest's.
# Usage: scripts/bench.sh groups [path/to/stickerd]   Environment: STICKERS (100000).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
stickers=${STICKERS:-100000}
work=$(mktemp -d /tmp/stickerd-bench-groups.XXXXXX)
chmod 755 "$work"
cleanup() { stop_stickerds; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
admin="bench-admin-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
rss_mib() { awk '/VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status"; }
ms_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }

STICKER_ADMIN_TOKEN=$admin start_stickerd "$stickerd" "$work/seed.log" --demo --data-dir "$work/db"
echo "Seeding $stickers stickers in $(((stickers + 49) / 50)) groups of 50 beside the demo"
psql -q -X -v ON_ERROR_STOP=1 -v stickers="$stickers" -h "$work/db" -U stickerd stickerd -f scripts/bench/catalog-search.sql
stop_stickerds

# start BIN-ARGS...: starts stickerd on the seeded catalog; READY_MS and READY_RSS say how long it took and what it held.
start() {
  local started
  started=$(date +%s.%N)
  STICKER_ADMIN_TOKEN=$admin start_stickerd "$stickerd" "$work/stickerd.log" --data-dir "$work/db" "$@"
  READY_MS=$(ms_since "$started") READY_RSS=$(rss_mib "$STICKERD_PID")
}

echo
echo "1. Start to ready (readyz polled every 0.5 s) and RSS"
printf '%-34s %-10s %-10s %-12s %s\n' "" "ready" "RSS MiB" "asked MiB" "GET /v1/manifest?size=small&scale=2"
start --manifest-cache-mib 256
whole=$(curl -s -o /dev/null -H 'Accept-Encoding: br' -w '%{http_code} %{time_total} %{size_download}' \
  "$STICKERD_URL/v1/manifest?size=small&scale=2")
read -r code seconds bytes <<<"$whole"
printf '%-34s %-10s %-10s %-12s %s\n' "whole manifest (cache 256 MiB)" "$READY_MS ms" "$READY_RSS" \
  "$(rss_mib "$STICKERD_PID")" "$code in $(awk -v s="$seconds" 'BEGIN { printf "%.0f", s * 1000 }') ms, $bytes bytes br"
stop_stickerds
start
python3 scripts/bench/groups.py "$STICKERD_URL" "$admin" >"$work/report" 2>&1 || { cat "$work/report"; exit 1; }
whole=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' "$STICKERD_URL/v1/manifest?size=small&scale=2")
read -r code seconds <<<"$whole"
printf '%-34s %-10s %-10s %-12s %s\n' "group index (default cache)" "$READY_MS ms" "$READY_RSS" \
  "$(rss_mib "$STICKERD_PID")" "$code in $(awk -v s="$seconds" 'BEGIN { printf "%.0f", s * 1000 }') ms"
echo
cat "$work/report"
echo "($stickers stickers; release stickerd, default flags; $(nproc) cores shared by the client and stickerd)"
