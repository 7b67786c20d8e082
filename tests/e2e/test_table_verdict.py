"""The live verdict in the status bar and Back to winnable, in the page, against the
CPython solver (the positions and moves are those of tests/web/test_table_verdict.py).

- After a move the status bar's verdict says what the CPython solver finds: "Winnable",
  "Can't be won from here", at once on a winning line being followed; a verdict is said in
  its own polite live region, once (a move that keeps it says nothing); its words change
  and nothing else in the status bar moves.
- On a lost position "Back to winnable" says how many moves back the latest winnable
  position lies, undoes to it (the DOM shows that position), and Redo plays the moves
  again; a deal lost from its start offers no way back.

Long tasks while the verdict is settled are measured by bench/verdict.py (a figure of
time, not a test).
"""

from __future__ import annotations

import engine
from tests.e2e.table_helpers import _desk, _table  # noqa: F401 (fixtures)
from tests.e2e.test_table_solver import SETTLED_JS
from tests.web.test_table_verdict import DEAL, LAST_WINNABLE, LOST_DEAL, MOVES, solved

VARIANT = "beleaguered-castle"
VERDICT_IS_JS = "(words) => document.getElementById('st-verdict').innerText === words"
REWIND_READY_JS = """() => {
    const b = document.getElementById('lost-rewind');
    return !document.getElementById('lost').hidden && !b.hidden && !b.disabled;
}"""
# Every text the verdict's live region is given from now on.
SAID_JS = """() => {
    window.__said = [];
    new MutationObserver(() => window.__said.push(
        document.getElementById('verdict-live').textContent)).observe(
        document.getElementById('verdict-live'), {childList: true, characterData: true,
                                                 subtree: true});
}"""
BAR_JS = """() => [...document.querySelectorAll('.status > span:not(#st-verdict)')].map(
    (s) => { const r = s.getBoundingClientRect(); return [s.id, r.x, r.y, r.height]; })
    .concat([[document.querySelector('.status').getBoundingClientRect().height]])"""


def wait_verdict(table, words: str) -> None:
    table.page.wait_for_function(VERDICT_IS_JS, arg=words, timeout=30_000)


def play(table, game: engine.Game, move: engine.Move) -> None:
    """A drag of ``move`` in the page, and the same move on the CPython twin."""
    table.drag(move.src, table.count(move.src) - move.count, move.dst)
    game.play(move)
    table.check(game)


def test_the_verdict_after_each_move_is_the_solvers(table):
    game = table.new(VARIANT, DEAL)
    page = table.page
    wait_verdict(table, "Winnable")
    page.evaluate(SAID_JS)
    bars = [page.evaluate(BAR_JS)]
    for move in MOVES[:LAST_WINNABLE + 1]:
        play(table, game, move)
        bars.append(page.evaluate(BAR_JS))  # "Thinking…", or already settled
        expected = {"won": "Winnable", "lost": "Can't be won from here"}[solved(game)]
        wait_verdict(table, expected)
        assert page.evaluate("document.documentElement.dataset.verdict") == solved(game)
        bars.append(page.evaluate(BAR_JS))
    assert table.text("#st-verdict") == "Can't be won from here"
    # Said once each time it changed: "Winnable" was not repeated after the winnable moves.
    assert page.evaluate("window.__said") == ["Can't be won from here"]
    assert page.get_attribute("#verdict-live", "aria-live") == "polite"
    assert all(bar == bars[0] for bar in bars)  # its words moved nothing else in the bar


def test_a_followed_winning_line_is_winnable_at_once(table):
    game = table.new(VARIANT, DEAL)
    page = table.page
    wait_verdict(table, "Winnable")
    line = engine.solve(game, budget_ms=60_000).moves  # the page's solver finds the same
    page.evaluate(SAID_JS)
    for move in line[:4]:
        table.act("play", src=move.src, dst=move.dst, count=move.count)
        assert table.text("#st-verdict") == "Winnable"  # in the move's own render
        game.play(move)
    table.check(game)
    page.evaluate(SETTLED_JS)
    assert page.evaluate("window.__said") == []  # unchanged: nothing said


def test_back_to_winnable_undoes_to_the_latest_winnable_position(table):
    game = table.new(VARIANT, DEAL)
    page = table.page
    for move in MOVES:
        table.act("play", src=move.src, dst=move.dst, count=move.count)
        game.play(move)
    wait_verdict(table, "Can't be won from here")
    page.wait_for_function(REWIND_READY_JS, timeout=30_000)
    back = len(MOVES) - LAST_WINNABLE
    assert table.text("#lost-rewind") == f"Back to winnable · {back} moves back"
    assert page.get_attribute("#lost-rewind", "data-action") == "rewind"
    page.click("#lost-rewind")
    for _ in range(back):
        game.undo()
    assert solved(game) == "won"
    table.check(game)
    assert table.text("#st-verdict") == "Winnable"
    assert table.announced() == f"Back {back} moves: this position can be won."
    assert page.locator("#lost").is_hidden()
    for _ in range(back):  # a run of plain undos: Redo plays the moves again
        page.click('[data-action="redo"]')
        game.redo()
    table.check(game)
    assert table.text("#st-verdict") == "Can't be won from here"  # remembered
    page.wait_for_function(REWIND_READY_JS, timeout=30_000)
    assert table.text("#lost-rewind-back") == f"· {back} moves back"


def test_no_way_back_on_a_deal_lost_from_its_start(table):
    game = table.new(VARIANT, LOST_DEAL)
    assert solved(game) == "lost"
    wait_verdict(table, "Can't be won from here")
    page = table.page
    page.wait_for_function("() => !document.getElementById('lost').hidden", timeout=30_000)
    assert table.text("#lost-text") == "This deal cannot be won."
    page.wait_for_function("() => document.getElementById('lost-rewind').hidden",
                           timeout=30_000)
    move = game.legal_moves()[0]
    table.act("play", src=move.src, dst=move.dst, count=move.count)
    assert table.text("#st-verdict") == "Can't be won from here"  # at once: after a loss
    page.wait_for_timeout(500)
    assert page.locator("#lost-rewind").is_hidden()  # the only way back is the lost start
