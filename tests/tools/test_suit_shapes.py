"""The suit shapes (tools/suit_shapes.py): the CSS holds what the tool makes, and each
polygon covers its suit as the SVG outline does (points inside and outside)."""

from __future__ import annotations

from tools import suit_shapes


def inside(polygon: list[tuple[float, float]], x: float, y: float) -> bool:
    """Non-zero winding, as CSS fills a polygon."""
    winding = 0
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        cross = (x1 - x0) * (y - y0) - (x - x0) * (y1 - y0)
        if y0 <= y < y1 and cross > 0:
            winding += 1
        elif y1 <= y < y0 and cross < 0:
            winding -= 1
    return winding != 0


def test_the_css_holds_the_shapes_the_tool_makes():
    assert suit_shapes.main_check() == 0


def test_each_suit_covers_its_middle_and_not_its_corners_and_the_club_all_its_leaves():
    for name, suit in suit_shapes.SUITS.items():
        shape = suit_shapes.outline(suit)
        assert inside(shape, 12, 12.5), name
        for corner in [(0.5, 0.5), (23.5, 0.5), (0.5, 23.5), (23.5, 23.5)]:
            assert not inside(shape, *corner), (name, corner)
    club = suit_shapes.outline(suit_shapes.SUITS["C"])
    leaves = [(12, 3), (3, 14), (21, 14), (12, 22)]  # three leaves and the foot of the stem
    assert all(inside(club, x, y) for x, y in leaves)
    assert not inside(club, 6, 6) and not inside(club, 18, 6)  # between the leaves
