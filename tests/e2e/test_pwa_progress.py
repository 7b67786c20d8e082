"""Autosave, statistics and share links in the page (docs/rules/play-controls.md §8
autosave, §9 share links, §11 statistics per variant: an abandoned game counts as a
loss)."""

from __future__ import annotations

import json

import pytest

import engine
from tests.e2e.table_helpers import (  # noqa: F401 (fixtures)
    SET_STORAGE_JS,
    _desk,
    _table,
    make_session,
)

RANKS = "A23456789TJQK"


def open_fresh(table, query: str = "") -> None:
    """Open the app with empty storage. The app is left first: it saves its game when
    hidden, which would refill the storage just cleared."""
    table.page.goto("/pyscript.toml")
    table.page.evaluate("() => localStorage.clear()")
    table.goto(query)


def open_deal(table, variant: str, deal: int) -> engine.Game:
    open_fresh(table, f"?game={variant}&deal={deal}")
    return engine.new_game(variant, deal)


def play_first(table, game: engine.Game, n: int) -> None:
    for _ in range(n):
        move = game.legal_moves()[0]
        game.play(move)
        table.act("play", src=move.src, dst=move.dst, count=move.count)


def stat(table, label: str) -> str:
    return table.page.inner_text(f'#stats tr[data-stat="{label}"] td')


def open_stats(table, variant: str) -> None:
    table.page.click('[data-action="stats"]')
    table.page.select_option("#stats-variant", variant)
    table.page.wait_for_function(
        "(v) => document.querySelector('#stats').dataset.variant === v", arg=variant)


def test_autosave_restores_the_game_with_its_undo_and_redo_lines(table):
    game = open_deal(table, "spider-4", 8080)
    play_first(table, game, 4)
    for _ in range(2):
        table.page.keyboard.press("u")
        game.undo()
    table.check(game)
    table.page.reload()
    table.wait_ready()
    table.check(game)
    table.page.keyboard.press("r")
    game.redo()
    table.check(game)
    table.page.keyboard.press("u")
    table.page.keyboard.press("u")
    game.undo()
    game.undo()
    table.check(game)
    saved = table.page.evaluate("localStorage.getItem('pp:v1:/game')")
    assert json.loads(saved)["schema"] == 1


def test_a_win_then_an_abandoned_game_then_reset(table):
    # Klondike one move from the end (docs/rules/klondike.md §8.1: the game is won when
    # all 52 cards are on the foundations).
    found = {f"f{i}": [r + s for r in RANKS] for i, s in enumerate("SHDC")}
    found["f3"] = found["f3"][:-1]
    open_fresh(table)
    table.load(engine.from_position("klondike", dict(found, t0=["KC"])))
    table.act("play", src="t0", dst="f3", count=1)
    table.page.locator("#end").wait_for()
    table.close_dialogs()
    open_stats(table, "klondike")
    assert (stat(table, "Played"), stat(table, "Won"), stat(table, "Lost")) == ("1", "1", "0")
    assert (stat(table, "Win rate"), stat(table, "Fewest moves")) == ("100%", "1")
    assert table.page.locator('#stats svg [data-result="won"]').count() == 1
    table.page.click('[data-view="stats-close"]')

    # An abandoned game with a move: New game asks first, then counts a loss.
    game = table.new("klondike", 77)
    play_first(table, game, 1)
    table.page.click('[data-action="new"]')
    table.page.click('[data-menu="deal"]')
    confirm = table.page.locator("#confirm")
    confirm.wait_for()
    assert "loss" in confirm.inner_text()
    table.page.click("#confirm-yes")
    open_stats(table, "klondike")
    assert (stat(table, "Played"), stat(table, "Won"), stat(table, "Lost")) == ("2", "1", "1")
    assert (stat(table, "Current streak"), stat(table, "Best streak")) == ("0", "1")

    # Reset asks first; "Keep playing" changes nothing, "Reset" clears this game's figures.
    table.page.click('[data-view="stats-reset"]')
    table.page.click('[data-view="leave-no"]')
    assert stat(table, "Played") == "2"
    table.page.click('[data-view="stats-reset"]')
    table.page.click('[data-view="leave-yes"]')
    assert stat(table, "Played") == "0" and stat(table, "Win rate") == "—"
    table.page.reload()
    table.wait_ready()
    open_stats(table, "klondike")
    assert stat(table, "Played") == "0"


def test_export_then_import_round_trip_and_a_bad_file_changes_nothing(table, tmp_path):
    open_deal(table, "doublets", 5)
    game = engine.new_game("doublets", 5)
    play_first(table, game, 1)
    table.act("new", variant="doublets", seed=6)  # counted as a loss (set-up, not under test)
    open_stats(table, "doublets")
    assert stat(table, "Lost") == "1"
    with table.page.expect_download() as download:
        table.page.click('[data-view="stats-export"]')
    exported = tmp_path / "stats.json"
    download.value.save_as(exported)
    assert json.loads(exported.read_text())["variants"]["doublets"]["lost"] == 1

    table.page.click('[data-view="stats-reset-all"]')
    table.page.click('[data-view="leave-yes"]')
    assert stat(table, "Played") == "0"
    table.page.set_input_files('[data-view="stats-file"]', str(exported))
    table.page.click('[data-view="leave-yes"]')
    table.page.wait_for_function("() => /imported/.test(document.querySelector("
                                 "'#stats-message').textContent)")
    assert stat(table, "Played") == "1" and stat(table, "Lost") == "1"

    bad = tmp_path / "bad.json"
    doc = json.loads(exported.read_text())
    doc["variants"]["doublets"]["won"] = 5  # won + lost no longer add up to played
    bad.write_text(json.dumps(doc))
    table.page.set_input_files('[data-view="stats-file"]', str(bad))
    table.page.click('[data-view="leave-yes"]')
    table.page.wait_for_function("() => /Nothing was imported/.test(document.querySelector("
                                 "'#stats-message').textContent)")
    assert "do not add up" in table.page.inner_text("#stats-message")
    assert stat(table, "Played") == "1" and stat(table, "Won") == "0"


def test_corrupt_and_foreign_stored_values_never_stop_the_app(table):
    table.page.goto("/pyscript.toml")
    table.page.evaluate(SET_STORAGE_JS, {
        "pp:v1:/game": "{this is not json",
        "pp:v1:/stats": json.dumps({"schema": 99, "variants": {}}),
        "pp:v1:/settings": json.dumps([1, 2, 3]),
        "another-app": "<b>keep me</b>",
    })
    table.goto()
    texts = []
    for _ in range(3):  # one notice after another, none replacing the last
        info = table.page.locator("#info")
        info.wait_for()
        texts.append(info.inner_text())
        assert "Saved data could not be read" in texts[-1] and "Download it" in texts[-1]
        table.page.click("#info [data-menu=cancel]")
    assert any("saved game could not be used" in t for t in texts)
    assert any("newer version" in t for t in texts)
    assert table.page.evaluate("localStorage.getItem('another-app')") == "<b>keep me</b>"
    kept = table.page.evaluate("Object.keys(localStorage).filter((k) => "
                               "k.startsWith('pp:v1:/unreadable:'))")
    assert len(kept) == 3
    # A fresh game plays and saves.
    pos = table.page.evaluate("JSON.parse(localStorage.getItem('pp:v1:/game'))")
    assert pos["schema"] == 1 and pos["count"] == 0


def test_storage_that_throws_on_write_lets_play_go_on(browser, base_url):
    context, table = make_session(browser, base_url)
    try:
        context.add_init_script("""
            Storage.prototype.setItem = function () {
                throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
            };""")
        game = open_deal(table, "spider-1", 99)
        info = table.page.locator("#info")
        info.wait_for()
        assert "will not be kept" in info.inner_text()
        table.close_dialogs()
        play_first(table, game, 2)
        table.check(game)
        table.act("undo")
        game.undo()
        table.check(game)
        assert not table.log.problems, table.log.problems
    finally:
        context.close()


@pytest.mark.parametrize("query, words", [
    ("?game=freecell&deal=5", "does not know"),
    ("?game=klondike", "does not give a deal number"),
    ("?game=klondike&deal=abc", "not a whole number"),
    ("?game=klondike&deal=-3", "not a whole number"),
    ("?game=klondike&deal=0", "not in range"),
    ("?game=klondike&deal=4294967296", "not in range"),
    ("?deal=12", "which game"),
    ("?game=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&deal=1", "“<img src=x onerror=alert(1)>”"),
])
def test_a_bad_link_says_why_and_leaves_game_and_statistics_alone(table, query, words):
    game = open_deal(table, "spider-2", 4242)
    play_first(table, game, 2)
    before = table.page.evaluate("({game: localStorage.getItem('pp:v1:/game.0'),"
                                 " stats: localStorage.getItem('pp:v1:/stats')})")
    table.goto(query)
    info = table.page.locator("#info")
    info.wait_for()
    assert words in info.inner_text() and "still here" in info.inner_text()
    assert table.page.locator("img").count() == 0  # never inserted as HTML
    table.check(game)
    after = table.page.evaluate("({game: localStorage.getItem('pp:v1:/game.0'),"
                                " stats: localStorage.getItem('pp:v1:/stats')})")
    assert json.loads(after["game"])["moves"] == json.loads(before["game"])["moves"]
    assert after["stats"] == before["stats"]


@pytest.mark.parametrize("variant, deal", [("klondike", 1), ("beleaguered-castle", 4294967295),
                                           ("spider-relaxed-2", 123456789)])
def test_a_share_link_opens_the_same_deal_as_the_engine(table, variant, deal):
    open_fresh(table, f"?game={variant}&deal={deal}")
    table.check(engine.new_game(variant, deal))


def test_a_link_asks_before_leaving_a_game_in_progress(table):
    game = open_deal(table, "spider-1", 11)
    play_first(table, game, 1)
    table.goto("?game=klondike&deal=12")
    table.check(game)  # not replaced yet
    confirm = table.page.locator("#confirm")
    confirm.wait_for()
    assert "Klondike, deal 12" in confirm.inner_text()
    table.page.click("#confirm-yes")
    table.check(engine.new_game("klondike", 12))
    open_stats(table, "spider-1")
    assert stat(table, "Lost") == "1"


def test_share_button_uses_the_share_sheet_else_the_clipboard_else_shows_the_link(
        browser, base_url):
    expected = f"{base_url}/?game=spider-4&deal=2024"
    # 1. A device with a share sheet.
    context, table = make_session(browser, base_url)
    try:
        context.add_init_script("navigator.share = async (data) => { window.__shared = data; };")
        open_deal(table, "spider-4", 2024)
        table.page.click('[data-action="share"]')
        table.page.wait_for_function("() => window.__shared")
        assert table.page.evaluate("window.__shared.url") == expected
        assert "Share sheet opened" in table.page.inner_text("#announce")
    finally:
        context.close()
    # 2. No share sheet: the clipboard.
    context, table = make_session(browser, base_url)
    try:
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        open_deal(table, "spider-4", 2024)
        table.page.click('[data-action="share"]')
        table.page.wait_for_function("() => /copied/.test(document.querySelector("
                                     "'#announce').textContent)")
        assert table.page.evaluate("navigator.clipboard.readText()") == expected
    finally:
        context.close()
    # 3. Neither: the link is shown to copy.
    context, table = make_session(browser, base_url)
    try:
        context.add_init_script(
            "Object.defineProperty(navigator, 'clipboard', {value: undefined});")
        open_deal(table, "spider-4", 2024)
        table.page.click('[data-action="share"]')
        table.page.locator("#info").wait_for()
        assert table.page.input_value("#info-link") == expected
        assert "link to copy" in table.page.inner_text("#announce")
    finally:
        context.close()
