"""The start-up hints in index.html's head (DESIGN.md budget: first visit to a playable
table <= 2.5 s). The page preloads what PyScript and Pyodide would otherwise ask for one
after another; a hint naming a file that is not there would cost a request and show an
error in the console, so every one is checked against the files, including the
content-hashed PyScript chunks, which change whenever @pyscript/core is updated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "index.html").read_text()
PRELOADS = re.findall(r'<link rel="(?:module)?preload" href="\./([^"]+)"', PAGE)
PYSCRIPT = ROOT / "vendor" / "pyscript"

needs_vendor = pytest.mark.skipif(not (ROOT / "vendor" / "VERSIONS").exists(),
                                  reason="vendor/ is not installed (make vendor)")


def test_the_head_preloads_pyscript_pyodide_and_the_entry_script():
    for path in ("vendor/pyscript/core.js", "vendor/pyodide/pyodide.mjs",
                 "web/pyodide-loader.mjs", "web/main.py", "pyscript.toml"):
        assert path in PRELOADS


@needs_vendor
def test_every_preloaded_file_exists():
    assert [path for path in PRELOADS if not (ROOT / path).is_file()] == []


@needs_vendor
def test_the_pyscript_chunks_it_needs_before_python_are_preloaded():
    """core.js's main chunk, the TOML parser (pyscript.toml) and the error plugin (loaded
    even when disabled) are the modules PyScript fetches before it starts Pyodide."""
    [chunk] = re.findall(r'from"\./(core-[\w-]+\.js)"', (PYSCRIPT / "core.js").read_text())
    lazy = set(re.findall(r'import\("\./((?:toml|error)-[\w-]+\.js)"\)',
                          (PYSCRIPT / chunk).read_text()))
    assert len(lazy) == 2
    preloaded = {path.removeprefix("vendor/pyscript/") for path in PRELOADS}
    assert {chunk, *lazy} <= preloaded
