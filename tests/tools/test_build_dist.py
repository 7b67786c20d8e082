"""`make dist` (README.md "Deploying": a deployable static folder with the precache list baked
in)."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

from tools import precache
from tools.build_dist import build
from tools.serve import start_server

ROOT = Path(__file__).resolve().parents[2]


def test_dist_holds_the_precached_files_and_a_filled_in_service_worker(tmp_path: Path):
    out = tmp_path / "dist"
    info = build(out)
    worker = (out / "service-worker.js").read_text()
    build_line = re.search(r"^const BUILD = (.*); // @build$", worker, re.MULTILINE)
    baked = json.loads(build_line.group(1))
    assert baked["version"] == info["version"] == precache.build_info(ROOT)["version"]
    listed = {url.removeprefix("./") for url in baked["files"]}
    on_disk = {p.relative_to(out).as_posix() for p in out.rglob("*")
               if p.is_file() and not p.name.endswith((".br", ".gz"))}  # siblings: below
    fallback = {precache.PLAIN_STDLIB} - listed  # the worker's fallback, not precached
    assert on_disk == listed | {"service-worker.js"} | fallback
    assert {"index.html", "manifest.webmanifest", "mpy.toml", "vendor/pyodide/pyodide.asm.wasm",
            "vendor/micropython/micropython.wasm", "build/mpy/first-table.pack",
            "web/icons/icon-512.png", "engine/rules/game.py"} <= listed
    assert not any(p.startswith(("tests/", "tools/", "node_modules/")) for p in listed)
    # Served as it is (not re-rendered): the dev server sees no template there.
    server, base = start_server(out)
    try:
        with urllib.request.urlopen(base + "/service-worker.js") as response:
            assert response.read().decode() == worker
    finally:
        server.shutdown()
        server.server_close()


def test_build_refuses_to_overwrite_the_repository():
    import pytest

    with pytest.raises(ValueError):
        build(ROOT)


def test_dist_has_precompressed_siblings_that_decode_to_their_files(tmp_path: Path):
    """Every compressible file of dist/ has a .gz (and, with Node, a .br) sibling holding
    exactly the file; images and zip archives have none; none is precached; the server
    sends the siblings."""
    import gzip
    import shutil
    import subprocess

    from tools.precompress import SUFFIXES, compressible

    out = tmp_path / "dist"
    build(out)
    files = [p for p in out.rglob("*") if p.is_file() and not p.name.endswith(SUFFIXES)]
    big = [p for p in files if compressible(p) and p.stat().st_size > 2000]
    assert {"pyodide.asm.wasm", "pyodide.asm.mjs", "index.html", "service-worker.js"} <= {
        p.name for p in big}
    for path in big:
        gz = path.with_name(path.name + ".gz")
        assert gzip.decompress(gz.read_bytes()) == path.read_bytes(), path
    for path in files:
        if not compressible(path):
            assert not any(path.with_name(path.name + s).exists() for s in SUFFIXES), path
    worker = (out / "service-worker.js").read_text()
    assert ".br\"" not in worker and ".gz\"" not in worker

    node = shutil.which("node")
    if node is not None:  # Node is how the .br siblings are made; without it, gzip only
        check = ("const fs = require('fs'), zlib = require('zlib');"
                 "for (const f of process.argv.slice(1)) {"
                 "  if (!zlib.brotliDecompressSync(fs.readFileSync(f + '.br'))"
                 "      .equals(fs.readFileSync(f))) { console.log(f); process.exitCode = 1; } }")
        run = subprocess.run([node, "-e", check, *map(str, big)], capture_output=True, text=True)
        assert run.returncode == 0, run.stdout + run.stderr
        wasm = out / "vendor/pyodide/pyodide.asm.wasm"
        assert (wasm.with_name(wasm.name + ".br").stat().st_size
                < wasm.with_name(wasm.name + ".gz").stat().st_size < wasm.stat().st_size // 2)

        server, base = start_server(out)
        try:
            request = urllib.request.Request(base + "/vendor/pyodide/pyodide.asm.wasm",
                                             headers={"Accept-Encoding": "gzip, br"})
            with urllib.request.urlopen(request) as response:
                assert response.headers["Content-Encoding"] == "br"
                body = response.read()
            assert body == wasm.with_name(wasm.name + ".br").read_bytes()
        finally:
            server.shutdown()
            server.server_close()
