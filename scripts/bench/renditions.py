"""The Python side of scripts/bench/renditions.sh (run from the project root):

  renditions.py in-process STILL FRAMES_DIR RUNS APNG_RUNS OURS_STILL_MS OURS_APNG_MS OURS_DIR
      libvips (pyvips) making the nine edges' PNG and WebP thumbnails of the still and of each APNG frame, timed next to
      stickerd's figures, then the bytes of stickerd's renditions (in OURS_DIR) next to libvips'.
  renditions.py upload PORT TOKEN STILL APNG RUNS APNG_RUNS
      uploads over HTTP to a live stickerd, each a variant of the picture that nothing can be reused for; mean times.
  renditions.py amplifying-render STICKERD PNG OUT_DIR
      `stickerd renditions render` of the amplifying APNG: time, peak RSS and the renditions' bytes.
  renditions.py amplifying-upload PORT TOKEN PID
      8 amplifying APNGs uploaded at once (a full --max-uploads gate): time, statuses and the server's peak RSS.
"""
import sys


def in_process(args):
    import glob, os, time, pyvips
    still_path, frames_dir, runs, apng_runs, ours_still, ours_apng, ours_dir = args[0:7]
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


def upload(args):
    import http.client, struct, time, zlib
    port, token, still, apng, runs, apng_runs = args[0], args[1], args[2], args[3], int(args[4]), int(args[5])
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
    def post(body):
        connection = http.client.HTTPConnection('127.0.0.1', int(port), timeout=120)
        start = time.perf_counter()
        connection.request('POST', '/v1/admin/groups/chewy/stickers?name=Bench&description=bench', body,
                           {'Authorization': f'Bearer {token}', 'Content-Type': 'image/png'})
        response = connection.getresponse(); response.read()
        assert response.status == 201, response.status
        return (time.perf_counter() - start) * 1000
    for name, path, n in [('408 x 408 still', still, runs), ('618 x 618, 30 frames', apng, apng_runs)]:
        data = open(path, 'rb').read()
        times = [post(variant(data, i)) for i in range(n)]
        print(f'  {name:<22} mean {sum(times) / n:8.1f} ms over {n} uploads (min {min(times):.1f} ms)')


def amplifying_render(args):
    import os, resource, subprocess, time
    stickerd, path, out = args[0:3]
    start = time.perf_counter()
    subprocess.run([stickerd, 'renditions', 'render', '--output', out, path], check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    made = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
    largest = max(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
    print(f'  one upload in process: {seconds * 1000:.0f} ms, peak RSS {peak:.0f} MiB (the whole process), '
          f'source {os.path.getsize(path)} bytes, renditions {made} bytes, the largest {largest} bytes (limit 512000)')


def amplifying_upload(args):
    import concurrent.futures, http.client, subprocess, tempfile, time
    port, token, pid = args[0], args[1], args[2]
    def vm(name):
        for line in open(f'/proc/{pid}/status'):
            if line.startswith(name): return int(line.split()[1]) / 1024
    def post(n):
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
        statuses = list(pool.map(post, range(8)))
    print(f'  8 at once over HTTP (a full --max-uploads gate): {time.perf_counter() - start:.1f} s, statuses {sorted(set(statuses))}, '
          f'server peak RSS {before:.0f} -> {vm("VmHWM"):.0f} MiB')


COMMANDS = {"in-process": in_process, "upload": upload, "amplifying-render": amplifying_render,
            "amplifying-upload": amplifying_upload}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    COMMANDS[sys.argv[1]](sys.argv[2:])
