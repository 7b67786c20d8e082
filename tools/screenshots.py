"""Pictures of every game for a person to look at: `make screenshots`.

    python tools/screenshots.py [--out screenshots] [--variants klondike,spider-1]
                                [--sizes phone,laptop] [--classes left-handed large-print]

For each variant, a mid-game position (tools/positions.py: the deal played by the
engine's hints up to its longest column) is resumed in the page at each size and
photographed in the light and the dark table (class `dark` on <html>), as
<out>/<variant>-<size>-<light|dark>.png. `--classes` adds classes to <html> first (e.g.
left-handed, large-print) and to the file names. The folder is not committed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

import engine  # noqa: E402
from tools.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tools.positions import longest, saved_items  # noqa: E402
from tools.serve import start_server  # noqa: E402

SIZES = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
              "device_scale_factor": 2},
    "laptop": {"viewport": {"width": 1280, "height": 800}},
}
SEED = 7
READY_JS = "() => ['ready', 'error'].includes(document.documentElement.dataset.app)"
SET_STORAGE_JS = """(items) => {
    localStorage.clear();
    for (const [key, value] of Object.entries(items)) localStorage.setItem(key, value);
}"""
# Classes on <html>, then two frames for the layout and styles to follow.
CLASSES_JS = """(names) => new Promise((done) => {
    document.querySelectorAll('dialog[open]').forEach((d) => d.close());
    for (const name of ['dark', ...names.all]) document.documentElement.classList.remove(name);
    for (const name of names.on) document.documentElement.classList.add(name);
    requestAnimationFrame(() => requestAnimationFrame(done));
})"""


def shoot(base_url: str, out: Path, variants: list[str], sizes: list[str],
          classes: list[str]) -> list[Path]:
    """Write the pictures; returns their paths."""
    written = []
    suffix = "".join(f"-{name}" for name in classes)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for size in sizes:
            context = browser.new_context(base_url=base_url, reduced_motion="reduce", **SIZES[size])
            page = context.new_page()
            for variant in variants:
                items = saved_items(longest(variant, SEED, 60))
                page.goto("/pyscript.toml")
                page.evaluate(SET_STORAGE_JS, items)
                page.goto("/")
                page.wait_for_function(READY_JS, timeout=90_000)
                for theme in ("light", "dark"):
                    on = [*classes, *(["dark"] if theme == "dark" else [])]
                    page.evaluate(CLASSES_JS, {"on": on, "all": classes})
                    path = out / f"{variant}-{size}-{theme}{suffix}.png"
                    page.screenshot(path=str(path))
                    written.append(path)
            context.close()
        browser.close()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    parser.add_argument("--variants", default=",".join(engine.VARIANTS))
    parser.add_argument("--sizes", default=",".join(SIZES))
    parser.add_argument("--classes", nargs="*", default=[])
    args = parser.parse_args()
    variants = args.variants.split(",")
    sizes = args.sizes.split(",")
    unknown = [v for v in variants if v not in engine.VARIANTS]
    unknown += [s for s in sizes if s not in SIZES]
    if unknown:
        parser.error(f"unknown variant or size: {', '.join(unknown)}")
    args.out.mkdir(parents=True, exist_ok=True)
    server, url = start_server(ROOT)
    try:
        written = shoot(url, args.out, variants, sizes, args.classes)
    finally:
        server.shutdown()
        server.server_close()
    print(f"{len(written)} pictures in {args.out}")


if __name__ == "__main__":
    main()
