"""The table on a 360x640 touch phone and on a 1920x1080 desktop: touch drags and taps,
and every game's cards fit on screen, long columns included (docs/architecture.md §2)."""

from __future__ import annotations

import pytest

import engine
from tests.e2e.table_helpers import (  # noqa: F401 (fixtures)
    _phone,
    _phone_session,
    first_move,
    make_session,
)

RANKS = "A23456789TJQK"

OUTSIDE_JS = """() => {
    const t = document.getElementById('table').getBoundingClientRect();
    const out = [];
    for (const c of document.querySelectorAll('[data-card]')) {
        const r = c.getBoundingClientRect();
        if (r.left < t.left - 0.5 || r.right > t.right + 0.5 || r.top < t.top - 0.5
            || r.bottom > t.bottom + 0.5) {
            out.push(`${c.closest('[data-pile]').dataset.pile}:${c.dataset.card}`);
        }
    }
    return out;
}"""
POINTER_TYPES_JS = """() => {
    if (!window.ppSeen) {
        document.addEventListener('pointerdown', (e) => window.ppSeen.push(e.pointerType), true);
    }
    window.ppSeen = [];
}"""


def run(suit: str, high: int = 13, low: int = 1) -> list[str]:
    return [RANKS[r - 1] + suit for r in range(high, low - 1, -1)]


def touch_drag(page, start: tuple[float, float], end: tuple[float, float], steps: int = 8):
    """A finger drag through Chromium's touch input (CDP Input.dispatchTouchEvent)."""
    cdp = page.context.new_cdp_session(page)
    (x0, y0), (x1, y1) = start, end
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart",
                                          "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove",
                                              "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


@pytest.mark.parametrize(("variant", "seed"), [("spider-2", 5), ("klondike", 1),
                                               ("beleaguered-castle", 1), ("doublets", 4)])
def test_touch_drag_on_a_phone(phone, variant, seed):
    game = phone.new(variant, seed)
    phone.page.evaluate(POINTER_TYPES_JS)
    move = first_move(game, lambda m: not m.dst.startswith("f") or variant == "doublets")
    index = phone.count(move.src) - move.count
    touch_drag(phone.page, phone.grab_point(move.src, index), phone.drop_point(move.dst))
    game.play(move)
    phone.check(game)
    assert phone.page.evaluate("window.ppSeen") == ["touch"]


def test_touch_tap_moves_a_card_and_the_stock(phone):
    game = phone.new("klondike", 3)
    move = first_move(game, lambda m: m.dst.startswith("f"))
    x, y = phone.grab_point(move.src, phone.count(move.src) - 1)
    phone.page.touchscreen.tap(x, y)
    game.play(move)
    phone.check(game)
    x, y = phone.drop_point("stock")
    phone.page.touchscreen.tap(x, y)
    game.play(engine.Move("stock", "waste"))
    phone.check(game)


@pytest.mark.parametrize("variant", ["spider-4", "klondike", "beleaguered-castle", "doublets"])
def test_every_card_is_on_screen_on_a_phone(phone, variant):
    game = phone.new(variant, 99)
    for _ in range(3):  # a few moves in, with the stock dealt where there is one
        move = next((m for m in game.legal_moves() if m.src == "stock"), None)
        if move:
            phone.act("stock")
            game.play(move)
    phone.check(game)
    assert phone.page.evaluate(OUTSIDE_JS) == []


def test_a_long_spider_column_compresses_to_fit_a_phone(phone):
    piles = {"t0": ["as", "2s", "3s", "4s", "5s"] + run("S") + run("S", 13, 2),
             **{f"t{i}": ["KS"] for i in range(1, 10)}}
    game = engine.from_position("spider-1", piles)
    phone.load(game)
    phone.check(game)
    assert phone.page.evaluate(OUTSIDE_JS) == []
    boxes = [phone.box("t0", i) for i in range(phone.count("t0"))]
    steps = [b["y"] - a["y"] for a, b in zip(boxes[5:], boxes[6:], strict=False)]
    assert min(steps) >= 8  # face-up cards still show their corner index


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (768, 1024), (640, 360)])
def test_every_game_fits_other_screens(browser, base_url, size):
    width, height = size
    context, table = make_session(browser, base_url, viewport={"width": width, "height": height})
    try:
        for variant in ("spider-2", "klondike", "beleaguered-castle", "doublets"):
            game = table.new(variant, 3)
            table.check(game)
            assert table.page.evaluate(OUTSIDE_JS) == [], variant
        long_row = {"f0": ["AS"], "f1": ["AH"], "f2": ["AD"], "f3": ["AC"],
                    "t0": run("C", 13, 2), "t4": run("D", 13, 2) + ["QH", "JH", "TH"]}
        game = engine.from_position("beleaguered-castle", long_row)
        table.load(game)
        table.check(game)
        assert table.page.evaluate(OUTSIDE_JS) == []
        assert table.log.problems == []
    finally:
        context.close()


def test_turning_the_phone_lays_the_table_out_again(phone):
    """Portrait to landscape and back: the layout follows and every card stays on screen."""
    page = phone.page
    for variant in ("beleaguered-castle", "klondike"):
        game = phone.new(variant, 5)
        page.set_viewport_size({"width": 640, "height": 360})
        page.wait_for_timeout(100)  # the resize is handled on the next frame
        phone.check(game)
        assert page.evaluate(OUTSIDE_JS) == []
        if variant == "beleaguered-castle":  # wide: rows fan out on either side
            assert page.get_attribute('[data-pile="t0"]', "data-fan") == "left"
        page.set_viewport_size({"width": 360, "height": 640})
        page.wait_for_timeout(100)
        phone.check(game)
        assert page.evaluate(OUTSIDE_JS) == []
        assert page.get_attribute('[data-pile="t0"]', "data-fan") == "down"
