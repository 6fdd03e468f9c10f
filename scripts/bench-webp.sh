#!/usr/bin/env bash
# WebP and platform packs: the WebP rendition encoder next to libvips' webpsave (time, in process, same libwebp and
# quality) and cwebp (bytes, same pixels and settings); a WhatsApp export of a 30-sticker animated group (time and
# peak memory); the PSNR of every budget-fitted picture of the demo catalog's WhatsApp, Telegram and Signal packs.
# Usage: scripts/bench-webp.sh [path/to/stickerd]   (make bench builds it in release mode)
# Environment: RUNS (default 50 encodes a file for the timing).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
runs=${RUNS:-50}
quality=80
port=$(free_port)
work=$(mktemp -d /tmp/stickerd-webp-bench.XXXXXX)
chmod 755 "$work"
pid=
cleanup() { [[ -n "$pid" ]] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
"$stickerd" demo-art --animations 30 "$work/art" >/dev/null
stills=("$work"/art/{Caramel,GummiBear,SourCandy,ChocolateBar,ChocolateChip,DarkChocolate,CandyCane,JawBreaker,Lollipop}.png)

echo "== A 408 x 408 still as a WebP rendition (quality $quality, alpha lossless, method 4): PNG decode + WebP encode, in process, mean of $runs"
"$stickerd" renditions webp --quality "$quality" --repeat-count "$runs" --output "$work/ours" "${stills[@]}" >"$work/ours.txt"
python3 - "$work/ours.txt" "$work/ours" "$runs" "$quality" "${stills[@]}" <<'PY'
import os, re, subprocess, sys, tempfile, time, pyvips
ours_txt, ours_dir, runs, quality, stills = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
ours = {m.group(1): float(m.group(2)) for m in re.finditer(r'^(\S+): decode and encode ([0-9.]+) ms', open(ours_txt).read(), re.M)}
rows, time_ratios, byte_ratios = [], [], []
for path in stills:
    name = os.path.basename(path)[:-4]
    data = open(path, 'rb').read()
    def vips():
        return pyvips.Image.new_from_buffer(data, '', access='sequential').webpsave_buffer(Q=quality, alpha_q=100, effort=4)
    vips()
    start = time.perf_counter()
    for _ in range(runs): vips()
    vips_ms = (time.perf_counter() - start) / runs * 1000
    out = tempfile.mktemp(suffix='.webp')
    subprocess.run(['cwebp', '-quiet', '-q', str(quality), '-alpha_q', '100', '-m', '4', path, '-o', out], check=True)
    theirs, mine = os.path.getsize(out), os.path.getsize(f'{ours_dir}/{name}.webp')
    time_ratios.append(ours[name] / vips_ms); byte_ratios.append(mine / theirs)
    print(f'  {name:<14} stickerd {ours[name]:6.2f} ms  vips webpsave {vips_ms:6.2f} ms  ratio {ours[name] / vips_ms:4.2f}'
          f'   bytes {mine:6d}  cwebp {theirs:6d}  ratio {mine / theirs:4.2f}')
mean = lambda xs: sum(xs) / len(xs)
print(f'  mean time ratio {mean(time_ratios):.2f} (target at most 1.0), mean bytes ratio {mean(byte_ratios):.2f} (target at most 1.0),'
      f' largest bytes ratio {max(byte_ratios):.2f}')
PY

token=bench-webp-token-0123456789
STICKER_ADMIN_TOKEN=$token "$stickerd" serve --demo --port "$port" --data-dir "$work/db" >"$work/stickerd.log" 2>&1 &
pid=$!
wait_ready "http://127.0.0.1:$port" "$work/stickerd.log"
echo "== PSNR of the demo catalog's budget-fitted pictures (target: at least 30 dB; lossless is exact)"
for platform in whatsapp telegram signal; do
  options=(); [[ $platform == telegram ]] && options=(--bot CandyBot)
  "$stickerd" export "$platform" "${options[@]}" --data-dir "$work/db" --out "$work/$platform" >/dev/null 2>"$work/export-$platform.log"
  python3 - "$work/$platform/report.json" "$platform" <<'PY'
import json, sys
report, platform = json.load(open(sys.argv[1])), sys.argv[2]
stickers = [s for p in report['packs'] for s in p['stickers']]
lossy = [s.get('psnr') for s in stickers if s.get('psnr') is not None]
worst = f'lowest {min(lossy):.1f} dB' if lossy else 'none lossy'
print(f'  {platform:<9} {len(stickers)} stickers: {len(stickers) - len(lossy)} lossless, {len(lossy)} lossy ({worst}), {len(report["refused"])} refused')
PY
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
python3 - "$work/whatsapp-moving/report.json" "$seconds" "$kib" <<'PY'
import json, sys
report, seconds, kib = json.load(open(sys.argv[1])), float(sys.argv[2]), int(sys.argv[3])
stickers = [s for p in report['packs'] for s in p['stickers']]
psnrs = [s.get('psnr') for s in stickers if s.get('psnr') is not None]
print(f'  {len(stickers)} stickers in {len(report["packs"])} pack(s), {len(report["refused"])} refused: {seconds:.1f} s, peak RSS {kib / 1024:.0f} MiB;'
      f' {sum(s["bytes"] for s in stickers) // 1024} KB, the largest {max(s["bytes"] for s in stickers) // 1024} KB (limit 500);'
      f' PSNR {min(psnrs):.1f} to {max(psnrs):.1f} dB' if psnrs else '')
PY

