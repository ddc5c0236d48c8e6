# SPDX-License-Identifier: MIT
# A PNG reader for the tests, with python3's zlib only (no PIL): the
# signature, IHDR (size, 8-bit RGB/RGBA), IDAT inflated and unfiltered
# (PNG spec, section 9: None, Sub, Up, Average, Paeth), as rows of pixel
# tuples. Enough for cairo's output; refuses what it does not read.
import struct
import zlib

SIG = b"\x89PNG\r\n\x1a\n"


def read(path):
    data = open(path, "rb").read()
    if data[:8] != SIG:
        raise ValueError("%s: not a PNG signature" % path)
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        crc = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0]
        if zlib.crc32(kind + body) & 0xffffffff != crc:
            raise ValueError("%s: bad CRC in %r" % (path, kind))
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError("%s: depth %d type %d interlace %d not read" %
                         (path, depth, ctype, interlace))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((u + v) & 255 for u, v in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + (a + prev[i]) // 2) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        elif f != 0:
            raise ValueError("%s: filter %d in row %d" % (path, f, y))
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def pixels(img, step=1):
    """The RGB of every step-th pixel of every step-th row."""
    w, h, bpp, rows = img
    for row in rows[::step]:
        for x in range(0, w, step):
            yield bytes(row[x * bpp:x * bpp + 3])


def ink(img, step=1, level=200):
    """Sampled pixels darker than level in some channel."""
    return sum(1 for p in pixels(img, step) if min(p) < level)
