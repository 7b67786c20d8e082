"""The service worker's precache list and content-hash cache name (docs/architecture.md §4,
offline: a cache name that changes whenever any precached file changes)."""

from __future__ import annotations

import json
import re
import shutil
import urllib.request
from pathlib import Path

import pytest

from tools import precache
from tools.serve import start_server

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    """A small copy of the app: page, config, one engine and one web file, a fake vendor."""
    for rel in ("index.html", "manifest.webmanifest", "service-worker.js"):
        shutil.copy(ROOT / rel, tmp_path / rel)
    (tmp_path / "pyscript.toml").write_text(
        'interpreter = "./vendor/pyodide/pyodide.mjs"\n[files]\n'
        '"./engine/__init__.py" = "engine/__init__.py"\n')
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "__init__.py").write_text("X = 1\n")
    (tmp_path / "web" / "icons").mkdir(parents=True)
    (tmp_path / "web" / "main.py").write_text("print('hi')\n")
    (tmp_path / "web" / "icons" / "i.png").write_bytes(b"\x89PNG")
    (tmp_path / "web" / "notes.txt").write_text("not an app file")
    for rel in ("vendor/pyodide/pyodide.mjs", "vendor/pyodide/pyodide.asm.wasm",
                "vendor/pyscript/core.js", "vendor/pyscript/codemirror-x.js",
                "vendor/pyscript/xterm.css"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(rel)
    return tmp_path


def test_precache_lists_the_app_and_leaves_out_unused_add_ons(tree: Path):
    paths = precache.precache_paths(tree)
    assert paths == sorted([
        "engine/__init__.py", "index.html", "manifest.webmanifest", "pyscript.toml",
        "vendor/pyodide/pyodide.asm.wasm", "vendor/pyodide/pyodide.mjs",
        "vendor/pyscript/core.js", "web/icons/i.png", "web/main.py"])


def test_cache_name_changes_with_any_precached_file_and_only_then(tree: Path):
    first = precache.build_info(tree)["cache"]
    (tree / "web" / "notes.txt").write_text("edited")           # not precached
    assert precache.build_info(tree)["cache"] == first
    wasm = tree / "vendor" / "pyodide" / "pyodide.asm.wasm"
    wasm.write_text("other bytes, other size")
    second = precache.build_info(tree)["cache"]
    assert second != first and second.startswith(precache.CACHE_PREFIX)
    (tree / "engine" / "__init__.py").write_text("X = 2\n")      # same size, new content
    assert precache.build_info(tree)["cache"] not in (first, second)


def test_rendered_worker_carries_the_list_and_the_hashes(tree: Path):
    text = precache.render_service_worker(tree).decode()
    line = re.search(r"^const BUILD = (.*); // @build$", text, re.MULTILINE).group(1)
    build = json.loads(line)
    info = precache.build_info(tree)
    assert build == {"cache": info["cache"], "files": info["files"]}
    assert "./index.html" in build["files"] and len(build["files"]["./index.html"]) == 64
    assert precache.is_template(tree / "service-worker.js")  # the file on disk stays a template
    assert not precache.is_template_text(text)


def test_missing_vendor_files_are_an_error(tree: Path):
    shutil.rmtree(tree / "vendor" / "pyodide")
    (tree / "pyscript.toml").write_text('[files]\n"./engine/gone.py" = "engine/gone.py"\n')
    with pytest.raises(FileNotFoundError):
        precache.precache_paths(tree)


def test_dev_server_renders_the_worker_on_every_request(tree: Path):
    server, base = start_server(tree)
    try:
        def fetch() -> str:
            with urllib.request.urlopen(base + "/service-worker.js") as response:
                assert response.headers["Content-Type"].startswith("text/javascript")
                return response.read().decode()
        before = fetch()
        assert precache.build_info(tree)["cache"] in before
        (tree / "web" / "main.py").write_text("print('changed')\n")
        after = fetch()
        assert precache.build_info(tree)["cache"] in after and after != before
    finally:
        server.shutdown()
        server.server_close()
