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
from web.dailies import KEEP, MODULES
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


def find(table: Table, variant: str, day: str) -> dict:
    """Call ``daily_find`` slice after slice, as the page does, until it answers."""
    for _ in range(100_000):
        answer = table.handle("daily_find", {"variant": variant, "date": day, "ms": 2})
        assert answer.get("error") is None
        if answer.get("found"):
            return answer
    raise AssertionError("daily_find never answered")


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
    fresh = make_table()
    opened = fresh.start(query)  # the link opens its deal at once, the daily checked after
    assert (opened["seed"], opened["daily"]) == (seed, "")
    assert opened["daily_check"] == {"variant": "klondike", "date": DAY}
    confirmed = find(fresh, "klondike", DAY)
    assert (confirmed["event"], confirmed["daily"], confirmed["seed"]) == ("daily", DAY, seed)
    assert "daily_check" not in fresh.handle("state")
    wrong = make_table()
    assert wrong.start(f"?game=klondike&deal={seed + 1}&daily={DAY}")["daily_check"]
    answer = find(wrong, "klondike", DAY)
    assert answer == {"event": "daily_find", "variant": "klondike", "date": DAY,
                      "found": True, "deal": seed}
    assert wrong.handle("state")["daily"] == ""  # not that date's daily
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
    assert (opened["seed"], opened["daily"], opened["daily_check"]["date"]) == (seed, "", DAY)
    assert find(other, "klondike", DAY)["daily"] == DAY  # checked: it is the daily


def test_the_menu_finds_the_daily_in_slices_keeps_it_and_deals_it_at_once() -> None:
    """``daily_find`` answers slice after slice (the first ones import the solver's
    modules) until it has the deal; ``daily`` then deals it; the deal is kept in storage,
    so another visit on that date knows it at its first call."""
    backend = MemoryBackend()
    table = make_table(backend)
    first = table.handle("daily_find", {"variant": "spider-2", "date": DAY, "ms": 0.01})
    assert first["found"] is False
    calls = 0
    while not (answer := table.handle("daily_find", {"variant": "spider-2", "date": DAY,
                                                     "ms": 0.01}))["found"]:
        calls += 1
        assert answer["positions"] >= 0 and answer["tried"] >= 1
    assert calls > 3 and answer["deal"] == daily_deal("spider-2", DAY)
    assert table.game.variant != "spider-2" or table.game.seed != answer["deal"]  # not dealt
    dealt = table.handle("daily", {"variant": "spider-2", "date": DAY})
    assert (dealt["seed"], dealt["daily"]) == (answer["deal"], DAY)
    stored = json.loads(backend.items["pp:v1:/dailies"])
    assert stored["deals"] == {"spider-2": {DAY: answer["deal"]}}
    again = make_table(backend)
    again.start()
    assert again.handle("daily_find", {"variant": "spider-2", "date": DAY})["found"]
    bad = again.handle("daily_find", {"variant": "spider-2", "date": "2026-02-30"})
    assert bad["found"] is False and "YYYY-MM-DD" in bad["error"]


@pytest.mark.parametrize("stored", [
    "{not json", '{"schema": 1, "budgets": 3, "deals": {}}', '[1, 2]',
    '{"schema": 99, "budgets": {}, "deals": {}}',
    '{"schema": 1, "budgets": {}, "deals": {"klondike": {"2026-12-01": 5}}}',  # old budget
    "WRONG_DEAL", "WRONG_BUDGET",
])
def test_a_corrupt_or_stale_kept_daily_is_found_again(stored: str) -> None:
    """The kept dailies are a cache: whatever is wrong in it (not JSON, the wrong shape, a
    deal that is not one of the date's candidates, other budgets) is not used, the daily
    is found again, and the record is written anew; the player is not bothered."""
    from engine.solver.daily import BUDGET

    right = daily_deal("klondike", DAY)
    deals = {"klondike": {DAY: right + 1 if stored == "WRONG_DEAL" else right}}
    budgets = dict(BUDGET, klondike=BUDGET["klondike"] + (stored == "WRONG_BUDGET"))
    if stored in ("WRONG_DEAL", "WRONG_BUDGET"):
        stored = json.dumps({"schema": 1, "budgets": budgets, "deals": deals})
    backend = MemoryBackend()
    backend.items["pp:v1:/dailies"] = stored
    table = make_table(backend)
    payload = table.handle("daily", {"variant": "klondike", "date": DAY})
    assert (payload["seed"], payload["daily"]) == (right, DAY)
    kept = json.loads(backend.items["pp:v1:/dailies"])
    assert kept["deals"]["klondike"] == {DAY: right} and kept["budgets"] == BUDGET
    assert not table.storage.damaged_count() and not payload.get("notices")


def test_only_the_latest_dates_are_kept_a_game() -> None:
    backend = MemoryBackend()
    table = make_table(backend)
    for day in range(1, KEEP + 3):
        table.desk.dailies.keep("doublets", f"2026-12-{day:02d}", day)
    kept = json.loads(backend.items["pp:v1:/dailies"])["deals"]["doublets"]
    assert sorted(kept) == [f"2026-12-{day:02d}" for day in range(3, KEEP + 3)]


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
    """The address bar names the daily; a reload resumes the autosave without the solver,
    and a link to a daily found here before opens as the daily without it too."""
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
for key in [k for k in backend.items if "game" in k]:  # no autosave: the kept daily
    del backend.items[key]
again = Table(Storage(backend)).start(f"?game=klondike&deal={{seed}}&daily={DAY}")
print(again["daily"], again["seed"] == seed, "daily_check" in again,
      any(m.startswith("engine.solver") for m in sys.modules))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout.split() == [DAY, "False", DAY, "True", "False", "False"]


def test_a_damaged_table_of_dailies_ends_the_search_with_a_message(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's loop stops on an error (web/table/daily-find.js) and says so."""
    from engine.solver import daily

    monkeypatch.setattr(daily, "DATA", tmp_path)
    monkeypatch.setattr(daily, "_TABLES", {})
    (tmp_path / "daily-doublets.txt").write_text("first 2026-12-01\nnot letters\n")
    table = make_table()
    answers = [table.handle("daily_find", {"variant": "doublets", "date": DAY})
               for _ in range(len(MODULES) + 2)]
    assert not any(answer["found"] for answer in answers)
    assert "not a table" in answers[-1]["error"]
