"""Install icons (docs/architecture.md §4, installable: icons 192 and 512 px plus a maskable
one, and an apple-touch-icon in the page)."""

from __future__ import annotations

import json
import struct
from pathlib import Path

from tools import make_icons

ROOT = Path(__file__).resolve().parents[2]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_manifest_icons_exist_with_the_sizes_they_declare():
    manifest = json.loads((ROOT / "manifest.webmanifest").read_text())
    purposes = {}
    for icon in manifest["icons"]:
        width, height = png_size(ROOT / icon["src"])
        assert f"{width}x{height}" == icon["sizes"] and icon["type"] == "image/png"
        purposes.setdefault(icon["purpose"], set()).add(width)
    assert {192, 512} <= purposes["any"] and purposes["maskable"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == manifest["scope"] == "./"


def test_page_links_manifest_and_apple_touch_icon():
    page = (ROOT / "index.html").read_text()
    assert '<link rel="manifest" href="./manifest.webmanifest">' in page
    assert 'rel="apple-touch-icon" href="./web/icons/apple-touch-icon.png"' in page
    assert png_size(ROOT / "web/icons/apple-touch-icon.png") == (180, 180)


def test_committed_icons_are_what_the_script_draws():
    size, kind = make_icons.ICONS["apple-touch-icon.png"]
    assert make_icons.draw(size, kind) == (ROOT / "web/icons/apple-touch-icon.png").read_bytes()
