#!/usr/bin/env bash
# The benchmarks' one entry: scripts/bench.sh CASE [path/to/stickerd] [...]. Each CASE is scripts/bench/CASE.sh, whose
# head says what it measures, its targets and the environment it reads (durations, rounds, sizes); the stickerd
# default is .build/release/stickerd (make bench builds the release binaries, then runs `all`).
#   manifest         the manifest and an asset with wrk, next to nginx and a bare Hummingbird app
#                    (scripts/bench.sh manifest [stickerd] [baseline-server])
#   observability    what the request histogram and the access log line cost
#   validator        the upload validator next to pngcheck and vips
#   renditions       uploads with renditions next to libvips
#   webp             WebP renditions next to vips webpsave and cwebp, a WhatsApp export, the packs' PSNR
#   gif-jpeg         a 24-frame GIF and a JPEG to every rendition next to libvips; rendition bytes beside sources
#   purchases        App Store notification intake, manifests for 1,000 signed-in users, forged webhooks
#   manifest-build   manifest builds at 10,000 stickers
#   search           search at 10,000 and 100,000 stickers
#   search-postgres  the same queries on PostgreSQL full-text search
#   releases         release history and restore at 10,000 stickers
#   export           the WhatsApp export of 10,000 stickers through the API: time, bytes, stickerd's RSS growth
#   bundles          100 bundle clients that never read, and the database cost of a bundle of random digests
#   usage            usage events at load beside cached manifests, and trending at 10,000 stickers
#   audience         cached manifests with 5 audience-restricted groups next to none, callers spread wide
#   groups           the group index at 100,000 stickers in 2,000 groups, beside the whole manifest
#   cors             the manifest and an image with --cors-origin and an Origin, beside the same build without
#   client           the change feed, live updates across two replicas, a first sync next to curl
#                    (scripts/bench.sh client [stickerd] [sticker-sync])
#   library          the client's library mode at 100,000 stickers, beside the whole-catalog sync
#                    (scripts/bench.sh library [stickerd] [sticker-sync])
#   all              every case above, in this order, stopping at the first that fails
#                    (scripts/bench.sh all [stickerd] [baseline-server] [sticker-sync])
set -euo pipefail
cd "$(dirname "$0")/.."
cases=(manifest observability validator renditions webp gif-jpeg purchases manifest-build search search-postgres releases export
  bundles usage audience groups cors client library)
usage() { sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; }
(($# > 0)) || { usage >&2; exit 2; }
name=$1
shift
[[ $name != -h && $name != --help ]] || { usage; exit 0; }
if [[ $name == all ]]; then
  stickerd=${1:-.build/release/stickerd} baseline=${2:-.build/release/baseline-server} syncer=${3:-.build/release/sticker-sync}
  for name in "${cases[@]}"; do
    echo
    echo "### scripts/bench.sh $name"
    case $name in
      manifest) scripts/bench/manifest.sh "$stickerd" "$baseline" ;;
      client | library) "scripts/bench/$name.sh" "$stickerd" "$syncer" ;;
      *) "scripts/bench/$name.sh" "$stickerd" ;;
    esac
  done
elif [[ " ${cases[*]} " == *" $name "* ]]; then
  exec "scripts/bench/$name.sh" "$@"
else
  echo "scripts/bench.sh: no benchmark case '$name'" >&2
  usage >&2
  exit 2
fi
