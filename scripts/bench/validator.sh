#!/usr/bin/env bash
# Benchmarks the upload validator on a 408 x 408 still sticker and a 618 x 618, 30-frame APNG, next to
# pngcheck (structure and CRCs, no pixels) and a full decode by vips (`vips avg` reads every pixel; vips decodes
# only an APNG's default image). Command-level times come from hyperfine; in-process times from
# `stickerd validate --repeat-count` (the validation an upload runs before its renditions). Since issue 50 the command
# gives the upload's whole verdict, renditions made and thrown away, so its command-level time includes them.
# Usage: scripts/bench.sh validator [path/to/stickerd]
set -euo pipefail
cd "$(dirname "$0")/../.."
stickerd=${1:-.build/release/stickerd}
work=$(mktemp -d /tmp/stickerd-validator-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$stickerd" demo-art "$work" >/dev/null
still="$work/Caramel.png"
animated="$work/Lollipop-618x618-30frames.png"

for file in "$still" "$animated"; do
  echo "== $(basename "$file") ($(wc -c <"$file") bytes)"
  hyperfine -N --warmup 5 --runs 100 --style basic --export-json "$work/times.json" \
    -n "stickerd validate" "$stickerd validate $file" \
    -n "pngcheck" "pngcheck -q $file" \
    -n "vips full decode" "vips avg $file" >/dev/null
  python3 scripts/bench/validator.py "$work/times.json"
  "$stickerd" validate --repeat-count 200 "$file" 2>&1 >/dev/null | sed 's/^/  in-process: /'
done
