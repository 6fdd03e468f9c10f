#!/usr/bin/env bash
# The WhatsApp export of a 10,000-sticker catalog (scripts/bench/catalog-10k.sql: 200 groups of 50) through the API, on
# a live release stickerd: time, bytes, packs, and stickerd's peak RSS growth over its RSS before (sampled every 100 ms
# from /proc). Target (issue 35, item 8): peak RSS growth under 200 MiB; every pack the rules allow.
# Usage: scripts/bench.sh export [path/to/stickerd]
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
port=$(free_port)
work=$(mktemp -d /tmp/stickerd-bench-export.XXXXXX)
chmod 755 "$work"
cleanup() { stop_stickerds; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
admin="bench-admin-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
base="http://127.0.0.1:$port"
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$STICKERD_PID/status"; }

STICKER_ADMIN_TOKEN=$admin start_stickerd --port "$port" "$stickerd" "$work/stickerd.log" --demo --data-dir "$work/db"
echo "Seeding 10,000 stickers (200 groups of 50) beside the demo"
psql -q -X -v ON_ERROR_STOP=1 -h "$work/db" -U stickerd stickerd -f scripts/bench/catalog-10k.sql
sleep 1
curl -sf -o /dev/null "$base/v1/manifest"
before=$(rss)
peak=$before
curl -s -o "$work/export.zip" -w '%{http_code} %{time_total} %{size_download}\n' \
  -H "Authorization: Bearer $admin" "$base/v1/admin/exports/whatsapp" >"$work/curl" &
fetch=$!
while kill -0 "$fetch" 2>/dev/null; do
  now=$(rss)
  ((now > peak)) && peak=$now
  sleep 0.1
done
wait "$fetch"
read -r status seconds bytes <"$work/curl"
packs=$(python3 - "$work/export.zip" <<'PY'
import json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    assert z.testzip() is None
    report = json.loads(z.read("report.json"))
    stickers = sum(len(p["stickers"]) for p in report["packs"])
    print(f'{len(report["packs"])} packs of {stickers} stickers, {len(z.infolist())} files, {len(report["refused"])} refused')
PY
)
growth=$(((peak - before) / 1024))
printf 'WhatsApp export: HTTP %s in %.1f s, %s bytes (%s MiB); %s\n' "$status" "$seconds" "$bytes" \
  "$((bytes >> 20))" "$packs"
printf 'stickerd RSS: %s MiB before, %s MiB at peak: growth %s MiB (target under 200 MiB)\n' \
  "$((before / 1024))" "$((peak / 1024))" "$growth"
[[ $status == 200 ]] && ((growth < 200))
