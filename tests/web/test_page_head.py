"""index.html's head: its Content-Security-Policy, and the start-up hints (docs/architecture.md
§8 budget: first visit to a playable table <= 2.5 s). The page preloads what MicroPython's
loader would otherwise ask for one after another; a hint naming a file that is not there
would cost a request and show an error in the console, so every one is checked against
the files. The page starts MicroPython itself (web/start/micropython-loader.mjs): nothing
of PyScript is on it."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest

from tools import precache

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "index.html").read_text()
PRELOADS = re.findall(r'<link rel="(?:module)?preload" href="\./([^"]+)"', PAGE)

needs_vendor = pytest.mark.skipif(not (ROOT / "vendor" / "VERSIONS").exists(),
                                  reason="vendor/ is not installed (make vendor)")


def test_the_head_preloads_micropython_its_bytecode_and_the_entry_script():
    for path in ("vendor/micropython/micropython.mjs", "web/start/micropython-loader.mjs",
                 "web/main.py", "build/mpy/first-table.pack"):
        assert path in PRELOADS


def test_pyscript_is_not_on_the_page():
    """MicroPython's loader runs web/main.py itself: PyScript's start-up (its own Python
    library written and compiled before the page's) is not paid for."""
    assert "pyscript" not in " ".join(PRELOADS)
    assert "vendor/pyscript" not in MARKUP and 'type="mpy"' not in MARKUP


def test_pyodide_is_not_on_the_first_tables_way():
    """Pyodide (4 MB) is the solver's, loaded by its worker once the table is playable:
    the page neither preloads nor fetches any of it early."""
    assert not [path for path in PRELOADS if "pyodide" in path]
    assert "pyodide" not in (ROOT / "web" / "start" / "early.js").read_text()


@needs_vendor
def test_every_preloaded_file_exists():
    from tools.mpy_build import OUT, ensure

    ensure(ROOT / OUT)  # the bytecode the page preloads, as `make mpy` makes it
    assert [path for path in PRELOADS if not (ROOT / path).is_file()] == []


# The page without its comments, and its Content-Security-Policy (a <meta>, so that any
# static host sends it).
MARKUP = re.sub(r"<!--.*?-->", "", PAGE, flags=re.S)
CSP_META = re.search(
    r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', MARKUP)


def policy() -> dict[str, list[str]]:
    assert CSP_META, "index.html has no Content-Security-Policy <meta>"
    directives = [part.split() for part in CSP_META.group(1).split(";") if part.strip()]
    return {name: sources for name, *sources in directives}


def test_the_policy_comes_before_anything_it_governs():
    first = re.search(r"<(script|link|style)\b", MARKUP)
    assert CSP_META and CSP_META.start() < first.start()


def test_scripts_come_only_from_the_app_itself():
    csp = policy()
    assert csp["default-src"] == ["'self'"]
    # MicroPython and Pyodide compile their wasm ('wasm-unsafe-eval'); no eval, nothing
    # inline, no other origin.
    assert set(csp["script-src"]) == {"'self'", "'wasm-unsafe-eval'"}
    assert csp["object-src"] == ["'none'"]
    assert csp["base-uri"] == ["'none'"] and csp["form-action"] == ["'none'"]
    for name in ("connect-src", "worker-src", "img-src", "style-src"):
        assert csp[name][0] == "'self'"
        assert not {"*", "http:", "https:", "'unsafe-inline'"} & set(csp[name]), name
    # The page's own scripts are all files: an inline one would be refused.
    for tag in re.findall(r"<script\b[^>]*>", MARKUP):
        assert 'src="./' in tag, tag


def test_the_inline_style_block_is_allowed_by_its_hash():
    """The loading screen's styles are inline (the first paint needs them); the policy
    names each inline block by its SHA-256, so an edit to one needs a new hash here."""
    blocks = re.findall(r"<style>(.*?)</style>", MARKUP, re.S)
    assert blocks
    allowed = set(policy()["style-src"])
    for block in blocks:
        digest = base64.b64encode(hashlib.sha256(block.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in allowed, f"style-src lacks 'sha256-{digest}'"


def test_the_early_downloads_start_before_the_module_scripts():
    """web/start/early.js (a classic async script: it runs as soon as it arrives, before the
    module scripts, which wait for the whole page) starts the download of MicroPython's
    wasm that web/start/micropython-loader.mjs hands to MicroPython."""
    early = MARKUP.index('<script async src="./web/start/early.js"></script>')
    assert early < MARKUP.index('<script type="module"')
    text = (ROOT / "web" / "start" / "early.js").read_text()
    assert "window.ppMicroPythonWasm =" in text
    assert "window.ppMicroPythonWasm" in (
        ROOT / "web" / "start" / "micropython-loader.mjs").read_text()


def test_the_solver_transport_and_the_loading_screen_run_before_python():
    """web/main.py reads window.ppSolver as it starts, and the loading screen listens for
    the loader's progress: both are module scripts before MicroPython's loader (module
    scripts run in document order)."""
    loader = MARKUP.index('<script type="module" src="./web/start/micropython-loader.mjs"')
    assert MARKUP.index('src="./web/start/solver.js"') < loader
    assert MARKUP.index('src="./web/start/loading.js"') < loader


@needs_vendor
def test_the_early_script_is_precached():
    assert "web/start/early.js" in precache.precache_paths(ROOT)


def static_imports(path: Path) -> set[Path]:
    """The files a JavaScript module imports statically (``import ... from "./x.js"``)."""
    text = path.read_text()
    return {(path.parent / spec).resolve()
            for spec in re.findall(r'^\s*(?:import|export)\b[^;]*?from\s+"(\.{1,2}/[^"]+)"',
                                   text, re.M | re.S)}


def test_the_module_scripts_imports_are_preloaded_so_none_waits_for_its_importer():
    """Every module a page's module script imports, at any depth, is asked for from the
    head (a modulepreload), so that the table's script does not wait for a chain of
    imports one round trip each; and every modulepreload is such a module or a script."""
    scripts = [(ROOT / src).resolve() for src in
               re.findall(r'<script type="module" src="\./([^"]+)"', MARKUP)]
    needed: set[Path] = set()
    todo = list(scripts)
    while todo:
        for found in static_imports(todo.pop()):
            if found not in needed:
                needed.add(found)
                todo.append(found)
    modulepreloads = {(ROOT / href).resolve() for href in
                      re.findall(r'<link rel="modulepreload" href="\./([^"]+)"', MARKUP)}
    assert (ROOT / "web/table/layout.js").resolve() in needed  # an import of an import
    assert needed - set(scripts) <= modulepreloads
    assert modulepreloads <= needed | set(scripts)
