#!/usr/bin/env bash
# Fuzzes the upload validator with libFuzzer and AddressSanitizer.
# Usage: scripts/fuzz.sh [SECONDS]   (default 600). Seeds: the demo stickers, a generated APNG and the valid files
# of ../shared/testdata/png. Findings (crash-*, leak-*, timeout-*) land in .build/fuzz/findings.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
out=.build/fuzz
mkdir -p "$out/corpus" "$out/seeds" "$out/findings"

swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name StickerFuzz \
  -I Sources/CLibPNG $(pkg-config --cflags-only-I libpng | sed 's/-I/-Xcc -I/g') \
  Sources/StickerImage/*.swift Fuzz/ValidatorFuzz.swift -lpng16 -lz -o "$out/validator-fuzz"

# Seeds: valid stickers (the demo art and an APNG made from it) and the corpus's valid files.
swift build --product stickerd >"$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
"$(swift build --show-bin-path)/stickerd" demo-art "$out/seeds"
testdata=${STICKER_TESTDATA:-../shared/testdata}
if [[ -f "$testdata/png/MANIFEST.tsv" ]]; then
  awk -F'\t' 'NR > 1 && $7 == "valid" {print $1}' "$testdata/png/MANIFEST.tsv" | while read -r path; do
    cp "$testdata/png/$path" "$out/seeds/$(echo "$path" | tr '/' '_')"
  done
fi

echo "Fuzzing for $seconds s with $(ls "$out/seeds" | wc -l) seeds"
"$out/validator-fuzz" "$out/corpus" "$out/seeds" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
  -rss_limit_mb=4096 -artifact_prefix="$out/findings/" -print_final_stats=1 2>&1 | tee "$out/last-run.log" | grep -E "^#|DONE|ERROR|stat::" || true
echo "Findings: $(ls "$out/findings" | wc -l) (in $out/findings)"
