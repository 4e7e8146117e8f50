"""Read the pixels of a PNG screenshot with the standard library (8-bit RGB/RGBA, not interlaced),
so a test can tell a page that rendered from a blank one."""

from __future__ import annotations

import struct
import zlib
from collections import Counter
from pathlib import Path


def pixels(path: Path) -> tuple[int, int, Counter[tuple[int, int, int]]]:
    """(width, height, how many pixels of each RGB colour)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    counts: Counter[tuple[int, int, int]] = Counter()
    for y in range(height):
        start = y * (stride + 1)
        kind, row = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = row[i - bpp] if i >= bpp else 0
            up, corner = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                row[i] = (row[i] + left) & 0xFF
            elif kind == 2:
                row[i] = (row[i] + up) & 0xFF
            elif kind == 3:
                row[i] = (row[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                row[i] = (row[i] + pred) & 0xFF
        counts.update(zip(row[0::bpp], row[1::bpp], row[2::bpp]))
        prev = row
    return width, height, counts


def near(counts: Counter[tuple[int, int, int]], rgb: str, tolerance: int = 4) -> int:
    """Pixels within *tolerance* of the colour ``#rrggbb`` on every channel."""
    want = tuple(int(rgb[i:i + 2], 16) for i in (1, 3, 5))
    return sum(n for c, n in counts.items() if all(abs(a - b) <= tolerance for a, b in zip(c, want)))
