"""Pyodide's Emscripten module, patched by tools/vendor.py so that loading it makes no
shared memory (Chromium reports one made on a page that is not cross-origin isolated as a
deprecation, which fails Lighthouse's best practices)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import vendor

ROOT = Path(__file__).resolve().parents[2]
VENDORED = ROOT / "vendor" / "pyodide" / "pyodide.asm.mjs"
ORIGINAL = ROOT / "node_modules" / "pyodide" / "pyodide.asm.mjs"

EAGER = ('var i=1;var io=new Int32Array(new WebAssembly.Memory({shared:!0,initial:1,'
         'maximum:1}).buffer);function so(t){try{return Atomics.wait(io,0,0,t),!0}'
         'catch{return!1}}a(so,"syncSleep");')


def patched(tmp_path: Path, text: str) -> str:
    (tmp_path / "pyodide.asm.mjs").write_text(text)
    vendor.patch_pyodide(tmp_path)
    return (tmp_path / "pyodide.asm.mjs").read_text()


def test_the_shared_memory_is_made_on_the_first_sleep(tmp_path):
    assert patched(tmp_path, EAGER) == (
        'var i=1;var io;function so(t){try{return io??=new Int32Array(new WebAssembly.Memory('
        '{shared:!0,initial:1,maximum:1}).buffer),Atomics.wait(io,0,0,t),!0}'
        'catch{return!1}}a(so,"syncSleep");')


@pytest.mark.parametrize("text", [
    "var io=new Int32Array(new ArrayBuffer(4));",  # not there: a new Pyodide
    EAGER + "var m=new WebAssembly.Memory({shared:!0,initial:2,maximum:2});",  # another
])
def test_vendoring_stops_when_the_code_is_not_as_expected(tmp_path, text):
    with pytest.raises(SystemExit, match="EAGER_SHARED_MEMORY"):
        patched(tmp_path, text)


@pytest.mark.skipif(not ORIGINAL.exists(), reason="node_modules is not installed")
def test_the_pinned_pyodide_has_the_code_the_patch_expects(tmp_path):
    text = patched(tmp_path, ORIGINAL.read_text(encoding="utf-8"))
    assert "??=new Int32Array(new WebAssembly.Memory({shared:!0" in text


@pytest.mark.skipif(not VENDORED.exists(), reason="vendor/ is not installed (make vendor)")
def test_the_vendored_module_is_patched():
    text = VENDORED.read_text(encoding="utf-8")
    assert text.count("shared:!0") == 1
    assert "??=new Int32Array(new WebAssembly.Memory({shared:!0" in text
