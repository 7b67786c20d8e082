"""The four suit shapes of the cards, as CSS polygons (web/table/table.css).

    python tools/suit_shapes.py [--write | --check]

The suits are drawn as outlines in a 24 x 24 box (the SVG paths below, the one place
they are written). The page draws a suit as a box of its colour cut to the shape with
`clip-path: polygon(...)` in percentages of the box, so it scales with the card (the
rules that say which elements a suit cuts are made here too: USED_BY). A clip
path is drawn as geometry in the card's own paint; a CSS mask made of an SVG image, which
the cards used before, makes the browser lay out and paint a small SVG document for every
suit on every card it repaints, and a finish repaints 52 cards at once.

The curves are flattened to within TOLERANCE of the box (0.02 of 24: under a tenth of a
CSS pixel on the largest centre pip). A shape made of several pieces (the club's three
leaves and its stem) is one polygon: each piece is traced in the same turning direction
and reached from a point inside the shape along a line inside it and back, so the
non-zero fill rule fills their union and the way in and out covers nothing.

--write puts the polygons between the markers in table.css; --check (the tests run it)
fails when the CSS differs from what this file makes.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from pathlib import Path

CSS = Path(__file__).resolve().parent.parent / "web" / "table" / "table.css"
BEGIN = "/* suit shapes: made by tools/suit_shapes.py, do not edit */"
END = "/* end of suit shapes */"
BOX = 24.0
TOLERANCE = 0.02

Point = tuple[float, float]

# Each suit: its pieces (SVG path data, or a circle as (cx, cy, r)), and for a suit of
# several pieces the point inside from which each piece is reached, with the point of the
# piece's outline to reach it at (the line between lies inside the shape).
SUITS: dict[str, dict] = {
    "S": {"pieces": ["M12 1.5C9 5.2 2.6 9.3 2.6 14.1c0 2.7 2.1 4.7 4.6 4.7 1.7 0 3.1-.8 "
                     "3.9-2-.2 2.2-1 3.9-2.8 5.7h7.4c-1.8-1.8-2.6-3.5-2.8-5.7.8 1.2 2.2 2 "
                     "3.9 2 2.5 0 4.6-2 4.6-4.7C21.4 9.3 15 5.2 12 1.5z"]},
    "H": {"pieces": ["M12 22C9.5 19.4 2 14.2 2 8.3 2 5.2 4.4 2.8 7.3 2.8c2 0 3.7 1.1 4.7 "
                     "2.8 1-1.7 2.7-2.8 4.7-2.8 2.9 0 5.3 2.4 5.3 5.5 0 5.9-7.5 11.1-10 "
                     "13.7z"]},
    "D": {"pieces": ["M12 1 20.5 12 12 23 3.5 12z"]},
    "C": {"pieces": [(12, 6.6, 4.9), (6.4, 13.9, 4.9), (17.6, 13.9, 4.9),
                     "M10.4 9.5h3.2l.6 7.1c.4 2.4 1.4 4.2 3.2 5.9H6.6c1.8-1.7 2.8-3.5 "
                     "3.2-5.9z"],
          # Inside the stem; each leaf is reached at its point nearest the stem's middle.
          "hub": (12, 12.5), "entries": [(12, 11.5), (11.3, 13.9), (12.7, 13.9),
                                         (10.4, 9.5)]},
}

TOKEN = re.compile(r"[MmCcLlHhVvZz]|-?(?:\d+\.?\d*|\.\d+)")


def _cubic(p0: Point, p1: Point, p2: Point, p3: Point, out: list[Point]) -> None:
    """Append the cubic Bezier's points after p0, halved until flat within TOLERANCE."""
    def dist(p: Point) -> float:
        (x0, y0), (x3, y3) = p0, p3
        length = math.hypot(x3 - x0, y3 - y0)
        if length < 1e-9:
            return math.hypot(p[0] - x0, p[1] - y0)
        return abs((x3 - x0) * (y0 - p[1]) - (x0 - p[0]) * (y3 - y0)) / length

    if max(dist(p1), dist(p2)) <= TOLERANCE:
        out.append(p3)
        return
    mid = lambda a, b: ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)  # noqa: E731
    a, b, c = mid(p0, p1), mid(p1, p2), mid(p2, p3)
    d, e = mid(a, b), mid(b, c)
    f = mid(d, e)
    _cubic(p0, a, d, f, out)
    _cubic(f, e, c, p3, out)


def path_points(data: str) -> list[Point]:
    """One closed SVG path (the commands the suits use) as the points of its outline."""
    tokens = TOKEN.findall(data)
    points: list[Point] = []
    x = y = 0.0
    command = ""
    i = 0

    def nums(n: int) -> list[float]:
        nonlocal i
        values = [float(t) for t in tokens[i:i + n]]
        i += n
        return values

    while i < len(tokens):
        if tokens[i].isalpha():
            command = tokens[i]
            i += 1
            if command in "Zz":
                continue
        rel = command.islower()
        kind = command.upper()
        if kind == "M":
            dx, dy = nums(2)
            x, y = (x + dx, y + dy) if rel else (dx, dy)
            points.append((x, y))
            command = "l" if rel else "L"  # pairs after a moveto are linetos
        elif kind == "L":
            dx, dy = nums(2)
            x, y = (x + dx, y + dy) if rel else (dx, dy)
            points.append((x, y))
        elif kind == "H":
            (v,) = nums(1)
            x = x + v if rel else v
            points.append((x, y))
        elif kind == "V":
            (v,) = nums(1)
            y = y + v if rel else v
            points.append((x, y))
        elif kind == "C":
            c = nums(6)
            if rel:
                c = [c[k] + (x if k % 2 == 0 else y) for k in range(6)]
            _cubic((x, y), (c[0], c[1]), (c[2], c[3]), (c[4], c[5]), points)
            x, y = c[4], c[5]
        else:
            raise ValueError(f"path command {command!r} is not handled")
    if len(points) > 1 and math.dist(points[0], points[-1]) < 1e-9:
        points.pop()
    return points


def circle_points(cx: float, cy: float, r: float) -> list[Point]:
    """A circle as a polygon whose sides stray from it by at most TOLERANCE."""
    n = math.ceil(math.pi / math.acos(1 - TOLERANCE / r))
    return [(cx + r * math.cos(2 * math.pi * k / n), cy + r * math.sin(2 * math.pi * k / n))
            for k in range(n)]


def area(points: list[Point]) -> float:
    """Twice the signed area (positive: clockwise on screen, where y grows downwards)."""
    pairs = zip(points, points[1:] + points[:1], strict=True)
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in pairs)


def outline(suit: dict) -> list[Point]:
    """The suit as one polygon: its pieces clockwise, joined through its hub."""
    rings = []
    for piece in suit["pieces"]:
        ring = circle_points(*piece) if isinstance(piece, tuple) else path_points(piece)
        rings.append(ring if area(ring) > 0 else ring[::-1])
    if len(rings) == 1:
        return rings[0]
    points: list[Point] = []
    for ring, entry in zip(rings, suit["entries"], strict=True):
        start = min(range(len(ring)), key=lambda k: math.dist(ring[k], entry))
        ring = ring[start:] + ring[:start]
        points += [suit["hub"], *ring, ring[0]]
    return points


def _pc(value: float) -> str:
    text = f"{100 * value / BOX:.2f}".rstrip("0").rstrip(".")
    return f"{text}%" if text not in ("0", "-0") else "0"


def polygon(points: list[Point]) -> str:
    return "polygon(" + ",".join(f"{_pc(x)} {_pc(y)}" for x, y in points) + ")"


# What each suit's polygon cuts: a face-up card's pips (its index's and its centre's) and
# the empty foundation of the suit (its faint outline). The polygon is written in the rule
# itself, not in a custom property that the rule reads: the browser parses a rule's value
# once, but a var() again for every element it styles (every pip of every card that
# joins a pile: most of a dealt card's style work).
USED_BY = {
    "S": ('.card[data-suit="S"] :is(.ix i, .pip-c)', '[data-pile="f0"]::before'),
    "H": ('.card[data-suit="H"] :is(.ix i, .pip-c)', '[data-pile="f1"]::before'),
    "D": ('.card[data-suit="D"] :is(.ix i, .pip-c)', '[data-pile="f2"]::before'),
    "C": ('.card[data-suit="C"] :is(.ix i, .pip-c)', '[data-pile="f3"]::before'),
}


def block() -> str:
    """The CSS between the markers: a rule per suit."""
    lines = [BEGIN]
    for name, suit in SUITS.items():
        lines.append(f"{', '.join(USED_BY[name])} {{")
        lines.append(f"  clip-path: {polygon(outline(suit))};")
        lines.append("}")
    lines.append(END)
    return "\n".join(lines)


def main_check() -> int:
    """0 when table.css holds the shapes this file makes (what --check says)."""
    return _run(write=False, check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="write them into table.css")
    group.add_argument("--check", action="store_true", help="fail if table.css differs")
    args = parser.parse_args()
    return _run(write=args.write, check=args.check)


def _run(*, write: bool, check: bool) -> int:
    if not (write or check):
        print(block())
        return 0
    text = CSS.read_text(encoding="utf-8")
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        print(f"{CSS}: the markers {BEGIN!r} and {END!r} are missing", file=sys.stderr)
        return 1
    new = text[:start] + block() + text[end + len(END):]
    if write:
        CSS.write_text(new, encoding="utf-8")
    elif check:
        if new != text:
            print(f"{CSS}: the suit shapes differ from tools/suit_shapes.py (run it with "
                  "--write)", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
