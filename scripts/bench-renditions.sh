#!/usr/bin/env bash
# Benchmarks the whole upload pipeline with renditions (validate, every rendition in PNG and WebP, encode, store) on a
# 408 x 408 still and a 618 x 618, 30-frame APNG, next to libvips doing the same work in process (pyvips:
# thumbnail_buffer at each of the nine edges, then write_to_buffer(".png") and webpsave_buffer(Q=80, alpha_q=100); for
# the APNG, on its 30 frames composited by apngdis), and compares rendition sizes with libvips' PNGs and with
# optipng -o2 applied to ours.
# Usage: scripts/bench-renditions.sh [path/to/stickerd]   (make bench builds it in release mode)
# Environment: RUNS (default 10 for the still, a third of it for the APNG).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
runs=${RUNS:-10}
apng_runs=$(( runs > 3 ? runs / 3 : 1 ))
port=18090
work=$(mktemp -d /tmp/stickerd-renditions-bench.XXXXXX)
chmod 755 "$work"
pid=
cleanup() { [[ -n "$pid" ]] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

"$stickerd" demo-art "$work/art" >/dev/null
still="$work/art/Caramel.png"
apng="$work/art/Lollipop-618x618-30frames.png"
mkdir -p "$work/frames" && cp "$apng" "$work/frames/anim.png" && (cd "$work/frames" && apngdis anim.png frame >/dev/null)

echo "== In process: validate and make all renditions (stickerd), thumbnail, PNG and WebP at the nine edges (libvips)"
ours_still=$("$stickerd" renditions render --repeat-count "$runs" --output "$work/ours" "$still" | awk '/validate and render/ {print $(NF-4)}')
ours_apng=$("$stickerd" renditions render --repeat-count "$apng_runs" --output "$work/ours" "$apng" | awk '/validate and render/ {print $(NF-4)}')
python3 - "$still" "$work/frames" "$runs" "$apng_runs" "$ours_still" "$ours_apng" "$work/ours" <<'PY'
import glob, os, sys, time, pyvips
still_path, frames_dir, runs, apng_runs, ours_still, ours_apng, ours_dir = sys.argv[1:8]
runs, apng_runs, ours_still, ours_apng = int(runs), int(apng_runs), float(ours_still), float(ours_apng)
edges = [100, 136, 200, 206, 272, 300, 408, 412, 618]
def thumbnails(data):
    out = {}
    for e in edges:
        image = pyvips.Image.thumbnail_buffer(data, e, height=e, size='down').copy_memory()
        out[e] = (image.write_to_buffer('.png'), image.webpsave_buffer(Q=80, alpha_q=100, effort=4))
    return out
def mean_ms(work, n):
    work()
    start = time.perf_counter()
    for _ in range(n): out = work()
    return (time.perf_counter() - start) / n * 1000, out
still = open(still_path, 'rb').read()
frames = [open(p, 'rb').read() for p in sorted(glob.glob(f'{frames_dir}/frame*.png'))]
vips_still, still_out = mean_ms(lambda: thumbnails(still), runs)
vips_apng, apng_out = mean_ms(lambda: [thumbnails(f) for f in frames], apng_runs)
print(f'  408 x 408 still:        stickerd {ours_still:8.1f} ms   libvips {vips_still:8.1f} ms   ratio {ours_still / vips_still:.2f}')
print(f'  618 x 618, {len(frames)} frames:   stickerd {ours_apng:8.1f} ms   libvips {vips_apng:8.1f} ms   ratio {ours_apng / vips_apng:.2f}')
print('== Bytes: stickerd renditions next to libvips (APNG: our APNG against the sum of libvips frame PNGs; WebP: the still)')
print(f'  {"edge":>5} {"still ours":>11} {"libvips":>9} {"APNG ours":>10} {"libvips":>9} {"WebP ours":>10} {"libvips":>9}')
for e in edges:
    ours_s = os.path.getsize(f'{ours_dir}/Caramel-{e}-still.png')
    ours_a = os.path.getsize(f'{ours_dir}/Lollipop-618x618-30frames-{e}.png')
    ours_w = os.path.getsize(f'{ours_dir}/Caramel-{e}-still.webp')
    print(f'  {e:>5} {ours_s:>11} {len(still_out[e][0]):>9} {ours_a:>10} {sum(len(f[e][0]) for f in apng_out):>9} {ours_w:>10} {len(still_out[e][1]):>9}')
PY

echo "== optipng -o2 on our renditions (bytes before and after)"
for file in "$work"/ours/Caramel-{100,200,300}-still.png "$work"/ours/Lollipop-618x618-30frames-{136,408}-still.png; do
  cp "$file" "$work/opt.png"
  optipng -quiet -o2 "$work/opt.png"
  printf '  %-40s %8d %8d\n' "$(basename "$file")" "$(wc -c <"$file")" "$(wc -c <"$work/opt.png")"
done

echo "== Upload end to end over HTTP (validate, renditions, encode, store in PostgreSQL), each upload a new picture"
token=bench-renditions-token-0123456789
STICKER_ADMIN_TOKEN=$token "$stickerd" serve --demo --port "$port" --data-dir "$work/db" >"$work/stickerd.log" 2>&1 &
pid=$!
wait_ready "http://127.0.0.1:$port" "$work/stickerd.log"
python3 - "$port" "$token" "$still" "$apng" "$runs" "$apng_runs" <<'PY'
import http.client, struct, sys, time, zlib
port, token, still, apng, runs, apng_runs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
def chunks(data):
    at, out = 8, []
    while at < len(data):
        length, kind = struct.unpack('>I4s', data[at:at + 8])
        out.append((kind, data[at + 8:at + 8 + length]))
        at += 12 + length
    return out
def assemble(parts):
    return b'\x89PNG\r\n\x1a\n' + b''.join(struct.pack('>I', len(d)) + k + d + struct.pack('>I', zlib.crc32(k + d)) for k, d in parts)
def variant(data, n):
    # The same picture but for the last byte of the default image's rows, so that nothing can be reused.
    parts = chunks(data)
    raw = bytearray(zlib.decompress(b''.join(d for k, d in parts if k == b'IDAT')))
    raw[-1] = (raw[-1] + n + 1) % 256
    out, done = [], False
    for k, d in parts:
        if k == b'IDAT':
            if not done: out.append((k, zlib.compress(bytes(raw), 9))); done = True
        else: out.append((k, d))
    return assemble(out)
def upload(body):
    connection = http.client.HTTPConnection('127.0.0.1', int(port), timeout=120)
    start = time.perf_counter()
    connection.request('POST', '/v1/admin/groups/chewy/stickers?name=Bench&description=bench', body,
                       {'Authorization': f'Bearer {token}', 'Content-Type': 'image/png'})
    response = connection.getresponse(); response.read()
    assert response.status == 201, response.status
    return (time.perf_counter() - start) * 1000
for name, path, n in [('408 x 408 still', still, runs), ('618 x 618, 30 frames', apng, apng_runs)]:
    data = open(path, 'rb').read()
    times = [upload(variant(data, i)) for i in range(n)]
    print(f'  {name:<22} mean {sum(times) / n:8.1f} ms over {n} uploads (min {min(times):.1f} ms)')
PY

echo "== The amplifying APNG (618 x 618, 100 frames, each after the first one changed pixel): one upload, a full upload gate"
python3 scripts/bench/amplifying-apng.py "$work/amplifying.png"
python3 - "$stickerd" "$work/amplifying.png" "$work/amp" <<'PY'
import os, resource, subprocess, sys, time
stickerd, path, out = sys.argv[1:4]
start = time.perf_counter()
subprocess.run([stickerd, 'renditions', 'render', '--output', out, path], check=True, stdout=subprocess.DEVNULL)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
made = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
largest = max(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
print(f'  one upload in process: {seconds * 1000:.0f} ms, peak RSS {peak:.0f} MiB (the whole process), '
      f'source {os.path.getsize(path)} bytes, renditions {made} bytes, the largest {largest} bytes (limit 512000)')
PY
python3 - "$port" "$token" "$pid" <<'PY'
import concurrent.futures, http.client, subprocess, sys, tempfile, time
port, token, pid = sys.argv[1], sys.argv[2], sys.argv[3]
def vm(name):
    for line in open(f'/proc/{pid}/status'):
        if line.startswith(name): return int(line.split()[1]) / 1024
def upload(n):
    path = tempfile.mktemp(suffix='.png')
    subprocess.run([sys.executable, 'scripts/bench/amplifying-apng.py', path, '618', '100', str(n + 1)], check=True)
    body = open(path, 'rb').read()
    connection = http.client.HTTPConnection('127.0.0.1', int(port), timeout=300)
    connection.request('POST', f'/v1/admin/groups/chewy/stickers?name=Amp{n}&description=amplifying', body,
                       {'Authorization': f'Bearer {token}', 'Content-Type': 'image/png'})
    response = connection.getresponse(); response.read()
    return response.status
before = vm('VmHWM')
start = time.perf_counter()
with concurrent.futures.ThreadPoolExecutor(8) as pool:
    statuses = list(pool.map(upload, range(8)))
print(f'  8 at once over HTTP (a full --max-uploads gate): {time.perf_counter() - start:.1f} s, statuses {sorted(set(statuses))}, '
      f'server peak RSS {before:.0f} -> {vm("VmHWM"):.0f} MiB')
PY
