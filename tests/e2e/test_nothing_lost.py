"""Nothing a player has is lost, in the page: two real tabs of one browser, hostile saved
data, a storage that throws on reading, a shared link that waits through a reload, and
stock clicks faster than the cards fly."""

from __future__ import annotations

import json

import engine
from tests.e2e.table_helpers import (  # noqa: F401 (fixtures)
    SET_STORAGE_JS,
    Log,
    TablePage,
    _desk,
    _table,
    make_session,
    watch,
)
from tests.e2e.test_pwa_progress import open_deal, open_fresh, play_first

STATS_JS = "() => JSON.parse(localStorage.getItem('pp:v1:/stats') || 'null')"


def second_tab(table: TablePage) -> TablePage:
    page = table.context.new_page()
    watch_page_errors(page, table)
    other = TablePage(page, table.log)
    other.goto()
    return other


def watch_page_errors(page, table: TablePage) -> None:
    page.on("console", lambda m: m.type == "error" and table.log.problems.append(m.text))
    page.on("pageerror", lambda e: table.log.problems.append(str(e)))


def castle_win_moves(deal: int) -> list[engine.Move]:
    answer = engine.solve(engine.new_game("beleaguered-castle", deal), budget_ms=20_000)
    assert answer.result == "won"
    return answer.moves


def test_two_tabs_count_every_game_once_and_lose_no_win(table):
    game = open_deal(table, "beleaguered-castle", 202)
    play_first(table, game, 1)  # a game in progress, open in both tabs
    other = second_tab(table)
    try:
        assert other.piles() == table.piles()
        table.act("new", variant="beleaguered-castle", seed=202)  # leaves it: one loss
        for move in castle_win_moves(202):  # then wins the deal
            table.act("play", src=move.src, dst=move.dst, count=move.count)
        assert table.page.evaluate("document.querySelector('#end').dataset.result") == "won"
        # The other tab, opened on the game that was left, plays on and deals anew.
        first = other.piles()["t0"]
        other.act("tap", pile="t0", count=1)
        other.act("new", variant="beleaguered-castle", seed=5)
        stats = other.page.evaluate(STATS_JS)["variants"]["beleaguered-castle"]
        assert (stats["played"], stats["won"], stats["lost"]) == (2, 1, 1), (first, stats)
    finally:
        other.page.close()


def test_a_tab_closed_untouched_never_overwrites_another_tabs_moves(table):
    game = open_deal(table, "klondike", 7)
    other = second_tab(table)
    play_first(table, game, 6)
    table.page.goto("/pyscript.toml")  # the first tab closes (it saves as it goes)
    other.page.close()  # the second closes without a move: it must not save its old view
    table.goto()
    table.check(game)
    assert table.text("#st-moves") == "Moves 6"


def test_deeply_nested_saved_values_never_stop_the_app(table):
    deep = "[" * 10_000 + "]" * 10_000
    table.page.goto("/pyscript.toml")
    table.page.evaluate(SET_STORAGE_JS, {"pp:v1:/settings": deep, "pp:v1:/game": deep,
                                         "pp:v1:/stats": deep})
    table.goto()
    titles = []
    for _ in range(3):
        table.page.locator("#info").wait_for()
        titles.append(table.text("#info-title"))
        table.page.click("#info [data-menu=cancel]")
    assert titles == ["Saved data could not be read"] * 3
    kept = table.page.evaluate("Object.keys(localStorage).filter((k) => "
                               "k.startsWith('pp:v1:/unreadable:')).map((k) => localStorage[k])")
    assert kept == [deep] * 3
    # A stats file nested 6,000 deep is refused with a message, not a crash.
    table.page.click('[data-action="stats"]')
    table.page.set_input_files('[data-view="stats-file"]', files=[{
        "name": "deep.json", "mimeType": "application/json",
        "buffer": ('{"a":' * 6000 + "1" + "}" * 6000).encode()}])
    table.page.click('[data-view="leave-yes"]')
    table.page.wait_for_function("() => /Nothing was imported/.test(document.querySelector("
                                 "'#stats-message').textContent)")
    assert "nested too deeply" in table.text("#stats-message")
    # The damaged copies can be downloaded, then deleted.
    with table.page.expect_download() as got:
        table.page.click('[data-view="damaged-download"]')
    doc = json.loads(open(got.value.path()).read())
    assert sorted(i["name"] for i in doc["items"]) == ["game", "settings", "stats"]
    table.page.click('[data-view="damaged-clear"]')
    table.page.click('[data-view="leave-yes"]')
    table.page.wait_for_function("() => document.querySelector('#stats-damaged').hidden")
    table.close_dialogs()


def test_a_storage_that_throws_on_reading_is_never_written_over(browser, base_url):
    context, table = make_session(browser, base_url)
    try:
        saved = {"pp:v1:/game": "the real save", "pp:v1:/stats": "the real statistics"}
        table.page.goto("/pyscript.toml")
        table.page.evaluate(SET_STORAGE_JS, saved)
        context.add_init_script("""
            Storage.prototype.getItem = function () {
                throw new DOMException('The operation is insecure.', 'SecurityError');
            };""")
        table.goto("?game=klondike&deal=3")
        table.page.locator("#info").wait_for()
        assert table.text("#info-title") == "Progress is not being saved"
        table.close_dialogs()
        game = engine.new_game("klondike", 3)
        play_first(table, game, 3)
        table.check(game)
        table.page.goto("/pyscript.toml")
        stored = table.page.evaluate("() => Object.fromEntries(Object.keys(localStorage)"
                                     ".map((k) => [k, localStorage[k]]))")
        assert stored == saved
        assert not table.log.problems, table.log.problems
    finally:
        context.close()


def test_a_shared_link_waits_through_a_reload_until_it_is_answered(table):
    game = open_deal(table, "spider-1", 11)
    play_first(table, game, 1)
    table.goto("?game=klondike&deal=99")
    table.page.locator("#confirm").wait_for()
    table.page.reload()
    table.wait_ready()
    table.page.locator("#confirm").wait_for()
    assert "deal 99" in table.text("#confirm-text")
    table.page.click("#confirm [data-menu=cancel]")
    table.page.wait_for_function(  # the address names the deal in play again
        "() => location.search === '?game=spider-1&deal=11'")
    table.page.reload()
    table.wait_ready()
    table.check(game)
    assert not table.page.evaluate("document.querySelector('#confirm').open")


def test_a_bad_link_and_a_storage_notice_are_both_shown(table):
    table.page.goto("/pyscript.toml")
    table.page.evaluate(SET_STORAGE_JS, {"pp:v1:/settings": "{broken"})
    table.goto("?game=nope&deal=1")
    titles = []
    for _ in range(2):
        table.page.locator("#info").wait_for()
        titles.append(table.text("#info-title"))
        table.page.click("#info [data-menu=cancel]")
    assert sorted(titles) == ["Link not opened", "Saved data could not be read"]


def test_stock_clicks_faster_than_the_cards_fly_all_turn_the_stock(browser, base_url):
    context = browser.new_context(base_url=base_url, reduced_motion="no-preference",
                                  viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        table = TablePage(page, Log())
        watch(context, page, base_url, table.log)
        open_fresh(table, "?game=klondike&deal=7")
        x, y = table.drop_point("stock")
        game = engine.new_game("klondike", 7)
        for _ in range(24):
            page.mouse.click(x, y)
            page.wait_for_timeout(15)
            game.play(next(m for m in game.legal_moves() if m.src == "stock"
                           or m.dst == "stock"))
        page.wait_for_timeout(400)
        table.check(game)
        assert not table.log.problems, table.log.problems
    finally:
        context.close()
