"""The solver's worker starts Pyodide on the precompiled standard library
(python_stdlib_compiled.zip, cut to what the worker imports: tools/stdlib_cut.py, written
by tools/vendor.py), and on Pyodide's plain python_stdlib.zip when the compiled one is not
served; the rest of the library comes when a module of it is imported
(web/start/solver-worker.mjs, whose report web/start/solver.js keeps as
window.ppSolverReport)."""

from __future__ import annotations

import io
import tomllib
import urllib.parse
import zipfile

import pytest

import engine
from tests.e2e.conftest import ROOT, BrowserLog, fail_first, watch, watch_page
from tests.e2e.table_helpers import Log, TablePage, first_move

COMPILED = "/vendor/pyodide/python_stdlib_compiled.zip"
PLAIN = "/vendor/pyodide/python_stdlib.zip"
REST = "/vendor/pyodide/python_stdlib_rest.zip"
VERDICT_JS = ("() => ['won', 'lost', 'unknown'].includes("
              "document.documentElement.dataset.verdict)")
REPORT = "window.ppSolverReport"
LISTS_READ_JS = ("() => document.getElementById('menu-winnable-note').textContent"
                 ".includes('proved winnable')")


def open_menu_on(page, variant: str) -> None:
    page.click('[data-action="new"]')
    page.check(f'#menu-variants input[value="{variant}"]')


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
    """The URL path of every request the page and its workers make from now on."""
    paths: list[str] = []
    page.on("request", lambda request: paths.append(urllib.parse.urlsplit(request.url).path))
    return paths


def solved(page, variant: str = "spider-1", seed: int = 4) -> TablePage:
    """Open a deal, play a move in the page (compared with CPython), and wait for the
    solver's worker to give the position its verdict."""
    table = TablePage(page, Log())
    game = table.open(variant, seed)
    table.check(game)
    move = first_move(game)
    if move is None:  # only the stock moves (a Doublets deal may start so)
        move = next(m for m in game.legal_moves() if m.src == "stock")
        table.click_pile("stock")
    else:
        table.drag(move.src, table.count(move.src) - move.count, move.dst)
    game.play(move)
    table.check(game)
    table.wait_solver()
    page.wait_for_function(VERDICT_JS, timeout=120_000)
    return table


def test_the_worker_loads_the_compiled_standard_library_and_solves(page):
    paths = record_paths(page)
    solved(page)
    report = page.evaluate(REPORT)
    assert report["stdlib"] == "compiled" and "stdlibProblem" not in report
    assert paths.count(COMPILED) == 1
    assert PLAIN not in paths  # not downloaded as well
    # Every file of the worker's list was fetched once.
    config = tomllib.loads((ROOT / "pyscript.toml").read_text())
    for url in [*config["files"], *config["files_after_start"]]:
        assert paths.count("/" + url.removeprefix("./")) == 1, url


def test_without_the_compiled_library_the_plain_one_is_used(page, browser_log: BrowserLog):
    paths = record_paths(page)
    page.route(f"**{COMPILED}", lambda route: route.fulfill(status=404, body="not here"))
    solved(page)
    assert page.evaluate(REPORT)["stdlib"] == "plain"
    assert PLAIN in paths
    # Nothing is logged but, maybe, the refused file.
    assert all("404" in text for text in browser_log.console_errors), browser_log.console_errors
    browser_log.console_errors.clear()


def test_a_failed_download_of_the_compiled_library_is_tried_once_more(page, browser_log):
    """Seen under load: a download of the zip failing with "Failed to fetch"."""
    paths = record_paths(page)
    failed: list[str] = []
    page.route(f"**{COMPILED}", fail_first(failed))
    solved(page)
    report = page.evaluate(REPORT)
    assert failed and report["stdlib"] == "compiled"
    assert "Failed to fetch" in report["stdlibProblem"]
    assert paths.count(COMPILED) == 2 and PLAIN not in paths
    assert all("net::ERR_FAILED" in text for text in browser_log.console_errors), (
        browser_log.console_errors)
    browser_log.console_errors.clear()


@pytest.mark.parametrize("variant", engine.VARIANTS)
def test_each_variant_is_solved_on_the_cut_library(page, variant):
    """The compiled zip holds the worker's whole import closure: for a deal link of every
    variant the solver gives a verdict and reads its lists without a module of the rest;
    the rest is fetched once, in the background, when the solver is first idle."""
    paths = record_paths(page)
    solved(page, variant, 3)
    if REST not in paths:
        page.wait_for_event("request", lambda r: r.url.endswith(REST), timeout=120_000)
    # The menu knows which games have proven-winnable deals: the lists were read.
    open_menu_on(page, "klondike")
    page.wait_for_function(LISTS_READ_JS, timeout=120_000)
    assert page.evaluate(REPORT)["rest"] is None
    assert paths.count(REST) == 1


def cut_without(name: str) -> tuple[bytes, bytes]:
    """The compiled zip with module ``name`` moved to a rest zip of its own (and named in
    the compiled zip's index of the rest), as if the cut had left it out."""
    entry = name.replace(".", "/") + ".pyc"
    core, rest = io.BytesIO(), io.BytesIO()
    source = ROOT / "vendor" / "pyodide" / "python_stdlib_compiled.zip"
    with zipfile.ZipFile(source) as whole, zipfile.ZipFile(core, "w") as new_core, \
            zipfile.ZipFile(rest, "w") as new_rest:
        assert entry in whole.namelist(), entry
        for info in whole.infolist():
            data = whole.read(info)
            if info.filename == entry:
                new_rest.writestr(info, data)
            elif info.filename == "python_stdlib_rest.txt":
                new_core.writestr(info, data.decode() + f"{name}\n")
            else:
                new_core.writestr(info, data)
    return core.getvalue(), rest.getvalue()


@pytest.mark.parametrize("held", [False, True], ids=["in-the-background", "at-once"])
def test_a_module_outside_the_cut_imports_from_the_rest(page, held):
    """A module the compiled zip does not hold (here the ASCII codec, which reading the
    solver's lists of deals needs) is imported from the rest of the library: the one
    downloaded when the solver was idle, or, when that download has not come (held
    here), one fetched at once, synchronously; the lists are read either way."""
    core, rest = cut_without("encodings.ascii")
    page.route(f"**{COMPILED}", lambda route: route.fulfill(
        status=200, body=core, content_type="application/zip"))
    gate: list = []

    def serve_rest(route):
        if held and route.request.resource_type == "fetch":
            gate.append(route)  # the background download never comes
        else:
            route.fulfill(status=200, body=rest, content_type="application/zip")

    page.route(f"**{REST}", serve_rest)
    solved(page, "klondike", 7)
    open_menu_on(page, "klondike")
    page.wait_for_function(LISTS_READ_JS, timeout=120_000)
    report = page.evaluate(REPORT)
    assert report["restFirst"] == "encodings.ascii"
    # Held, the background download never came: the import fetched the rest itself.
    assert report["rest"] in (("sync",) if held else ("background", "sync"))
    for route in gate:
        route.abort()
