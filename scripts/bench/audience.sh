#!/usr/bin/env bash
# Targeted rollout (issue 37) on a live release stickerd with default flags and --country-header: the demo catalog and 5
# more groups, first open to everyone, then each with an audience (US and CA; Android; app 2.3 and later; 10% of
# installations; 12 countries and 50%). wrk -t1 -c16 fetches the cached manifest as callers spread over 50 countries,
# 3 platforms, 20 app versions and 100 installation ids (scripts/bench/audience.lua, a new caller each request), with
# and without the audiences in turn, ROUNDS times; and the manifest cache's bytes (`manifest_cache_bytes`) after each.
# Targets: throughput with audiences at least 0.9x of the same catalog without; cache memory at most 2x.
# Usage: scripts/bench.sh audience [path/to/stickerd]   Environment: DURATION (10s), ROUNDS (3).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
duration=${DURATION:-10s}
rounds=${ROUNDS:-3}
header=CloudFront-Viewer-Country
work=$(mktemp -d /tmp/stickerd-bench-audience.XXXXXX)
chmod 755 "$work"
cleanup() { stop_stickerds; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
admin="bench-admin-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
rps() { awk '/Requests\/sec/ { printf "%.0f", $2 }' "$1"; }
p99() { awk '$1 == "99%" { print $2 }' "$1"; }
non2xx() { awk '/Non-2xx/ { n += $NF } END { print n + 0 }' "$1"; }
metric() { curl -sf "$STICKERD_URL/metrics" | awk -v name="$1" '$1 == name { printf "%.0f", $2 }'; }
sql() { psql -q -X -v ON_ERROR_STOP=1 -h "$work/db" -U stickerd stickerd "$@"; }
patch() {  # $1 group, $2 audience JSON (or null)
  curl -sf -o /dev/null -X PATCH -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' \
    --data "{\"audience\": $2}" "$STICKERD_URL/v1/admin/groups/$1"
}
audiences=(
  '{"countries": ["US", "CA"]}'
  '{"platforms": ["android"]}'
  '{"appVersions": {"minimum": "2.3"}}'
  '{"percentage": 10}'
  '{"countries": ["US", "CA", "MX", "BR", "GB", "FR", "DE", "ES", "IT", "JP", "KR", "AU"], "percentage": 50}'
)
set_audiences() {  # $1 "open" or "restricted"
  local i
  for i in 1 2 3 4 5; do
    if [[ $1 == open ]]; then patch "launch-$i" null; else patch "launch-$i" "${audiences[$((i - 1))]}"; fi
  done
  sleep 1.5  # every replica within a second of the commit
}
measure() {  # $1 label: warm with one pass over the callers, then wrk; prints req/s, p99 and cache bytes
  wrk -t1 -c4 -d2s -s scripts/bench/audience.lua "$STICKERD_URL" -- "$header" >/dev/null
  wrk -t1 -c16 -d"$duration" --latency -s scripts/bench/audience.lua "$STICKERD_URL" -- "$header" >"$work/$1.wrk"
  sleep 1
  echo "$(rps "$work/$1.wrk") $(p99 "$work/$1.wrk") $(metric manifest_cache_bytes) $(non2xx "$work/$1.wrk")"
}

STICKER_ADMIN_TOKEN=$admin start_stickerd "$stickerd" "$work/a.log" --demo --data-dir "$work/db" --country-header "$header"
sql -c "
  CREATE TEMP TABLE demo AS SELECT sha, row_number() OVER (ORDER BY sha) - 1 AS k
    FROM (SELECT DISTINCT asset_sha256 AS sha FROM stickers) s;
  INSERT INTO assets (sha256, bytes, width, height, animated, frames, duration_ms, loops, renditions_version, format,
                      placeholder)
    SELECT encode(sha256(('launch-' || n)::bytea), 'hex'), a.bytes, a.width, a.height, a.animated, a.frames,
           a.duration_ms, a.loops, a.renditions_version, a.format, a.placeholder
    FROM generate_series(1, 15) n JOIN demo d ON d.k = n % (SELECT count(*) FROM demo) JOIN assets a ON a.sha256 = d.sha;
  INSERT INTO renditions (source_sha256, edge, still, format, asset_sha256)
    SELECT encode(sha256(('launch-' || n)::bytea), 'hex'), r.edge, r.still, r.format, r.asset_sha256
    FROM generate_series(1, 15) n JOIN demo d ON d.k = n % (SELECT count(*) FROM demo)
    JOIN renditions r ON r.source_sha256 = d.sha;
  INSERT INTO sticker_groups (id, name, localized_names, position)
    SELECT 'launch-' || g, 'Launch ' || g, '{}'::jsonb, 10 + g FROM generate_series(1, 5) g;
  INSERT INTO stickers (group_id, name, description, localized_descriptions, keywords, emoji, position, asset_sha256)
    SELECT 'launch-' || g, 'Launch ' || g || '-' || s, 'A sticker of launch ' || g, '{}'::jsonb, ARRAY['launch'],
           ARRAY['🚀'], s - 1, encode(sha256(('launch-' || ((g - 1) * 3 + s))::bytea), 'hex')
    FROM generate_series(1, 5) g, generate_series(1, 3) s;"
sleep 1.5
groups=$(curl -sf "$STICKERD_URL/v1/manifest" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["groups"]))')
bytes=$(curl -sf "$STICKERD_URL/v1/manifest" | wc -c)
echo "GET /v1/manifest, $groups groups ($bytes bytes open to everyone), callers over 50 countries x 3 platforms x 20 versions"
echo "x 100 installations; wrk -t1 -c16 $duration, $(nproc) cores shared by wrk and stickerd"
printf '%-7s %-12s %10s %10s %14s %10s %9s\n' round audiences "req/s" "p99" "cache bytes" ratio non-2xx
ratios=() memories=()
for round in $(seq 1 "$rounds"); do
  set_audiences open
  read -r open_rps open_p99 open_bytes open_bad < <(measure open)
  set_audiences restricted
  read -r rest_rps rest_p99 rest_bytes rest_bad < <(measure restricted)
  ratio=$(awk -v a="$open_rps" -v b="$rest_rps" 'BEGIN { printf "%.2f", b / a }')
  memory=$(awk -v a="$open_bytes" -v b="$rest_bytes" 'BEGIN { printf "%.1f", b / a }')
  ratios+=("$ratio") memories+=("$memory")
  printf '%-7s %-12s %10s %10s %14s %10s %9s\n' "$round" none "$open_rps" "$open_p99" "$open_bytes" "" "$open_bad"
  printf '%-7s %-12s %10s %10s %14s %10s %9s\n' "$round" "5 groups" "$rest_rps" "$rest_p99" "$rest_bytes" \
    "${ratio}x" "$rest_bad"
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
views=$(python3 - "$STICKERD_URL" "$header" <<'PY'
import sys, urllib.request
url, header = sys.argv[1], sys.argv[2]
countries = ["US", "CA", "FR", "JP"]
tags = set()
for c in countries:
    for p in ["ios", "android", "web"]:
        for v in ["2.0.0", "2.4.0"]:
            for n in range(0, 100, 3):
                r = urllib.request.Request(url + "/v1/manifest", headers={header: c, "Sticker-Platform": p,
                    "Sticker-App-Version": v, "Sticker-Installation": "bench-installation-%03d" % n})
                tags.add(urllib.request.urlopen(r).headers["ETag"])
print(len(tags))
PY
)
echo "throughput with audiences: median $(median "${ratios[@]}")x of ${ratios[*]} (target 0.9x or better)"
echo "manifest cache bytes with audiences: median $(median "${memories[@]}")x of ${memories[*]} (target at most 2x);" \
  "distinct bodies (ETags) seen by a sample of callers: $views"
