"""tools/vendor.py copies MicroPython's WebAssembly build (the page's first-table
interpreter) from npm, as it is, with precompressed siblings, and nothing else of it."""

from pathlib import Path

from tools import vendor

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "@micropython/micropython-webassembly-pyscript"


def test_micropython_is_vendored_as_npm_has_it() -> None:
    folder = ROOT / "vendor" / "micropython"
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        name + suffix for name in vendor.MICROPYTHON_FILES for suffix in ("", ".br", ".gz"))
    for name in vendor.MICROPYTHON_FILES:
        assert (folder / name).read_bytes() == (ROOT / "node_modules" / PACKAGE / name).read_bytes()
    assert f"{PACKAGE}@{vendor.wanted_versions()[PACKAGE]}" in (
        ROOT / "vendor" / "VERSIONS").read_text().splitlines()
