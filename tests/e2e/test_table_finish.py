"""Finishing a game won by force in the page: the Finish button (data-action="finish")
while every card can go home by itself, one undo to take the finish back, and the game
finishing itself after the player's move that leaves no card face down."""

from __future__ import annotations

import engine
from tests.e2e.table_helpers import _desk, _table  # noqa: F401 (fixtures)

RANKS = "A23456789TJQK"
FINISH = '[data-action="finish"]'


def klondike(**piles) -> engine.Game:
    """Hearts and clubs home; what else is named, as named."""
    home = {"f1": [r + "H" for r in RANKS], "f3": [r + "C" for r in RANKS]}
    return engine.from_position("klondike", {**home, **piles})


def spades_and_diamonds_to_go() -> engine.Game:
    stock = [r.lower() + s for s in "sd" for r in reversed(RANKS[1:])]
    return klondike(t0=["AS"], t1=["AD"], stock=stock)


def test_the_finish_button_plays_every_card_home_and_one_undo_takes_it_back(table):
    game = spades_and_diamonds_to_go()
    table.load(game)
    assert table.page.is_visible(FINISH)
    table.page.click(FINISH)
    table.page.wait_for_function("() => document.querySelector('#end').dataset.result === 'won'")
    assert table.page.is_hidden(FINISH)
    table.page.keyboard.press("u")
    table.check(game)
    assert table.page.is_visible(FINISH)


def test_the_game_finishes_by_itself_after_the_move_that_turns_the_last_card(table):
    stock = [r.lower() + s for s in "sd" for r in reversed(RANKS[2:])]
    game = klondike(t0=["as", "2D"], t2=["2S"], f2=["AD"], stock=stock)
    table.load(game)
    assert table.page.is_hidden(FINISH)
    table.click_card("t0", 1, clicks=2)  # the 2 of diamonds home: the ace of spades turns up
    table.page.wait_for_function("() => document.querySelector('#end').dataset.result === 'won'")
    piles = table.piles()
    assert all(len(piles[f"f{i}"]) == 13 for i in range(4))
