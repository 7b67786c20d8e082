"""The service worker's precache list and content-hash cache name (docs/architecture.md §4,
offline: a cache name that changes whenever any precached file changes)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
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


def test_precache_lists_the_app_and_leaves_out_what_it_never_loads(tree: Path):
    """PyScript is vendored but the page starts MicroPython itself: none of it is cached."""
    paths = precache.precache_paths(tree)
    assert paths == sorted([
        "engine/__init__.py", "index.html", "manifest.webmanifest", "pyscript.toml",
        "vendor/pyodide/pyodide.asm.wasm", "vendor/pyodide/pyodide.mjs",
        "web/icons/i.png", "web/main.py"])


def test_the_first_tables_bytecode_is_precached_as_the_pack_the_page_fetches(tree: Path):
    (tree / "mpy.toml").write_text('pack = "./build/mpy/first-table.pack"\n[files]\n'
                                   '"./build/mpy/engine/__init__.mpy" = "engine/__init__.mpy"\n')
    (tree / "build" / "mpy" / "engine").mkdir(parents=True)
    (tree / "build" / "mpy" / "first-table.pack").write_bytes(b"pack")
    (tree / "build" / "mpy" / "engine" / "__init__.mpy").write_bytes(b"mpy")
    paths = precache.precache_paths(tree)
    assert "build/mpy/first-table.pack" in paths and "mpy.toml" in paths
    assert not [path for path in paths if path.endswith(".mpy")]


def test_version_changes_with_any_precached_file_and_only_then(tree: Path):
    first = precache.build_info(tree)["version"]
    (tree / "web" / "notes.txt").write_text("edited")           # not precached
    assert precache.build_info(tree)["version"] == first
    wasm = tree / "vendor" / "pyodide" / "pyodide.asm.wasm"
    wasm.write_text("other bytes, other size")
    second = precache.build_info(tree)["version"]
    assert second != first and re.fullmatch(r"[0-9a-f]{16}", second)
    (tree / "engine" / "__init__.py").write_text("X = 2\n")      # same size, new content
    assert precache.build_info(tree)["version"] not in (first, second)


def test_cache_names_carry_the_apps_folder():
    version = "0123456789abcdef"
    names = {precache.cache_name(version, path) for path in ("/", "/a/", "/b/", "/a/b/")}
    assert len(names) == 4
    assert all(re.fullmatch(r"pocket-patience-[0-9a-f]{8}-0123456789abcdef", n) for n in names)
    snapshots = {precache.snapshot_cache_name(path) for path in ("/", "/a/", "/b/")}
    assert len(snapshots) == 3
    assert precache.scope_key("") == "811c9dc5" and precache.scope_key("a") == "e40c292c"


SCOPE_PATHS = ["/", "/a/", "/b/", "/a/b/", "/pocket-patience/", "/caf%C3%A9/", "/é/"]


@pytest.mark.parametrize("source", ["service-worker.js"])
def test_the_browser_side_computes_the_same_scope_key(source: str):
    """The worker names its caches with these keys: its JavaScript copy of the function
    must agree with Python's."""
    node = shutil.which("node")
    assert node, "Node.js is needed (make installs it with the npm packages)"
    text = (ROOT / source).read_text()
    function = re.search(r"^function scopeKey\(path\) \{\n.*?^\}$", text, re.M | re.S)
    assert function, f"{source}: no scopeKey function"
    script = f"{function.group(0)}\nconsole.log(JSON.stringify({json.dumps(SCOPE_PATHS)}" \
             ".map(scopeKey)));"
    out = subprocess.run([node, "-e", script], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [precache.scope_key(p) for p in SCOPE_PATHS]


def test_rendered_worker_carries_the_list_and_the_hashes(tree: Path):
    text = precache.render_service_worker(tree).decode()
    line = re.search(r"^const BUILD = (.*); // @build$", text, re.MULTILINE).group(1)
    build = json.loads(line)
    info = precache.build_info(tree)
    assert build == {"version": info["version"], "files": info["files"]}
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
        assert precache.build_info(tree)["version"] in before
        (tree / "web" / "main.py").write_text("print('changed')\n")
        after = fetch()
        assert precache.build_info(tree)["version"] in after and after != before
    finally:
        server.shutdown()
        server.server_close()
