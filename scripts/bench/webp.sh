#!/usr/bin/env bash
# WebP and platform packs: the WebP rendition encoder next to libvips' webpsave (time, in process, same libwebp and
# quality) and cwebp (bytes, same pixels and settings); a WhatsApp export of a 30-sticker animated group (time and
# peak memory); the PSNR of every budget-fitted picture of the demo catalog's WhatsApp, Telegram and Signal packs.
# Usage: scripts/bench.sh webp [path/to/stickerd]   (make bench builds it in release mode)
# Environment: RUNS (default 50 encodes a file for the timing).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
runs=${RUNS:-50}
quality=80
work=$(mktemp -d /tmp/stickerd-webp-bench.XXXXXX)
chmod 755 "$work"
cleanup() { stop_stickerds; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
"$stickerd" demo-art --animations 30 "$work/art" >/dev/null
stills=("$work"/art/{Caramel,GummiBear,SourCandy,ChocolateBar,ChocolateChip,DarkChocolate,CandyCane,JawBreaker,Lollipop}.png)

echo "== A 408 x 408 still as a WebP rendition (quality $quality, alpha lossless, method 4): PNG decode + WebP encode, in process, mean of $runs"
"$stickerd" renditions webp --quality "$quality" --repeat-count "$runs" --output "$work/ours" "${stills[@]}" >"$work/ours.txt"
python3 scripts/bench/webp.py encode "$work/ours.txt" "$work/ours" "$runs" "$quality" "${stills[@]}"

token=bench-webp-token-0123456789
STICKER_ADMIN_TOKEN=$token start_stickerd "$stickerd" "$work/stickerd.log" --demo --data-dir "$work/db"
port=$STICKERD_PORT
echo "== PSNR of the demo catalog's budget-fitted pictures (target: at least 30 dB; lossless is exact)"
for platform in whatsapp telegram signal; do
  options=(); [[ $platform == telegram ]] && options=(--bot CandyBot)
  "$stickerd" export "$platform" "${options[@]}" --data-dir "$work/db" --out "$work/$platform" >/dev/null 2>"$work/export-$platform.log"
  python3 scripts/bench/webp.py psnr "$work/$platform/report.json" "$platform"
done

echo "== A WhatsApp export of a 30-sticker animated group (30 APNGs of 30 frames, 460 to 618 px)"
curl -sf -X POST "http://127.0.0.1:$port/v1/admin/groups" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"id":"moving","name":"Moving"}' >/dev/null
for file in "$work"/art/Anim-*.png; do
  curl -sf -X POST "http://127.0.0.1:$port/v1/admin/groups/moving/stickers?name=$(basename "$file" .png)&description=Sliding&emoji=%F0%9F%8D%AD" \
    -H "Authorization: Bearer $token" -H 'Content-Type: image/png' --data-binary @"$file" >/dev/null
done
# As shipped (the default log level), its log kept aside.
/usr/bin/time -f '%e %M' -o "$work/time.txt" "$stickerd" export whatsapp --group moving --data-dir "$work/db" \
  --out "$work/whatsapp-moving" >"$work/export.txt" 2>"$work/export-moving.log"
read -r seconds kib <"$work/time.txt"
python3 scripts/bench/webp.py export "$work/whatsapp-moving/report.json" "$seconds" "$kib"

