#!/usr/bin/env bash
# The client side (issue 13), on live release builds: two stickerd replicas (A embedded, B on A's PostgreSQL).
#  1. live updates: 50 uploads through A, each timed from its 201 to the new sticker's file on disk of a
#     `sticker-sync --watch` following B (targets: p50 < 300 ms, p99 < 1 s); 20 groups scheduled through A, each timed
#     from its publishAt to its sticker's file on that disk (target: p99 < 1 s); then the memory of 1,000 open event streams.
#  2. the change feed at 10,000 stickers: after one sticker changed, the bytes a client moves to catch up against a
#     whole manifest (gzip against gzip; target: at least 100x fewer), and each answer's throughput side by side with
#     wrk (target: the change feed at least as fast as the cached manifest).
#  3. first syncs at one size and scale, at 2,000 stickers (40 groups of 50, added before step 2) and at 10,000, each
#     file its own (sticker-sync asks for them in bundles: POST /v1/assets/bundle), side by side with curl --parallel
#     fetching the manifest and the same files at the same concurrency, both timed end to end into fresh folders on
#     this machine's disk, where sticker-sync's durability costs what it costs (target: at least 1.0x of curl);
#     sticker-sync's peak RSS; at 10,000, the time until the first group's thumbnails are on disk (target under 2 s)
#     and the longest the main actor is held while an app reads the synced catalog (client-bench; target 16 ms).
#  4. a sync with nothing new at 10,000 stickers: its CPU.
#  5. eight 64 MiB images (scripts/bench/large-images.py): peak RSS, with the images believed.
# Usage: scripts/bench.sh client [stickerd] [sticker-sync] [client-bench]   Environment: UPLOADS (50), BOUNDARIES (20),
# STREAMS (1000), CONCURRENCY (8), ROUNDS (3), BEFORE (another sticker-sync, say an earlier build's, timed beside the
# first syncs in the same rounds).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
syncer=${2:-.build/release/sticker-sync}
bench=${3:-.build/release/client-bench}
uploads=${UPLOADS:-50} streams=${STREAMS:-1000} concurrency=${CONCURRENCY:-8}
# The soft limit only, up to the hard one: `ulimit -n` would lower the hard limit too, below what stickerd's 10,000
# streams need (it refuses to start then, saying so).
ulimit -Sn "$(ulimit -Hn)"
work=$(mktemp -d /tmp/stickerd-bench-client.XXXXXX)
chmod 755 "$work"
pids=()   # the sticker-sync watcher (the stickerds: stop_stickerds)
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; stop_stickerds; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
admin="bench-admin-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
# Replicas share their signing key, as a deployment's do: a cursor one signed is then good at the other.
export STICKER_ASSET_SIGNING_KEY="bench-asset-key-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
# All the streams come from one address here: the per-address share (256) is raised past them.
STICKER_ADMIN_TOKEN=$admin start_stickerd "$stickerd" "$work/a.log" --demo --data-dir "$work/db" --max-event-streams-per-address 4000
a=$STICKERD_URL
STICKER_ADMIN_TOKEN=$admin DATABASE_URL="postgresql://stickerd@/stickerd?host=$work/db" \
  start_stickerd "$stickerd" "$work/b.log" --max-event-streams-per-address 4000
b=$STICKERD_URL pid_b=$STICKERD_PID

echo "1. Live updates: upload through A, the file on disk of a sticker-sync --watch following B (targets p50 < 300 ms, p99 < 1 s)"
"$syncer" "$b" "$work/live" --size small --scale 2 --watch >"$work/watch.log" 2>&1 &
watcher=$!
pids+=($watcher)
for _ in $(seq 1 100); do [[ -f "$work/live/catalog.json" ]] && break; sleep 0.1; done
sleep 1   # the stream is open
python3 scripts/bench/client.py latency "$a" "$work/live" "$admin" "$uploads" | sed 's/^/  /'
echo "   Scheduled groups: made through A, each due 1.5 s later; its moment to its file on B's watcher's disk (target p99 < 1 s)"
python3 scripts/bench/client.py boundaries "$a" "$work/live" "$admin" "${BOUNDARIES:-20}" | sed 's/^/  /'
python3 scripts/bench/client.py streams "$b" "$streams" "$pid_b" | sed 's/^/  /'
kill "$watcher"   # or it would sync the 10,000 stickers below from B while they are measured

# Bench stickers: groups FIRST to LAST of catalog-10k.sql, each small @2x PNG a file of its own.
seed() {
  psql -q -X -v ON_ERROR_STOP=1 -v first="$1" -v last="$2" -h "$work/db" -U stickerd stickerd -f scripts/bench/catalog-10k.sql
  psql -q -X -v ON_ERROR_STOP=1 -h "$work/db" -U stickerd stickerd -f scripts/bench/catalog-10k-distinct-small.sql
  psql -q -X -v ON_ERROR_STOP=1 -h "$work/db" -U stickerd stickerd -c CHECKPOINT   # not in the middle of a measurement
  sleep 1
}
# On this machine's disk (ext4), not /dev/shm: syncfs and F_FULLFSYNC are no-ops on tmpfs, and the durability of what
# is kept is part of what is measured. Every round starts from a written-back disk (`sync` outside the timing), so no
# round pays for the one before.
files_root=$work
# A first sync of the view by sticker-sync and by curl --parallel, ROUNDS times alternating, the best of each.
first_syncs() {
  local label=$1 best_sync=999999 best_curl=999999 seconds started files curl_files best_before=999999
  curl -s -o /dev/null "$a/v1/manifest?size=small&scale=2"   # built once before either client is timed
  rm -f "$work/curl.cfg"
  for round in $(seq 1 "${ROUNDS:-3}"); do
    sync
    started=$(date +%s.%N)
    /usr/bin/time -v -o "$work/sync-$label-$round.time" "$syncer" "$a" "$files_root/sync-$label-$round" --size small \
      --scale 2 --concurrency "$concurrency" >"$work/first.log"
    seconds=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
    best_sync=$(awk -v x="$seconds" -v y="$best_sync" 'BEGIN { print (x < y ? x : y) }')
    files=$(ls "$files_root/sync-$label-$round/files" | wc -l)
    [[ -f "$work/curl.cfg" ]] || python3 scripts/bench/client.py curl-config "$files_root/sync-$label-1/catalog.json" "$a" >"$work/curl.cfg"
    mkdir -p "$files_root/curl-$label-$round"
    sync
    started=$(date +%s.%N)
    (cd "$files_root/curl-$label-$round" && curl -s --parallel --parallel-max "$concurrency" -K "$work/curl.cfg" 2>/dev/null)
    seconds=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
    best_curl=$(awk -v x="$seconds" -v y="$best_curl" 'BEGIN { print (x < y ? x : y) }')
    curl_files=$(ls "$files_root/curl-$label-$round" | grep -vc '^manifest.json$')
    rm -rf "$files_root/curl-$label-$round"
    [[ $round == 1 ]] || rm -rf "$files_root/sync-$label-$round"
    if [[ -n "${BEFORE:-}" ]]; then
      sync
      started=$(date +%s.%N)
      /usr/bin/time -v -o "$work/before-$label-$round.time" "$BEFORE" "$a" "$files_root/before-$label-$round" --size small \
        --scale 2 --concurrency "$concurrency" >/dev/null
      seconds=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
      best_before=$(awk -v x="$seconds" -v y="${best_before:-999999}" 'BEGIN { print (x < y ? x : y) }')
      rm -rf "$files_root/before-$label-$round"
    fi
  done
  if [[ -n "${BEFORE:-}" ]]; then
    awk -v f="$files" -v s="$best_before" -v cf="$curl_files" -v cs="$best_curl" 'BEGIN {
      printf "  BEFORE (%s): %.2f s, %.2fx of curl\n", ENVIRON["BEFORE"], s, (f / s) / (cf / cs) }'
    cat "$work"/before-"$label"-*.time | awk '/Maximum resident/ { if ($NF > m) m = $NF } END {
      printf "  BEFORE peak RSS: %.0f MiB\n", m / 1024 }'
    best_before=999999
  fi
  awk -v f="$files" -v s="$best_sync" -v cf="$curl_files" -v cs="$best_curl" -v r="${ROUNDS:-3}" 'BEGIN {
    printf "  sticker-sync: %d files in %.2f s (%.0f files/s, the manifest read, every file checked, kept durably; best of %d)\n", f, s, f / s, r
    printf "  curl --parallel: %d files in %.2f s (%.0f files/s; best of %d)\n", cf, cs, cf / cs, r
    printf "  ratio: %.2fx of curl (target 1.0x)\n", (f / s) / (cf / cs) }'
  cat "$work"/sync-"$label"-*.time | awk '/Maximum resident/ { if ($NF > m) m = $NF } END {
    printf "  sticker-sync peak RSS: %.0f MiB (target: no higher than before this change)\n", m / 1024 }'
}

echo "3a. First sync at 2,000 stickers next to curl (40 groups of 50 beside the demo; $concurrency at once)"
seed 1 40
first_syncs 2k

echo "2. The change feed at 10,000 stickers (200 groups of 50 beside the demo)"
seed 41 200
sleep 1
manifest_gzip=$(curl -s -H 'Accept-Encoding: gzip' -o "$work/manifest.gz" -w '%{size_download}' "$a/v1/manifest")
cursor=$(gzip -dc "$work/manifest.gz" | python3 scripts/lib/json_get.py cursor)
sticker=$(curl -sf -H "Authorization: Bearer $admin" "$a/v1/admin/groups/bench-7" | python3 scripts/lib/json_get.py stickers.0.id)
curl -sf -X PATCH -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' -d '{"description":"changed once"}' \
  "$a/v1/admin/stickers/$sticker" >/dev/null
sleep 0.5
changes_gzip=$(curl -s -H 'Accept-Encoding: gzip' -o "$work/changes.gz" -w '%{size_download}' "$a/v1/manifest/changes?since=$cursor")
gzip -dc "$work/changes.gz" | python3 scripts/bench/client.py changes-page
curl -s -o /dev/null -H 'Accept-Encoding: gzip' "$a/v1/manifest"   # the new manifest, cached
awk -v m="$manifest_gzip" -v c="$changes_gzip" 'BEGIN { printf "  catching up: %d bytes gzip against %d for the manifest: %.0fx fewer (target 100x)\n", c, m, m / c }'
for pair in "manifest:/v1/manifest" "change feed:/v1/manifest/changes?since=$cursor"; do
  name=${pair%%:*} path=${pair#*:}
  out=$(wrk -t2 -c16 -d5s --latency -H 'Accept-Encoding: gzip' "$a$path")
  printf '  %-12s %s req/s, p99 %s\n' "$name" "$(awk '/Requests\/sec/ {print $2}' <<<"$out")" "$(awk '/^ +99%/ {print $2}' <<<"$out")"
done

echo "3. First sync at 10,000 stickers next to curl ($concurrency at once)"
first_syncs 10k
echo "   The first group's thumbnails on disk, from sticker-sync's start (target under 2 s)"
curl -s "$a/v1/manifest?size=small&scale=2" >"$work/manifest-10k.json"
sync
started=$(date +%s.%N)
"$syncer" "$a" "$files_root/first-group" --size small --scale 2 --concurrency "$concurrency" >/dev/null &
python3 scripts/bench/client.py first-group "$work/manifest-10k.json" "$files_root/first-group" "$started" | sed 's/^/  /'
wait $!
if [[ -n "${BEFORE:-}" ]]; then
  sync
  started=$(date +%s.%N)
  "$BEFORE" "$a" "$files_root/first-group-before" --size small --scale 2 --concurrency "$concurrency" >/dev/null &
  python3 scripts/bench/client.py first-group "$work/manifest-10k.json" "$files_root/first-group-before" "$started" \
    | sed 's/^/  BEFORE: /'
  wait $!
fi
echo "   An app reading the synced 10,000-sticker catalog (await sync.snapshot) on its main actor"
"$bench" snapshot "$files_root/sync-10k-1" | sed 's/^/  /'

echo "4. A sync with nothing new at 10,000 stickers (target: at most 20 ms of CPU, nothing rewritten)"
before=$(stat -c %Y.%s "$files_root/sync-10k-1/catalog.json")
/usr/bin/time -f "%U %S" -o "$work/again.time" "$syncer" "$a" "$files_root/sync-10k-1" --size small --scale 2 >"$work/again.log"
after=$(stat -c %Y.%s "$files_root/sync-10k-1/catalog.json")
read -r user system <"$work/again.time"
awk -v u="$user" -v s="$system" -v same="$([[ $before == "$after" ]] && echo yes || echo no)" 'BEGIN {
  printf "  %.0f ms of CPU (%.0f user, %.0f system), the whole process; catalog.json untouched: %s\n", (u + s) * 1000, u * 1000, s * 1000, same }'

echo "5. Eight 64 MiB images, each written to disk as it arrives (target: peak RSS of sticker-sync under 100 MiB)"
python3 scripts/bench/large-images.py "$work/large.port" 8 64 &
pids+=($!)
for _ in $(seq 1 300); do [[ -s "$work/large.port" ]] && break; sleep 0.1; done
large="http://127.0.0.1:$(cat "$work/large.port")"
"$syncer" "$large" "$work/large-default" >"$work/large-default.log" || true
echo "  default --largest-image-mib 5: $(sed 's/^[^;]*; //' "$work/large-default.log")"
/usr/bin/time -v -o "$work/large.time" "$syncer" "$large" "$work/large" --largest-image-mib 64 >"$work/large.log"
awk '/Maximum resident/ { printf "  --largest-image-mib 64: %.0f MiB peak RSS for 512 MiB fetched (target under 100 MiB)\n", $NF / 1024 }' "$work/large.time"
rm -rf "$work/large" "$work/large-default"
