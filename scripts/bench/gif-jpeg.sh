#!/usr/bin/env bash
# Benchmarks GIF and JPEG uploads (issue 50) next to libvips, in one run: a 408 x 408, 24-frame animated GIF to every
# rendition (a still PNG and WebP at each of the nine edges, and the animation as APNG and animated WebP), and a 618 x
# 618 JPEG to its renditions (PNG and WebP at each edge), each timed as `stickerd renditions render` (validation and
# renditions in process, as an upload makes them) against pyvips doing the same outputs (gif-jpeg.py). Target: ours at
# most 0.75x libvips' time. Then the bytes of the renditions of the demo, the tour's art and the GIF/JPEG corpus.
# Usage: scripts/bench.sh gif-jpeg [path/to/stickerd]   (make bench builds it in release mode)
# Environment: RUNS (default 10).
set -euo pipefail
cd "$(dirname "$0")/../.."
stickerd=${1:-.build/release/stickerd}
runs=${RUNS:-10}
work=$(mktemp -d /tmp/stickerd-gif-jpeg-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

python3 scripts/corpus/gif_jpeg.py "$work/corpus" >/dev/null 2>&1
python3 scripts/bench/gif-jpeg.py photo "$work/photo.jpg"
"$stickerd" demo-art "$work/art" >/dev/null
gif="$work/corpus/bench-408-24.gif"

echo "== Every rendition, in process: stickerd renditions render against pyvips (mean of $runs, after one warm-up)"
printf '  %-34s %12s %12s %8s %8s\n' "file" "stickerd ms" "libvips ms" "ratio" "target"
for file in "$gif" "$work/photo.jpg"; do
  ours=$("$stickerd" renditions render --repeat-count "$runs" "$file" | awk '/validate and render/ {print $(NF-4)}')
  theirs=$(python3 scripts/bench/gif-jpeg.py vips "$file" "$runs")
  ratio=$(python3 -c "print(f'{$ours / $theirs:.2f}')")
  printf '  %-34s %12s %12s %8s %8s\n' "$(basename "$file") ($(wc -c <"$file") B)" "$ours" "$theirs" "${ratio}x" "0.75x"
done

echo "== Bytes: each source and its renditions as served (fitted: each at its fitted size, before a larger picture"
echo "   that takes fewer bytes stands in); 'over the source' counts renditions larger than the upload"
ok=$(awk -F'\t' 'NR > 1 && $4 == "ok" {print $2}' "$work/corpus/manifest.tsv" | sed "s|^|$work/corpus/|")
python3 scripts/bench/gif-jpeg.py bytes "$stickerd" "$work"/art/*.png "$work/photo.jpg" $ok
