"""The standard library cut in two (tools/stdlib_cut.py): the modules a start imports in
the compiled zip, every other in python_stdlib_rest.zip, with an index of the rest."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from tools import stdlib_cut, vendor

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "vendor" / "pyodide"

needs_vendor = pytest.mark.skipif(not (ROOT / "vendor" / "VERSIONS").exists(),
                                  reason="vendor/ is not installed (make vendor)")

ENTRIES = ["pkg/", "pkg/__init__.pyc", "pkg/used.pyc", "pkg/other.pyc", "pkg/data.txt",
           "alone.pyc", "used.pyc", "far/", "far/__init__.pyc"]


def make_zip(names: list[str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in names:
            archive.writestr(name, b"" if name.endswith("/") else name.encode())
    return out.getvalue()


def names_of(data: bytes) -> list[str]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.namelist()


def test_the_closure_goes_in_the_core_and_the_rest_with_its_folders():
    core, rest = stdlib_cut.split_zip(make_zip(ENTRIES), ["pkg", "pkg.used", "used", "sys"])
    assert names_of(core) == ["pkg/", "pkg/__init__.pyc", "pkg/used.pyc", "pkg/data.txt",
                              "used.pyc", stdlib_cut.REST_INDEX]
    assert names_of(rest) == ["pkg/", "pkg/other.pyc", "alone.pyc", "far/",
                              "far/__init__.pyc"]
    with zipfile.ZipFile(io.BytesIO(core)) as archive:
        assert archive.read(stdlib_cut.REST_INDEX).decode().split() == [
            "alone", "far", "pkg.other"]
        assert archive.read("pkg/used.pyc") == b"pkg/used.pyc"


def test_the_core_is_stored_for_a_content_coding_and_the_rest_stays_deflated():
    core, rest = stdlib_cut.split_zip(make_zip(ENTRIES), ["pkg", "pkg.used", "used"])
    with zipfile.ZipFile(io.BytesIO(core)) as archive:
        assert {i.compress_type for i in archive.infolist()} == {zipfile.ZIP_STORED}
    with zipfile.ZipFile(io.BytesIO(rest)) as archive:
        assert {i.compress_type for i in archive.infolist()
                if not i.is_dir()} == {zipfile.ZIP_DEFLATED}


def test_imported_names_are_every_absolute_import_but_the_apps_and_pyscripts():
    source = ("import json, os.path\nfrom a.b import c\nfrom . import x\n"
              "from pyscript import window\nimport js\n"
              "def f():\n    from urllib.parse import quote\n")
    assert stdlib_cut.imported_names([source]) == [
        "a.b", "a.b.c", "json", "os.path", "urllib.parse", "urllib.parse.quote"]


def test_module_names_of_the_apps_files():
    assert stdlib_cut.module_names(["a/__init__.py", "a/b.py", "a/data/x.txt"]) == ["a", "a.b"]


def test_the_searches_are_a_plain_start_and_a_link_of_each_variant():
    assert stdlib_cut.app_searches(["x", "y"]) == ["", "?game=x&deal=1", "?game=y&deal=1"]


def test_the_closure_runs_the_app_from_the_files_python_gets():
    spec = vendor.closure_spec()
    assert "web/controller.py" in spec["files"] and "web/main.py" not in spec["files"]
    assert any(p.startswith("engine/solver/data/") for p in spec["files"])
    compile(spec["code"], "closure", "exec")
    assert "?game=klondike&deal=1" in spec["code"]
    assert "'engine.solver.klondike'" in spec["code"]  # the solver's imports count too


@needs_vendor
def test_vendor_cuts_the_compiled_library_in_two_that_make_the_whole():
    core = names_of((PYODIDE / vendor.COMPILED_STDLIB).read_bytes())
    rest = names_of((PYODIDE / vendor.REST_STDLIB).read_bytes())
    with zipfile.ZipFile(PYODIDE / "python_stdlib.zip") as plain:
        modules = {n + "c" for n in plain.namelist() if n.endswith(".py")}
    pycs = [n for n in core + rest if n.endswith(".pyc")]
    assert sorted(pycs) == sorted(modules)  # each module once, in one of the two
    # What the app and PyScript import at start is in the core; what they never do is not.
    for name in ("json/__init__.pyc", "asyncio/__init__.pyc", "random.pyc",
                 "pyodide/ffi/__init__.pyc"):
        assert name in core
    for name in ("fractions.pyc", "email/__init__.pyc", "urllib/parse.pyc",
                 "encodings/cp437.pyc"):
        assert name in rest
