"""The daily deal at the table, its streak in Stats, its share text and link, and the
difficulty chosen for new deals (web/desk.py, web/stats.py, web/scores.py, web/share.py)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.solver.daily import daily_deal
from engine.solver.rating import LEVELS, rated_deals
from tests.web.fakes import MemoryStore
from web import share
from web.controller import Table
from web.stats import (
    Result,
    StatsBook,
    StatsFileError,
    VariantStats,
    parse_export,
    read_variant,
    summary,
)
from web.storage import MemoryBackend, Storage

DAY = "2026-12-01"
ROOT = Path(__file__).resolve().parents[2]


def make_table(backend: MemoryBackend | None = None) -> Table:
    return Table(Storage(backend or MemoryBackend()), now=lambda: 1000.0, rng=random.Random(3))


def win(table: Table) -> dict:
    """Play the solver's win of the deal on the table through the table's intents."""
    answer = engine.solve(table.game.copy(), budget_ms=60_000)
    assert answer.result == "won"
    payload: dict = {}
    for move in answer.moves:
        payload = table.handle("play", {"src": move.src, "dst": move.dst, "count": move.count})
        assert payload["event"] == "move", payload["announce"]
    assert payload["status"] == "won"
    return payload


def daily_row(table: Table, today: str, label: str = "Daily streak") -> str:
    return dict(table.handle("stats", {"variant": "klondike", "today": today})["rows"])[label]


def test_the_daily_intent_deals_the_daily_of_the_date_and_a_reload_resumes_it() -> None:
    backend = MemoryBackend()
    table = make_table(backend)
    payload = table.handle("daily", {"variant": "klondike", "date": DAY})
    assert payload["event"] == "new" and payload["daily"] == DAY
    assert (payload["variant"], payload["seed"]) == ("klondike", daily_deal("klondike", DAY))
    assert "Daily deal of 2026-12-01" in payload["announce"]
    table.handle("stock")
    again = make_table(backend).start(f"?game=klondike&deal={payload['seed']}")
    assert again["daily"] == DAY and again["move_count"] == 1
    assert make_table(backend).start()["daily"] == DAY
    restarted = make_table(backend)
    restarted.start()
    assert restarted.handle("restart")["daily"] == DAY  # the same deal: still the daily
    assert restarted.handle("new", {"variant": "klondike"})["daily"] == ""
    bad = make_table().handle("daily", {"variant": "klondike", "date": "someday"})
    assert bad["event"] == "illegal" and "YYYY-MM-DD" in bad["announce"]


def test_a_daily_win_counts_a_daily_streak_of_consecutive_dates() -> None:
    table = make_table()
    table.handle("daily", {"variant": "klondike", "date": "2026-12-01"})
    end = win(table)
    assert end["result"]["daily_streak"] == 1
    assert daily_row(table, "2026-12-01") == "1" and daily_row(table, "2026-12-02") == "1"
    table.handle("daily", {"variant": "klondike", "date": "2026-12-02"})
    win(table)
    assert daily_row(table, "2026-12-02") == "2"
    assert daily_row(table, "2026-12-04") == "0"  # the 3rd was missed: broken
    assert daily_row(table, "2026-12-04", "Best daily streak") == "2"
    table.handle("daily", {"variant": "klondike", "date": "2026-12-04"})
    win(table)
    assert daily_row(table, "2026-12-04") == "1"
    assert daily_row(table, "2026-12-04", "Dailies won") == "3"
    table.handle("new", {"variant": "klondike", "seed": 7})
    win(table)  # not a daily: the daily figures stay
    assert daily_row(table, "2026-12-04", "Dailies won") == "3"


def test_streak_rules_one_date_once_earlier_dates_do_not_mend_it() -> None:
    vs = VariantStats()
    for day in ("2026-12-30", "2026-12-31", "2027-01-01"):  # across a year's end
        vs = vs.add(Result(True, 1000, 90, deal=5, daily=day))
    assert (vs.daily_streak, vs.daily_best, vs.daily_won) == (3, 3, 3)
    assert vs.add(Result(True, 1000, 90, daily="2027-01-01")).daily_won == 3  # counted once
    lost = vs.add(Result(False, 1000, 90, daily="2027-01-02"))
    assert lost.daily_streak_on("2027-01-02") == 3  # a lost daily does not end the day
    assert lost.daily_streak_on("2027-01-03") == 0
    late = vs.add(Result(True, 1000, 90, daily="2026-12-20"))
    assert (late.daily_streak, late.daily_won, late.daily_last) == (3, 4, "2027-01-01")
    fresh = vs.add(Result(True, 1000, 90, daily="2027-01-05"))
    assert (fresh.daily_streak, fresh.daily_best) == (1, 3)
    assert dict(summary(fresh, "2027-01-06"))["Daily streak"] == "1"


def test_daily_figures_survive_storage_export_and_import_and_bad_ones_are_refused() -> None:
    store = MemoryStore()
    book = StatsBook(store, engine.VARIANTS)
    book.record("klondike", Result(True, 5000, 120, deal=9, daily=DAY), "g1")
    again = StatsBook(store, engine.VARIANTS).stats.of("klondike")
    assert (again.daily_streak, again.daily_last, again.recent[-1].daily) == (1, DAY, DAY)
    doc = json.loads(book.export("2026-12-01T10:00:00Z"))
    assert parse_export(json.dumps(doc), engine.VARIANTS).of("klondike") == again
    good = doc["variants"]["klondike"]
    for field, value in (("daily_last", "2026-13-01"), ("daily_streak", 5),
                         ("daily_won", 2), ("daily_last", None)):
        with pytest.raises(StatsFileError):
            read_variant(dict(good, **{field: value}), "klondike")
    with pytest.raises(StatsFileError, match="daily"):
        read_variant(dict(good, recent=[dict(good["recent"][0], daily="yesterday")]), "k")
    plain = {k: v for k, v in good.items() if not k.startswith("daily")}
    plain["recent"] = []
    assert read_variant(plain, "klondike").daily_won == 0  # a file from before dailies


def test_a_daily_win_shares_its_date_time_and_moves_with_a_link_to_that_daily() -> None:
    table = make_table()
    table.handle("daily", {"variant": "klondike", "date": DAY})
    seed = table.game.seed
    before = table.handle("share", {"page": "https://example.org/pp/"})
    assert before["text"] == f"Play the daily Klondike of {DAY} in Pocket Patience."
    win(table)
    moves = table.game.move_count
    answer = table.handle("share", {"page": "https://example.org/pp/index.html", "result": True})
    assert answer["text"] == f"Pocket Patience · Daily Klondike {DAY} · won in 0:00, {moves} moves"
    assert answer["url"] == f"https://example.org/pp/?game=klondike&deal={seed}&daily={DAY}"
    query = "?" + answer["url"].split("?")[1]
    assert share.parse_link(query, engine.VARIANTS) == share.Link("klondike", seed, DAY)
    opened = make_table().start(query)  # the link opens that daily deal, as the daily
    assert (opened["seed"], opened["daily"]) == (seed, DAY)
    wrong = make_table().start(f"?game=klondike&deal={seed + 1}&daily={DAY}")
    assert (wrong["seed"], wrong["daily"]) == (seed + 1, "")  # not that date's daily
    with pytest.raises(share.LinkError, match="date"):
        share.parse_link("?game=klondike&deal=5&daily=2026-02-30", engine.VARIANTS)


def test_a_shared_daily_waits_behind_a_game_in_progress_and_opens_as_the_daily() -> None:
    backend = MemoryBackend()
    table = make_table(backend)
    table.handle("new", {"variant": "klondike", "seed": 11})
    table.handle("stock")
    seed = daily_deal("klondike", DAY)
    other = make_table(backend)
    payload = other.start(f"?game=klondike&deal={seed}&daily={DAY}")
    assert payload["seed"] == 11 and payload["link"]["daily"] == DAY
    opened = other.handle("new", {"variant": "klondike", "seed": seed, "daily": DAY})
    assert (opened["seed"], opened["daily"]) == (seed, DAY)


@pytest.mark.parametrize("level", LEVELS)
def test_a_level_chosen_for_a_game_deals_deals_of_that_rating(level: str) -> None:
    table = make_table()
    table.handle("settings", {"winnable": {"klondike": True}, "level": {"klondike": level}})
    assert table.settings["level"] == {"klondike": level}
    seeds = {table.handle("new", {"variant": "klondike"})["seed"] for _ in range(12)}
    assert seeds <= set(rated_deals("klondike", level)) and len(seeds) > 1
    table.handle("settings", {"winnable": {"klondike": False}})
    seed = table.handle("new", {"variant": "klondike"})["seed"]
    assert seed not in engine.winnable_deals("klondike")  # off: any deal (1 in 10**6 chance)
    table.handle("settings", {"level": {"klondike": None, "nope": "easy", "doublets": "x"}})
    assert table.settings["level"] == {}
    counts = table.handle("settings", {})["level_counts"]
    assert sum(counts["klondike"].values()) >= 150 and set(counts["klondike"]) == set(LEVELS)


def test_reloading_a_daily_reads_no_solver_list_on_the_way_to_the_table() -> None:
    """The address bar names the daily; a reload resumes the autosave without the lists."""
    code = f"""
import random, sys
from web.controller import Table
from web.storage import MemoryBackend, Storage
backend = MemoryBackend()
table = Table(Storage(backend), rng=random.Random(1))
table.handle("daily", {{"variant": "klondike", "date": "{DAY}"}})
seed = table.game.seed
for name in [m for m in sys.modules if m.startswith("engine.solver")]:
    del sys.modules[name]
again = Table(Storage(backend)).start(f"?game=klondike&deal={{seed}}&daily={DAY}")
print(again["daily"], any(m.startswith("engine.solver") for m in sys.modules))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout.split() == [DAY, "False"]
