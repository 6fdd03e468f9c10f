"""The Python side of scripts/bench/webp.sh (run from the project root):

  webp.py encode OURS_TXT OURS_DIR RUNS QUALITY STILL...
      libvips' webpsave timed on each still next to `stickerd renditions webp` (OURS_TXT, its WebPs in OURS_DIR), and
      the bytes next to cwebp's at the same settings.
  webp.py psnr REPORT_JSON PLATFORM
      an export's report: how many pictures are lossless, lossy (the lowest PSNR) and refused.
  webp.py export REPORT_JSON SECONDS KIB
      a WhatsApp export's report with its time and peak memory: packs, bytes and PSNR.
"""
import json
import sys


def encode(args):
    import os, re, subprocess, tempfile, time, pyvips
    ours_txt, ours_dir, runs, quality, stills = args[0], args[1], int(args[2]), int(args[3]), args[4:]
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


def psnr(args):
    report, platform = json.load(open(args[0])), args[1]
    stickers = [s for p in report['packs'] for s in p['stickers']]
    lossy = [s.get('psnr') for s in stickers if s.get('psnr') is not None]
    worst = f'lowest {min(lossy):.1f} dB' if lossy else 'none lossy'
    print(f'  {platform:<9} {len(stickers)} stickers: {len(stickers) - len(lossy)} lossless, {len(lossy)} lossy ({worst}), {len(report["refused"])} refused')


def export(args):
    report, seconds, kib = json.load(open(args[0])), float(args[1]), int(args[2])
    stickers = [s for p in report['packs'] for s in p['stickers']]
    psnrs = [s.get('psnr') for s in stickers if s.get('psnr') is not None]
    print(f'  {len(stickers)} stickers in {len(report["packs"])} pack(s), {len(report["refused"])} refused: {seconds:.1f} s, peak RSS {kib / 1024:.0f} MiB;'
          f' {sum(s["bytes"] for s in stickers) // 1024} KB, the largest {max(s["bytes"] for s in stickers) // 1024} KB (limit 500);'
          f' PSNR {min(psnrs):.1f} to {max(psnrs):.1f} dB' if psnrs else '')


COMMANDS = {"encode": encode, "psnr": psnr, "export": export}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    COMMANDS[sys.argv[1]](sys.argv[2:])
