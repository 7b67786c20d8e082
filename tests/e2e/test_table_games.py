"""Every game on the table: links, drags, taps, double-clicks and the stock.

docs/rules/play-controls.md §2-§4, for every game; docs/rules/klondike.md,
beleaguered-castle.md and doublets.md for the moves.
After every action the DOM must equal the CPython engine's position after the same move.
"""

from __future__ import annotations

import pytest

import engine
from engine import Move
from tests.e2e.table_helpers import _desk, _table, first_move  # noqa: F401 (fixtures)
from web.controller import Table
from web.storage import MemoryBackend, Storage

OTHERS = ["klondike", "beleaguered-castle", "doublets",
          "spider-relaxed-1", "spider-relaxed-2", "spider-relaxed-4"]


def oracle(game: engine.Game) -> Table:
    """The page's controller in CPython, on a copy of ``game``: what a tap should do."""
    table = Table(Storage(MemoryBackend()))
    table.adopt(game.copy())
    return table


@pytest.mark.parametrize("variant", OTHERS)
def test_link_opens_the_engines_deal(table, variant):
    game = table.open(variant, 77)
    table.check(game)
    assert table.text("#game-title")


@pytest.mark.parametrize(("variant", "seed", "kind"), [
    ("klondike", 1, "t"), ("beleaguered-castle", 1, "t"), ("doublets", 4, "f"),
    ("spider-relaxed-2", 5, "t")])
def test_mouse_drag_plays_a_legal_move(table, variant, seed, kind):
    game = table.new(variant, seed)
    move = first_move(game, lambda m: m.dst.startswith(kind))
    table.drag(move.src, table.count(move.src) - move.count, move.dst)
    game.play(move)
    table.check(game)


@pytest.mark.parametrize(("variant", "seed"), [("klondike", 1), ("beleaguered-castle", 1)])
def test_illegal_drop_changes_nothing(table, variant, seed):
    game = table.new(variant, seed)
    columns = [p for p in game.position()["piles"] if p.startswith("t")]
    legal = set(game.legal_moves())
    src, dst = next((s, d) for s in columns for d in columns
                    if s != d and game.position()["piles"][s]
                    and Move(s, d, 1) not in legal)
    table.drag(src, table.count(src) - 1, dst)
    table.check(game)
    assert table.text("#st-moves") == "Moves 0"


@pytest.mark.parametrize(("variant", "seed"), [("spider-2", 5), ("klondike", 3),
                                               ("beleaguered-castle", 1), ("doublets", 4)])
def test_tap_sends_a_card_to_its_best_place(table, variant, seed):
    game = table.new(variant, seed)
    move = first_move(game)
    twin = oracle(game)
    twin.handle("tap", {"pile": move.src, "count": move.count})
    assert twin.game.move_count == 1
    table.click_card(move.src, table.count(move.src) - move.count)
    table.check(twin.game)


@pytest.mark.parametrize(("variant", "seed"), [("klondike", 3), ("beleaguered-castle", 1)])
def test_double_click_sends_a_card_to_its_foundation(table, variant, seed):
    game = table.new(variant, seed)
    table.act("settings", tap="select")  # so that the first click alone moves nothing
    try:
        move = first_move(game, lambda m: m.dst.startswith("f"))
        table.click_card(move.src, table.count(move.src) - 1, clicks=2)
        game.play(move)
        table.check(game)
    finally:
        table.act("settings", tap="auto")


def test_select_mode_tap_source_then_target(table):
    game = table.new("klondike", 1)
    table.act("settings", tap="select")
    try:
        move = first_move(game, lambda m: m.dst.startswith("t"))
        table.click_card(move.src, table.count(move.src) - move.count)
        assert table.page.locator("[data-held]").count() == move.count
        table.check(game)  # selecting moves nothing
        table.click_pile(move.dst)
        game.play(move)
        table.check(game)
        assert table.page.locator("[data-held]").count() == 0
    finally:
        table.act("settings", tap="auto")


@pytest.mark.parametrize("variant", ["klondike", "doublets", "spider-4"])
def test_stock_by_click_and_by_enter(table, variant):
    game = table.new(variant, 21)
    stock = next(m for m in game.legal_moves() if m.src == "stock")
    table.click_pile("stock")
    game.play(stock)
    table.check(game)
    table.page.focus('[data-pile="stock"]')
    table.page.keyboard.press("Enter")
    game.play(next(m for m in game.legal_moves() if m.src == "stock"))
    table.check(game)
    table.page.keyboard.press("Space")
    game.play(next(m for m in game.legal_moves() if m.src == "stock"))
    table.check(game)


def test_klondike_empty_stock_click_recycles_the_waste(table):
    game = table.new("klondike", 21)
    for _ in range(24):
        table.act("stock")
        game.play(Move("stock", "waste"))
    table.check(game)
    table.click_pile("stock")
    game.play(Move("waste", "stock", 24))
    table.check(game)
    assert table.count("stock") == 24


def test_doublets_empty_stock_click_redeals(table):
    """docs/rules/doublets.md §6.2: two redeals; touching the empty stock turns the waste over."""
    game = table.new("doublets", 21)
    while any(m.src == "stock" for m in game.legal_moves()):
        table.act("stock")
        game.play(next(m for m in game.legal_moves() if m.src == "stock"))
    table.check(game)
    table.click_pile("stock")
    game.play(Move("waste", "stock", len(game.position()["piles"]["waste"])))
    table.check(game)
    assert game.position()["redeals_left"] == 1


RUN = {"t0": ["9S", "8H", "7S"], "t1": ["TD"], **{f"t{i}": ["KS"] for i in range(2, 10)}}


def test_spider_picks_up_only_a_same_suit_group(table):
    """docs/rules/spider.md §4: only same-suit runs move as a group; dragging 9S-8H-7S does
    nothing."""
    game = engine.from_position("spider-2", RUN)
    table.load(game)
    table.drag("t0", 0, "t1")
    table.check(game)
    assert "cannot move" in table.announced()


def test_relaxed_spider_picks_up_any_descending_run(table):
    """docs/rules/spider-relaxed.md §4.3: any descending run moves as one stack."""
    game = engine.from_position("spider-relaxed-2", RUN)
    table.load(game)
    table.drag("t0", 0, "t1")
    game.play(Move("t0", "t1", 3))
    table.check(game)
