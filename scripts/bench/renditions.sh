#!/usr/bin/env bash
# Benchmarks the whole upload pipeline with renditions (validate, every rendition in PNG and WebP, encode, store) on a
# 408 x 408 still and a 618 x 618, 30-frame APNG, next to libvips doing the same work in process (pyvips:
# thumbnail_buffer at each of the nine edges, then write_to_buffer(".png") and webpsave_buffer(Q=80, alpha_q=100); for
# the APNG, on its 30 frames composited by apngdis), and compares rendition sizes with libvips' PNGs and with
# optipng -o2 applied to ours.
# Usage: scripts/bench.sh renditions [path/to/stickerd]   (make bench builds it in release mode)
# Environment: RUNS (default 10 for the still, a third of it for the APNG).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
runs=${RUNS:-10}
apng_runs=$(( runs > 3 ? runs / 3 : 1 ))
work=$(mktemp -d /tmp/stickerd-renditions-bench.XXXXXX)
chmod 755 "$work"
cleanup() { stop_stickerds; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

"$stickerd" demo-art "$work/art" >/dev/null
still="$work/art/Caramel.png"
apng="$work/art/Lollipop-618x618-30frames.png"
mkdir -p "$work/frames" && cp "$apng" "$work/frames/anim.png" && (cd "$work/frames" && apngdis anim.png frame >/dev/null)

echo "== In process: validate and make all renditions (stickerd), thumbnail, PNG and WebP at the nine edges (libvips)"
ours_still=$("$stickerd" renditions render --repeat-count "$runs" --output "$work/ours" "$still" | awk '/validate and render/ {print $(NF-4)}')
ours_apng=$("$stickerd" renditions render --repeat-count "$apng_runs" --output "$work/ours" "$apng" | awk '/validate and render/ {print $(NF-4)}')
python3 scripts/bench/renditions.py in-process "$still" "$work/frames" "$runs" "$apng_runs" "$ours_still" "$ours_apng" "$work/ours"

echo "== optipng -o2 on our renditions (bytes before and after)"
for file in "$work"/ours/Caramel-{100,200,300}-still.png "$work"/ours/Lollipop-618x618-30frames-{136,408}-still.png; do
  cp "$file" "$work/opt.png"
  optipng -quiet -o2 "$work/opt.png"
  printf '  %-40s %8d %8d\n' "$(basename "$file")" "$(wc -c <"$file")" "$(wc -c <"$work/opt.png")"
done

echo "== Upload end to end over HTTP (validate, renditions, encode, store in PostgreSQL), each upload a new picture"
token=bench-renditions-token-0123456789
STICKER_ADMIN_TOKEN=$token start_stickerd "$stickerd" "$work/stickerd.log" --demo --data-dir "$work/db"
port=$STICKERD_PORT
python3 scripts/bench/renditions.py upload "$port" "$token" "$still" "$apng" "$runs" "$apng_runs"

echo "== The amplifying APNG (618 x 618, 100 frames, each after the first one changed pixel): one upload, a full upload gate"
python3 scripts/bench/amplifying-apng.py "$work/amplifying.png"
python3 scripts/bench/renditions.py amplifying-render "$stickerd" "$work/amplifying.png" "$work/amp"
python3 scripts/bench/renditions.py amplifying-upload "$port" "$token" "$STICKERD_PID"
