"""Writes the review's amplifying APNG: SIDE x SIDE palette image whose FRAMES - 1 later frames each change one pixel.
Usage: python3 scripts/bench/amplifying-apng.py OUT [SIDE] [FRAMES] [VARIANT]   (VARIANT changes one colour)."""
import struct, sys, zlib

out, side, frames, variant = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 618, \
    int(sys.argv[3]) if len(sys.argv) > 3 else 100, int(sys.argv[4]) if len(sys.argv) > 4 else 0
def chunk(kind, data):
    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
def control(sequence, width, height, x, y):
    return struct.pack('>IIIII', sequence, width, height, x, y) + bytes([0, 1, 0, 100, 0, 0])
raw = bytearray()
for y in range(side):
    raw.append(0)
    raw.extend((x // 40 + y // 40) % 16 for x in range(side))
palette = bytearray()
for i in range(16):
    palette += bytes([i * 16, 255 - i * 16, (i * 8 + variant) % 256])
data = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', side, side, 8, 3, 0, 0, 0)) + chunk(b'PLTE', bytes(palette))
data += chunk(b'acTL', struct.pack('>II', frames, 0)) + chunk(b'fcTL', control(0, side, side, 0, 0))
data += chunk(b'IDAT', zlib.compress(bytes(raw), 9))
for frame in range(1, frames):
    data += chunk(b'fcTL', control(2 * frame - 1, 1, 1, frame * 6 % side, frame * 5 % side))
    data += chunk(b'fdAT', struct.pack('>I', 2 * frame) + zlib.compress(bytes([0, frame % 16])))
open(out, 'wb').write(data + chunk(b'IEND', b''))
