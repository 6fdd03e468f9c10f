#!/usr/bin/env bash
# Search (issue 23) on a live release stickerd, at 10,000 and 100,000 stickers (scripts/bench/catalog-search.sql):
#  1. the index: its first build after a change, its size (search_index_bytes) and the process's RSS before and after;
#  2. wrk -t2 -c16 (then -c2: one request in flight per core, latency without queueing) over 200 distinct queries (words, prefixes, typos, emoji, pairs; three locales,
#     scripts/bench/search-queries.py), every answer computed afresh (--search-cache-mib 0: otherwise all but the first
#     200 would come from memory): p50, p99 and requests per second;
#  3. a new sticker found by search on a second replica (same PostgreSQL): milliseconds from the upload's 201.
# Targets: p99 at most 10 ms at 10,000 and 25 ms at 100,000; the index at most 200 MiB at 100,000; found within 1 s.
# Usage: scripts/bench.sh search [path/to/stickerd]   Environment: SIZES ("10000 100000"), DURATION (10s).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
sizes=${SIZES:-10000 100000}
duration=${DURATION:-10s}
work=$(mktemp -d /tmp/stickerd-bench-search.XXXXXX)
chmod 755 "$work"
cleanup() { stop_stickerds; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
admin="bench-admin-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
python3 scripts/bench/search-queries.py >"$work/paths.txt"
"$stickerd" demo-art "$work/art" >/dev/null
rss_mib() { awk '/VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status"; }
metric() { curl -sf "$1/metrics" | awk -v name="$2" '$1 == name { printf "%.0f", $2 }'; }
ms_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }

printf '%-9s %-12s %-10s %-9s %-18s %-18s %-9s %-8s %s\n' stickers "index build" "index MiB" "RSS +MiB" "c16 p50/p99 ms" "c2 p50/p99 ms" "c16 req/s" "non-2xx" "replica finds an upload"
for size in $sizes; do
  dir="$work/$size"
  mkdir -p "$dir" && chmod 755 "$dir"
  STICKER_ADMIN_TOKEN=$admin start_stickerd "$stickerd" "$dir.log" --demo --data-dir "$dir/db" --search-cache-mib 0
  first=$STICKERD_PID base=$STICKERD_URL
  psql -q -X -v ON_ERROR_STOP=1 -v stickers="$size" -h "$dir/db" -U stickerd stickerd -f scripts/bench/catalog-search.sql
  STICKER_ADMIN_TOKEN=$admin DATABASE_URL="postgresql://stickerd@/stickerd?host=$dir/db" start_stickerd "$stickerd" "$dir-2.log" \
    --search-cache-mib 0
  base2=$STICKERD_URL
  sleep 1  # the seed's NOTIFY reaches both replicas
  curl -sf -o /dev/null "$base/v1/manifest"  # the snapshot read, so the RSS below is the catalog's without the index
  before=$(rss_mib "$first")
  started=$(date +%s.%N)
  curl -sf -o /dev/null "$base/v1/search?q=apple"
  build_ms=$(ms_since "$started")
  index_mib=$(awk -v b="$(metric "$base" search_index_bytes)" 'BEGIN { printf "%.1f", b / 1048576 }')
  after=$(rss_mib "$first")
  curl -sf -o /dev/null "$base2/v1/search?q=apple"
  to_ms() { awk -v v="$1" 'BEGIN { if (v ~ /us$/) printf "%.2f", v / 1000; else if (v ~ /ms$/) printf "%.2f", v + 0; else printf "%.2f", v * 1000 }'; }
  percentiles() { echo "$(to_ms "$(awk '$1 == "50%" { print $2 }' "$1")") / $(to_ms "$(awk '$1 == "99%" { print $2 }' "$1")")"; }
  wrk -t2 -c16 -d"$duration" --latency -s scripts/bench/paths.lua "$base" -- "$work/paths.txt" >"$dir.wrk"
  wrk -t2 -c2 -d"$duration" --latency -s scripts/bench/paths.lua "$base" -- "$work/paths.txt" >"$dir.wrk2"
  rps=$(awk '/Requests\/sec/ { printf "%.0f", $2 }' "$dir.wrk")
  non2xx=$(cat "$dir.wrk" "$dir.wrk2" | awk '/Non-2xx/ { n += $NF } END { print n + 0 }')
  # An upload on the first replica, searched for on the second until found.
  name="Zanzibarquux$size"
  status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $admin" -F "name=$name" -F "description=Brand new" \
    -F "file=@$work/art/Lollipop.png;type=image/png" "$base/v1/admin/groups/search-1/stickers")
  started=$(date +%s.%N)
  found="not within 5 s"
  while (($(ms_since "$started") < 5000)); do
    if curl -sf "$base2/v1/search?q=zanzibarquux$size" | grep -q "\"total\":1"; then found="$(ms_since "$started") ms"; break; fi
    sleep 0.02
  done
  [[ "$status" == 201 ]] || found="upload answered $status"
  printf '%-9s %-12s %-10s %-9s %-18s %-18s %-9s %-8s %s\n' "$size" "$build_ms ms" "$index_mib" "$((after - before))" \
    "$(percentiles "$dir.wrk")" "$(percentiles "$dir.wrk2")" "$rps" "$non2xx" "$found"
  stop_stickerds
done
echo "(wrk -t2 -c16 and -c2 -d$duration over $(wc -l <"$work/paths.txt") distinct queries, answers not cached; $(nproc) cores shared by wrk and stickerd)"
