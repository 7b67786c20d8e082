"""The daily deal, its streak in Stats, and the difficulty of new deals, in the page.

- The New game menu's "Daily deal" finds the deal on the device (its button says
  "Finding today's deal…" while the solver's worker searches) and deals the same deal in
  two browsers on one local date (the clock faked with Playwright's page.clock), another on
  the next date; it is the deal engine/solver/daily.py finds in CPython for that date (in
  the browser's time zone, not UTC).
- A link to a daily deal opens its deal at once and is checked after the table.
- Winning the daily shows the daily streak at the end and in Stats.
- A difficulty chosen in the menu deals a deal of that rating.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import engine
from engine.solver.daily import daily_deal
from engine.solver.rating import rated_deals
from tests.e2e.table_helpers import (
    PAGE_FILES_JS,
    SET_STORAGE_JS,
    WORKER_ANSWERS_JS,
    WORKER_READY_JS,
    make_session,
)
from web.saves import GameSaves
from web.storage import MemoryBackend, Storage

ZONE = "Pacific/Auckland"  # UTC+13 in December: its date runs ahead of UTC's
# 20:00 UTC on 1 December is already 2 December in Auckland.
EVENING = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
NEXT_EVENING = datetime(2026, 12, 2, 20, 0, tzinfo=UTC)
STATE_JS = "() => window.ppTable.act('state')"


# What the Daily button says, each time it changes (recorded in the page).
BUTTON_WATCH_JS = """() => {
    window.__dailyTexts = [];
    const button = document.querySelector('#menu [data-action="daily"]');
    new MutationObserver(() => window.__dailyTexts.push(
        [button.textContent, button.getAttribute("aria-busy"), performance.now()])).observe(
        button, { childList: true, characterData: true, subtree: true, attributes: true });
}"""
DAILY_DEALT_JS = "(day) => window.ppTable.act('state').daily === day"
FIND_MS = 180_000  # a Spider daily takes seconds in the browser, more on a busy machine


def daily_in_menu(table, variant: str, day: str) -> dict:
    """Choose ``variant`` and Daily deal in the menu; wait for the deal of ``day``."""
    page = table.page
    page.click('[data-action="new"]')
    page.check(f'#menu-variants input[value="{variant}"]')
    page.evaluate(BUTTON_WATCH_JS)
    page.click('#menu [data-action="daily"]')
    page.wait_for_function(DAILY_DEALT_JS, arg=day, timeout=FIND_MS)
    texts = page.evaluate("() => window.__dailyTexts")
    assert ["Finding today\u2019s deal\u2026", "true"] in [t[:2] for t in texts], texts
    assert texts[-1][:2] == ["Daily deal", "false"]
    assert not page.locator("#menu").is_visible()
    return page.evaluate(STATE_JS)


def test_the_daily_deal_is_one_deal_in_two_browsers_on_a_date_and_another_the_next(
        browser, base_url):
    sessions = [make_session(browser, base_url, timezone_id=ZONE) for _ in range(2)]
    try:
        seen = []
        for _, table in sessions:
            table.page.clock.set_fixed_time(EVENING)
            table.goto(fresh=True)
            state = daily_in_menu(table, "klondike", "2026-12-02")
            seen.append((state["variant"], state["seed"], state["daily"]))
        expected = ("klondike", daily_deal("klondike", "2026-12-02"), "2026-12-02")
        assert seen == [expected, expected]
        _, table = sessions[0]
        assert "daily=2026-12-02" in table.page.url
        assert "Daily 2026-12-02" in table.text("#st-extra")
        table.page.clock.set_fixed_time(NEXT_EVENING)
        state = daily_in_menu(table, "klondike", "2026-12-03")
        assert (state["seed"], state["daily"]) == (daily_deal("klondike", "2026-12-03"),
                                                   "2026-12-03")
        assert state["seed"] != expected[1]
        for _, table in sessions:
            assert not table.log.problems, table.log.problems
    finally:
        for context, _ in sessions:
            context.close()


def test_a_spider_daily_is_searched_in_the_worker_while_the_page_asks_again(browser,
                                                                           base_url):
    """Two suits: thousands of positions, so the search is the solver worker's (in slices
    there, between the other work it is asked for), never the page's: the page says
    "Finding today's deal…" and asks again, one task a time, until the worker's answer
    comes. So the page loads none of the solver's files, and the deal it deals is the one
    the worker sent. (How long the page's tasks take is a time, for the benchmarks:
    bench/latency.py counts the long tasks of play.)"""
    context, table = make_session(browser, base_url, timezone_id=ZONE)
    try:
        page = table.page
        page.add_init_script(WORKER_ANSWERS_JS)
        page.clock.set_fixed_time(EVENING)
        table.goto(fresh=True)
        # (The faked clock hides the page's performance marks: the worker's own "ready".)
        page.wait_for_function(WORKER_READY_JS, timeout=FIND_MS)
        day = "2026-12-05"
        page.clock.set_fixed_time(datetime.fromisoformat(day + "T00:00:00+13:00"))
        state = daily_in_menu(table, "spider-2", day)
        expected = daily_deal("spider-2", day)
        assert (state["variant"], state["seed"]) == ("spider-2", expected)
        answers = [a for a in page.evaluate("() => window.__workerAnswers")
                   if a.get("kind") == "daily_find"]
        assert answers  # (one, or more if asked again meanwhile: each the same)
        assert {(a["variant"], a["date"], a["found"], a["deal"]) for a in answers} == {
            ("spider-2", day, True, expected)}
        pages_files = page.evaluate(PAGE_FILES_JS)
        assert not [f for f in pages_files if "/engine/solver/" in f], pages_files
        assert not table.log.problems, table.log.problems
    finally:
        context.close()


def test_a_link_to_a_daily_opens_its_deal_at_once_and_checks_it_after(browser, base_url):
    context, table = make_session(browser, base_url, timezone_id=ZONE)
    try:
        day = "2026-12-02"
        seed = daily_deal("doublets", day)
        table.page.clock.set_fixed_time(EVENING)
        table.page.goto("/pyscript.toml")
        table.page.evaluate("() => localStorage.clear()")
        table.goto(f"?game=doublets&deal={seed}&daily={day}")
        state = table.page.evaluate(STATE_JS)
        assert (state["variant"], state["seed"]) == ("doublets", seed)
        table.page.wait_for_function(DAILY_DEALT_JS, arg=day, timeout=FIND_MS)
        assert f"Daily {day}" in table.text("#st-extra")
        assert f"daily={day}" in table.page.url
        assert not table.log.problems, table.log.problems
    finally:
        context.close()


def test_winning_the_daily_shows_its_streak_at_the_end_and_in_stats(browser, base_url):
    context, table = make_session(browser, base_url, timezone_id=ZONE)
    try:
        day = "2026-12-02"
        game = engine.new_game("klondike", daily_deal("klondike", day))
        answer = engine.solve(game.copy(), budget_ms=60_000)
        *most, last = answer.moves
        for move in most:
            game.play(move)
        backend = MemoryBackend()
        GameSaves(Storage(backend)).save(game, "a-daily", 0, False, daily=day)
        table.page.clock.set_fixed_time(EVENING)
        table.page.goto("/pyscript.toml")
        table.page.evaluate(SET_STORAGE_JS, backend.items)
        table.goto()
        assert table.page.evaluate(STATE_JS)["daily"] == day  # resumed as the daily
        table.act("play", src=last.src, dst=last.dst, count=last.count)
        table.page.wait_for_selector("#end[open]")
        assert "Daily streak 1" in table.text("#end-record").replace("\u00a0", " ")
        table.close_dialogs()
        table.page.click('[data-action="stats"]')
        table.page.wait_for_selector("#stats[open]")
        assert table.text('#stats-table [data-stat="Daily streak"] td') == "1"
        assert table.text('#stats-table [data-stat="Dailies won"] td') == "1"
        table.close_dialogs()
        table.page.clock.set_fixed_time(datetime(2026, 12, 5, 20, 0, tzinfo=UTC))
        table.page.click('[data-action="stats"]')
        assert table.text('#stats-table [data-stat="Daily streak"] td') == "0"  # days missed
        assert table.text('#stats-table [data-stat="Best daily streak"] td') == "1"
        table.close_dialogs()
        assert not table.log.problems, table.log.problems
    finally:
        context.close()


def test_a_difficulty_chosen_in_the_menu_deals_a_deal_of_that_rating(browser, base_url):
    context, table = make_session(browser, base_url)
    try:
        table.goto(fresh=True)
        page = table.page
        for level in ("hard", "easy"):
            page.click('[data-action="new"]')
            page.check('#menu-variants input[value="klondike"]')
            page.check("#menu-winnable")
            assert page.locator("#menu-level").is_enabled()
            page.select_option("#menu-level", level)
            assert "a third each Easy, Medium and Hard" in table.text("#menu-winnable-note")
            page.click('[data-menu="deal"]')
            state = page.evaluate(STATE_JS)
            assert state["variant"] == "klondike"
            assert state["seed"] in rated_deals("klondike", level), level
            assert state["settings"]["level"] == {"klondike": level}
        page.click('[data-action="new"]')
        page.uncheck("#menu-winnable")
        assert page.locator("#menu-level").is_disabled()
        table.close_dialogs()
        assert not table.log.problems, table.log.problems
    finally:
        context.close()


STATUS_BOXES_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.right]; };
  const shown = (sel) => [...document.querySelectorAll(sel)]
    .filter((el) => el.getClientRects().length > 0).map((el) => el.innerText);
  const bar = document.querySelector('.status');
  return {bar: box(bar), daily: box(document.querySelector('#st-extra .x-daily')),
          verdict: box(document.querySelector('#st-verdict')),
          shown: shown('#st-extra > span'), wide: bar.scrollWidth > bar.clientWidth};
}"""


@pytest.mark.parametrize("width", [360, 420, 1280])
def test_a_daily_is_named_in_the_status_bar_at_every_width(browser, base_url, width):
    """On a phone the counters of Spider and Doublets give way (the stock shows them), and
    the date its short form; the daily is named at every width, with room for the verdict."""
    context, table = make_session(browser, base_url, timezone_id=ZONE,
                                  viewport={"width": width, "height": 740})
    try:
        day = "2026-12-02"
        seed = daily_deal("doublets", day)
        table.page.clock.set_fixed_time(EVENING)
        table.goto(f"?game=doublets&deal={seed}&daily={day}", fresh=True)
        table.page.wait_for_function(DAILY_DEALT_JS, arg=day, timeout=FIND_MS)
        seen = table.page.evaluate(STATUS_BOXES_JS)
        if width <= 420:
            assert seen["shown"] == ["Daily Dec 2"], seen
        else:
            assert seen["shown"][:2] == ["Daily 2026-12-02", " · "], seen
            assert seen["shown"][2].startswith("Needs "), seen
        assert not seen["wide"], seen
        assert seen["bar"][0] <= seen["daily"][0] < seen["daily"][1] <= seen["verdict"][0], seen
        assert not table.log.problems, table.log.problems
    finally:
        context.close()
