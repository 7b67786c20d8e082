"""The daily deal, its streak in Stats, and the difficulty of new deals, in the page.

- The New game menu's "Daily deal" deals the same deal in two browsers on one local date
  (the clock faked with Playwright's page.clock), another on the next date, and it is the
  deal engine/solver/daily.py names for that date (in the browser's time zone, not UTC).
- Winning the daily shows the daily streak at the end and in Stats.
- A difficulty chosen in the menu deals a deal of that rating.
"""

from __future__ import annotations

from datetime import UTC, datetime

import engine
from engine.solver.daily import daily_deal
from engine.solver.rating import rated_deals
from tests.e2e.table_helpers import SET_STORAGE_JS, make_session
from web.saves import GameSaves
from web.storage import MemoryBackend, Storage

ZONE = "Pacific/Auckland"  # UTC+13 in December: its date runs ahead of UTC's
# 20:00 UTC on 1 December is already 2 December in Auckland.
EVENING = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
NEXT_EVENING = datetime(2026, 12, 2, 20, 0, tzinfo=UTC)
STATE_JS = "() => window.ppTable.act('state')"


def daily_in_menu(table, variant: str) -> dict:
    page = table.page
    page.click('[data-action="new"]')
    page.check(f'#menu-variants input[value="{variant}"]')
    page.click('#menu [data-action="daily"]')
    return page.evaluate(STATE_JS)


def test_the_daily_deal_is_one_deal_in_two_browsers_on_a_date_and_another_the_next(
        browser, base_url):
    sessions = [make_session(browser, base_url, timezone_id=ZONE) for _ in range(2)]
    try:
        seen = []
        for _, table in sessions:
            table.page.clock.set_fixed_time(EVENING)
            table.goto(fresh=True)
            state = daily_in_menu(table, "klondike")
            seen.append((state["variant"], state["seed"], state["daily"]))
        expected = ("klondike", daily_deal("klondike", "2026-12-02"), "2026-12-02")
        assert seen == [expected, expected]
        _, table = sessions[0]
        assert "daily=2026-12-02" in table.page.url
        assert "Daily 2026-12-02" in table.text("#st-extra")
        table.page.clock.set_fixed_time(NEXT_EVENING)
        state = daily_in_menu(table, "klondike")
        assert (state["seed"], state["daily"]) == (daily_deal("klondike", "2026-12-03"),
                                                   "2026-12-03")
        assert state["seed"] != expected[1]
        for _, table in sessions:
            assert not table.log.problems, table.log.problems
    finally:
        for context, _ in sessions:
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
