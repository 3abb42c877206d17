#!/usr/bin/env python3
"""Converts the guest's binary PPM screenshot (P6, maxval 255) to a PNG with only the standard
library (zlib + struct). Usage: ppm2png.py IN.ppm OUT.png. Exits 1 with a reason on bad input."""
import struct
import sys
import zlib


def read_ppm(data):
    fields, pos = [], 0
    while len(fields) < 4:
        while pos < len(data) and data[pos : pos + 1].isspace():
            pos += 1
        if data[pos : pos + 1] == b"#":
            while pos < len(data) and data[pos : pos + 1] != b"\n":
                pos += 1
            continue
        start = pos
        while pos < len(data) and not data[pos : pos + 1].isspace():
            pos += 1
        if start == pos:
            raise ValueError("truncated PPM header")
        fields.append(data[start:pos])
    pos += 1  # the single whitespace byte after maxval
    if fields[0] != b"P6":
        raise ValueError("not a binary PPM (P6): %r" % fields[0])
    width, height, maxval = (int(f) for f in fields[1:])
    if maxval != 255:
        raise ValueError("maxval %d, want 255" % maxval)
    pixels = data[pos : pos + width * height * 3]
    if len(pixels) != width * height * 3:
        raise ValueError(
            "%dx%d needs %d pixel bytes, the file has %d"
            % (width, height, width * height * 3, len(pixels))
        )
    return width, height, pixels


def chunk(kind, body):
    return (
        struct.pack(">I", len(body))
        + kind
        + body
        + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    )


def write_png(path, width, height, rgb):
    stride = width * 3
    raw = b"".join(b"\x00" + rgb[y * stride : (y + 1) * stride] for y in range(height))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 6)))
        f.write(chunk(b"IEND", b""))


def main():
    if len(sys.argv) != 3:
        print("usage: ppm2png.py IN.ppm OUT.png", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], "rb") as f:
            width, height, rgb = read_ppm(f.read())
        write_png(sys.argv[2], width, height, rgb)
    except (OSError, ValueError) as e:
        print("ppm2png: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
