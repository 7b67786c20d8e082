"""End of game on the table: a win shows moves and time, a lost game says no moves are left.

Each position is one move from the end (built with engine.from_position and checked with
the CPython engine), saved where the autosave keeps games, and resumed by a reload; the
last move is then made with the mouse in the page.
"""

from __future__ import annotations

import pytest

import engine
from engine import Move
from tests.e2e.table_helpers import _desk, _table  # noqa: F401 (fixtures)

RANKS = "A23456789TJQK"
DOUBLING = "A24836QJ95T7"  # docs/rules/doublets.md §3.4: the rank order


def up(suit: str) -> list[str]:
    return [r + suit for r in RANKS]


def down_run(suit: str) -> list[str]:
    return list(reversed(up(suit)))


def doublets_chain() -> list[str]:
    return [DOUBLING[i % 12] + "SHDC"[i // 12] for i in range(48)]


WINS = {
    # docs/rules/spider.md §8: the eighth K..A sequence clears and the game is won.
    "spider-1": ({**{f"f{i}": down_run("S") for i in range(7)}, "t0": down_run("S")[:-1],
                  "t1": ["AS"]}, Move("t1", "t0")),
    "klondike": ({"f0": up("S"), "f1": up("H"), "f2": up("D"), "f3": up("C")[:-1],
                  "t0": ["KC"]}, Move("t0", "f3")),
    "beleaguered-castle": ({"f0": up("S"), "f1": up("H"), "f2": up("D"), "f3": up("C")[:-1],
                            "t0": ["KC"]}, Move("t0", "f3")),
    "doublets": ({"f0": doublets_chain()[:-1], "r0": doublets_chain()[-1:], "r1": ["KS"],
                  "r2": ["KH"], "r3": ["KD"], "r4": ["KC"]}, Move("r0", "f0")),
}

LOSSES = {
    "spider-2": ({"t0": ["KS", "3S"], "t1": ["4H"], **{f"t{i}": ["KH"] for i in range(2, 10)}},
                 0, Move("t0", "t1")),
    "klondike": ({"t0": ["qh", "5S"], "t1": ["6H"], "t2": ["9D"]}, 0, Move("t0", "t1")),
    "beleaguered-castle": ({"f0": ["AS"], "f1": ["AH"], "f2": ["AD"], "f3": ["AC"],
                            "t0": ["9S", "3H"], "t1": ["4C"], "t2": ["KS"], "t3": ["KH"],
                            "t4": ["KD"], "t5": ["KC"], "t6": ["9D"], "t7": ["6H"]},
                           0, Move("t0", "t1")),
    "doublets": ({"f0": ["AS"], "r0": ["2S"], "r1": ["KS"], "r2": ["KH"], "r3": ["KD"],
                  "r4": ["KC"], "r5": ["7D"], "r6": ["9C"], "waste": ["5H"]}, 2,
                 Move("r0", "f0")),
}


def finish(table, game: engine.Game, move: Move) -> None:
    """Make the last move in the page with a mouse drag and in the CPython twin."""
    table.load(game)
    table.check(game)
    assert not table.page.is_visible("#end")
    table.drag(move.src, table.count(move.src) - move.count, move.dst)
    game.play(move)
    table.check(game)


# The end-of-game box against every pile that holds cards: the piles it covers.
COVERS_JS = """() => {
    const end = document.querySelector('#end').getBoundingClientRect();
    const hit = (r) => r.left < end.right && end.left < r.right && r.top < end.bottom
        && end.top < r.bottom;
    return [...document.querySelectorAll('[data-pile]')].filter((pile) =>
        [...pile.querySelectorAll('[data-card]')].some((c) => hit(c.getBoundingClientRect())))
        .map((pile) => pile.dataset.pile);
}"""


@pytest.mark.parametrize("variant", list(WINS))
def test_a_win_shows_the_result_over_no_pile_and_offers_the_next_deal(table, variant):
    piles, move = WINS[variant]
    game = engine.from_position(variant, piles)
    assert game.legal_moves() and game.status == "playing"
    finish(table, game, move)
    assert game.status == "won"
    table.page.wait_for_selector("#end[open]")
    assert table.text("#end-title") == "You won!"
    assert table.text("#end-text").startswith("1 move in 0:0")
    assert "Streak 1 (best 1)" in table.text("#end-record").replace("\xa0", " ")
    assert "You won!" in table.announced()
    assert table.page.evaluate(COVERS_JS) == []
    assert table.page.evaluate("document.querySelector('#end-burst').children.length") == 0
    table.page.click("#end [data-menu='end-next']")  # counted already: no question
    assert not table.page.is_visible("#end") and not table.page.is_visible("#confirm")
    assert table.text("#st-moves") == "Moves 0"
    assert table.page.evaluate("new URLSearchParams(location.search).get('game')") == variant


def test_the_result_closes_with_escape_or_its_close_button_and_the_table_stays_won(table):
    piles, move = WINS["klondike"]
    game = engine.from_position("klondike", piles)
    finish(table, game, move)
    table.page.wait_for_selector("#end[open]")
    table.page.keyboard.press("Escape")
    assert not table.page.is_visible("#end")
    assert table.page.evaluate("document.activeElement.dataset.pile !== undefined")
    table.check(game)  # still the won table, to look at
    table.page.click("[data-action='undo']")
    table.page.click("[data-action='redo']")  # won again: the result comes back
    table.page.wait_for_selector("#end[open]")
    table.page.click("#end .end-close")
    assert not table.page.is_visible("#end")
    table.check(game)


def test_play_again_deals_the_won_deal_afresh(table):
    piles, move = WINS["klondike"]
    game = engine.from_position("klondike", piles)
    finish(table, game, move)
    table.page.wait_for_selector("#end[open]")
    table.page.click("#end [data-menu='end-again']")
    table.check(engine.new_game("klondike", game.seed))  # its deal number, dealt again


@pytest.mark.parametrize("variant", list(LOSSES))
def test_a_lost_game_says_no_moves_are_left_and_offers_undo(table, variant):
    piles, passes, move = LOSSES[variant]
    game = engine.from_position(variant, piles, passes=passes)
    assert game.legal_moves() == [move]
    finish(table, game, move)
    assert game.status == "lost"
    table.page.wait_for_selector("#end[open]")
    assert table.text("#end-title") == "No moves left"
    assert table.page.is_visible("#end-undo")
    table.page.click("#end-undo")
    game.undo()
    table.check(game)
    assert not table.page.is_visible("#end")
