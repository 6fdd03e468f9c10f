"""Sticker images made on the spot, so the browser tests need no fixture files: RGBA PNGs with a disc on clear."""
import struct
import zlib


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def disc_png(width: int, height: int, colour: tuple[int, int, int]) -> bytes:
    """A width x height RGBA PNG: an opaque disc of `colour` on a transparent background."""
    cx, cy, r2 = width / 2, height / 2, (min(width, height) / 2 - 4) ** 2
    pixel, clear = bytes(colour) + b"\xff", b"\x00\x00\x00\x00"
    rows = []
    for y in range(height):
        row = bytearray(b"\x00")  # filter: none
        for x in range(width):
            row += pixel if (x - cx) ** 2 + (y - cy) ** 2 <= r2 else clear
        rows.append(bytes(row))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + _chunk(b"IEND", b"")
