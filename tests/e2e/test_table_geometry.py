"""The layout at every screen size from a small phone to a desktop (docs/DESIGN budget):
every covered face-up card shows its whole corner index, at least 14 CSS px (20 in large
print) and 18 % of a card's height; no pile lies over another; no card is off the table.

The positions are real: deals played by the engine's hints up to their longest column
(tools/positions.py), and the longest columns a game allows, loaded as saved games.
"""

from __future__ import annotations

import pytest

import engine
from tests.e2e.table_helpers import make_session
from tools.positions import longest, longest_pile

pytestmark = pytest.mark.e2e

SIZES = [(360, 640), (390, 844), (768, 1024), (1280, 800), (1920, 1080)]
RANKS = "A23456789TJQK"

# Every breach of the layout's promises on the page as it is: covered face-up cards that
# show too little or whose index (rank and suit) lies under the next card, cards off the
# table, piles whose cards overlap another pile's.
GEOMETRY_JS = """(least) => {
    const bad = [];
    const table = document.getElementById('table').getBoundingClientRect();
    const spans = [];
    for (const pile of document.querySelectorAll('[data-pile]')) {
        const id = pile.dataset.pile;
        const fan = pile.dataset.fan;
        const cards = [...pile.querySelectorAll(':scope > [data-card]')];
        const rects = cards.map((c) => c.getBoundingClientRect());
        rects.forEach((r, i) => {
            if (r.left < table.left - 0.5 || r.right > table.right + 0.5
                || r.top < table.top - 0.5 || r.bottom > table.bottom + 0.5) {
                bad.push(`${id}:${cards[i].dataset.card} off the table`);
            }
        });
        if (rects.length) {
            const edge = (f, side) => f(...rects.map((r) => r[side]));
            spans.push([id, edge(Math.min, 'left'), edge(Math.min, 'top'),
                edge(Math.max, 'right'), edge(Math.max, 'bottom')]);
        }
        if (fan === 'stack') continue;
        for (let i = 0; i + 1 < cards.length; i++) {
            const card = cards[i];
            if (card.dataset.card === 'down') continue;
            const r = rects[i];
            const next = rects[i + 1];
            const down = fan === 'down';
            const shown = down ? next.top - r.top : Math.abs(next.left - r.left);
            const name = `${id}:${card.dataset.card}`;
            // A waste fans its top three cards; the ones under them lie squared, unseen.
            if (fan.startsWith('waste') && shown < 0.5) continue;
            if (shown < least - 0.5) bad.push(`${name} shows ${shown.toFixed(1)} px`);
            if (shown < 0.18 * r.height - 0.5) {
                bad.push(`${name} shows ${(100 * shown / r.height).toFixed(1)} % of its height`);
            }
            const ix = [...card.querySelectorAll('.ix')].find(
                (e) => getComputedStyle(e).display !== 'none');
            for (const part of ix.children) {
                const p = part.getBoundingClientRect();
                const clear = down ? p.bottom <= next.top + 0.5
                    : next.left > r.left ? p.right <= next.left + 0.5 : p.left >= next.right - 0.5;
                if (!clear) bad.push(`${name}: its index is under the next card`);
            }
        }
    }
    for (let a = 0; a < spans.length; a++) {
        for (let b = a + 1; b < spans.length; b++) {
            const [i, l1, t1, r1, b1] = spans[a];
            const [j, l2, t2, r2, b2] = spans[b];
            if (l1 < r2 - 0.5 && l2 < r1 - 0.5 && t1 < b2 - 0.5 && t2 < b1 - 0.5) {
                bad.push(`${i} overlaps ${j}`);
            }
        }
    }
    return bad;
}"""
CLASS_JS = "([name, on]) => document.documentElement.classList.toggle(name, on)"


def run(suit: str, high: int = 13, low: int = 1) -> list[str]:
    return [RANKS[r - 1] + suit for r in range(high, low - 1, -1)]


def alternating(high: int = 13) -> list[str]:
    """K..A of alternating colours (a Klondike build)."""
    return [RANKS[r - 1] + ("SH"[r % 2] if r % 4 < 2 else "CD"[r % 2]) for r in range(high, 0, -1)]


def klondike_longest() -> engine.Game:
    """The longest Klondike column there can be: six face-down cards under K..A."""
    column = alternating()
    rest = [r + s for s in "SHDC" for r in RANKS if r + s not in column]
    piles = {"t6": [c.lower() for c in rest[:6]] + column, "stock": [c.lower() for c in rest[6:20]],
             "waste": rest[20:]}
    for i in range(6):
        piles[f"t{i}"] = []
    return engine.from_position("klondike", piles)


def castle_longest() -> engine.Game:
    return engine.from_position("beleaguered-castle", {
        "f0": ["AS"], "f1": ["AH"], "f2": ["AD"], "f3": ["AC"],
        "t0": run("C", 13, 2), "t4": run("D", 13, 2) + ["QH", "JH", "TH"],
        "t7": run("S", 13, 2) + run("H", 9, 2)})


POSITIONS = {
    "spider-1 hinted": lambda: longest("spider-1", 11, 80),
    "spider-2 hinted": lambda: longest("spider-2", 3, 60),
    "spider-4 hinted": lambda: longest("spider-4", 7, 60),
    "klondike hinted": lambda: longest("klondike", 3, 60),
    "klondike longest": klondike_longest,
    "castle hinted": lambda: longest("beleaguered-castle", 3, 40),
    "castle longest": castle_longest,
    "doublets hinted": lambda: longest("doublets", 7, 40),
}


@pytest.fixture(scope="module", name="sized")
def _sized(browser, base_url):
    context, table = make_session(browser, base_url)
    yield table
    context.close()


def problems(table, width: int, height: int, least: int = 14) -> list[str]:
    table.page.set_viewport_size({"width": width, "height": height})
    table.settle()
    return table.page.evaluate(GEOMETRY_JS, least)


def test_a_spider_position_has_a_column_of_twenty_cards():
    assert longest_pile(POSITIONS["spider-1 hinted"]()) >= 20
    assert longest_pile(POSITIONS["spider-2 hinted"]()) >= 20


@pytest.mark.parametrize("name", list(POSITIONS))
def test_every_covered_card_shows_its_index_at_every_size(sized, name):
    game = POSITIONS[name]()
    sized.load(game)
    sized.close_dialogs()
    sized.check(game)
    bad = {f"{w}x{h}": problems(sized, w, h) for w, h in SIZES}
    assert {size: p for size, p in bad.items() if p} == {}
    sized.page.set_viewport_size({"width": 1280, "height": 800})
    assert sized.log.problems == []


INDEX_FONT_JS = "() => parseFloat(getComputedStyle(document.querySelector('.ix b')).fontSize)"


@pytest.mark.parametrize("name", ["spider-1 hinted", "klondike longest", "castle longest"])
def test_large_print_shows_a_larger_index(sized, name):
    game = POSITIONS[name]()
    sized.load(game)
    sized.close_dialogs()
    try:
        for width, height in SIZES:
            sized.page.evaluate(CLASS_JS, ["large-print", False])
            assert problems(sized, width, height) == [], f"{width}x{height}"
            normal = sized.page.evaluate(INDEX_FONT_JS)
            sized.page.evaluate(CLASS_JS, ["large-print", True])
            assert problems(sized, width, height, least=20) == [], f"{width}x{height}"
            large = sized.page.evaluate(INDEX_FONT_JS)
            assert normal >= 12 and large >= max(16, normal * 1.15), (width, height, normal, large)
    finally:
        sized.page.evaluate(CLASS_JS, ["large-print", False])
        sized.page.set_viewport_size({"width": 1280, "height": 800})
    assert sized.log.problems == []


# Each covered face-down card of a fanned pile, with how much of its back's pattern shows
# below its cream border before the next card covers it.
BACKS_JS = """() => {
    const out = [];
    for (const pile of document.querySelectorAll('[data-pile]')) {
        const fan = pile.dataset.fan;
        if (fan === 'stack' || fan.startsWith('waste')) continue;
        const cards = [...pile.querySelectorAll(':scope > [data-card]')];
        for (let i = 0; i + 1 < cards.length; i++) {
            if (cards[i].dataset.card !== 'down') continue;
            const r = cards[i].getBoundingClientRect();
            const next = cards[i + 1].getBoundingClientRect();
            const shown = fan === 'down' ? next.top - r.top : Math.abs(next.left - r.left);
            const inset = getComputedStyle(cards[i]).boxShadow.split(/,(?![^(]*\\))/)
                .find((s) => s.includes('inset'));
            const border = parseFloat(inset.trim().split(/\\s+/).slice(-2)[0]);
            out.push([pile.dataset.pile, i, shown - border]);
        }
    }
    return out;
}"""


@pytest.mark.parametrize("name", ["spider-4 hinted", "klondike longest"])
def test_every_covered_face_down_card_shows_its_back_at_every_size(sized, name):
    """A squeezed column of face-down cards still reads as card backs: below each one's cream
    border at least 2 px of the blue pattern shows (not a stack of blank edges)."""
    game = POSITIONS[name]()
    sized.load(game)
    sized.close_dialogs()
    try:
        for width, height in SIZES:
            sized.page.set_viewport_size({"width": width, "height": height})
            sized.settle()
            backs = sized.page.evaluate(BACKS_JS)
            assert backs, f"{width}x{height}: no covered face-down card"
            thin = [(p, i, round(px, 1)) for p, i, px in backs if px < 2 - 0.25]
            assert thin == [], f"{width}x{height}"
    finally:
        sized.page.set_viewport_size({"width": 1280, "height": 800})
    assert sized.log.problems == []


def pile_box(table, pile: str) -> dict:
    return table.page.locator(f'[data-pile="{pile}"]').bounding_box()


def test_spiders_stock_and_runs_leave_the_columns_the_height(sized):
    game = POSITIONS["spider-1 hinted"]()
    sized.load(game)
    sized.close_dialogs()
    sized.page.set_viewport_size({"width": 1280, "height": 800})
    sized.settle()
    table = sized.page.locator("#table").bounding_box()
    column = pile_box(sized, "t0")
    assert column["y"] - table["y"] <= 0.15 * table["height"]
    # The completed run on a foundation is still a whole card, drawn smaller.
    assert game.position()["piles"]["f0"]
    run_box = sized.box("f0", 0)
    assert run_box["height"] < column["height"] and run_box["height"] >= 0.45 * column["height"]


@pytest.mark.parametrize("variant", ["klondike", "spider-2", "doublets"])
def test_left_handed_mirrors_stock_and_foundations(sized, variant):
    game = longest(variant, 7, 30)
    sized.load(game)
    sized.close_dialogs()
    sized.page.set_viewport_size({"width": 390, "height": 844})
    sized.settle()
    first = "r0" if variant == "doublets" else "t0"
    before = {p: pile_box(sized, p)["x"] for p in ("stock", "waste", "f0", first)
              if p in game.position()["piles"]}
    sized.page.evaluate(CLASS_JS, ["left-handed", True])
    sized.settle()
    try:
        after = {p: pile_box(sized, p)["x"] for p in before}
        assert problems(sized, 390, 844) == []
        assert problems(sized, 1280, 800) == []
        sized.page.set_viewport_size({"width": 390, "height": 844})
        sized.settle()
        assert after[first] == before[first]  # the columns keep their order
        other = "waste" if variant == "doublets" else "f0"  # each on the other side
        assert (before["stock"] < before[other]) != (after["stock"] < after[other])
        if variant == "klondike":  # Klondike's stock is on the left for the right hand
            assert after["stock"] > after["f0"]
        if "waste" in before and variant == "klondike":
            assert sized.page.get_attribute('[data-pile="waste"]', "data-fan") == "waste-left"
        sized.check(game)
        move = engine.hint(game)  # still plays: a drag where the mirrored table shows it
        if move.src == "stock" or move.dst == "stock":
            sized.act("stock")
        else:
            sized.drag(move.src, sized.count(move.src) - move.count, move.dst)
        game.play(move)
        sized.settle()
        sized.check(game)
    finally:
        sized.page.evaluate(CLASS_JS, ["left-handed", False])
        sized.page.set_viewport_size({"width": 1280, "height": 800})
    assert sized.log.problems == []
