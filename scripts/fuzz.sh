#!/usr/bin/env bash
# Fuzzes the upload path with libFuzzer and AddressSanitizer: the image validator (StickerImage: PNG, APNG, WebP), the
# GIF and JPEG decoders (giflib and libjpeg-turbo under StickerImage's readers, each input read as that format) and the
# multipart/form-data reader (FormData), each for SECONDS.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (default 300 per target; targets validator, gif, jpeg, upload, all by
# default). Seeds: the demo stickers, a generated APNG and the valid files of ../shared/testdata/png for the validator;
# the generated GIF and JPEG corpus (scripts/corpus/gif_jpeg.py) for theirs; small forms for the reader. Findings
# (crash-*, leak-*, timeout-*) land in .build/fuzz/findings.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
shift || true
targets=("${@:-validator gif jpeg upload}")
targets=(${targets[*]})
out=.build/fuzz
mkdir -p "$out/corpus" "$out/seeds" "$out/form-corpus" "$out/form-seeds" "$out/findings" \
  "$out/gif-corpus" "$out/gif-seeds" "$out/jpeg-corpus" "$out/jpeg-seeds"

# StickerImage's C modules: the system libraries' module maps as they are, and CStickerPNG's header with a module map
# of its own (SwiftPM makes one in a build) and its C file compiled with the same sanitizers.
mkdir -p "$out/cstickerpng"
printf 'module CStickerPNG {\n  header "%s"\n  export *\n}\n' "$PWD/Sources/CStickerPNG/include/sticker_png.h" >"$out/cstickerpng/module.modulemap"
clang -fsanitize=fuzzer-no-link,address -O2 -g -c Sources/CStickerPNG/sticker_png.c -I Sources/CStickerPNG/include \
  $(pkg-config --cflags libpng) -o "$out/sticker_png.o"
c_flags=(-I Sources/CLibPNG -I Sources/CLCMS2 -I Sources/CWebP -I Sources/CGIF -I Sources/CTurboJPEG -I "$out/cstickerpng" \
  $(pkg-config --cflags-only-I libpng lcms2 libwebpdemux | sed 's/-I/-Xcc -I/g'))
c_libs=("$out/sticker_png.o" -lpng16 -lz -llcms2 -lwebp -lwebpmux -lwebpdemux -lgif -lturbojpeg)
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -package-name StickerCatalog -module-name StickerFuzz "${c_flags[@]}" \
  Sources/StickerImage/*.swift Fuzz/ValidatorFuzz.swift "${c_libs[@]}" -o "$out/validator-fuzz"
for format in gif jpeg; do
  module=$(echo "$format" | tr a-z A-Z)
  swiftc -sanitize=fuzzer,address -parse-as-library -O -g -package-name StickerCatalog -module-name "${module}Fuzz" "${c_flags[@]}" \
    Sources/StickerImage/*.swift Fuzz/FuzzUpload.swift "Fuzz/${module}Fuzz.swift" "${c_libs[@]}" -o "$out/$format-fuzz"
done
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -package-name StickerCatalog -module-name FormFuzz \
  Sources/FormData/*.swift Fuzz/UploadFuzz.swift -o "$out/upload-fuzz"

# Validator seeds: valid stickers (the demo art and an APNG made from it, and the same as WebP, still and animated) and
# the corpus's valid files.
swift build --product stickerd >"$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
"$(swift build --show-bin-path)/stickerd" demo-art "$out/seeds"
for png in "$out"/seeds/*.png; do
  cwebp -quiet -q 80 -alpha_q 100 "$png" -o "${png%.png}.webp" 2>/dev/null || true
done
"$(swift build --show-bin-path)/stickerd" renditions render --output "$out/renditions" "$out"/seeds/*frames*.png >/dev/null
cp "$out"/renditions/*-206.webp "$out/seeds/" 2>/dev/null || true
testdata=${STICKER_TESTDATA:-../shared/testdata}
if [[ -f "$testdata/png/MANIFEST.tsv" ]]; then
  awk -F'\t' 'NR > 1 && $7 == "valid" {print $1}' "$testdata/png/MANIFEST.tsv" | while read -r path; do
    cp "$testdata/png/$path" "$out/seeds/$(echo "$path" | tr '/' '_')"
  done
fi
# GIF and JPEG seeds: the conformance corpus, valid files and hostile ones alike.
python3 scripts/corpus/gif_jpeg.py "$out/gif-jpeg" >/dev/null
cp "$out"/gif-jpeg/*.gif "$out/gif-seeds/"
cp "$out"/gif-jpeg/*.jpg "$out/jpeg-seeds/"
# Form seeds: [boundary length][chunk size][boundary][body], as Fuzz/UploadFuzz.swift reads them.
python3 scripts/fuzz/form_seeds.py "$out/form-seeds"

fuzz() {
  local binary=$1 corpus=$2 seeds=$3 max_len=$4
  echo "Fuzzing $(basename "$binary") for $seconds s with $(ls "$seeds" | wc -l) seeds"
  "$binary" "$corpus" "$seeds" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="$out/findings/" -print_final_stats=1 2>&1 | tee "$out/last-run-$(basename "$binary").log" \
    | grep -E "^#[0-9]+ *DONE|ERROR|SUMMARY|stat::(number_of_executed_units|average_exec_per_sec|peak_rss)|cov:" | tail -8 || true
}
# The largest seed is the 30-frame APNG (about 316 KB); 512 KiB covers it and the 500 KB upload limit.
for target in "${targets[@]}"; do
  case "$target" in
    validator) fuzz "$out/validator-fuzz" "$out/corpus" "$out/seeds" 524288 ;;
    gif | jpeg) fuzz "$out/$target-fuzz" "$out/$target-corpus" "$out/$target-seeds" 524288 ;;
    upload) fuzz "$out/upload-fuzz" "$out/form-corpus" "$out/form-seeds" 70000 ;;
    *) echo "unknown fuzz target $target (validator, gif, jpeg, upload)"; exit 2 ;;
  esac
done
echo "Findings: $(ls "$out/findings" | wc -l) (in $out/findings)"
