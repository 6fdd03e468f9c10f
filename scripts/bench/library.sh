#!/usr/bin/env bash
# The client's library mode (issue 47) at 100,000 stickers in 2,000 groups of 50 (scripts/bench/catalog-search.sql),
# release stickerd and sticker-sync, beside the whole-catalog sync of the same catalog (view size=small&scale=2):
#  1. the whole-catalog sync into an empty folder: with stickerd's defaults (the whole manifest is refused, 413), and
#     with --manifest-cache-mib 512 (it is made): time, sticker-sync's peak RSS, files kept;
#  2. a first library sync: the index (every page of 500, covers cached) and 5 installed groups, whose stickers have
#     pictures of their own (scripts/bench/library-pictures.sql): time, peak RSS, files (targets: 2 s, 40 MiB, 300);
#  3. syncs after a change: none; one sticker added to an installed group (a new picture); one sticker's description in
#     an installed group; a group not installed renamed. The requests and bytes each cost, from stickerd's access log
#     (targets: an installed group's change at most 3 requests and 50 KB; a change elsewhere at most 2 and no image).
# Usage: scripts/bench.sh library [stickerd] [sticker-sync]   Environment: STICKERS (100000).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
syncer=${2:-.build/release/sticker-sync}
[[ -x "$syncer" ]] || { echo "no sticker-sync at $syncer: swift build -c release --product sticker-sync" >&2; exit 1; }
stickers=${STICKERS:-100000}
work=$(mktemp -d /tmp/stickerd-bench-library.XXXXXX)
chmod 755 "$work"
cleanup() { stop_stickerds; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
admin="bench-admin-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
installed=(search-3 search-250 search-900 search-1400 search-1999)
view=(--size small --scale 2)

STICKER_ADMIN_TOKEN=$admin start_stickerd "$stickerd" "$work/seed.log" --demo --data-dir "$work/db"
echo "Seeding $stickers stickers in $(((stickers + 49) / 50)) groups of 50 beside the demo"
psql -q -X -v ON_ERROR_STOP=1 -v stickers="$stickers" -h "$work/db" -U stickerd stickerd -f scripts/bench/catalog-search.sql
psql -q -X -v ON_ERROR_STOP=1 -v groups="{$(IFS=,; echo "${installed[*]}")}" -h "$work/db" -U stickerd stickerd \
  -f scripts/bench/library-pictures.sql
stop_stickerds

# timed LABEL FOLDER ARGS...: runs sticker-sync into FOLDER; prints its time, peak RSS, files kept and its last line.
timed() {
  local label=$1 folder=$2
  shift 2
  local status=0
  /usr/bin/time -f "%e %M" -o "$work/time" "$syncer" "$STICKERD_URL" "$folder" "${view[@]}" "$@" >"$work/out" 2>&1 || status=$?
  read -r seconds kib < <(tail -n 1 "$work/time")
  local files
  files=$(find "$folder" -type f -not -name '.*' -not -name '*.json' 2>/dev/null | wc -l)
  printf '  %-44s %6.2f s  %5.1f MiB  %6d files  %s\n' "$label" "$seconds" "$(awk -v k="$kib" 'BEGIN { print k / 1024 }')" "$files" \
    "$( ((status == 0)) && echo "ok" || echo "exit $status: $(tail -c 160 "$work/out" | tr '\n' ' ')")"
}

echo
echo "1. The whole-catalog sync of this catalog"
STICKER_ADMIN_TOKEN=$admin start_stickerd "$stickerd" "$work/whole.log" --data-dir "$work/db"
timed "stickerd defaults (413: use the index)" "$work/whole-1"
stop_stickerds
STICKER_ADMIN_TOKEN=$admin start_stickerd "$stickerd" "$work/whole.log" --data-dir "$work/db" --manifest-cache-mib 512
timed "--manifest-cache-mib 512 (the manifest made)" "$work/whole-2"
stop_stickerds

echo
echo "2. A first library sync: the index and ${#installed[@]} installed groups (targets 2 s, 40 MiB, 300 files)"
STICKER_ADMIN_TOKEN=$admin start_stickerd "$stickerd" "$work/stickerd.log" --data-dir "$work/db"
args=()
for id in "${installed[@]}"; do args+=(--install "$id"); done
timed "index (covers) + ${#installed[@]} groups" "$work/library" "${args[@]}" --index
cat "$work/out" | sed 's/^/    /'

# cost LABEL: one library sync; the requests and bytes it cost, from the access log lines it added.
cost() {
  local before
  before=$(wc -l <"$work/stickerd.log")
  "$syncer" "$STICKERD_URL" "$work/library" "${view[@]}" >"$work/out" 2>&1
  sleep 0.3
  tail -n +"$((before + 1))" "$work/stickerd.log" | awk -v label="$1" '
    / request$/ && /bytes=/ { n++; match($0, /bytes=[0-9]+/); b += substr($0, RSTART + 6, RLENGTH - 6)
      if ($0 ~ /path=\/v1\/assets\//) images++ }
    END { printf "  %-52s %d requests, %.1f KB, %d images\n", label, n, b / 1000, images }'
  sed 's/^/    /' "$work/out"
}
patch() {
  curl -sf -X PATCH -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' -d "$2" \
    "$STICKERD_URL/v1/admin/$1" >/dev/null
  sleep 0.5
}

echo
echo "3. Syncs after a change (targets: installed group <= 3 requests and 50 KB; elsewhere <= 2 requests, no image)"
cost "nothing changed"
picture=$(curl -sf "$STICKERD_URL/v1/groups/chewy" | python3 scripts/lib/json_get.py stickers.0.asset.url)
curl -sf "$STICKERD_URL$picture" -o "$work/picture.png"
curl -sf -X POST -H "Authorization: Bearer $admin" -H 'Content-Type: image/png' --data-binary "@$work/picture.png" \
  "$STICKERD_URL/v1/admin/groups/${installed[0]}/stickers?name=Added&description=Added" >/dev/null
sleep 0.5
cost "a sticker added to ${installed[0]} (installed)"
sticker=$(curl -sf "$STICKERD_URL/v1/groups/${installed[1]}" | python3 scripts/lib/json_get.py stickers.3.id)
patch "stickers/$sticker" '{"description":"changed"}'
cost "a description in ${installed[1]} (installed)"
patch "groups/search-77" '{"name":"Renamed"}'
cost "search-77 renamed (not installed)"
group_br=$(curl -s -o /dev/null -H 'Accept-Encoding: br' -w '%{size_download}' "$STICKERD_URL/v1/groups/${installed[0]}?size=small&scale=2")
echo "  (bytes as sent to AsyncHTTPClient, which asks for no compression; an Apple client's URLSession asks for brotli:"
echo "   the group of ${installed[0]} is then $group_br bytes)"
echo "($stickers stickers; release builds, default flags; $(nproc) cores shared by the client and stickerd)"
