"""Accessibility basics and the page around the table (docs/architecture.md §2): accessible
names for cards and piles, nothing about a face-down card anywhere in the DOM, a polite live
region, a loading screen with real progress, Share and Stats controls that answer."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.rules.cards import parse_card
from tests.e2e.table_helpers import (  # noqa: F401 (fixtures)
    READY_MS,
    REWIND_OFFERED_JS,
    _desk,
    _table,
    first_move,
    make_session,
)
from tests.web import test_table_verdict as verdict_case

ROOT = Path(__file__).resolve().parents[2]

LABELS_JS = """() => [...document.querySelectorAll('[data-pile]')].map((p) => [
    p.dataset.pile, p.getAttribute('aria-label'),
    [...p.querySelectorAll('[data-card]')].map((c) => c.getAttribute('aria-label'))])"""
PROGRESS_JS = """() => {
    window.ppProgress = [];
    new MutationObserver(() => {
        const bar = document.getElementById('loading-bar');
        if (bar && bar.hasAttribute('value')) window.ppProgress.push(Number(bar.value));
    }).observe(document, {subtree: true, attributes: true, attributeFilter: ['value']});
}"""


def test_cards_and_piles_have_accessible_names(table):
    game = table.open("klondike", 5)
    position = game.position()["piles"]
    for pile, label, names in table.page.evaluate(LABELS_JS):
        assert label, pile
        want = [engine.card_name(parse_card(c)) for c in position[pile]]
        assert names == want, pile
    assert table.page.get_attribute('[data-pile="t0"]', "aria-label") == "Column 1"
    assert table.page.get_attribute('[data-pile="f1"]', "aria-label") == "Hearts foundation"


def test_the_dom_never_reveals_a_face_down_card(table):
    game = table.open("klondike", 5)
    hidden = [c.upper() for cards in game.position()["piles"].values() for c in cards
              if c.islower()]
    assert len(hidden) == 21 + 24
    html = table.page.content()
    for text in hidden:  # one deck: each text and name belongs to this hidden card alone
        assert f'"{text}"' not in html and f"'{text}'" not in html, text
        assert engine.card_name(parse_card(text)) not in html, text


def test_the_live_region_says_what_happened(table):
    game = table.new("beleaguered-castle", 1)
    assert table.page.get_attribute("#announce", "aria-live") == "polite"
    move = first_move(game)
    card = game.position()["piles"][move.src][-1]
    table.drag(move.src, table.count(move.src) - 1, move.dst)
    assert engine.card_name(parse_card(card)) in table.announced()
    table.page.keyboard.press("u")
    assert "undone" in table.announced()


SHARED_JS = """() => {
    const link = [...document.querySelectorAll('dialog[open] input')].map((i) => i.value);
    return link.join(' ') + ' ' + document.getElementById('announce').textContent;
}"""


def test_share_and_stats_answer(table):
    """Share gives the deal's link (share sheet, clipboard or a dialog); Stats opens."""
    table.new("spider-2", 77)
    page = table.page
    table.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click('[data-action="share"]')
    page.wait_for_function(f"() => ({SHARED_JS})().match(/deal=77|[Ll]ink/)")
    if "deal=77" not in page.evaluate(SHARED_JS):
        assert "deal=77" in page.evaluate("navigator.clipboard.readText()")
    table.close_dialogs()
    page.click('[data-action="stats"]')
    page.wait_for_selector("dialog[open]")
    table.close_dialogs()


def test_the_loading_screen_shows_progress_until_the_table_is_ready(table):
    page = table.page
    page.add_init_script(f"({PROGRESS_JS})()")
    table.goto("?game=doublets&deal=3", fresh=True)
    values = page.evaluate("window.ppProgress")
    assert len(set(values)) >= 3, values
    assert values == sorted(values) and values[-1] >= 90
    assert not page.is_visible("#loading")
    table.check(engine.new_game("doublets", 3))


def test_a_bad_link_says_why_and_keeps_the_game(table):
    """docs/rules/play-controls.md §9: a bad link gives a clear message and loses nothing; no
    URL text as HTML."""
    game = table.new("beleaguered-castle", 1)
    move = first_move(game)
    table.click_card(move.src, table.count(move.src) - 1)
    game.play(move)
    table.check(game)
    evil = "%3Cimg%20src%3Dx%20onerror%3Dwindow.pwned%3D1%3E"
    table.goto(f"?game={evil}&deal=5")
    page = table.page
    page.wait_for_selector("#info[open]")
    assert "still here" in table.text("#info-text")
    assert page.evaluate("window.pwned === undefined")
    assert page.locator("#info img").count() == 0
    table.close_dialogs()
    table.check(game)
    table.goto("?game=klondike&deal=12abc")
    page.wait_for_selector("#info[open]")
    table.close_dialogs()
    table.check(game)


# axe-core (the npm package, a dev dependency) on the table and on every dialog: WCAG 2.x
# A/AA and axe's best practices. It is injected inline, so its context bypasses the page's
# Content-Security-Policy (every other test runs under it).
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
AXE_RUN_JS = """async (tags) => {
    const found = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
    return found.violations.map((v) => [v.id, v.nodes.map((n) => n.target.join(' '))]);
}"""


@pytest.mark.parametrize(("size", "settings"), [
    ((1280, 800), {"dark": True, "large_print": True, "four_colour": True}),
    ((390, 844), {}),
], ids=["laptop-dark", "phone"])
def test_axe_finds_no_violation_on_the_table_or_in_any_dialog(browser, base_url, size, settings):
    """Every dialog, on the light table at a phone's size and on the dark one (large print,
    four colours) at a laptop's."""
    context, table = make_session(browser, base_url, bypass_csp=True,
                                  viewport={"width": size[0], "height": size[1]})
    page = table.page
    found = {}

    def check(name: str) -> None:
        if not page.evaluate("() => !!window.axe"):
            page.add_script_tag(path=str(AXE))
        found[name] = page.evaluate(AXE_RUN_JS, AXE_TAGS)

    try:
        game = table.open("klondike", 7)
        table.act("settings", **settings)
        check("table")
        page.click('[data-action="new"]')
        check("new game menu")
        page.keyboard.press("Escape")
        page.click('[data-action="settings"]')
        check("settings")
        page.keyboard.press("Escape")
        move = first_move(game) or next(m for m in game.legal_moves())
        table.act("play", src=move.src, dst=move.dst, count=move.count)
        page.click('[data-action="new"]')
        page.click('#menu [data-action="restart"]')
        check("confirm")
        page.click("#confirm [data-menu=cancel]")
        page.click('[data-action="stats"]')
        check("statistics")
        page.click('[data-view="stats-reset"]')
        check("leave question")
        page.click('[data-view="leave-no"]')
        page.click('[data-view="stats-close"]')
        table.goto("?game=nope&deal=1")
        page.locator("#info").wait_for()
        check("info")
        page.click("#info [data-menu=cancel]")
        lost = engine.new_game("beleaguered-castle", verdict_case.DEAL)
        for move in verdict_case.MOVES:
            lost.play(move)
        table.load(lost)
        # The notice shown with its way back offered (the button is enabled, though hidden,
        # before the solver has said anything).
        page.wait_for_function(REWIND_OFFERED_JS, timeout=READY_MS)
        check("lost notice, back to winnable")
        piles = {f"f{i}": [r + s for r in "A23456789TJQK"] for i, s in enumerate("SHDC")}
        piles["f3"] = piles["f3"][:-1]
        table.load(engine.from_position("beleaguered-castle", dict(piles, t0=["KC"])))
        table.act("settings", **settings)  # (load starts from an empty storage)
        table.act("play", src="t0", dst="f3", count=1)
        page.wait_for_selector("#end[open]")
        dark = page.evaluate("() => document.documentElement.classList.contains('dark')")
        assert dark == bool(settings.get("dark"))
        check("end of game")
        assert not table.log.problems, table.log.problems
    finally:
        context.close()
    assert {name: v for name, v in found.items() if v} == {}
