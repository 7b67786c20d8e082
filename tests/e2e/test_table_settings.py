"""The Settings dialog in the browser: opened from the header, keyboard- and
screen-reader-friendly, small enough for a 360 x 640 phone; every setting kept across a
reload and put on <html> (the classes and data-speed other parts of the page follow);
the dark table's colours; the safe cards going home by themselves, one undo taking them
back; and a card picked up by a tap that looks unlike a focused one and is told in taps."""

from __future__ import annotations

import engine
from tests.e2e.table_helpers import (  # noqa: F401 (fixtures)
    _desk,
    _phone,
    _phone_session,
    _table,
)

# Each control of the dialog, clicked by a player, and what it leaves on <html>.
CLICKS = ["#set-four_colour", "#set-large_print", "#set-dark", "#set-left_handed",
          "#set-autofinish", "#set-auto_move", '#settings input[name="speed"][value="fast"]',
          '#settings input[name="tap"][value="select"]']
HTML_JS = """() => ({classes: [...document.documentElement.classList].sort(),
    speed: document.documentElement.dataset.speed,
    checked: [...document.querySelectorAll('#settings input')].filter((i) => i.checked)
        .map((i) => i.id || `${i.name}=${i.value}`).sort()})"""
CHANGED = {
    "classes": ["dark", "four-colour", "large-print", "left-handed"],
    "speed": "fast",
    "checked": ["set-auto_move", "set-dark", "set-four_colour", "set-large_print",
                "set-left_handed", "speed=fast", "tap=select"],
}
INSIDE_JS = "() => document.getElementById('settings').contains(document.activeElement)"
UNLABELLED_JS = """() => [...document.querySelectorAll('#settings input')]
    .filter((i) => !i.labels.length || !i.labels[0].textContent.trim()).map((i) => i.outerHTML)"""


def test_every_setting_is_kept_across_a_reload(table):
    table.goto("?game=klondike&deal=3", fresh=True)
    page = table.page
    assert page.evaluate(HTML_JS) == {
        "classes": [], "speed": "normal", "checked": ["set-autofinish", "speed=normal", "tap=auto"]}
    page.click('[data-action="settings"]')
    for selector in CLICKS:
        page.click(selector)
    page.keyboard.press("Escape")
    assert page.evaluate(HTML_JS) == CHANGED
    page.reload()
    table.wait_ready()
    assert page.evaluate(HTML_JS) == CHANGED
    # Back to the defaults, for the other tests of this page.
    page.click('[data-action="settings"]')
    for selector in CLICKS:
        page.click(selector.replace('"fast"', '"normal"').replace('"select"', '"auto"'))
    page.keyboard.press("Escape")
    assert page.evaluate(HTML_JS)["classes"] == []


def test_the_dialog_takes_the_focus_gives_it_back_and_closes_with_escape(table):
    table.goto("?game=spider-1&deal=9")
    page = table.page
    page.focus('[data-action="settings"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("#settings[open]")
    assert page.evaluate(INSIDE_JS)
    assert page.evaluate(UNLABELLED_JS) == []
    assert page.get_attribute("#settings", "aria-labelledby") == "settings-title"
    page.keyboard.press("Space")  # the first box: four-colour suits, by keyboard
    assert page.evaluate("() => document.documentElement.classList.contains('four-colour')")
    page.keyboard.press("Escape")
    assert not page.is_visible("#settings")
    assert page.evaluate("() => document.activeElement.dataset.action") == "settings"
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    page.click("#settings [data-menu=cancel]")
    assert not page.evaluate("() => document.documentElement.classList.contains('four-colour')")


def test_the_dialog_fits_a_small_phone_without_scrolling(phone):
    phone.goto("?game=klondike&deal=3")
    page = phone.page
    page.click('[data-action="settings"]')
    size = page.evaluate("""() => { const d = document.getElementById('settings');
        const r = d.getBoundingClientRect();
        return [d.scrollHeight, d.clientHeight, r.top, r.bottom, innerHeight]; }""")
    scroll, client, top, bottom, height = size
    assert scroll <= client and top >= 0 and bottom <= height, size
    page.keyboard.press("Escape")


FELT_JS = """() => [getComputedStyle(document.querySelector('.bar')).backgroundColor,
    getComputedStyle(document.getElementById('settings')).backgroundColor,
    document.querySelector('meta[name="theme-color"]').content]"""


def luminance(css: str) -> float:
    """The relative luminance of an ``rgb(r, g, b)`` colour."""
    channels = [int(v) / 255 for v in css[css.index("(") + 1:css.index(")")].split(",")[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def test_the_dark_table_darkens_the_header_and_the_dialogs(table):
    table.goto("?game=klondike&deal=3")
    page = table.page
    light_bar, light_dialog, light_meta = page.evaluate(FELT_JS)
    table.act("settings", dark=True)
    dark_bar, dark_dialog, dark_meta = page.evaluate(FELT_JS)
    table.act("settings", dark=False)
    assert luminance(dark_bar) < luminance(light_bar) and luminance(dark_bar) < 0.02
    assert luminance(light_dialog) > 0.8 and luminance(dark_dialog) < 0.05
    # The browser's bar follows: the dark header's colour, and back.
    assert light_meta == "#0b5d3b" and dark_meta == "#0f1714"
    assert page.evaluate(FELT_JS)[2] == "#0b5d3b"



def test_a_new_deal_keeps_the_menus_variants_and_the_bars_colour(table):
    """Every new deal sends the variants and settings again: the menu's choices stay the
    same elements (only the checked one follows the deal), and the dark bar's colour stays
    until the table turns light again."""
    table.goto("?game=klondike&deal=3")
    page = table.page
    page.evaluate("""() => { window.__menu = [...document.querySelectorAll(
        '#menu-variants input')]; }""")
    table.act("settings", dark=True)
    table.new("spider-1", 4)
    same, checked, meta = page.evaluate("""() => {
        const now = [...document.querySelectorAll('#menu-variants input')];
        const kept = now.every((el, i) => el === window.__menu[i]);
        return [now.length === window.__menu.length && kept,
            document.querySelector('#menu-variants input:checked').value,
            document.querySelector('meta[name="theme-color"]').content]; }""")
    assert same and checked == "spider-1" and meta == "#0f1714"
    table.act("settings", dark=False)
    table.new("klondike", 5)
    assert page.evaluate("""() => [document.querySelector('#menu-variants input:checked').value,
        document.querySelector('meta[name="theme-color"]').content]""") == ["klondike", "#0b5d3b"]

def test_safe_cards_go_home_by_themselves_and_one_undo_takes_them_back(table):
    game = engine.from_position("klondike", {
        "t0": ["3S"], "t1": ["2S"], "t2": ["AS"], "t3": ["9H"], "t4": ["8S"],
        "f1": ["AH", "2H"], "f2": ["AD", "2D"], "stock": ["kc"]})
    table.load(game)
    page = table.page
    # (Not finishing by itself: that would say "Every card goes home" 300 ms later.)
    table.act("settings", auto_move=True, autofinish=False)
    table.drag("t4", 0, "t3")
    page.wait_for_function("() => document.querySelectorAll('[data-pile=f0] > [data-card]')"
                           ".length === 3")
    assert "Home by themselves: Ace of spades, Two of spades, Three of spades." \
        in table.announced()
    page.keyboard.press("u")
    table.check(game)
    page.keyboard.press("r")
    assert table.piles()["f0"] == ["AS", "2S", "3S"]
    table.act("settings", auto_move=False, autofinish=True)


HELD_JS = """() => { const held = document.querySelector('.card[data-held]');
    const focused = document.querySelector('[data-pile="t6"]:focus-visible [data-cursor]');
    const look = (el) => { const s = getComputedStyle(el);
        return [s.translate, s.boxShadow, s.outlineStyle]; };
    return [look(held), look(focused)]; }"""


def test_a_card_picked_up_by_a_tap_is_lifted_and_told_in_taps(phone):
    phone.goto("?game=klondike&deal=3")
    page = phone.page
    phone.act("settings", tap="select")
    try:
        x, y = phone.grab_point("t5", phone.count("t5") - 1)
        page.touchscreen.tap(x, y)
        said = phone.announced()
        assert said.startswith("Picked up") and "Tap where it goes" in said, said
        assert "Enter" not in said and "Escape" not in said
        page.keyboard.press("7")  # the keyboard's focus on column 7, the card held on 6
        held, focused = page.evaluate(HELD_JS)
        assert held[0] not in ("none", "") and focused[0] in ("none", "")  # lifted
        assert held[1] != focused[1] and focused[2] != "none"  # shadow, not a focus ring
    finally:
        phone.act("settings", tap="auto")
