#!/usr/bin/env python3
"""Writes a conformance corpus of GIF and JPEG files with reference decodings, for the tests of our own decoders.

The Swift tests decode each file with what the server uses (giflib plus our compositor; libjpeg-turbo) and compare
against the reference frames here, or expect the validator to refuse the file with the code given. Everything is made
at test time from fixed seeds and code: nothing is fetched, and a run gives the same bytes every time.

GIFs come from the minimal writer below, so every field is ours to set (version, screen, global and local colour
tables, Graphic Control Extension, NETSCAPE2.0 loops, frame offsets, interlacing, LZW stream); no library would write
the odd or broken files. Their reference is what a browser shows: frames composited on a canvas that starts fully
transparent, disposal 2 clearing to transparent (browsers ignore the background colour), disposal 3 restoring what the
frame covered. A small compositor of that model makes the reference, and ImageMagick's `-coalesce` checks it: the run
fails if the two disagree on a case not listed in IM_DIFFERS. JPEGs are written by Pillow and their reference is
Pillow's decoding (libjpeg-turbo), turned upright by the EXIF orientation; the one with a Display P3 profile (written by
hand: Pillow cannot make one) is converted to sRGB by Little CMS, as our server does.

Usage: scripts/corpus/gif_jpeg.py OUTDIR   (needs Pillow, numpy and ImageMagick's `convert`; a few seconds)
Writes OUTDIR/NAME.gif or NAME.jpg; OUTDIR/NAME.rgba, the reference frames of accepted files (8-bit RGBA, width *
height * 4 bytes a frame, frames one after another, fully transparent pixels as 0,0,0,0); OUTDIR/manifest.tsv, a header
line and one row a file: name, file, kind (gif | jpeg), expect (ok, or the code the validator refuses it with), width
and height (upright; what the header claims for a refused file, 0 when it claims nothing), frames, loops (total plays
as APNG counts them: 0 forever; NETSCAPE n > 0 plays n + 1 times; no NETSCAPE plays once; 0 for stills), delays_ms
(per frame, a GIF delay under 2 cs shown for 100 ms as browsers do; `-` for stills and refused files), tolerance (the
largest per-channel difference allowed against the reference) and a note.
"""
import colorsys, io, math, shutil, struct, subprocess, sys, time
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np
from PIL import Image, ImageCms, ImageDraw, ImageOps

# The sticker rules an accepted file must meet (Sources/StickerImage/StickerRules.swift).
SIDES, MAX_BYTES, MAX_FRAMES, MAX_PLAY_MS = range(300, 619), 500 * 1024, 100, 10_000
MAGENTA = (255, 0, 255)  # the colour behind every transparent index: a decoder that draws it shows magenta
# Cases where ImageMagick's coalesced frames differ from what browsers show; the browser model is the reference.
IM_DIFFERS = {
    "anim-dispose3-first": "it keeps the first frame (disposal 3) under the later ones; browsers restore the empty "
                           "canvas",
    "anim-small-first": "it fills the screen outside the first frame with the background colour; browsers leave it "
                        "transparent",
}


# ---------------------------------------------------------------------------------------------------------------- GIF

@dataclass
class Frame:
    pixels: np.ndarray  # colour indices, shape (height, width)
    left: int = 0
    top: int = 0
    delay_cs: int = 0
    disposal: int = 0
    transparent: int | None = None
    palette: list | None = None  # a local colour table
    interlace: bool = False
    gce: bool = True  # write a Graphic Control Extension (delay, disposal, transparency) before the frame
    lzw: str = "dictionary"  # or "literal" (every pixel a code, Clear before the codes widen), "deferred-clear"
    min_code_size: int | None = None  # None: the smallest that holds the table and every index


@dataclass
class Gif:
    width: int
    height: int
    frames: list[Frame]
    palette: list | None = None  # the global colour table
    loops: int | None = None  # the NETSCAPE2.0 loop count; None writes no NETSCAPE extension
    version: bytes = b"89a"
    background: int = 0


class BitWriter:
    """LZW codes packed least significant bit first, as GIF stores them."""

    def __init__(self):
        self.out, self.acc, self.bits = bytearray(), 0, 0

    def write(self, code, width):
        self.acc |= code << self.bits
        self.bits += width
        while self.bits >= 8:
            self.out.append(self.acc & 0xFF)
            self.acc >>= 8
            self.bits -= 8

    def finish(self):
        return bytes(self.out) + (bytes([self.acc]) if self.bits else b"")


def lzw_dictionary(indices, min_size, clear_when_full=True):
    """A real LZW stream. Decoders add a table entry for every code but the first after a Clear, and widen the codes
    once the next free entry reaches 2^width; the encoder is one entry ahead, hence `next_code - 1` below. When the
    table is full the encoder either sends a Clear or, as the spec also allows, keeps sending 12-bit codes."""
    clear = 1 << min_size
    writer, table, next_code = BitWriter(), {}, clear + 2
    writer.write(clear, min_size + 1)
    if len(indices) == 0:
        writer.write(clear + 1, min_size + 1)
        return writer.finish()
    prefix = int(indices[0])
    for pixel in indices[1:].tolist():
        key = prefix << 8 | pixel
        code = table.get(key)
        if code is not None:
            prefix = code
            continue
        writer.write(prefix, (next_code - 1).bit_length())
        if next_code < 4096:
            table[key] = next_code
            next_code += 1
        if next_code == 4096 and clear_when_full:
            writer.write(clear, 12)
            table, next_code = {}, clear + 2
        prefix = pixel
    writer.write(prefix, (next_code - 1).bit_length())
    # The decoder has added the entry for that last code by the time it reads End of Information.
    writer.write(clear + 1, min(12, next_code.bit_length()))
    return writer.finish()


def lzw_literal(indices, min_size):
    """Every pixel its own code, with a Clear every 2^min_size - 2 codes so the decoder's table never grows to the
    point where codes widen: valid for every decoder, and a test of streams that are mostly Clear codes."""
    clear, width, run = 1 << min_size, min_size + 1, (1 << min_size) - 2
    writer, values = BitWriter(), indices.tolist()
    for start in range(0, max(len(values), 1), run):
        writer.write(clear, width)
        for pixel in values[start:start + run]:
            writer.write(pixel, width)
    writer.write(clear + 1, width)
    return writer.finish()


def sub_blocks(data):
    """Data split into blocks of at most 255 bytes, each after its length, then the 0 that ends them."""
    return b"".join(bytes([len(data[i:i + 255])]) + data[i:i + 255] for i in range(0, len(data), 255)) + b"\0"


def table_bits(palette):
    """The size field of a colour table: it holds 2^bits entries, at least 2."""
    return max(1, (len(palette) - 1).bit_length())


def colour_table(palette):
    """The table's bytes, padded with black to its power-of-two size."""
    padded = list(palette) + [(0, 0, 0)] * ((1 << table_bits(palette)) - len(palette))
    return bytes(channel for colour in padded for channel in colour)


def interlaced(pixels):
    """Rows in GIF interlace order: every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1."""
    rows = len(pixels)
    return pixels[[*range(0, rows, 8), *range(4, rows, 8), *range(2, rows, 4), *range(1, rows, 2)]]


def graphic_control(frame):
    flags = frame.disposal << 2 | (frame.transparent is not None)
    return b"\x21\xf9\x04" + struct.pack("<BHB", flags, frame.delay_cs, frame.transparent or 0) + b"\0"


def netscape_loops(loops):
    return b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loops) + b"\0"


def min_code_size(frame, gif):
    if frame.min_code_size is not None:
        return frame.min_code_size
    table = frame.palette or gif.palette
    largest = int(frame.pixels.max()) if frame.pixels.size else 0
    return max(2, table_bits(table) if table else 0, largest.bit_length())


def frame_block(frame, gif):
    """One frame: its Graphic Control Extension, image descriptor, local colour table and LZW data."""
    height, width = frame.pixels.shape
    flags = (0x80 | table_bits(frame.palette) - 1 if frame.palette else 0) | (0x40 if frame.interlace else 0)
    block = graphic_control(frame) if frame.gce else b""
    block += b"\x2c" + struct.pack("<HHHHB", frame.left, frame.top, width, height, flags)
    block += colour_table(frame.palette) if frame.palette else b""
    size = min_code_size(frame, gif)
    rows = interlaced(frame.pixels) if frame.interlace else frame.pixels
    indices = rows.reshape(-1).astype(np.int64)
    data = lzw_literal(indices, size) if frame.lzw == "literal" else \
        lzw_dictionary(indices, size, clear_when_full=frame.lzw != "deferred-clear")
    return block + bytes([size]) + sub_blocks(data)


def gif_head(gif):
    """Header, logical screen descriptor, global colour table and NETSCAPE2.0 extension."""
    assert gif.version == b"89a" or (gif.loops is None and not any(f.gce for f in gif.frames)), "87a has no extensions"
    flags = 0x80 | 0x70 | table_bits(gif.palette) - 1 if gif.palette else 0x70
    head = b"GIF" + gif.version + struct.pack("<HHBBB", gif.width, gif.height, flags, gif.background, 0)
    head += colour_table(gif.palette) if gif.palette else b""
    return head + (netscape_loops(gif.loops) if gif.loops is not None else b"")


def encode_gif(gif):
    return gif_head(gif) + b"".join(frame_block(frame, gif) for frame in gif.frames) + b"\x3b"


# ------------------------------------------------------------------------------------------ GIF reference frames

def composite(gif):
    """The canvas after each frame, as browsers draw a GIF: (frames, height, width, 4) uint8 RGBA."""
    canvas = np.zeros((gif.height, gif.width, 4), np.uint8)
    shown, previous, saved = [], None, None
    for frame in gif.frames:
        if previous is not None and previous.disposal in (2, 3):
            height, width = previous.pixels.shape
            area = canvas[previous.top:previous.top + height, previous.left:previous.left + width]
            area[:] = 0 if previous.disposal == 2 else saved
        height, width = frame.pixels.shape
        area = canvas[frame.top:frame.top + height, frame.left:frame.left + width]
        saved = area.copy()  # what disposal 3 puts back once the frame has been shown
        colours = np.array(frame.palette or gif.palette, np.uint8)
        drawn = frame.pixels != frame.transparent if frame.transparent is not None else np.ones((height, width), bool)
        area[drawn, :3] = colours[frame.pixels[drawn]]
        area[drawn, 3] = 255
        shown.append(canvas.copy())
        previous = frame
    return np.stack(shown)


def imagemagick_frames(path, frames, width, height):
    """ImageMagick's coalesced frames, fully transparent pixels set to 0,0,0,0 as in ours."""
    out = subprocess.run(["convert", str(path), "-coalesce", "+repage", "-depth", "8", "rgba:-"],
                         capture_output=True, check=True).stdout
    assert len(out) == frames * width * height * 4, f"{path.name}: ImageMagick gave {len(out)} bytes"
    pixels = np.frombuffer(out, np.uint8).reshape(frames, height, width, 4).copy()
    pixels[pixels[..., 3] == 0] = 0
    return pixels


def disagreement(ours, theirs):
    """Where two decodings differ, in a few words; None when they are the same."""
    frames = [i for i in range(len(ours)) if not np.array_equal(ours[i], theirs[i])]
    if not frames:
        return None
    first = frames[0]
    alpha = int((ours[first, ..., 3] != theirs[first, ..., 3]).sum())
    colour = int((ours[first] != theirs[first]).any(-1).sum())
    return f"frames {frames}; frame {first}: {colour} pixels differ, {alpha} in alpha"


# ------------------------------------------------------------------------------------------------------ GIF art

def hues(count, offset=0.0, saturation=0.8):
    """`count` distinct colours spread from red to violet round the colour wheel, short of magenta."""
    return [tuple(round(c * 255) for c in colorsys.hsv_to_rgb((offset + i / count) % 1 * 0.8, saturation, 0.95))
            for i in range(count)]


def grid(width, height):
    rows, columns = np.mgrid[0:height, 0:width]
    return columns, rows


def bands(width, height, colours, first=0):
    """Diagonal bands with a disk in the upper left third: asymmetric, so a flipped or shifted frame shows."""
    x, y = grid(width, height)
    disk = (x - width // 3) ** 2 + (y - height // 3) ** 2 < (min(width, height) // 4) ** 2
    return (first + ((x + 2 * y) // 24 + disk * (colours // 2)) % colours).astype(np.uint8)


def sprite(size, fill, ring, transparent):
    """A ringed disk with a notch at its upper right, on transparent: what animations move about."""
    x, y = grid(size, size)
    distance = np.hypot(x - (size - 1) / 2, y - (size - 1) / 2)
    pixels = np.full((size, size), transparent, np.uint8)
    pixels[distance < size / 2 - 1] = ring
    pixels[distance < size / 2 - 6] = fill
    pixels[size // 5:size // 3, size * 3 // 5:size * 4 // 5] = ring
    return pixels


SCREEN = (320, 300)
PALETTE16 = [MAGENTA] + hues(15)  # index 0 transparent wherever a frame uses transparency


def sprite_animation(disposal, first_disposal=1, loops=0, delay_cs=20):
    """A full-screen first frame, then four overlapping sprites, each at an offset with transparent corners: what
    `disposal` does to each sprite's rectangle shows in the next frame. The background colour index is a visible
    colour, which browsers ignore (disposal 2 clears to transparent)."""
    width, height = SCREEN
    frames = [Frame(bands(width, height, 8, first=1), delay_cs=delay_cs, disposal=first_disposal)]
    frames += [Frame(sprite(100, 9 + i, 13 + i % 2, 0), left=30 + 55 * i, top=20 + 50 * i, delay_cs=delay_cs,
                     disposal=disposal, transparent=0) for i in range(4)]
    return Gif(width, height, frames, PALETTE16, loops=loops, background=5)


def still(pixels, palette, version=b"89a", loops=None, **options):
    height, width = pixels.shape
    return Gif(width, height, [Frame(pixels, **options)], palette, loops=loops, version=version)


def gif_stills():
    width, height = SCREEN
    x, y = grid(width, height)
    gradient = ((x + y) * 255 // (width + height - 2)).astype(np.uint8)
    transparent = bands(width, height, 8, first=1)
    transparent[(x - 220) ** 2 + (y - 190) ** 2 < 70 ** 2] = 0
    return [
        ("still-87a", still(bands(width, height, 16), PALETTE16, version=b"87a", gce=False),
         "GIF87a, global 16-colour table, no extensions"),
        ("still-89a-transparent", still(transparent, PALETTE16, transparent=0, delay_cs=100),
         "GIF89a, transparent index 0 (magenta) cuts a disk out; a delay on a still is ignored"),
        ("still-1bit", still(bands(width, height, 2), [(20, 20, 90), (250, 230, 120)]), "2-colour table"),
        ("still-4bit", still(bands(width, height, 16), PALETTE16[1:] + [(0, 0, 0)]), "16-colour table"),
        ("still-8bit", still(gradient, hues(256, saturation=0.6)), "256-colour table, a diagonal gradient"),
        ("still-interlaced", still(bands(width, 301, 16), PALETTE16, interlace=True),
         "interlaced, 301 rows so the last passes end short"),
        ("still-local-only", Gif(width, height, [Frame(bands(width, height, 8), palette=hues(8, 0.3))]),
         "no global table: the frame has a local one"),
        ("still-netscape", still(bands(width, height, 16), PALETTE16, loops=0),
         "one frame with a NETSCAPE2.0 loop extension: still a still"),
        ("lzw-literal", still(bands(width, height, 16), PALETTE16, lzw="literal"),
         "LZW stream of literal codes, a Clear every 14 codes"),
        ("lzw-deferred-clear", still(gradient ^ (x % 7).astype(np.uint8), hues(256, 0.1), lzw="deferred-clear"),
         "LZW table fills and the stream goes on in 12-bit codes without a Clear, as the spec allows"),
    ]


def local_palette_animation():
    """A global table for the first and last frames; the middle frames bring their own tables of other sizes."""
    width, height = SCREEN
    frames = [Frame(bands(width, height, 8, first=1), delay_cs=30, disposal=1),
              Frame(bands(120, 100, 4), left=20, top=30, delay_cs=30, disposal=1, palette=hues(4, 0.5, 1.0)),
              Frame(sprite(150, 40, 20, 0), left=150, top=120, delay_cs=30, disposal=1, transparent=0,
                    palette=[MAGENTA] + hues(63, 0.2)),
              Frame(bands(90, 70, 6, first=7), left=200, top=20, gce=False)]
    return Gif(width, height, frames, PALETTE16, loops=0)


def local_only_animation():
    width, height = SCREEN
    frames = [Frame(bands(width, height, 16), delay_cs=25, disposal=1, palette=hues(16, 0.6)),
              Frame(sprite(110, 5, 6, 0), left=40, top=150, delay_cs=25, disposal=2, transparent=0,
                    palette=[MAGENTA] + hues(7, 0.1)),
              Frame(sprite(90, 1, 0, 2), left=180, top=40, delay_cs=25, disposal=1, transparent=2,
                    palette=[(250, 250, 250), (10, 10, 10), MAGENTA])]
    return Gif(width, height, frames, None, loops=0)


def interlaced_animation():
    """Interlaced frames of awkward heights, down to ones the later passes never reach."""
    width, height = SCREEN
    frames = [Frame(bands(width, height, 8, first=1), delay_cs=20, disposal=1, interlace=True)]
    for i, rows in enumerate((97, 13, 5, 2, 1)):
        frames.append(Frame(bands(150, rows, 6, first=9), left=20 + 30 * i, top=40 + 45 * i, delay_cs=20,
                            disposal=1, interlace=True))
    return Gif(width, height, frames, PALETTE16, loops=0)


def odd_size_animation():
    frames = [Frame(bands(333, 301, 8, first=1), delay_cs=10, disposal=1),
              Frame(sprite(77, 9, 13, 0)[:53], left=17, top=29, delay_cs=10, disposal=2, transparent=0),
              Frame(sprite(61, 10, 14, 0), left=255, top=239, delay_cs=10, disposal=3, transparent=0),
              Frame(bands(3, 7, 4, first=11), left=330, top=294, delay_cs=10)]
    return Gif(333, 301, frames, PALETTE16, loops=0)


def small_first_frame():
    """The first frame covers part of the screen; the rest stays transparent until later frames reach it."""
    width, height = SCREEN
    frames = [Frame(bands(200, 160, 8, first=1), left=60, top=50, delay_cs=20, disposal=1),
              Frame(sprite(100, 9, 13, 0), left=0, top=0, delay_cs=20, disposal=1, transparent=0),
              Frame(sprite(80, 10, 14, 0), left=235, top=215, delay_cs=20, disposal=1, transparent=0)]
    return Gif(width, height, frames, PALETTE16, loops=0, background=3)


def delays_animation():
    gif = sprite_animation(1)
    for frame, delay in zip(gif.frames, (0, 1, 2, 5, 10)):
        frame.delay_cs = delay
    return gif


def loops_animation(loops):
    gif = sprite_animation(1, delay_cs=30)
    gif.loops = loops
    return gif


def bench_canvases(side=408, count=24):
    """The benchmark's frames as index canvases (-1 transparent): a shaded ball and a square moving over a disk
    shaded in a spiral, transparent around it."""
    x, y = grid(side, side)
    centre = (side - 1) / 2
    radius = np.hypot(x - centre, y - centre)
    angle = np.arctan2(y - centre, x - centre)
    # A spiral of 127 shades that turns once around the centre, so it has no seam.
    spiral = np.floor(radius / 3 + angle * 127 / (2 * math.pi)).astype(int) % 127
    backdrop = np.where(radius < side / 2 - 4, 1 + spiral, -1)
    canvases = []
    for t in range(count):
        phase = 2 * math.pi * t / count
        canvas = backdrop.copy()
        bx, by = centre + 110 * math.cos(phase), centre + 90 * math.sin(2 * phase)
        ball = np.hypot(x - bx, y - by)
        shade = np.hypot(x - bx + 12, y - by + 12) * 63 / 56  # 64 shades away from a highlight at the upper left
        canvas[ball < 40] = 128 + np.minimum(shade, 63).astype(int)[ball < 40]
        sx, sy = centre + 150 * math.cos(-2 * phase), centre + 150 * math.sin(-2 * phase)
        canvas[(abs(x - sx) < 14) & (abs(y - sy) < 14)] = 192 + t * 2
        canvases.append(canvas)
    return canvases


def delta_frame(before, after, transparent, **options):
    """The smallest frame that turns canvas `before` into `after` under disposal 1: the rectangle of changed pixels,
    unchanged ones in it transparent (as optimising encoders write them)."""
    changed = before != after
    assert (after[changed] >= 0).all(), "disposal 1 cannot make a pixel transparent"
    if not changed.any():
        return Frame(np.array([[transparent]], np.uint8), transparent=transparent, **options)
    rows, columns = np.flatnonzero(changed.any(1)), np.flatnonzero(changed.any(0))
    top, bottom, left, right = rows[0], rows[-1] + 1, columns[0], columns[-1] + 1
    pixels = np.where(changed[top:bottom, left:right], after[top:bottom, left:right], transparent).astype(np.uint8)
    return Frame(pixels, left=int(left), top=int(top), transparent=transparent, **options)


def bench_gif():
    canvases = bench_canvases()
    cycle = [2 * math.pi * i / 127 for i in range(127)]  # the spiral's shades, cyclic like the spiral
    palette = [MAGENTA] + [tuple(round(c * 255) for c in colorsys.hsv_to_rgb(0.6 + 0.1 * math.sin(a), 0.7,
                                                                            0.65 + 0.25 * math.cos(a)))
                           for a in cycle]
    palette += [(255, 60 + i * 3, 40 + i * 2) for i in range(64)] + hues(64, 0.4, 1.0)
    first = Frame(np.where(canvases[0] < 0, 0, canvases[0]).astype(np.uint8), transparent=0, delay_cs=4, disposal=1)
    frames = [first] + [delta_frame(before, after, 0, delay_cs=4, disposal=1)
                        for before, after in zip(canvases, canvases[1:])]
    return Gif(408, 408, frames, palette, loops=0)


def gif_animations():
    return [
        *[(f"anim-dispose{d}", sprite_animation(d),
           f"sprites at offsets with transparency, disposal {d}" + ("; background index 5 is ignored" * (d == 2)))
          for d in range(4)],
        ("anim-dispose3-first", sprite_animation(1, first_disposal=3), "disposal 3 on the first frame: the screen "
         "is restored to transparent"),
        ("anim-small-first", small_first_frame(), "first frame smaller than the screen: the rest is transparent"),
        ("anim-local-palettes", local_palette_animation(), "local tables of 4 and 64 colours between global-table "
         "frames; the last frame has no Graphic Control Extension"),
        ("anim-local-no-global", local_only_animation(), "no global table: every frame has its own"),
        ("anim-interlaced", interlaced_animation(), "interlaced frames 97, 13, 5, 2 and 1 rows high"),
        ("odd-333x301", odd_size_animation(), "333 x 301 with frames at odd offsets, one at the corner"),
        ("loop-forever", loops_animation(0), "NETSCAPE loop count 0: forever"),
        ("loop-3", loops_animation(3), "NETSCAPE loop count 3: plays 4 times"),
        ("loop-none", loops_animation(None), "no NETSCAPE extension: plays once"),
        ("delays", delays_animation(), "delays 0, 1, 2, 5 and 10 cs"),
        ("bench-408-24", bench_gif(), "benchmark: 24 frames of motion, optimised to changed rectangles, transparent "
         "outside a disk"),
    ]


def gif_refused():
    """Hostile or broken GIFs: (name, Gif or bytes, expect, claimed width and height, frames, note)."""
    width, height = SCREEN
    base = sprite_animation(1)
    head, blocks = gif_head(base), [frame_block(frame, base) for frame in base.frames]
    truncated = head + blocks[0] + blocks[1][:len(blocks[1]) // 2]  # that block is mostly LZW data
    out_of_range = bands(width, height, 4)
    out_of_range[100:140, 100:200] = 9
    outside = sprite_animation(1)
    outside.frames[2].left, outside.frames[2].top = 260, 230
    zero = sprite_animation(1)
    zero.frames[2].pixels = np.zeros((0, 0), np.uint8)
    one_pixel = np.ones((1, 1), np.uint8)
    many = [Frame(one_pixel, left=i % width, top=i // width, delay_cs=5) for i in range(101)]
    long = sprite_animation(1)
    long.frames = long.frames[:2]
    long.frames[0].delay_cs, long.frames[1].delay_cs = 600, 500
    noise = np.random.default_rng(7).integers(0, 256, (2, 500, 500), np.uint8)
    return [
        ("truncated", truncated, "corrupt_image", width, height, 2,
         "a valid animation cut halfway through its second frame's LZW data"),
        ("palette-out-of-range", still(out_of_range, PALETTE16[:4]), "corrupt_image", width, height, 1,
         "index 9 in a 4-entry table (browsers differ on what to draw; we refuse)"),
        ("frame-outside-screen", outside, "invalid_animation", width, height, 5,
         "third frame at 260,230 reaches past the 320 x 300 screen (browsers clip it; we refuse)"),
        ("lzw-min-code-12", Gif(width, height, [Frame(bands(32, 32, 4), lzw="literal", min_code_size=12)],
                                PALETTE16[:4]),
         "corrupt_image", width, height, 1, "LZW minimum code size 12 (at most 8 is valid)"),
        ("frame-0x0", zero, "corrupt_image", width, height, 5, "third image descriptor is 0 x 0"),
        ("no-colour-table", still(bands(width, height, 4), None), "corrupt_image", width, height, 1,
         "neither a global nor a local colour table"),
        ("screen-65535", Gif(65535, 65535, [Frame(one_pixel)], PALETTE16[:2]), "dimensions_out_of_range",
         65535, 65535, 1, "logical screen 65535 x 65535 in a tiny file"),
        ("side-700", still(bands(700, 700, 2), PALETTE16[1:3]), "dimensions_out_of_range", 700, 700, 1,
         "a valid 700 x 700 GIF"),
        ("frames-101", Gif(width, height, many, PALETTE16, loops=0), "too_many_frames", width, height, 101,
         "101 frames of 1 x 1, 50 ms each"),
        ("too-long", long, "animation_too_long", width, height, 2, "two frames of 6000 + 5000 ms"),
        ("frame-bomb", Gif(width, height, [Frame(one_pixel, gce=False)] * 30_000, PALETTE16, loops=0),
         "too_many_frames", width, height, 30_000, "30000 1 x 1 frames in under 500 KB: 11 GB of composited "
         "canvases (and 3000 s of play)"),
        ("too-large", Gif(500, 500, [Frame(plane, lzw="literal", delay_cs=10) for plane in noise], hues(256), loops=0),
         "too_large", 500, 500, 2, "two frames of noise: a valid GIF over 500 KB"),
    ]


# ----------------------------------------------------------------------------------------------------------- JPEG

def jpeg_picture(width=320, height=300):
    """Gradients and flat shapes (JPEG keeps them stable), asymmetric so any wrong turn or flip shows."""
    x, y = grid(width, height)
    channels = (x * 255 // (width - 1), y * 255 // (height - 1), 255 - (x + y) * 255 // (width + height - 2))
    picture = Image.fromarray(np.stack(channels, -1).astype(np.uint8))
    draw = ImageDraw.Draw(picture)
    draw.ellipse((30, 25, 130, 125), fill=(230, 40, 40))
    draw.polygon([(200, 40), (300, 60), (230, 140)], fill=(30, 60, 220))
    draw.rectangle((40, 190, 150, 270), fill=(40, 200, 80))
    draw.rectangle((200, 200, 300, 216), fill=(250, 220, 30))
    draw.rectangle((200, 200, 216, 285), fill=(250, 220, 30))
    return picture


def cmyk_picture(picture):
    """The picture in CMYK with real black (Pillow's own RGB->CMYK leaves K at 0)."""
    rgb = np.asarray(picture, np.float64) / 255
    black = 1 - rgb.max(-1)
    ink = (1 - rgb - black[..., None]) / np.maximum(1 - black[..., None], 1e-9)
    return Image.fromarray(np.round(np.dstack([ink, black]) * 255).astype(np.uint8), "CMYK")


def s15_16(*values):
    return b"".join(struct.pack(">i", round(v * 65536)) for v in values)


def xyz(x, y):
    return np.array([x / y, 1.0, (1 - x - y) / y])


def bradford(source, target):
    """The chromatic adaptation from white `source` to white `target` (XYZ), as ICC profiles adapt to D50."""
    cone = np.array([[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]])
    return np.linalg.inv(cone) @ np.diag((cone @ target) / (cone @ source)) @ cone


def rgb_to_xyz(primaries, white):
    """The matrix whose columns are the XYZ of the red, green and blue primaries, scaled so they add up to white."""
    columns = np.column_stack([xyz(*p) for p in primaries])
    return columns * np.linalg.solve(columns, white)


D50 = np.array([0.9642, 1.0, 0.8249])
P3_PRIMARIES, D65 = ((0.680, 0.320), (0.265, 0.690), (0.150, 0.060)), xyz(0.3127, 0.3290)


def icc_tag(kind, body):
    return kind + b"\0\0\0\0" + body


def display_p3_profile():
    """A minimal ICC v2 display profile of Display P3: primaries adapted to D50 (Bradford), the sRGB curve as a
    'para' type 3 curve. wtpt holds D65, as v2 display profiles do (Little CMS reads v2 display white as D50)."""
    colorants = bradford(D65, D50) @ rgb_to_xyz(P3_PRIMARIES, D65)
    name = b"Display P3 (corpus)"
    curve = icc_tag(b"para", struct.pack(">HH", 3, 0) + s15_16(2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045))
    tags = [(b"desc", icc_tag(b"desc", struct.pack(">I", len(name) + 1) + name + b"\0" + bytes(8 + 2 + 1 + 67))),
            (b"cprt", icc_tag(b"text", b"No copyright: test data\0")),
            (b"wtpt", icc_tag(b"XYZ ", s15_16(*D65))),
            *[(tag, icc_tag(b"XYZ ", s15_16(*colorants[:, i]))) for i, tag in enumerate((b"rXYZ", b"gXYZ", b"bXYZ"))],
            (b"rTRC", curve), (b"gTRC", curve), (b"bTRC", curve)]
    table, data, offset = struct.pack(">I", len(tags)), b"", 128 + 4 + 12 * len(tags)
    for tag, body in tags:
        table += struct.pack(">4sII", tag, offset + len(data), len(body))
        data += body + bytes(-len(body) % 4)
    size = offset + len(data)
    header = struct.pack(">I4sI4s4s4s6H4s4sI4s4s8sI", size, b"", 0x02100000, b"mntr", b"RGB ", b"XYZ ",
                         2024, 1, 1, 0, 0, 0, b"acsp", b"", 0, b"", b"", b"", 0) + s15_16(*D50)
    return header + bytes(128 - len(header)) + table + data


def check_p3(profile, picture):
    """Little CMS's P3->sRGB of `picture` against the plain maths, to prove the hand-made profile right; the
    largest difference (both clip, Little CMS in 16-bit steps)."""
    srgb_from_p3 = np.linalg.inv(rgb_to_xyz(((0.64, 0.33), (0.30, 0.60), (0.15, 0.06)), D65)) @ \
        rgb_to_xyz(P3_PRIMARIES, D65)
    encoded = np.asarray(picture, np.float64) / 255
    linear = np.where(encoded <= 0.04045, encoded / 12.92, ((encoded + 0.055) / 1.055) ** 2.4)
    converted = np.clip(linear @ srgb_from_p3.T, 0, 1)
    expected = np.where(converted <= 0.0031308, converted * 12.92, 1.055 * converted ** (1 / 2.4) - 0.055) * 255
    lcms = ImageCms.profileToProfile(picture, profile, ImageCms.createProfile("sRGB"),
                                     renderingIntent=ImageCms.Intent.PERCEPTUAL, outputMode="RGB")
    return float(np.abs(np.asarray(lcms, np.float64) - expected).max())


# EXIF orientation k: the transpose that turns the stored picture upright, and its inverse, which stores it.
UPRIGHT = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
           5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
           8: Image.Transpose.ROTATE_90}
STORE = {**UPRIGHT, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}


def jpeg_bytes(picture, **options):
    """The picture as Pillow writes a JPEG, at quality 90 unless `options` say otherwise."""
    out = io.BytesIO()
    picture.save(out, "JPEG", **{"quality": 90, **options})
    return out.getvalue()


def oriented(picture, orientation):
    """The picture stored so that EXIF `orientation` turns it upright again."""
    exif = Image.Exif()
    exif[0x0112] = orientation
    stored = picture.transpose(STORE[orientation]) if orientation in STORE else picture
    return jpeg_bytes(stored, exif=exif.tobytes())


def jpeg_reference(data, profile=None):
    """Pillow's decoding, upright, in sRGB when the file has a profile: (1, height, width, 4) RGBA."""
    picture = ImageOps.exif_transpose(Image.open(io.BytesIO(data)))
    if profile is not None:
        picture = ImageCms.profileToProfile(picture, profile, ImageCms.createProfile("sRGB"),
                                            renderingIntent=ImageCms.Intent.PERCEPTUAL, outputMode="RGB")
    return np.asarray(picture.convert("RGBA"))[None]


def jpeg_segments(data):
    """(marker, start, end) of each marker segment up to and including the first SOS."""
    position = 2
    while position < len(data):
        marker, length = data[position + 1], struct.unpack(">H", data[position + 2:position + 4])[0]
        yield marker, position, position + 2 + length
        if marker == 0xDA:
            return
        position += 2 + length


def jpeg_cases(profile):
    """(name, bytes, note, profile to convert with or None)."""
    picture = jpeg_picture()
    cases = [
        ("jpeg-baseline-420", jpeg_bytes(picture, subsampling=2), "baseline, 4:2:0", None),
        ("jpeg-baseline-444", jpeg_bytes(picture, subsampling=0), "baseline, 4:4:4", None),
        ("jpeg-progressive", jpeg_bytes(picture, progressive=True), "progressive, 4:2:0", None),
        ("jpeg-gray", jpeg_bytes(picture.convert("L")), "grayscale", None),
        ("jpeg-cmyk", jpeg_bytes(cmyk_picture(picture)), "CMYK, Adobe-inverted as Pillow and Photoshop write it; "
         "reference is Pillow's conversion, R = round((255 - C)(255 - K) / 255)", None),
        ("jpeg-p3", jpeg_bytes(picture, icc_profile=profile.tobytes()), "Display P3 ICC profile (hand-made v2); "
         "reference converted to sRGB by Little CMS, perceptual (Little CMS 2.14 and 2.19 differ by 1)", profile),
    ]
    cases += [(f"jpeg-orientation-{k}", oriented(picture, k), f"EXIF orientation {k}: upright it is the picture "
               "of jpeg-baseline-420", None) for k in range(1, 9)]
    return cases


def jpeg_refused():
    """(name, bytes, expect, claimed width, claimed height, note)."""
    picture = jpeg_picture()
    baseline = jpeg_bytes(picture)
    tiny = bytearray(jpeg_bytes(picture.resize((16, 16))))
    frame = next(start for marker, start, _ in jpeg_segments(tiny) if marker == 0xC0)
    tiny[frame + 5:frame + 9] = struct.pack(">HH", 65000, 65000)
    scan = next(end for marker, _, end in jpeg_segments(baseline) if marker == 0xDA)
    app0 = next(end for marker, _, end in jpeg_segments(baseline) if marker == 0xE0)
    # No 0xFF among the random bytes: no marker can be read from them, so nothing claims a size.
    garbage = np.random.default_rng(11).integers(0, 255, 3000, np.uint8).tobytes()
    noise = Image.fromarray(np.random.default_rng(13).integers(0, 256, (600, 600, 3), np.uint8))
    return [
        ("jpeg-sof-65000", bytes(tiny), "dimensions_out_of_range", 65000, 65000,
         "SOF claims 65000 x 65000 in a tiny file (the scan is of 16 x 16)"),
        ("jpeg-700", jpeg_bytes(picture.resize((700, 700), Image.Resampling.BICUBIC)), "dimensions_out_of_range",
         700, 700, "a valid 700 x 700 JPEG"),
        ("jpeg-truncated", baseline[:(scan + len(baseline)) // 2], "corrupt_image", 320, 300,
         "cut halfway through the scan (libjpeg-turbo only warns: Premature end of JPEG file)"),
        ("jpeg-garbage", baseline[:app0] + garbage, "corrupt_image", 0, 0, "random bytes after SOI and APP0"),
        ("jpeg-too-large", jpeg_bytes(noise, subsampling=0, quality=100), "too_large", 600, 600,
         "a valid 600 x 600 JPEG of noise, over 500 KB"),
    ]


# ------------------------------------------------------------------------------------------------------- Output

@dataclass
class Row:
    """One line of manifest.tsv."""
    name: str
    file: str
    kind: str
    expect: str
    width: int
    height: int
    frames: int
    loops: int
    delays_ms: str
    tolerance: int
    note: str


COLUMNS = [field.name for field in fields(Row)]


def shown_ms(delay_cs):
    """How long browsers show a frame: delays under 20 ms are taken as 100 ms."""
    return 100 if delay_cs < 2 else delay_cs * 10


def total_plays(gif):
    """Plays as APNG counts them (0 forever); browsers play a NETSCAPE count of n > 0 once and then n more times."""
    if len(gif.frames) == 1:
        return 0
    return 1 if gif.loops is None else 0 if gif.loops == 0 else gif.loops + 1


def check_rules(name, data, width, height, frames, play_ms):
    """An accepted file must pass the sticker rules, or its case tests something else."""
    assert width in SIDES and height in SIDES, f"{name}: {width} x {height}"
    assert len(data) <= MAX_BYTES and frames <= MAX_FRAMES and play_ms <= MAX_PLAY_MS, f"{name} breaks the rules"


def write_gif(out, name, gif, note):
    data = encode_gif(gif)
    delays = [shown_ms(frame.delay_cs) for frame in gif.frames]
    animated = len(gif.frames) > 1
    check_rules(name, data, gif.width, gif.height, len(gif.frames), sum(delays) if animated else 0)
    (out / f"{name}.gif").write_bytes(data)
    ours = composite(gif)
    differs = disagreement(ours, imagemagick_frames(out / f"{name}.gif", len(gif.frames), gif.width, gif.height))
    if differs:
        assert name in IM_DIFFERS, f"{name}: ImageMagick and the browser model disagree: {differs}"
        print(f"note: {name}: ImageMagick differs ({IM_DIFFERS[name]}): {differs}", file=sys.stderr)
        note += f"; ImageMagick differs ({IM_DIFFERS[name]}), reference is the browser model"
    (out / f"{name}.rgba").write_bytes(ours.tobytes())
    return Row(name, f"{name}.gif", "gif", "ok", gif.width, gif.height, len(gif.frames), total_plays(gif),
               ",".join(map(str, delays)) if animated else "-", 0, note)


def write_jpeg(out, name, data, note, profile):
    reference = jpeg_reference(data, profile)
    _, height, width, _ = reference.shape
    check_rules(name, data, width, height, 1, 0)
    (out / f"{name}.jpg").write_bytes(data)
    (out / f"{name}.rgba").write_bytes(reference.tobytes())
    return Row(name, f"{name}.jpg", "jpeg", "ok", width, height, 1, 0, "-", 1, note)


def write_refused(out, name, kind, data, expect, width, height, frames, loops, note):
    file = f"{name}.{'gif' if kind == 'gif' else 'jpg'}"
    (out / file).write_bytes(data)
    return Row(name, file, kind, expect, width, height, frames, loops, "-", 0 if kind == "gif" else 1, note)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if not shutil.which("convert"):
        sys.exit("ImageMagick's convert is needed to check the GIF references")
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    rows = [write_gif(out, name, gif, note) for name, gif, note in gif_stills() + gif_animations()]
    for name, gif, expect, width, height, frames, note in gif_refused():
        data = gif if isinstance(gif, bytes) else encode_gif(gif)
        loops = total_plays(gif) if isinstance(gif, Gif) else 0
        rows.append(write_refused(out, name, "gif", data, expect, width, height, frames, loops, note))
    profile = ImageCms.ImageCmsProfile(io.BytesIO(display_p3_profile()))
    error = check_p3(profile, jpeg_picture())
    # Little CMS works in 16-bit fixed point with 8-bit shortcuts: within a step or so of exact maths.
    assert error <= 1.5, f"the Display P3 profile converts {error:.2f} away from the plain maths"
    rows += [write_jpeg(out, name, data, note, p) for name, data, note, p in jpeg_cases(profile)]
    rows += [write_refused(out, name, "jpeg", data, expect, width, height, 1, 0, note)
             for name, data, expect, width, height, note in jpeg_refused()]
    lines = ["\t".join(COLUMNS)] + ["\t".join(str(getattr(row, c)) for c in COLUMNS) for row in rows]
    (out / "manifest.tsv").write_text("\n".join(lines) + "\n")
    return out, rows


def print_summary(out, rows, seconds):
    print(f"{'name':24} {'kind':4} {'expect':23} {'width x height':>15} {'frames':>6} {'bytes':>8}")
    for row in rows:
        size = f"{row.width} x {row.height}"
        print(f"{row.name:24} {row.kind:4} {row.expect:23} {size:>15} {row.frames:>6} "
              f"{(out / row.file).stat().st_size:>8}")
    print(f"{len(rows)} files in {seconds:.1f} s")


if __name__ == "__main__":
    started = time.monotonic()
    print_summary(*main(), time.monotonic() - started)
