"""Spider on the card table: mouse drags, the stock, undo (docs/rules/spider.md,
play-controls.md)."""

from __future__ import annotations

import pytest

import engine
from tests.e2e.table_helpers import _desk, _table, first_move  # noqa: F401 (fixtures)

SEED = 5


@pytest.mark.parametrize("variant", ["spider-1", "spider-2", "spider-4"])
def test_link_opens_the_engines_deal(table, variant):
    """?game=<variant>&deal=<n> shows exactly the CPython engine's deal."""
    game = table.open(variant, SEED)
    table.check(game)
    # The address bar names the deal in play (and a reload resumes it, not a fresh deal).
    assert table.page.evaluate("location.search") == f"?game={variant}&deal={SEED}"


def test_mouse_drag_of_a_legal_move_plays_it(table):
    game = table.new("spider-2", SEED)
    move = first_move(game)
    assert move is not None
    src_len = len(game.position()["piles"][move.src])
    table.drag(move.src, src_len - move.count, move.dst)
    game.play(move)
    table.check(game)
    assert table.text("#st-moves") == "Moves 1"


def test_illegal_drop_changes_nothing(table):
    game = table.new("spider-2", SEED)
    piles = game.position()["piles"]
    legal = {(m.src, m.dst) for m in game.legal_moves() if m.count == 1}
    src, dst = next((s, d) for s in (f"t{i}" for i in range(10))
                    for d in (f"t{i}" for i in range(10)) if s != d and (s, d) not in legal)
    table.drag(src, len(piles[src]) - 1, dst)
    table.check(game)
    assert table.text("#st-moves") == "Moves 0"


def test_stock_click_deals_and_undo_takes_it_back(table):
    game = table.new("spider-1", SEED)
    table.click_pile("stock")
    game.play(engine.Move("stock", "tableau", 10))
    table.check(game)
    table.page.click('[data-action="undo"]')
    game.undo()
    table.check(game)
    assert table.count("stock") == 50
