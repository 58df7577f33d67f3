#!/usr/bin/env python3
# png-colours.py PNG RRGGBB...: how many pixels of the screenshot are
# each colour (within 24 of each channel), a line each, "RRGGBB N".
# A PNG reader of its own (8-bit RGB or RGBA, not interlaced), as the
# test machine has no imaging library.
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("%s: not a PNG" % path)
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6) or inter:
        sys.exit("%s: depth %d colour type %d: not read" % (path, depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    prev, out, i = bytearray(stride), [], 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pr) & 255
        out.append(bytes(line))
        prev = line
    return out, bpp


def main():
    rows, bpp = pixels(sys.argv[1])
    want = [(h, tuple(int(h[k:k + 2], 16) for k in (0, 2, 4)))
            for h in sys.argv[2:]]
    count = {h: 0 for h, _ in want}
    for line in rows:
        for x in range(0, len(line), bpp):
            px = line[x:x + 3]
            for h, rgb in want:
                if all(abs(px[k] - rgb[k]) <= 24 for k in range(3)):
                    count[h] += 1
    for h, _ in want:
        print(h, count[h])


main()
