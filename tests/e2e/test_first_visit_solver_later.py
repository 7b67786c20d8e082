"""The solver (engine/solver/: modules and lists of deals) and Pyodide are not on the first
table's critical path: the page (MicroPython, its bytecode) fetches nothing of them before it
is playable; then web/start/solver.js starts the solver's worker, which fetches Pyodide and
the files of pyscript.toml (docs/architecture.md §8). Until the worker answers, Hint gives
the rules' own hint; a daily link's deal opens at once and is named that date's daily once
the worker is up."""

from __future__ import annotations

import re
import urllib.parse

import pytest

import engine
from engine.solver.daily import daily_deal
from tests.e2e.conftest import ROOT, watch, watch_page
from tests.e2e.table_helpers import READY_MS, Log, TablePage

SOLVER = "/engine/solver/"
PYODIDE = "/vendor/pyodide/"
READY = "(data-app ready)"
# Calls window.ppReadyMark once the page says it is playable.
MARK_READY_JS = """
new MutationObserver((_, observer) => {
  if (document.documentElement?.dataset.app === "ready") {
    observer.disconnect();
    window.ppReadyMark();
  }
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-app"] });
"""
HINT_SHOWN_JS = "() => !!document.querySelector('[data-hint]')"
HINT_JS = """() => {
    const from = [...document.querySelectorAll('[data-hint="from"]')];
    const to = document.querySelector('[data-pile][data-hint="to"]');
    const cards = from.filter((el) => el.dataset.card !== undefined);
    if (!cards.length) return null;
    return {src: cards[0].closest('[data-pile]').dataset.pile, count: cards.length,
            dst: to ? to.dataset.pile : null};
}"""
HINT_IS_JS = """(want) => { const shown = (""" + HINT_JS + """)();
    return !!shown && ['src', 'dst', 'count'].every((k) => shown[k] === want[k]); }"""
WORKER_UP_JS = "() => performance.getEntriesByName('pp:solver-ready').length > 0"
# The solver settled the position in play (its searches import their modules first).
WINNABLE_JS = "() => document.getElementById('st-verdict').innerText === 'Winnable'"
WORKER_STARTED_JS = "() => performance.getEntriesByName('pp:solver-start').length > 0"
# Beleaguered Castle deal 202: the solver wins it in a few hundred positions, and its
# first move is not the one the heuristic hint suggests.
CASTLE_DEAL = 202


def worker_files() -> list[str]:
    """The paths of the files the worker writes into Pyodide's file system (both tables
    of pyscript.toml)."""
    text = (ROOT / "pyscript.toml").read_text()
    return ["/" + url for url in re.findall(r'^"\./([^"]+)"\s*=', text, re.M)]


@pytest.fixture
def page(browser, base_url, browser_log):
    """A first visit (no service worker), the requests it and its worker make recorded in
    order in ``page.paths`` with READY marking when the page became playable."""
    context = browser.new_context(base_url=base_url, service_workers="block",
                                  reduced_motion="reduce")
    watch(context, browser_log, base_url)
    page = context.new_page()
    watch_page(page, browser_log)
    paths: list[str] = []
    context.on("request", lambda request: paths.append(urllib.parse.urlsplit(request.url).path))
    page.expose_function("ppReadyMark", lambda: paths.append(READY))
    page.add_init_script(MARK_READY_JS)
    page.paths = paths
    yield page
    context.close()
    assert not browser_log.problems(), "\n".join(browser_log.problems())


def solvers_first_move() -> dict:
    game = engine.new_game("beleaguered-castle", CASTLE_DEAL)
    first = engine.solve(game, budget_ms=5000).moves[0]
    assert first != engine.hint(game)  # the heuristic would show another move
    return {"src": first.src, "dst": first.dst, "count": first.count}


def test_no_solver_file_nor_pyodide_comes_before_the_table_and_the_worker_gets_them(page):
    held: list = []
    worker = "**/web/start/solver-worker.mjs"
    page.context.route(worker, lambda route: held.append(route))  # (until looked at)
    table = TablePage(page, Log())
    table.open("beleaguered-castle", CASTLE_DEAL)
    page.wait_for_function(WORKER_STARTED_JS)
    page.wait_for_timeout(500)
    # The page's own requests, to the table and a while after it: none of the solver's.
    paths = list(page.paths)
    assert READY in paths and held
    assert "/build/mpy/first-table.pack" in paths
    assert not [path for path in paths if SOLVER in path or PYODIDE in path]
    page.context.unroute(worker)
    for route in held:
        route.continue_()
    page.wait_for_function(WORKER_UP_JS, timeout=READY_MS)
    after = page.paths[len(paths):]
    assert "/pyscript.toml" in after and [path for path in after if PYODIDE in path]
    files = worker_files()
    assert "/engine/solver/data/winnable-klondike.txt" in files and "/web/desk.py" in files
    for path in files:
        assert page.paths.count(path) == 1, path
    # The solver answers: its verdict, its hint, and its lists (the menu's note).
    page.wait_for_function(WINNABLE_JS, timeout=READY_MS)
    page.keyboard.press("h")
    page.wait_for_function(HINT_IS_JS, arg=solvers_first_move())
    page.click('[data-action="new"]')
    page.check('#menu-variants input[value="beleaguered-castle"]')
    count = len(engine.winnable_deals("beleaguered-castle"))
    page.wait_for_function("(n) => document.getElementById('menu-winnable-note').textContent"
                           ".includes(`drawn from ${n.toLocaleString('en')} deal numbers`)",
                           arg=count, timeout=READY_MS)
    table.close_dialogs()


def test_a_hint_pressed_before_the_worker_is_up_gives_the_rules_hint(page):
    held: list = []
    # The worker's Pyodide waits.
    page.context.route(f"**{PYODIDE}**", lambda route: held.append(route))
    table = TablePage(page, Log())
    table.open("beleaguered-castle", CASTLE_DEAL)
    page.wait_for_function(WORKER_STARTED_JS)
    game = engine.new_game("beleaguered-castle", CASTLE_DEAL)
    heuristic = engine.hint(game)
    page.keyboard.press("h")
    page.wait_for_function(HINT_SHOWN_JS)
    assert page.evaluate(HINT_JS) == {"src": heuristic.src, "dst": heuristic.dst,
                                      "count": heuristic.count}
    assert table.announced().startswith("Hint")
    assert not page.evaluate(WORKER_UP_JS)
    page.context.unroute(f"**{PYODIDE}**")
    for route in held:  # Pyodide comes now: the worker starts, and Hint asks the solver
        route.continue_()
    page.wait_for_function(WINNABLE_JS, timeout=READY_MS)
    page.keyboard.press("h")
    page.wait_for_function(HINT_IS_JS, arg=solvers_first_move())
    table.check(game)


def test_a_daily_link_opens_without_the_solver_and_is_checked_once_the_worker_is_up(page):
    """The first table of a daily link needs no solver file: its deal opens at once, and
    the worker finds that date's daily once it is up; then the table is that date's
    daily."""
    day = "2026-12-02"
    seed = daily_deal("klondike", day)
    table = TablePage(page, Log())
    table.goto(f"?game=klondike&deal={seed}&daily={day}", fresh=True)
    state = page.evaluate("() => window.ppTable.act('state')")
    assert (state["variant"], state["seed"], state.get("daily")) == ("klondike", seed, "")
    before = page.paths[:page.paths.index(READY)]
    assert not [path for path in before if SOLVER in path or PYODIDE in path]
    page.wait_for_function("(day) => window.ppTable.act('state').daily === day", arg=day,
                           timeout=120_000)
    assert page.evaluate(WORKER_UP_JS)
    assert page.paths.count("/engine/solver/data/daily-klondike.txt") == 1


def test_a_solver_that_cannot_start_is_said_in_the_menu_and_the_table_plays_on(
        page, browser_log):
    """Without the worker's script, the menu's winnable-deals note says the solver could not
    start (not "in a moment", forever), and Hint still gives the rules' hint."""
    page.context.route("**/web/start/solver-worker.mjs",
                       lambda route: route.fulfill(status=404, body="gone"))
    table = TablePage(page, Log())
    table.open("klondike", 3)
    page.wait_for_function("() => performance.getEntriesByName('pp:solver-error').length > 0")
    page.click('[data-action="new"]')
    page.check('#menu-variants input[value="beleaguered-castle"]')
    note = page.locator("#menu-winnable-note")
    assert "the solver could not start" in note.text_content()
    assert page.is_disabled("#menu-winnable")
    table.close_dialogs()
    game = engine.new_game("klondike", 3)
    heuristic = engine.hint(game)
    page.keyboard.press("h")
    page.wait_for_function(HINT_SHOWN_JS)
    shown = page.evaluate(HINT_JS)
    assert shown["src"] == heuristic.src
    # The failure went to the console, and only it.
    assert browser_log.console_errors
    assert all("solver" in text or "404" in text or "Failed to load" in text
               for text in browser_log.console_errors), browser_log.console_errors
    browser_log.console_errors.clear()
    browser_log.page_errors.clear()
