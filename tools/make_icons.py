"""Draw the app icons (PNG) with the standard library only: a playing card with a spade.

    python tools/make_icons.py          # writes web/icons/*.png

The shapes are described as "is this point inside?" tests in a 0..1 unit square and
rendered with 4x4 supersampling for smooth edges; the PNG writer is zlib + struct. The
maskable icon keeps the card inside the central 80 % safe zone on a full-bleed green, the
"any" icons put the card on a rounded green tile. The output is deterministic, so running
the script again changes nothing unless the drawing changes.
"""

from __future__ import annotations

import struct
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "web" / "icons"

GREEN = (11, 93, 59)
CARD = (250, 247, 238)
INK = (24, 28, 32)
EDGE = (200, 194, 178)

Shape = Callable[[float, float], bool]


def rounded_rect(x0: float, y0: float, x1: float, y1: float, r: float) -> Shape:
    def inside(x: float, y: float) -> bool:
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return False
        cx = min(max(x, x0 + r), x1 - r)
        cy = min(max(y, y0 + r), y1 - r)
        return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
    return inside


def spade(cx: float, cy: float, size: float) -> Shape:
    """A spade centred on (cx, cy), `size` wide: an upside-down heart plus a flared stem."""
    def inside(x: float, y: float) -> bool:
        u = (x - cx) / (size / 2)          # -1..1 across
        v = (cy - y) / (size / 2)          # up is positive
        # Two round lobes at the bottom ...
        for lobe in (-0.46, 0.46):
            if (u - lobe) ** 2 + (v + 0.18) ** 2 <= 0.5 ** 2:
                return True
        # ... a body that narrows to the point at the top, with concave flanks ...
        if -0.18 <= v <= 1.0:
            half = 0.96 * (1.0 - v) ** 1.35 if v > 0 else 0.96
            if abs(u) <= half:
                return True
        # ... and a stem widening downwards under the lobes.
        if -1.0 <= v <= -0.3:
            half = 0.07 + max(0.0, -0.45 - v) * 0.6
            return abs(u) <= half
        return False
    return inside


def render(size: int, layers: list[tuple[Shape, tuple[int, int, int]]],
           background: tuple[int, int, int, int] | None) -> bytes:
    """RGBA rows (with PNG filter bytes) for `layers` drawn in order over `background`."""
    ss = 4
    rows = bytearray()
    for py in range(size):
        rows.append(0)  # filter: none
        for px in range(size):
            acc = [0.0, 0.0, 0.0, 0.0]
            for sy in range(ss):
                for sx in range(ss):
                    x = (px + (sx + 0.5) / ss) / size
                    y = (py + (sy + 0.5) / ss) / size
                    colour = background
                    for shape, rgb in layers:
                        if shape(x, y):
                            colour = (*rgb, 255)
                    if colour is not None:
                        a = colour[3] / 255
                        acc[0] += colour[0] * a
                        acc[1] += colour[1] * a
                        acc[2] += colour[2] * a
                        acc[3] += a
            n = ss * ss
            alpha = acc[3] / n
            if alpha > 0:
                rgb = [round(c / acc[3]) for c in acc[:3]]
            else:
                rgb = [0, 0, 0]
            rows.extend((*rgb, round(alpha * 255)))
    return bytes(rows)


def png(size: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def card_layers(scale: float) -> list[tuple[Shape, tuple[int, int, int]]]:
    """The card and its spade, fitted into the central `scale` part of the square."""
    def s(v: float) -> float:
        return 0.5 + (v - 0.5) * scale
    w, h = 0.58, 0.78
    x0, y0 = 0.5 - w / 2, 0.5 - h / 2
    border = 0.012
    return [
        (rounded_rect(s(x0), s(y0), s(x0 + w), s(y0 + h), 0.07 * scale), EDGE),
        (rounded_rect(s(x0 + border), s(y0 + border), s(x0 + w - border), s(y0 + h - border),
                      (0.07 - border) * scale), CARD),
        (spade(0.5, 0.5, 0.36 * scale), INK),
    ]


ICONS: dict[str, tuple[int, str]] = {
    # file name: (pixels, kind)
    "icon-192.png": (192, "any"),
    "icon-512.png": (512, "any"),
    "maskable-512.png": (512, "maskable"),
    "apple-touch-icon.png": (180, "apple"),
}


def draw(size: int, kind: str) -> bytes:
    if kind == "maskable":
        # Full bleed; everything important inside the 80 % safe circle.
        return png(size, render(size, card_layers(0.74), (*GREEN, 255)))
    if kind == "apple":
        # iOS rounds the corners itself and shows transparency as black: fill the square.
        return png(size, render(size, card_layers(0.86), (*GREEN, 255)))
    tile = rounded_rect(0.0, 0.0, 1.0, 1.0, 0.18)
    return png(size, render(size, [(tile, GREEN), *card_layers(0.86)], None))


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (size, kind) in ICONS.items():
        data = draw(size, kind)
        (OUT / name).write_bytes(data)
        print(f"{OUT.relative_to(ROOT) / name}: {size}x{size}, {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
