"""The precompiled standard library (docs/architecture.md §8 budget: first visit to a playable table
<= 2.5 s): tools/pyc_zip.py turns a zip of sources into one of .pyc files, tools/vendor.py
writes vendor/pyodide/python_stdlib_compiled.zip with Pyodide's own Python, and the
service worker precaches it in place of the plain python_stdlib.zip."""

from __future__ import annotations

import importlib.util
import io
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tools import precache, vendor
from tools.pyc_zip import HEADER_SIZE, UNCHECKED_HASH, compiled_zip, pyc_magic
from tools.stdlib_cut import REST_INDEX

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "vendor" / "pyodide"
PLAIN = PYODIDE / "python_stdlib.zip"
COMPILED = PYODIDE / vendor.COMPILED_STDLIB
REST = PYODIDE / vendor.REST_STDLIB

needs_vendor = pytest.mark.skipif(not (ROOT / "vendor" / "VERSIONS").exists(),
                                  reason="vendor/ is not installed (make vendor)")

SOURCES = {
    "pkg/": b"",
    "pkg/__init__.py": b"from .mod import fail\n",
    "pkg/mod.py": b"def fail():\n    raise ValueError('from mod')\n",
    "pkg/data.txt": b"kept as it is",
    "latin.py": "# -*- coding: latin-1 -*-\nWORD = 'caf\xe9'\n".encode("latin-1"),
}
# Run in a fresh interpreter with the compiled zip first on sys.path.
IMPORT_CHECK = """
import importlib.resources, json, sys, traceback
sys.path.insert(0, sys.argv[1])
import latin, pkg
try:
    pkg.fail()
except ValueError as error:
    frame = traceback.extract_tb(error.__traceback__)[-1]
print(json.dumps({
    "files": [pkg.__file__, latin.__file__],
    "word": latin.WORD,
    "data": importlib.resources.files("pkg").joinpath("data.txt").read_text(),
    "raised_at": [frame.filename, frame.lineno],
}))
"""


def make_zip(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in files.items():
            archive.writestr(name, body)
    return out.getvalue()


def test_sources_become_unchecked_hash_pycs_and_the_rest_is_kept():
    with zipfile.ZipFile(io.BytesIO(compiled_zip(make_zip(SOURCES), "/lib/x.zip"))) as out:
        assert sorted(out.namelist()) == sorted(
            ["pkg/", "pkg/__init__.pyc", "pkg/mod.pyc", "pkg/data.txt", "latin.pyc"])
        assert out.read("pkg/data.txt") == SOURCES["pkg/data.txt"]
        pyc = out.read("pkg/mod.pyc")
    assert pyc_magic(pyc) == importlib.util.MAGIC_NUMBER
    assert int.from_bytes(pyc[4:8], "little") == UNCHECKED_HASH
    assert pyc[8:HEADER_SIZE] == importlib.util.source_hash(SOURCES["pkg/mod.py"])


def test_the_compiled_zip_imports_without_sources_and_names_the_source_paths(tmp_path):
    archive = tmp_path / "lib.zip"
    archive.write_bytes(compiled_zip(make_zip(SOURCES), str(archive)))
    run = subprocess.run([sys.executable, "-I", "-c", IMPORT_CHECK, str(archive)],
                         capture_output=True, text=True, check=True)
    seen = json.loads(run.stdout)
    assert seen["files"] == [f"{archive}/pkg/__init__.pyc", f"{archive}/latin.pyc"]
    assert seen["word"] == "caf\xe9"  # the source's declared encoding was honoured
    assert seen["data"] == "kept as it is"
    # Tracebacks name the .py path a module imported from the plain zip has.
    assert seen["raised_at"] == [f"{archive}/pkg/mod.py", 2]


def test_a_failed_compile_leaves_no_zip_and_says_so(tmp_path, capsys):
    if shutil.which("node") is None:
        pytest.skip("node is missing")
    assert vendor.compile_stdlib(tmp_path) is False  # no Pyodide in this folder
    assert not (tmp_path / vendor.COMPILED_STDLIB).exists()
    assert "python_stdlib.zip" in capsys.readouterr().err


def test_the_precache_holds_one_standard_library_the_compiled_one_when_there(tmp_path):
    (tmp_path / "pyscript.toml").write_text("[files]\n")
    (tmp_path / "web").mkdir()
    pyodide = tmp_path / "vendor" / "pyodide"
    pyodide.mkdir(parents=True)
    (pyodide / "pyodide.mjs").write_text("//")
    (pyodide / "python_stdlib.zip").write_bytes(b"plain")
    assert precache.precache_paths(tmp_path) == [
        "pyscript.toml", "vendor/pyodide/pyodide.mjs", precache.PLAIN_STDLIB]
    (pyodide / "python_stdlib_compiled.zip").write_bytes(b"compiled")
    assert precache.precache_paths(tmp_path) == [
        "pyscript.toml", "vendor/pyodide/pyodide.mjs", precache.COMPILED_STDLIB]


@needs_vendor
def test_vendoring_wrote_a_pyc_for_every_module_of_the_plain_zip():
    """In one of the two zips the compiled library is cut into (tools/stdlib_cut.py)."""
    assert COMPILED.is_file(), "tools/vendor.py did not write the compiled standard library"
    with zipfile.ZipFile(PLAIN) as plain, zipfile.ZipFile(COMPILED) as compiled, \
            zipfile.ZipFile(REST) as rest:
        sources = [name for name in plain.namelist() if name.endswith(".py")]
        others = [name for name in plain.namelist() if not name.endswith(".py")]
        assert len(sources) > 400
        files = [n for n in compiled.namelist() + rest.namelist() if not n.endswith("/")]
        assert sorted(files) == sorted([f"{name}c" for name in sources] + [
            n for n in others if not n.endswith("/")] + [REST_INDEX])
        magics = {pyc_magic((compiled if f"{name}c" in compiled.namelist() else rest)
                            .read(f"{name}c")) for name in sources}
    assert len(magics) == 1


# Starts the vendored Pyodide on the compiled zip with the rest of the library on sys.path
# (argv: Pyodide's folder, the zip, the rest) and prints what its Python says about both
# zips, as JSON.
PYODIDE_CHECK = r"""
import { readFileSync } from "node:fs";
const [dir, zip, rest] = process.argv.slice(1);
const { loadPyodide } = await import(`file://${dir}/pyodide.mjs`);
const pyodide = await loadPyodide({ indexURL: `${dir}/`, stdLibURL: zip });
pyodide.FS.writeFile("/lib/rest.zip", readFileSync(rest));
console.log(pyodide.runPython(`
import sys
sys.path.append("/lib/rest.zip")
import encodings  # zipfile needs cp437, a codec of the rest (the page's finder does this)
encodings.__path__.append("/lib/rest.zip/encodings")
import importlib.util, json, marshal, zipfile
CodeType = type(compile("", "", "exec"))
pycs = {}
for archive in (next(p for p in sys.path if p.endswith(".zip")), "/lib/rest.zip"):
    with zipfile.ZipFile(archive) as z:
        pycs.update({n: z.read(n) for n in z.namelist() if n.endswith(".pyc")})
json.dumps({
    "magic": importlib.util.MAGIC_NUMBER.hex(),
    "pycs": len(pycs),
    "wrong_magic": [n for n, b in pycs.items() if b[:4] != importlib.util.MAGIC_NUMBER],
    "not_code": [n for n, b in pycs.items() if type(marshal.loads(b[16:])) is not CodeType],
    "json_file": json.__file__,
})
`));
"""


@needs_vendor
def test_pyodides_python_reads_every_pyc_with_its_own_magic():
    if shutil.which("node") is None:
        pytest.skip("node is missing")
    run = subprocess.run(["node", "--input-type=module", "-e", PYODIDE_CHECK, str(PYODIDE),
                          str(COMPILED), str(REST)], capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    with zipfile.ZipFile(COMPILED) as compiled:
        first = compiled.read("json/__init__.pyc")
    assert pyc_magic(first).hex() == seen["magic"]
    assert seen["pycs"] > 400 and seen["wrong_magic"] == [] and seen["not_code"] == []
    assert seen["json_file"].endswith("/json/__init__.pyc")  # imported from the .pyc
