"""The page starts Python on the precompiled standard library (python_stdlib_compiled.zip,
written by tools/vendor.py; budget, docs/architecture.md §8: first visit to a playable
table <= 2.5 s), and on Pyodide's plain python_stdlib.zip when the compiled one is not
served; the app's files are fetched while Python starts and handed to PyScript
(web/start/pyodide-loader.mjs)."""

from __future__ import annotations

import tomllib
import urllib.parse

import pytest

import engine
from tests.e2e.conftest import ROOT, BrowserLog, watch, watch_page
from tests.e2e.table_helpers import Log, TablePage, first_move

COMPILED = "/vendor/pyodide/python_stdlib_compiled.zip"
PLAIN = "/vendor/pyodide/python_stdlib.zip"


@pytest.fixture
def page(browser, base_url, browser_log):
    """A page with no service worker and no animations (cards land at once); the test
    fails on a request off the server, a console error or an uncaught exception."""
    context = browser.new_context(base_url=base_url, service_workers="block",
                                  reduced_motion="reduce")
    watch(context, browser_log, base_url)
    page = context.new_page()
    watch_page(page, browser_log)
    yield page
    context.close()
    assert not browser_log.problems(), "\n".join(browser_log.problems())


def record_paths(page) -> list[str]:
    """The URL path of every request the page makes from now on."""
    paths: list[str] = []
    page.on("request", lambda request: paths.append(urllib.parse.urlsplit(request.url).path))
    return paths


def deal_from_stock(page) -> None:
    """Open a Spider deal, deal a row from the stock in the page, compare with CPython."""
    table = TablePage(page, Log())
    game = table.open("spider-1", 4)
    table.check(game)
    table.click_pile("stock")
    game.play(engine.Move("stock", "tableau", 10))
    table.check(game)


def test_the_page_loads_the_compiled_standard_library_and_plays(page):
    paths = record_paths(page)
    deal_from_stock(page)
    start = page.evaluate("window.__pyodideStart")
    assert start["stdlib"] == "compiled" and "stdlibProblem" not in start
    assert paths.count(COMPILED) == 1
    assert PLAIN not in paths  # not downloaded as well
    # Every file of pyscript.toml was fetched once, early, and PyScript got that response.
    files = tomllib.loads((ROOT / "pyscript.toml").read_text())["files"]
    assert start["filesPrefetched"] == start["filesHandedOver"] == len(files)
    for url in files:
        assert paths.count("/" + url.removeprefix("./")) == 1, url


def test_without_the_compiled_library_the_plain_one_is_used(page, browser_log: BrowserLog):
    paths = record_paths(page)
    page.route(f"**{COMPILED}", lambda route: route.fulfill(status=404, body="not here"))
    deal_from_stock(page)
    assert page.evaluate("window.__pyodideStart.stdlib") == "plain"
    assert PLAIN in paths
    # The browser logs the refused file; nothing else.
    assert browser_log.console_errors
    assert all("404" in text for text in browser_log.console_errors), browser_log.console_errors
    browser_log.console_errors.clear()


def test_a_failed_download_of_the_compiled_library_is_tried_once_more(page, browser_log):
    """Seen under load: a download of the zip failing with "Failed to fetch"."""
    paths = record_paths(page)
    failed: list[str] = []

    def fail_first(route):
        if failed:
            route.continue_()
        else:
            failed.append(route.request.url)
            route.abort()

    page.route(f"**{COMPILED}", fail_first)
    deal_from_stock(page)
    start = page.evaluate("window.__pyodideStart")
    assert failed and start["stdlib"] == "compiled"
    assert "Failed to fetch" in start["stdlibProblem"]
    assert paths.count(COMPILED) == 2 and PLAIN not in paths
    assert all("net::ERR_FAILED" in text for text in browser_log.console_errors), (
        browser_log.console_errors)
    browser_log.console_errors.clear()


REST = "/vendor/pyodide/python_stdlib_rest.zip"
REST_IN_BACKGROUND_JS = "window.__pyodideStart.rest === 'background'"


@pytest.mark.parametrize("variant", engine.VARIANTS)
def test_each_variant_starts_and_plays_on_the_cut_library(page, variant):
    """The compiled zip holds only the start's import closure (tools/stdlib_cut.py): a
    deal link of every variant opens, a move plays, and the rest of the library is
    fetched once, in the background, after the table is ready (no import needed it
    before)."""
    paths = record_paths(page)
    table = TablePage(page, Log())
    game = table.open(variant, 3)
    table.check(game)
    move = first_move(game)
    if move is None:  # only the stock moves (a Doublets deal may start so)
        move = next(m for m in game.legal_moves() if m.src == "stock")
        table.click_pile("stock")
    else:
        table.drag(move.src, table.count(move.src) - move.count, move.dst)
    game.play(move)
    table.check(game)
    page.wait_for_function(REST_IN_BACKGROUND_JS)
    start = page.evaluate("window.__pyodideStart")
    assert start["stdlib"] == "compiled" and start["restWhen"] == "ready"
    assert paths.count(REST) == 1


def test_a_module_outside_the_cut_imports_before_and_after_the_background_mount(page):
    """A module the start never imports is not in the compiled zip; importing it before
    the rest is mounted downloads the rest at once (synchronously), and it works."""
    paths = record_paths(page)
    gate: list = []
    page.route(f"**{REST}", lambda route: gate.append(route)  # the background download waits
               if route.request.resource_type == "fetch" else route.continue_())
    table = TablePage(page, Log())
    table.goto()
    core = page.evaluate("""() => window.__pyodideStart.interpreter.runPython(
        "import zipimport, sys\\n" +
        "core = next(p for p in sys.path if p.endswith('.zip'))\\n" +
        "zipimport.zipimporter(core).find_spec('fractions') is not None")""")
    assert core is False
    result = page.evaluate("""() => window.__pyodideStart.interpreter.runPython(
        "import fractions, email.message, encodings.cp437\\n" +
        "str(fractions.Fraction(3, 6)) + ' ' + fractions.__file__")""")
    assert result.startswith("1/2 /lib/python_stdlib_rest.zip/fractions.pyc")
    assert page.evaluate("window.__pyodideStart.rest") == "sync"
    assert paths.count(REST) >= 1
    for route in gate:
        route.continue_()


# The files of the app's packages that no module has been loaded from and that have no
# bytecode yet, and the names of the sources Python compiles from now on (an audit hook:
# the "compile" event).
PENDING_AND_WATCH_JS = """() => window.__pyodideStart.interpreter.runPython(`
import os, sys
from importlib.util import cache_from_source
def before_start(path):
    try:
        with open(cache_from_source(path), "rb") as f:
            return f.read(8)[4] == 3  # hash-checked: the loader's, before the start
    except OSError:
        return False
loaded = {getattr(m, "__file__", None) for m in list(sys.modules.values())}
pending = sorted(os.path.join(d, n) for d, _, names in os.walk(os.getcwd())
                 if d != os.getcwd() and "__pycache__" not in d
                 for n in names if n.endswith(".py") and os.path.join(d, n) not in loaded
                 and not before_start(os.path.join(d, n)))
compiled = []
sys.addaudithook(lambda event, args: event == "compile" and compiled.append(str(args[1])))
pending`).toJs()"""
IMPORT_SOLVER_JS = """() => window.__pyodideStart.interpreter.runPython(`
compiled.clear()  # the page's own compiling, done by now
import engine.solver.klondike, engine.solver.spider
[name for name in compiled if name.endswith(".py")]`).toJs()"""


def test_the_modules_the_first_table_did_not_import_are_compiled_after_it(page):
    """Once the table is playable, each app module it did not import (the solver above
    all) is compiled in a task of its own and its bytecode written where the import finds
    it: importing the solver then compiles no source."""
    # The table's background look at the position (run in idle time) would import the
    # solver: held off, so that only this test imports it.
    page.add_init_script("window.requestIdleCallback = () => 0;")
    table = TablePage(page, Log())
    table.open("klondike", 7)
    # The solver's files are written after the table, then the modules are compiled.
    page.wait_for_function("() => window.__pyodideStart.later !== undefined")
    pending = page.evaluate(PENDING_AND_WATCH_JS)
    assert "/home/pyodide/engine/solver/klondike.py" in pending
    page.wait_for_function("() => window.__pyodideStart.precompiled !== undefined")
    assert page.evaluate("window.__pyodideStart.precompiled") == len(pending)
    assert page.evaluate(IMPORT_SOLVER_JS) == []


# For each .py of [files]: the flags of its .pyc (3: checked against the source's hash,
# as the loader writes them), and the sources Python compiles to get their code the way
# an import does (SourceFileLoader.get_code: from the .pyc when it is valid).
CODE_FROM_PYC_JS = """(paths) => window.__pyodideStart.interpreter.runPython(`
import os, sys
from importlib.machinery import SourceFileLoader
from importlib.util import cache_from_source
flags, compiled = {}, []
sys.addaudithook(lambda event, args: event == "compile" and compiled.append(str(args[1])))
for path in ${JSON.stringify(paths)}:
    with open(cache_from_source(os.path.abspath(path)), "rb") as f:
        flags[path] = f.read(8)[4]
    SourceFileLoader("probe", os.path.abspath(path)).get_code("probe")
[flags, [name for name in compiled if name.endswith(".py")]]
`).toJs({dict_converter: Object.fromEntries})"""


def test_the_first_tables_modules_are_compiled_before_web_main_imports_them(page):
    """Before PyScript runs web/main.py, the loader compiles every module of [files] (but
    a package's __main__, a command line), one per task (not all inside web/main.py's one
    long import), into hash-checked .pyc files, which still hold once PyScript has written
    the same files again: getting a module's code as its import does compiles no source."""
    table = TablePage(page, Log())
    table.open("klondike", 7)
    paths = [path for path in tomllib.loads((ROOT / "pyscript.toml").read_text())["files"]
             .values() if path.endswith(".py") and not path.endswith("/__main__.py")]
    assert "web/controller.py" in paths
    assert page.evaluate("window.__pyodideStart.precompiledFirst") == len(paths)
    flags, compiled = page.evaluate(CODE_FROM_PYC_JS, paths)
    assert set(flags.values()) == {3}, flags
    assert compiled == []
