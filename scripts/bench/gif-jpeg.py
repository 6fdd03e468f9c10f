"""The Python side of scripts/bench/gif-jpeg.sh (run from the project root):

  gif-jpeg.py photo OUT.jpg
      a 618 x 618 photo-like JPEG (gradients, shapes and grain, quality 90), as a phone's picture cut to a sticker.
  gif-jpeg.py vips FILE RUNS
      libvips (pyvips, in process) making what stickerd makes of FILE: at each of the nine edges a still thumbnail as
      PNG and WebP and, for an animation, every frame resized (n=-1) as an animated WebP and as a PNG (libvips writes
      no APNG: its frames stacked in one PNG). Prints the mean milliseconds of RUNS after one warm-up.
  gif-jpeg.py bytes STICKERD FILE...
      the bytes of each file and of its renditions (`stickerd renditions render`, and with --fitted each at its fitted
      size): a Markdown table.
"""
import subprocess
import sys
import time

EDGES = [100, 136, 200, 206, 272, 300, 408, 412, 618]


def photo(out):
    import random
    from PIL import Image, ImageDraw, ImageFilter
    random.seed(50)
    image = Image.new("RGB", (618, 618))
    pixels = image.load()
    for y in range(618):
        for x in range(618):
            pixels[x, y] = (x * 255 // 618, y * 255 // 618, 160 + (x + y) % 60)
    draw = ImageDraw.Draw(image)
    for _ in range(40):
        x, y, r = random.randrange(618), random.randrange(618), random.randrange(20, 90)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=tuple(random.randrange(256) for _ in range(3)))
    image = image.filter(ImageFilter.GaussianBlur(2))
    grain = Image.effect_noise((618, 618), 12).convert("RGB")
    Image.blend(image, grain, 0.08).save(out, quality=90)


def vips(path, runs):
    import pyvips
    data = open(path, "rb").read()
    animated = pyvips.Image.new_from_buffer(data, "").get_n_pages() > 1 if path.endswith(".gif") else False

    def work():
        for edge in EDGES:
            still = pyvips.Image.thumbnail_buffer(data, edge, height=edge, size="down").copy_memory()
            still.write_to_buffer(".png")
            still.webpsave_buffer(Q=80, alpha_q=100, effort=4)
            if animated:
                frames = pyvips.Image.thumbnail_buffer(data, edge, height=edge, size="down", option_string="n=-1")
                frames = frames.copy_memory()
                frames.webpsave_buffer(Q=80, alpha_q=100, effort=4)
                frames.write_to_buffer(".png")

    work()
    start = time.perf_counter()
    for _ in range(runs):
        work()
    print(f"{(time.perf_counter() - start) / runs * 1000:.1f}")


def sizes(stickerd, path, fitted):
    out = subprocess.run(
        [stickerd, "renditions", "render", path] + (["--fitted"] if fitted else []),
        check=True, capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines()[1:]:
        kind, size, count = line.strip().split("\t")
        rows.append((kind, size, int(count.split()[0])))
    return rows


def table(stickerd, paths):
    import os
    print("| file | source | PNG/APNG served (largest, sum) | WebP served (largest, sum) | fitted sum PNG, WebP |"
          " over the source |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for path in paths:
        source = os.path.getsize(path)
        served, fitted = sizes(stickerd, path, False), sizes(stickerd, path, True)
        png = [b for kind, _, b in served if kind.startswith("png")]
        webp = [b for kind, _, b in served if kind.startswith("webp")]
        fitted_png = sum(b for kind, _, b in fitted if kind.startswith("png"))
        fitted_webp = sum(b for kind, _, b in fitted if kind.startswith("webp"))
        over = sum(1 for _, _, b in served if b > source)
        print(f"| {os.path.basename(path)} | {source:,} | {max(png):,}, {sum(png):,} | {max(webp):,}, {sum(webp):,} |"
              f" {fitted_png:,}, {fitted_webp:,} | {over} of {len(served)} |")


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    if command == "photo":
        photo(args[0])
    elif command == "vips":
        vips(args[0], int(args[1]))
    elif command == "bytes":
        table(args[0], args[1:])
    else:
        sys.exit(f"gif-jpeg.py: unknown command {command}")
