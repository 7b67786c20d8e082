"""Keyboard, hint, undo/redo and restart on the table.

docs/rules/play-controls.md §6: H hint, U undo, R redo with no modifier; Cmd/Ctrl+Z,
Cmd/Ctrl+Shift+Z and Ctrl+Y; full play without a mouse (Tab/arrows move focus,
Enter/Space pick up and drop, Escape cancels); §7: the hint highlights a move; §10: New
Game's "Restart current game" asks first.
"""

from __future__ import annotations

import pytest

import engine
from engine import Move
from tests.e2e.table_helpers import _desk, _table, first_move  # noqa: F401 (fixtures)

HINT_JS = """() => {
    const from = [...document.querySelectorAll('[data-hint="from"]')];
    const to = document.querySelector('[data-pile][data-hint="to"]');
    const cards = from.filter((el) => el.dataset.card !== undefined);
    const src = cards.length ? cards[0].closest('[data-pile]').dataset.pile
        : from[0]?.dataset.pile;
    return {src, count: cards.length, dst: to ? to.dataset.pile : null};
}"""
HINT_DONE_JS = """() => !!document.querySelector('[data-hint]')
    && !document.querySelector('[data-action="hint"][aria-busy]')"""


def key_move(table, game: engine.Game) -> Move:
    """Play with keys alone: Tab to the first pile, arrows to the source card, Enter,
    arrows to the target pile, Enter. Returns the move made."""
    page = table.page
    move = first_move(game, lambda m: m.count == 1 and m.dst.startswith("t"))
    for _ in range(30):  # Tab from the toolbar onto the table's first pile
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.pile !== undefined"):
            break
    order = page.evaluate("() => [...document.querySelectorAll('[data-pile]')]"
                          ".filter((p) => p.tabIndex >= 0).map((p) => p.dataset.pile)")

    def go_to(pile: str) -> None:
        here = page.evaluate("document.activeElement.dataset.pile")
        steps = (order.index(pile) - order.index(here)) % len(order)
        for _ in range(steps):
            page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.dataset.pile") == pile

    go_to(move.src)
    page.keyboard.press("ArrowDown")  # the cursor starts on the top card and stays there
    page.keyboard.press("Enter")
    assert page.locator("[data-held]").count() == move.count
    go_to(move.dst)
    page.keyboard.press("Enter")
    return move


def test_one_move_with_the_keyboard_alone(table):
    game = table.new("klondike", 1)
    table.page.locator("body").focus()
    move = key_move(table, game)
    game.play(move)
    table.check(game)
    assert table.page.locator("[data-held]").count() == 0


def test_escape_puts_a_picked_up_card_back(table):
    game = table.new("beleaguered-castle", 1)
    table.page.focus('[data-pile="t0"]')
    table.page.keyboard.press("Enter")
    assert table.page.locator("[data-held]").count() == 1
    table.page.keyboard.press("Escape")
    assert table.page.locator("[data-held]").count() == 0
    table.check(game)


def test_arrow_keys_move_between_the_cards_of_a_pile(table):
    table.new("spider-1", 5)
    page = table.page
    table.act("stock")
    page.focus('[data-pile="t0"]')
    cursor = "() => document.querySelector('[data-pile=\"t0\"] > [data-cursor]')?.dataset.card"
    top = page.evaluate(cursor)
    page.keyboard.press("ArrowUp")
    below = page.evaluate(cursor)
    pile = table.piles()["t0"]
    assert top == pile[-1] and below == pile[-2]
    page.keyboard.press("ArrowUp")  # face-down cards are never reached
    assert page.evaluate(cursor) == below


@pytest.mark.parametrize(("variant", "seed"), [("spider-2", 5), ("klondike", 3), ("doublets", 4)])
def test_h_highlights_a_legal_move(table, variant, seed):
    game = table.new(variant, seed)
    table.wait_solver()  # else the first hint is the rules' and the second the solver's
    table.page.keyboard.press("h")
    # The solver thinks first, in slices (docs/solver.md §12; tests/e2e/test_table_solver.py).
    table.page.wait_for_function(HINT_DONE_JS, timeout=10_000)
    shown = table.page.evaluate(HINT_JS)
    # The first move of a winning line the worker found (there may be several), or the
    # rules' own move when the hint's time ran out: a legal move either way (which one is
    # checked against the solver in tests/e2e/test_table_solver.py).
    legal = game.legal_moves()

    def is_legal(hint: dict) -> bool:
        if hint["src"] == "stock":
            return any(m.src == "stock" for m in legal)
        return Move(hint["src"], hint["dst"], hint["count"]) in legal

    assert is_legal(shown)
    assert table.announced().startswith("Hint")
    table.page.click('[data-action="hint"]')
    again = table.page.evaluate(HINT_JS)
    # The same unless the worker's answer came only after the first hint (rules' hint then).
    assert again == shown or is_legal(again)
    table.check(game)


def test_u_r_and_the_ctrl_shortcuts_undo_and_redo(table):
    game = table.new("klondike", 21)
    page = table.page
    table.click_pile("stock")
    table.click_pile("stock")
    game.play(Move("stock", "waste"))
    game.play(Move("stock", "waste"))
    for key, step in [("u", "undo"), ("r", "redo"), ("Control+z", "undo"),
                      ("Control+Shift+z", "redo"), ("Meta+z", "undo"), ("Control+y", "redo"),
                      ("U", "undo"), ("u", "undo"), ("R", "redo")]:
        page.keyboard.press(key)
        getattr(game, step)()
        table.check(game)
    page.click('[data-action="undo"]')
    game.undo()
    table.check(game)
    page.click('[data-action="redo"]')
    game.redo()
    table.check(game)


def test_restart_asks_first(table):
    game = table.new("beleaguered-castle", 1)
    page = table.page
    move = first_move(game)
    table.click_card(move.src, table.count(move.src) - 1)
    played = game.copy()
    played.play(move)
    table.check(played)

    page.click('[data-action="new"]')
    page.click('[data-action="restart"]')
    assert page.is_visible("#confirm")
    table.check(played)  # nothing happens before the answer
    page.click("#confirm [data-menu='cancel']")
    assert not page.is_visible("#confirm")
    table.check(played)

    page.click('[data-action="new"]')
    page.click('[data-action="restart"]')
    page.click("#confirm-yes")
    table.check(game)
    assert table.text("#st-moves") == "Moves 0"


def test_new_game_menu_deals_the_chosen_game_and_remembers_it(table):
    table.new("spider-1", 5)
    page = table.page
    page.click('[data-action="new"]')
    page.check('#menu-variants input[value="doublets"]')
    page.fill("#menu-deal", "31")
    page.click("#menu [data-menu='deal']")
    table.check(engine.new_game("doublets", 31))
    assert table.text("#game-title") == "Doublets"
    table.goto()  # reload: the autosave and the remembered game come back
    table.check(engine.new_game("doublets", 31))


def test_new_game_menu_rejects_a_bad_deal_number(table):
    game = table.new("klondike", 8)
    page = table.page
    page.click('[data-action="new"]')
    page.fill("#menu-deal", "0x12")
    page.click("#menu [data-menu='deal']")
    assert page.is_visible("#menu") and "whole number" in table.text("#menu-error")
    page.click("#menu [data-menu='cancel']")
    table.check(game)
