"""`make dist` (issue 5: a deployable static folder with the precache list baked in)."""

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
    assert baked["cache"] == info["cache"] == precache.build_info(ROOT)["cache"]
    listed = {url.removeprefix("./") for url in baked["files"]}
    on_disk = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    fallback = {precache.PLAIN_STDLIB} - listed  # the page's fallback, not precached
    assert on_disk == listed | {"service-worker.js"} | fallback
    assert {"index.html", "manifest.webmanifest", "vendor/pyodide/pyodide.asm.wasm",
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
