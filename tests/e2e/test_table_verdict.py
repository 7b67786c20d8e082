"""The live verdict in the status bar and Back to winnable, in the page, against the
CPython solver (the positions and moves are those of tests/web/test_table_verdict.py).

- After a move the status bar's verdict says what the CPython solver finds: "Winnable",
  "Can't be won from here", at once on a winning line being followed; a verdict is said in
  its own polite live region, once (a move that keeps it says nothing); its words change
  and nothing else in the status bar moves.
- On a lost position "Back to winnable" says how many moves back the latest winnable
  position lies, undoes to it (the DOM shows that position), and Redo plays the moves
  again; a deal lost from its start offers no way back.

What the page shows is recorded as it changes (table_helpers.SHOWN_JS), position by
position, so a verdict shown for a moment counts and no read depends on when the test
looks; a verdict is read once the worker has answered for the position in play and the
page shows that answer (TablePage.settled_verdict), never after a fixed wait.

Long tasks while the verdict is settled are measured by bench/verdict.py (a figure of
time, not a test).
"""

from __future__ import annotations

import engine
from tests.e2e.table_helpers import (  # noqa: F401 (fixtures)
    REWIND_OFFERED_JS,
    THINKING,
    VERDICT_WORDS,
    _desk,
    _table,
    piles_key,
)
from tests.web.test_table_verdict import DEAL, LAST_WINNABLE, LOST_DEAL, MOVES, solved

VARIANT = "beleaguered-castle"
WINNABLE, LOST = VERDICT_WORDS["won"], VERDICT_WORDS["lost"]
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


def play(table, game: engine.Game, move: engine.Move) -> None:
    """A drag of ``move`` in the page, and the same move on the CPython twin."""
    table.drag(move.src, table.count(move.src) - move.count, move.dst)
    game.play(move)
    table.check(game)


def words_shown(table, game: engine.Game) -> list[str]:
    """The verdict's words the page showed on ``game``'s position since it recorded."""
    return [state["words"] for state in table.shown(game)]


def test_the_verdict_after_each_move_is_the_solvers(table):
    game = table.new(VARIANT, DEAL)
    page = table.page
    assert table.settled_verdict()["verdict"] == solved(game) == "won"
    page.evaluate(SAID_JS)
    table.record_shown()
    bars = [page.evaluate(BAR_JS)]
    for move in MOVES[:LAST_WINNABLE + 1]:
        play(table, game, move)
        bars.append(page.evaluate(BAR_JS))  # "Thinking…", or already settled
        expected = solved(game)
        # The solver's own answer for this position (not one left from the position
        # before the move), and the page shows it.
        assert table.settled_verdict()["verdict"] == expected
        assert page.evaluate("document.documentElement.dataset.verdict") == expected
        assert table.text("#st-verdict") == VERDICT_WORDS[expected]
        # Nothing else was ever shown on this position, not even for a moment.
        shown = words_shown(table, game)
        assert shown and set(shown) <= {THINKING, VERDICT_WORDS[expected]}, shown
        bars.append(page.evaluate(BAR_JS))
    assert table.text("#st-verdict") == LOST
    # Said once each time it changed: "Winnable" was not repeated after the winnable moves.
    assert page.evaluate("window.__said") == [LOST]
    assert page.get_attribute("#verdict-live", "aria-live") == "polite"
    assert all(bar == bars[0] for bar in bars)  # its words moved nothing else in the bar


def test_a_followed_winning_line_is_winnable_at_once(table):
    game = table.new(VARIANT, DEAL)
    page = table.page
    assert table.settled_verdict()["verdict"] == "won"  # the worker's line is known
    line = engine.solve(game, budget_ms=60_000).moves  # the page's solver finds the same
    page.evaluate(SAID_JS)
    table.record_shown()
    for move in line[:4]:
        shown = table.act_and_read("play", src=move.src, dst=move.dst, count=move.count)
        game.play(move)
        # In the move's own render (read in the task that made it): no "Thinking…" first.
        assert shown == {"event": "move", "move_count": game.move_count, "words": WINNABLE,
                         "verdict": "won", "lost": False}
    table.check(game)
    assert table.settled_verdict()["verdict"] == "won"  # the worker's own answer came
    # Every position along the line showed "Winnable" and nothing else, at any moment.
    states = table.shown()
    assert [state["words"] for state in states] == [WINNABLE] * len(states), states
    assert states[-1]["piles"] == piles_key(game)
    assert page.evaluate("window.__said") == []  # unchanged: nothing said


def test_back_to_winnable_undoes_to_the_latest_winnable_position(table):
    # A fresh page, and the moves played in one task of it: the page has heard nothing
    # from the solver about the position the rewind goes back to (it remembers what it
    # heard of recent positions, even across new games, and shows that at once on a
    # return), so "Winnable" at once after the rewind comes from the rewind itself.
    game = table.open(VARIANT, DEAL)
    page = table.page
    page.evaluate("(moves) => moves.forEach((m) => window.ppTable.act('play', m))",
                  [{"src": m.src, "dst": m.dst, "count": m.count} for m in MOVES])
    for move in MOVES:
        game.play(move)
    table.check(game)
    answer = table.settled_verdict()
    back = len(MOVES) - LAST_WINNABLE
    assert answer["verdict"] == "lost" and answer["rewind"]["back"] == back
    assert page.evaluate(REWIND_OFFERED_JS)
    assert table.text("#st-verdict") == LOST
    assert table.text("#lost-rewind") == f"Back to winnable · {back} moves back"
    assert page.get_attribute("#lost-rewind", "data-action") == "rewind"
    table.record_shown()
    page.click("#lost-rewind")
    for _ in range(back):
        game.undo()
    assert solved(game) == "won"
    table.check(game)
    assert table.announced() == f"Back {back} moves: this position can be won."
    # "Winnable" from the rewind's own render on: never "Thinking…" (nor the lost notice)
    # while the worker answers anew.
    rewound = table.shown(game)
    assert rewound and all(s["words"] == WINNABLE and not s["lost"] for s in rewound), rewound
    assert table.settled_verdict()["verdict"] == "won"
    rewound = table.shown(game)
    assert all(s["words"] == WINNABLE and not s["lost"] for s in rewound), rewound
    assert page.locator("#lost").is_hidden()
    table.record_shown()
    redone = []
    for _ in range(back):  # a run of plain undos: Redo plays the moves again
        page.click('[data-action="redo"]')
        game.redo()
        redone.append(game.copy())
    table.check(game)
    # The lost position left for the rewind is remembered: lost from Redo's own render on.
    again = table.shown(game)
    assert again and all(s["words"] == LOST for s in again), again
    for passed in redone[:-1]:  # on the way: never "Winnable"
        assert set(words_shown(table, passed)) <= {THINKING, LOST}
    answer = table.settled_verdict()
    assert answer["verdict"] == "lost" and answer["rewind"]["back"] == back
    assert all(s["words"] == LOST for s in table.shown(game))
    assert page.evaluate(REWIND_OFFERED_JS)
    assert table.text("#lost-rewind-back") == f"· {back} moves back"


def test_no_way_back_on_a_deal_lost_from_its_start(table):
    game = table.new(VARIANT, LOST_DEAL)
    assert solved(game) == "lost"
    page = table.page
    answer = table.settled_verdict()  # the walk back from the start is done too
    assert answer["verdict"] == "lost" and not (answer["rewind"] or {}).get("back")
    assert table.text("#st-verdict") == LOST
    assert page.locator("#lost").is_visible()
    assert table.text("#lost-text") == "This deal cannot be won."
    assert page.locator("#lost-rewind").is_hidden()
    table.record_shown()
    move = game.legal_moves()[0]
    shown = table.act_and_read("play", src=move.src, dst=move.dst, count=move.count)
    game.play(move)
    # At once, in the move's own render: a move from a lost position is lost.
    assert shown == {"event": "move", "move_count": 1, "words": LOST, "verdict": "lost",
                     "lost": True}
    table.check(game)
    answer = table.settled_verdict()  # the worker's own answer, its walk back done
    assert answer["verdict"] == "lost" and not (answer["rewind"] or {}).get("back")
    assert page.locator("#lost-rewind").is_hidden()  # the only way back is the lost start
    states = table.shown(game)
    assert states and all(s["words"] == LOST and not s["rewind"] for s in states), states
