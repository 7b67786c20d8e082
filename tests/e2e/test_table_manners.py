"""Small manners of the table: the address bar names the deal in play, Restart at move 0
asks nothing, a drag given up on the bare felt says nothing, a hint is shown in words."""

from __future__ import annotations

import engine
from tests.e2e.table_helpers import (  # noqa: F401 (fixtures)
    _desk,
    _phone,
    _phone_session,
    _table,
    first_move,
)


def test_the_address_bar_names_the_deal_in_play_and_a_reload_resumes_it(table):
    game = table.open("klondike", 12)
    move = first_move(game)
    table.act("play", src=move.src, dst=move.dst, count=move.count)
    game.play(move)
    assert table.page.evaluate("location.search") == "?game=klondike&deal=12"
    table.act("new", variant="doublets", seed=44)
    assert table.page.evaluate("location.search") == "?game=doublets&deal=44"
    table.act("undo")  # nothing to undo in a fresh deal: still deal 44
    table.act("new", variant="klondike", seed=12)
    table.act("play", src=move.src, dst=move.dst, count=move.count)
    table.page.reload()
    table.wait_ready()
    table.check(game)  # the autosave, with its move, not a fresh deal from the address
    assert table.text("#st-moves") == "Moves 1"


def test_restart_at_move_0_asks_nothing_and_after_a_move_it_asks(table):
    game = table.open("spider-1", 3)
    table.page.click('[data-action="new"]')
    table.page.click('#menu [data-action="restart"]')
    assert not table.page.evaluate("document.querySelector('#confirm').open")
    table.check(game)
    table.act("stock")
    table.page.click('[data-action="new"]')
    table.page.click('#menu [data-action="restart"]')
    assert table.page.evaluate("document.querySelector('#confirm').open")
    table.page.click("#confirm-yes")
    table.check(engine.new_game("spider-1", 3))


def test_a_drag_given_up_on_the_bare_felt_says_nothing(table):
    game = table.open("klondike", 12)
    move = first_move(game)  # a card that can move, let go where no pile is
    x, y = table.grab_point(move.src, table.count(move.src) - move.count)
    box = table.page.locator("#table").bounding_box()
    table.page.mouse.move(x, y)
    table.page.mouse.down()
    table.page.mouse.move(box["x"] + box["width"] - 20, box["y"] + box["height"] - 10, steps=6)
    table.page.mouse.up()
    assert "not allowed" not in table.announced()
    assert table.page.is_hidden("#toast")
    table.check(game)


def test_a_hint_is_shown_in_words(table):
    table.open("klondike", 12)
    table.page.keyboard.press("h")
    table.page.wait_for_function(
        "() => /^Hint: /.test(document.querySelector('#toast').textContent)")
    assert table.page.is_visible("#toast")


TITLE_CLIPPED_JS = """() => [...document.querySelectorAll('#game-title span')]
    .filter((s) => getComputedStyle(s).display !== 'none')
    .map((s) => [s.textContent, s.scrollWidth > s.clientWidth + 1])"""


def assert_whole_title(phone) -> None:
    clipped = phone.page.evaluate(TITLE_CLIPPED_JS)
    assert clipped and not any(cut for _, cut in clipped), clipped
    box = phone.page.locator("#game-title").bounding_box()
    assert box["y"] + box["height"] <= phone.page.locator(".bar").bounding_box()["height"] + 1


def test_a_phone_header_keeps_the_whole_name_and_suit_count(phone):
    """The longest names (one long word; a name and a suit count) show whole on a phone."""
    for variant in ("beleaguered-castle", "spider-relaxed-4"):
        phone.open(variant, 5)
        assert_whole_title(phone)


def test_the_finish_button_leaves_the_longest_name_whole_on_a_phone(phone):
    """A Castle won by force, finishing left to the player: one button more in the bar."""
    up = {suit: [rank + suit for rank in "A23456789TJQK"] for suit in "SHDC"}
    piles = {**{f"f{i}": up[s][:5] for i, s in enumerate("SHDC")},
             **{f"t{i}": up[s][:4:-1] for i, s in enumerate("SHDC")}}
    phone.load(engine.from_position("beleaguered-castle", piles))
    phone.act("settings", autofinish=False)
    phone.page.reload()
    phone.wait_ready()
    try:
        for width, height in ((360, 640), (390, 844)):
            phone.page.set_viewport_size({"width": width, "height": height})
            assert phone.page.is_visible('[data-action="finish"]')
            assert_whole_title(phone)
    finally:
        phone.page.set_viewport_size({"width": 360, "height": 640})
        phone.act("settings", autofinish=True)


# For each covered face-up card of a row fanned sideways: is its index (rank and suit)
# clear of the card that lies on it?
INDEX_CLEAR_JS = """() => {
    const out = [];
    for (const pile of document.querySelectorAll('[data-fan="left"], [data-fan="right"]')) {
        const cards = [...pile.querySelectorAll('[data-card]')];
        cards.slice(0, -1).forEach((card, i) => {
            const ix = [...card.querySelectorAll('.ix')].find(
                (e) => getComputedStyle(e).display !== 'none').getBoundingClientRect();
            const next = cards[i + 1].getBoundingClientRect();
            const clear = pile.dataset.fan === 'left' ? ix.left >= next.right - 0.5
                : ix.right <= next.left + 0.5;
            out.push([card.dataset.card, clear]);
        });
    }
    return out;
}"""


def test_every_index_in_a_sideways_row_shows_whole_tens_included(table):
    table.open("beleaguered-castle", 7)
    seen = table.page.evaluate(INDEX_CLEAR_JS)
    assert any(card.startswith("T") for card, _ in seen)
    assert [card for card, clear in seen if not clear] == []


def test_number_keys_go_to_a_column_and_t_reads_the_table(table):
    table.open("klondike", 7)
    table.page.locator('[data-pile="t0"]').focus()
    table.page.keyboard.press("3")
    assert table.page.evaluate("document.activeElement.dataset.pile") == "t2"
    table.page.keyboard.press("0")  # Klondike has seven columns: no tenth, focus stays
    assert table.page.evaluate("document.activeElement.dataset.pile") == "t2"
    table.page.keyboard.press("t")
    table.page.wait_for_function(
        "() => document.querySelector('#announce').textContent.startsWith('Column 1: ')")
    assert "Stock 24 cards" in table.announced()


# Is the centre of `selector` on screen and the element there (nothing covers it)?
REACHABLE_JS = """(selector) => {
    const el = document.querySelector(selector);
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return hit === el || el.contains(hit);
}"""


def test_the_new_game_menu_keeps_its_buttons_in_sight_on_a_short_phone(phone):
    """At 360x640 the menu scrolls; Deal and Daily deal show without scrolling, and the
    deal-number box scrolled to is not hidden behind them."""
    phone.open("klondike", 5)
    phone.page.click('[data-action="new"]')
    try:
        for selector in ('#menu [data-menu="deal"]', '#menu [data-action="daily"]'):
            assert phone.page.evaluate(REACHABLE_JS, selector), selector
        phone.page.evaluate("() => { const d = document.querySelector('#menu');"
                            " d.scrollTop = d.scrollHeight; }")
        assert phone.page.evaluate(REACHABLE_JS, "#menu-deal")
        assert phone.page.evaluate(REACHABLE_JS, '#menu [data-menu="cancel"]')
    finally:
        phone.close_dialogs()


def test_stats_with_no_games_say_so_once(table):
    """The empty chart shows its words itself: no caption repeats them under it."""
    table.goto(fresh=True)
    table.page.click('[data-action="stats"]')
    table.page.wait_for_selector("#stats[open] #stats-chart svg")
    try:
        said = table.page.evaluate("""() => [...document.querySelectorAll(
            '#stats-chart figcaption, #stats-chart svg > text')].map((e) => e.textContent)""")
        assert said.count("No finished games yet") == 1, said
    finally:
        table.close_dialogs()


TOAST_LINES_JS = """() => {
  const toast = document.querySelector('#toast');
  if (toast.hidden || !toast.textContent) return null;
  const range = document.createRange();
  range.selectNodeContents(toast);
  const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
  return [toast.textContent, tops.size, toast.getBoundingClientRect().width];
}"""


def test_a_short_toast_keeps_to_one_line_on_a_phone(phone):
    """A toast centred on the screen is as wide as its words (up to 90 % of the screen),
    not half the screen with its words wrapped."""
    phone.open("klondike", 7)
    phone.page.tap('[data-action="hint"]')
    phone.page.wait_for_function(f"() => ({TOAST_LINES_JS})() !== null")
    text, lines, width = phone.page.evaluate(TOAST_LINES_JS)
    assert len(text) < 30 and lines == 1, (text, lines, width)
