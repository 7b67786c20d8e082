"""The solver (engine/solver/: modules and lists of deals) is not on the first table's
critical path: PyScript copies only the [files] table of pyscript.toml; the loader
(web/start/pyodide-loader.mjs) writes the [files_after_start] table into Python's file
system once the table is playable, or at once, with synchronous downloads, when Python
imports the solver before that (a Hint pressed at once)."""

from __future__ import annotations

import tomllib
import urllib.parse

import pytest

import engine
from engine.solver.daily import daily_deal
from tests.e2e.conftest import ROOT, watch, watch_page
from tests.e2e.table_helpers import Log, TablePage

SOLVER = "/engine/solver/"
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
    return {src: cards[0].closest('[data-pile]').dataset.pile, count: cards.length,
            dst: to ? to.dataset.pile : null};
}"""
LATER_JS = "() => window.__pyodideStart.later !== undefined"
# Beleaguered Castle deal 202: the solver wins it in a few hundred positions, and its
# first move is not the one the heuristic hint suggests.
CASTLE_DEAL = 202


def later_files() -> list[str]:
    table = tomllib.loads((ROOT / "pyscript.toml").read_text())["files_after_start"]
    return ["/" + url.removeprefix("./") for url in table]


@pytest.fixture
def page(browser, base_url, browser_log):
    """A first visit (no service worker), the requests it makes recorded in order in
    ``page.paths`` with READY marking when the page became playable."""
    context = browser.new_context(base_url=base_url, service_workers="block",
                                  reduced_motion="reduce")
    watch(context, browser_log, base_url)
    page = context.new_page()
    watch_page(page, browser_log)
    paths: list[str] = []
    page.on("request", lambda request: paths.append(urllib.parse.urlsplit(request.url).path))
    page.expose_function("ppReadyMark", lambda: paths.append(READY))
    page.add_init_script(MARK_READY_JS)
    page.paths = paths
    yield page
    context.close()
    assert not browser_log.problems(), "\n".join(browser_log.problems())


def castle_hint(table: TablePage) -> None:
    """Press Hint on the open Castle deal: the solver's first move is highlighted."""
    game = engine.new_game("beleaguered-castle", CASTLE_DEAL)
    first = engine.solve(game, budget_ms=5000).moves[0]
    assert first != engine.hint(game)
    table.page.keyboard.press("h")
    table.page.wait_for_function(HINT_SHOWN_JS)
    assert table.page.evaluate(HINT_JS) == {"src": first.src, "dst": first.dst,
                                            "count": first.count}


def test_no_solver_file_comes_before_the_table_and_the_solver_works_after(page):
    table = TablePage(page, Log())
    table.open("beleaguered-castle", CASTLE_DEAL)
    page.wait_for_function(LATER_JS)
    start = page.evaluate("window.__pyodideStart")
    assert (start["later"], start["laterWhen"]) == ("background", "ready")
    paths = page.paths
    assert READY in paths
    before = paths[:paths.index(READY)]
    assert "/pyscript.toml" in before and "/engine/rules/game.py" in before
    assert not [path for path in before if SOLVER in path]
    files = later_files()
    assert len(files) > 20 and "/engine/solver/data/winnable-klondike.txt" in files
    for path in files:
        assert paths.count(path) == 1, path
    castle_hint(table)
    # The solver's lists are there too: the page knows the deal is a winnable one.
    listed = page.evaluate("""() => window.__pyodideStart.interpreter.runPython(
        "from engine.solver.winnable import winnable_deals\\n" +
        "len(winnable_deals('beleaguered-castle'))")""")
    assert listed == len(engine.winnable_deals("beleaguered-castle"))


def test_a_daily_link_opens_without_the_solver_and_is_checked_after_the_table(page):
    """The first table of a daily link needs no solver file: its deal opens at once, and
    the page finds that date's daily once the solver's files have come in the background,
    then names the table that date's daily."""
    day = "2026-12-02"
    seed = daily_deal("klondike", day)
    table = TablePage(page, Log())
    table.goto(f"?game=klondike&deal={seed}&daily={day}", fresh=True)
    state = page.evaluate("() => window.ppTable.act('state')")
    assert (state["variant"], state["seed"]) == ("klondike", seed)
    before = page.paths[:page.paths.index(READY)]
    assert not [path for path in before if SOLVER in path]
    page.wait_for_function("(day) => window.ppTable.act('state').daily === day", arg=day,
                           timeout=120_000)
    start = page.evaluate("window.__pyodideStart")
    assert (start["later"], start["laterWhen"]) == ("background", "ready")


def test_a_hint_pressed_before_the_background_download_still_works(page):
    held: list = []

    def hold_background(route):
        if route.request.resource_type == "fetch":
            held.append(route)  # the background download never ends
        else:
            route.continue_()  # the synchronous one (an XMLHttpRequest)

    page.route(f"**{SOLVER}**", hold_background)
    table = TablePage(page, Log())
    table.open("beleaguered-castle", CASTLE_DEAL)
    castle_hint(table)
    start = page.evaluate("window.__pyodideStart")
    assert (start["later"], start["laterWhen"]) == ("sync", "ready")
    assert held
    for route in held:  # the background download ends now: the files stay as written
        route.continue_()
