"""The solver in the page's worker (docs/solver.md §12), against the CPython solver.

Each test waits for the worker (it starts once the table is playable) before asking it.

- Hint first asks the solver: on a deal the solver wins quickly the highlighted move is
  the first move of the CPython solver's line; the search is the worker's, off the main
  thread (the page fetches none of the solver's files), and a move made meanwhile
  cancels it.
- "Winnable deals only" (New Game menu, per game) deals a number from the shipped list,
  and is greyed out with a reason for a game without a list.
- "This game can no longer be won" appears on a position the CPython solver proves lost
  (resumed from the autosave) and goes away on Undo.
"""

from __future__ import annotations

import engine
from engine import Move
from tests.e2e.table_helpers import (  # noqa: F401 (fixtures)
    APP_SHOWN_JS,
    PAGE_FILES_JS,
    READY_MS,
    WORKER_ANSWERS_JS,
    _desk,
    _table,
    first_move,
    make_session,
)

HINT_JS = """() => {
    const from = [...document.querySelectorAll('[data-hint="from"]')];
    const to = document.querySelector('[data-pile][data-hint="to"]');
    if (!from.length) return null;
    const cards = from.filter((el) => el.dataset.card !== undefined);
    const src = cards.length ? cards[0].closest('[data-pile]').dataset.pile
        : from[0].dataset.pile;
    return {src, count: cards.length, dst: to ? to.dataset.pile : null};
}"""
HINT_SHOWN_JS = "() => !!document.querySelector('[data-hint]')"
HINT_IDLE_JS = """() => !!document.querySelector('[data-hint]')
    && !document.querySelector('[data-action="hint"][aria-busy]')"""
LOST_SHOWN_JS = "() => !document.getElementById('lost').hidden"
WON_JS = "() => document.documentElement.dataset.verdict === 'won'"

# Beleaguered Castle deal 202: won by the solver in a few hundred positions; after t3-t4
# (which is what the heuristic hint suggests) the solver proves it lost at once.
CASTLE_DEAL, LOSING_MOVE = 202, Move("t3", "t4")
# Deals the solver cannot settle within a hint's budget: the search uses all of it. Each is
# undecided after 150,000 positions, several times what a hint's 400 ms expands on a quick
# machine; the tests check HARD_NODES of them (counted, not timed). (One per test: the page
# remembers what it found about a position, even across new games.)
HARD, HARD_TOO, HARD_THREE = [("spider-4", n) for n in (20, 26, 27)]
HARD_NODES = 50_000
FORGET_SW_JS = """async () => {
    for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
    for (const key of await caches.keys()) await caches.delete(key);
}"""
# A new deal and Hint asked for (the H key, or a click on the button) in one task of the
# page: the worker hears of the deal together with the hint's request, so it has settled
# nothing of it yet (its watch keeps the rules' move as the hint after 2 s of its time and
# sends it unasked, and a test's steps may let that pass). It gives the Hint button's
# aria-busy as the same task left it: read by a later call, it may be gone already, as
# the worker's answer to a hint can come within a round trip of a busy machine's test.
NEW_THEN_HINT_JS = """([variant, seed, how]) => {
    window.ppTable.act('new', {variant, seed});
    const button = document.querySelector('[data-action="hint"]');
    if (how === 'key') {
        document.dispatchEvent(new KeyboardEvent('keydown', {key: 'h', bubbles: true}));
    } else {
        button.click();
    }
    return button.getAttribute('aria-busy');
}"""
# The solver's worker, held back by a test until it lets it start (its script not served)
WORKER_SCRIPT = "**/solver-worker.mjs"


def test_hint_highlights_the_first_move_of_the_solvers_line(table):
    game = table.new("beleaguered-castle", CASTLE_DEAL)
    answer = engine.solve(game, budget_ms=5000)
    assert answer.result == "won"
    assert answer.moves[0] != engine.hint(game)  # the heuristic would show another move
    table.wait_solver()  # (before it is up, Hint gives the heuristic's move)
    # the watch has the line: else Hint starts a search of its own, which a loaded
    # machine may not finish within the hint's budget (then the heuristic's move shows)
    table.page.wait_for_function(WON_JS, timeout=30_000)
    table.page.keyboard.press("h")
    table.page.wait_for_function(HINT_SHOWN_JS)
    first = answer.moves[0]
    assert table.page.evaluate(HINT_JS) == {"src": first.src, "dst": first.dst,
                                            "count": first.count}
    assert table.announced().startswith("Hint")
    table.check(game)


def test_the_hint_on_a_hard_deal_is_searched_by_the_worker_not_the_page(browser, base_url):
    """DESIGN budget "no long task over 50 ms" while the solver thinks: the hint's search
    is the solver worker's, in slices there. The page asks, waits with the button busy and
    shows the worker's answer (the rules' move: the search did not settle this deal);
    it fetches none of the solver's files. (How long the page's tasks take is a time, for
    the benchmarks: bench/latency.py counts the long tasks of play.)"""
    game = engine.new_game(*HARD)
    assert engine.solve(game, budget_ms=60_000, max_nodes=HARD_NODES).result == "unknown"
    context, table = make_session(browser, base_url)
    try:
        page = table.page
        page.add_init_script(WORKER_ANSWERS_JS)
        table.goto()
        table.wait_solver()
        hints = "() => window.__workerAnswers.filter((a) => a.kind === 'hint').length"
        before = page.evaluate(hints)  # (of the deal the page opened with)
        assert page.evaluate(NEW_THEN_HINT_JS, [*HARD, "click"]) == "true"
        page.wait_for_function(HINT_IDLE_JS, timeout=READY_MS)
        # (Its answer; a second one if the page asked again before the first came, as it
        # may while the worker catches up with the new deal: the page shows the newest.)
        assert page.evaluate(hints) >= before + 1
        shown = page.evaluate(HINT_JS)
        hint = engine.hint(game)  # undecided: the heuristic's move
        assert shown["src"] == hint.src and (hint.src == "stock" or shown["dst"] == hint.dst)
        pages_files = page.evaluate(PAGE_FILES_JS)
        assert [f for f in pages_files if "/engine/solver/" in f] == []
        table.check(game)
        assert not table.log.problems, table.log.problems
    finally:
        context.close()


def test_a_move_during_the_hint_search_cancels_it(table):
    # (the check that the hint needs a search comes first: the page's watch, which keeps
    # the heuristic's hint once its 20,000 positions are done, starts with the deal)
    assert engine.solve(engine.new_game(*HARD_TOO), budget_ms=60_000,
                        max_nodes=HARD_NODES).result == "unknown"
    page = table.page
    if not page.evaluate(APP_SHOWN_JS):
        table.goto()
    table.wait_solver()  # (before it is up, Hint gives the rules' move at once)
    game = engine.new_game(*HARD_TOO)
    assert page.evaluate(NEW_THEN_HINT_JS, [*HARD_TOO, "key"]) == "true"
    table.click_pile("stock")  # a Spider deal, while the solver searches
    game.play(Move("stock", "tableau", 10))
    table.check(game)
    page.wait_for_function(
        "() => !document.querySelector('[data-action=\"hint\"][aria-busy]')", timeout=5000)
    page.wait_for_timeout(200)
    assert page.locator("[data-hint]").count() == 0  # no hint for a position now gone
    table.check(game)


def test_a_drag_during_the_hint_search_is_not_cut_short(table):
    game = table.new(*HARD_THREE)
    assert engine.solve(game, budget_ms=60_000, max_nodes=HARD_NODES).result == "unknown"
    move = first_move(game, lambda m: m.count == 1)
    page = table.page
    page.keyboard.press("h")
    x0, y0 = table.grab_point(move.src, table.count(move.src) - 1)
    x1, y1 = table.drop_point(move.dst)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
    page.wait_for_timeout(800)  # longer than the hint's search
    card = table.card(move.src, table.count(move.src) - 1).bounding_box()
    assert abs(card["x"] + card["width"] / 2 - (x0 + x1) / 2) < card["width"]  # still held
    page.mouse.move(x1, y1, steps=4)
    page.mouse.up()
    game.play(move)
    table.check(game)
    page.wait_for_function(
        "() => !document.querySelector('[data-action=\"hint\"][aria-busy]')", timeout=5000)
    assert page.locator("[data-hint]").count() == 0


def open_menu_on(table, variant: str) -> None:
    table.page.click('[data-action="new"]')
    table.page.check(f'#menu-variants input[value="{variant}"]')


def wait_lists_known(table) -> None:
    """The menu (open) got the winnable lists' sizes: the solver's worker sends them once
    it has settled the position in play; until then the box waits for it."""
    table.page.wait_for_function(
        """() => !document.getElementById('menu-winnable-note').textContent
            .includes('until the solver has started')""", timeout=READY_MS)


def test_winnable_only_deals_a_number_from_the_shipped_list(browser, base_url):
    variant = "klondike"
    assert engine.winnable_deals(variant), "klondike ships a winnable-deal list"
    # The lists' sizes come from the solver's worker: until it is up, the box waits. The
    # worker is held back until the menu has been seen waiting (its script is not served
    # meanwhile; no service worker, which would serve it from its cache).
    context, table = make_session(browser, base_url, service_workers="block")
    page = table.page
    try:
        held: list = []
        page.route(WORKER_SCRIPT, lambda route: held.append(route))
        table.goto(fresh=True)
        open_menu_on(table, variant)
        box = page.locator("#menu-winnable")
        assert "until the solver has started" in table.text("#menu-winnable-note")
        assert box.is_disabled()
        for route in held:
            route.continue_()
        page.unroute(WORKER_SCRIPT)
        wait_lists_known(table)
        assert box.is_enabled() and not box.is_checked()
        box.check()
        assert "proved winnable" in table.text("#menu-winnable-note")
        # The note points at the deal-number box where it really is: below the note.
        note_box = page.locator("#menu-winnable-note").bounding_box()
        deal_box = page.locator("#menu-deal").bounding_box()
        assert deal_box["y"] > note_box["y"] + note_box["height"]
        assert "typed below" in table.text("#menu-winnable-note")
        page.click('[data-menu="deal"]')
        state = page.evaluate("() => window.ppTable.act('state')")
        assert state["variant"] == variant
        assert state["seed"] in engine.winnable_deals(variant)
        assert variant in state["settings"]["winnable"]
        assert not table.log.problems, table.log.problems
    finally:
        context.close()


def test_winnable_only_is_greyed_out_for_a_game_without_a_list(table):
    """A game whose list is empty (here: served empty) offers no "winnable only" deal."""
    bare = "doublets"
    listed = f"**/engine/solver/data/winnable-{bare}.txt"
    page = table.page
    empty = "# no deals yet\n"

    if not page.evaluate(APP_SHOWN_JS):  # (the module's page, maybe still blank)
        table.goto()
    page.route(listed, lambda route: route.fulfill(status=200, body=empty))
    page.evaluate(FORGET_SW_JS)  # so that the worker fetches the list, as on a first visit
    try:
        table.goto(fresh=True)
        table.wait_solver()
        open_menu_on(table, bare)
        wait_lists_known(table)
        assert table.page.locator("#menu-winnable").is_disabled()
        assert table.text("#menu-winnable-note").startswith(
            "Not available for Doublets: no deals proved winnable")
        table.close_dialogs()
    finally:
        page.unroute(listed)
    table.goto(fresh=True)
    table.wait_solver()
    open_menu_on(table, bare)
    wait_lists_known(table)
    assert table.page.locator("#menu-winnable").is_enabled()
    table.close_dialogs()


def test_notice_on_a_position_the_solver_proves_lost_and_undo_clears_it(table):
    game = engine.new_game("beleaguered-castle", CASTLE_DEAL)
    assert engine.solve(game, budget_ms=5000).result == "won"
    game.play(LOSING_MOVE)
    assert engine.solve(game, budget_ms=5000).result == "lost"
    assert game.status == "playing"  # moves are left: the rules alone do not end it
    table.load(game)
    page = table.page
    page.wait_for_function(LOST_SHOWN_JS, timeout=10_000)
    assert table.text("#lost-text") == "This game can no longer be won."
    assert page.evaluate("document.documentElement.dataset.verdict") == "lost"
    assert page.locator("#end[open]").count() == 0  # quiet: no dialog
    table.record_shown()
    page.click("#lost-undo")
    game.undo()
    table.check(game)
    assert not page.evaluate(LOST_SHOWN_JS)
    # The solver's own answer for the position the undo went back to, shown.
    assert table.settled_verdict()["verdict"] == "won"  # the deal itself can be won
    assert not page.evaluate(LOST_SHOWN_JS)
    # From the undo's own render on the notice stayed away and the lost verdict with it.
    shown = table.shown(game)
    assert shown and all(not s["lost"] and s["verdict"] in ("", "won") for s in shown), shown
