"""A start that cannot finish because a file did not arrive (a dropped connection on a
phone network) says which file, offers "Try again", and trying again loses nothing.

Without this, a failed script or module left the loading screen at its last stage for
ever, and a failed style sheet drew the table unstyled."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import READY_TIMEOUT_MS
from tests.e2e.startup_trail import wait_for_table, wait_until_ready
from tests.e2e.test_table_a11y import AXE, AXE_RUN_JS, AXE_TAGS

CARDS_JS = "() => document.querySelectorAll('[data-card]').length"

# The request that fails, and the files the loading screen may name: a module the head
# preloads is named itself when its preload fails after the loading screen's script ran,
# else by the script that imports it, whose element fails in turn.
LOADER = "web/start/micropython-loader.mjs"
FAILURES = [
    (LOADER, (LOADER,)),
    ("vendor/micropython/micropython.mjs", ("vendor/micropython/micropython.mjs", LOADER)),
    ("web/table/table.js", ("web/table/table.js",)),
    ("web/table/board.js", ("web/table/board.js", "web/table/table.js")),
    ("web/start/solver.js", ("web/start/solver.js",)),
    ("web/table/table.css", ("web/table/table.css",)),
    ("web/main.py", ("web/main.py",)),
    # Both the early download and MicroPython's own fetch of it fail.
    ("vendor/micropython/micropython.wasm", ("vendor/micropython/micropython.wasm",)),
]


def fails_to_start(page, named: tuple[str, ...]) -> None:
    """The page ends in error, naming one of ``named``, with "Try again" focused and no
    table."""
    assert wait_until_ready(page, READY_TIMEOUT_MS) == "error"
    stage = page.text_content("#loading-stage")
    assert "could not start" in stage, stage
    assert any(f"did not arrive: {name}.\n" in stage for name in named), stage
    assert page.evaluate("document.activeElement.dataset.action") == "retry"
    assert page.is_visible('#loading [data-action="retry"]')
    assert page.evaluate(CARDS_JS) == 0


def try_again(page, browser_log, press) -> None:
    """Try again, then wait for the table. What the failed page logged (the failed load, the
    start's own failure as an uncaught error, which may come after the press) has all been
    heard once the new page has replaced it, and is let pass; anything the new start logs
    fails the test."""
    with page.expect_navigation(wait_until="commit"):
        press()
    browser_log.console_errors.clear()
    browser_log.page_errors.clear()
    wait_for_table(page, READY_TIMEOUT_MS)


@pytest.mark.parametrize(("failing", "named"), FAILURES, ids=[f for f, _ in FAILURES])
def test_a_file_that_does_not_arrive_is_named_and_trying_again_starts(
        page, browser_log, failing, named):
    page.context.route(f"**/{failing}", lambda route: route.abort("connectionreset"))
    page.goto("/?game=klondike&deal=7", wait_until="commit")
    fails_to_start(page, named)

    page.context.unroute(f"**/{failing}")
    try_again(page, browser_log, lambda: page.keyboard.press("Enter"))  # the focused button
    assert page.evaluate(CARDS_JS) == 52


def test_trying_again_after_a_failed_start_brings_back_the_game_in_progress(
        app, page, browser_log):
    app.open("?game=klondike&deal=7")
    page.evaluate("window.ppTable.act('stock')")
    page.evaluate("window.ppTable.act('stock')")
    before = app.piles()

    page.context.route("**/web/table/table.js", lambda route: route.abort("connectionreset"))
    page.reload(wait_until="commit")
    fails_to_start(page, ("web/table/table.js",))

    page.context.unroute("**/web/table/table.js")
    try_again(page, browser_log, lambda: page.click('[data-action="retry"]'))
    assert app.piles() == before


def test_the_failed_start_has_no_axe_violation(browser, base_url):
    context = browser.new_context(base_url=base_url, bypass_csp=True, service_workers="block",
                                  viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        context.route("**/web/table/table.js", lambda route: route.abort("connectionreset"))
        page.goto("/", wait_until="commit")
        fails_to_start(page, ("web/table/table.js",))
        page.add_script_tag(path=str(AXE))
        assert page.evaluate(AXE_RUN_JS, AXE_TAGS) == []
    finally:
        context.close()


def test_a_stray_error_during_the_start_does_not_keep_the_table_away(page, browser_log):
    """Only a file that did not arrive stops the start for good: an uncaught error of any
    other kind is shown, and the table that comes after it plays."""
    page.add_init_script(
        "addEventListener('DOMContentLoaded', () => { throw new Error('stray'); });")
    page.goto("/?game=klondike&deal=7", wait_until="commit")
    # (Not wait_for_table: the error is on screen first, until the table comes.)
    page.wait_for_function("() => document.documentElement?.dataset.app === 'ready'",
                           timeout=READY_TIMEOUT_MS)
    assert page.evaluate(CARDS_JS) == 52
    assert browser_log.page_errors == ["stray"]
    browser_log.page_errors.clear()


# A request held unanswered: a connection that hangs rather than drops. The test's clock
# (Playwright's, installed before the page loads) jumps over the loading screen's wait.
WASM = "**/vendor/micropython/micropython.wasm"
STALL_JUMP = "00:20"  # past the loading screen's wait for a stalled start (15 s)
SLOW_JS = "() => !!document.getElementById('loading-slow')"


def hangs(page) -> list:
    """Hold the wasm's request unanswered, open the page, and jump the clock past the
    loading screen's wait; the held routes (to let go of with ``continue_``)."""
    held: list = []
    page.context.route(WASM, lambda route: held.append(route))
    page.clock.install()
    page.goto("/?game=klondike&deal=7", wait_until="commit")
    page.wait_for_function("() => document.getElementById('loading-stage')?.textContent"
                           " === 'Loading Python…'")
    assert not page.evaluate(SLOW_JS)  # (nothing said before the wait is over)
    page.clock.fast_forward(STALL_JUMP)
    page.wait_for_function(SLOW_JS)
    assert len(held) == 1
    return held


def says_it_is_slow(page) -> None:
    """Still loading, with the note and a focused "Try again" in sight (above the last
    table's picture, if one was painted), and no table yet."""
    assert page.evaluate("document.documentElement.dataset.app") == "loading"
    assert "taking longer than usual" in page.text_content("#loading-slow")
    assert page.is_visible("#loading-slow")
    assert page.evaluate("document.activeElement.dataset.action") == "retry"
    assert page.is_visible('#loading [data-action="retry"]')
    assert not page.is_visible("#picture")
    assert page.evaluate("document.querySelectorAll('#app [data-card]').length") == 0


def test_a_start_that_hangs_says_so_and_goes_on_when_the_file_comes(page):
    held = hangs(page)
    says_it_is_slow(page)
    held[0].continue_()
    page.context.unroute(WASM)
    wait_for_table(page, READY_TIMEOUT_MS)
    assert page.evaluate(CARDS_JS) == 52
    assert not page.evaluate(SLOW_JS)
    assert page.locator('[data-action="retry"]').count() == 0


def test_trying_again_after_a_hang_brings_back_the_game_in_progress(app, page, browser_log):
    app.open("?game=klondike&deal=7")
    page.evaluate("window.ppTable.act('stock')")
    before = app.piles()

    hangs(page)
    assert page.evaluate("document.documentElement.dataset.picture") == "shown"
    says_it_is_slow(page)
    page.context.unroute(WASM)
    try_again(page, browser_log, lambda: page.keyboard.press("Enter"))  # the focused button
    assert app.piles() == before
