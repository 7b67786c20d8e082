"""Statistics per variant (docs/rules/play-controls.md §11, from spider.md §10: moves,
elapsed time and win/loss per variant; undo count tracked but never a penalty; spider.md
§8: an abandoned game counts as a loss)."""

from __future__ import annotations

import json

import pytest

from tests.web.fakes import MemoryStore
from web.stats import (
    KEY,
    RECENT,
    Result,
    Stats,
    StatsBook,
    StatsFileError,
    VariantStats,
    chart_svg,
    clock_text,
    parse_export,
    summary,
)

KNOWN = ("spider-1", "klondike", "doublets")


def played(*results: Result, variant: str = "spider-1") -> Stats:
    stats = Stats()
    for r in results:
        stats = stats.add(variant, r)
    return stats


def test_section_10_wins_losses_rate_streaks_and_bests():
    stats = played(Result(True, 300_000, 150), Result(True, 200_000, 180),
                   Result(False, 50_000, 20), Result(True, 400_000, 120))
    vs = stats.of("spider-1")
    assert (vs.played, vs.won, vs.lost) == (4, 3, 1)
    assert vs.win_rate == 0.75
    assert (vs.streak, vs.best_streak) == (1, 2)
    assert vs.best_time_ms == 200_000 and vs.fewest_moves == 120
    assert vs.average_win_ms == 300_000
    assert stats.of("klondike") == VariantStats()


def test_section_10_undo_count_is_recorded_but_never_a_penalty():
    with_undos = played(Result(True, 100_000, 90, undos=40)).of("spider-1")
    without = played(Result(True, 100_000, 90, undos=0)).of("spider-1")
    assert with_undos.undos == 40
    assert (with_undos.won, with_undos.best_time_ms, with_undos.fewest_moves) == (
        without.won, without.best_time_ms, without.fewest_moves)


def test_section_8_a_loss_breaks_the_streak_but_keeps_the_best():
    vs = played(Result(True, 1, 1), Result(True, 1, 1), Result(False, 1, 1)).of("spider-1")
    assert (vs.streak, vs.best_streak) == (0, 2)


def test_recent_results_are_capped():
    stats = played(*[Result(i % 2 == 0, 1000, i) for i in range(RECENT + 5)])
    assert len(stats.of("spider-1").recent) == RECENT
    assert stats.of("spider-1").played == RECENT + 5


def test_book_records_saves_and_reloads():
    store = MemoryStore()
    book = StatsBook(store, KNOWN)
    assert book.record("klondike", Result(True, 61_000, 99, 2, 17))
    again = StatsBook(store, KNOWN)
    assert again.stats == book.stats and again.problems == []
    assert again.stats.of("klondike").recent[0].deal == 17


def test_book_says_when_storage_refuses():
    book = StatsBook(MemoryStore(refuse_writes=True), KNOWN)
    assert book.record("klondike", Result(False, 1, 1)) is False
    assert book.stats.of("klondike").lost == 1  # the session still counts it


def test_reset_one_variant_or_all():
    store = MemoryStore()
    book = StatsBook(store, KNOWN)
    book.record("klondike", Result(True, 1, 1))
    book.record("doublets", Result(False, 1, 1))
    book.reset("klondike")
    assert set(StatsBook(store, KNOWN).stats.variants) == {"doublets"}
    book.reset()
    assert StatsBook(store, KNOWN).stats == Stats()


def test_stored_values_keep_what_is_valid_and_list_the_rest():
    good = played(Result(True, 5000, 50)).of("spider-1").to_json()
    store = MemoryStore({KEY: {"variants": {"spider-1": good, "klondike": {"played": "many"},
                                            "freecell": good}}})
    book = StatsBook(store, KNOWN)
    assert set(book.stats.variants) == {"spider-1"}
    assert len(book.problems) == 2
    assert any("klondike" in p for p in book.problems)
    assert any("freecell" in p for p in book.problems)


@pytest.mark.parametrize("stored", [[1, 2], "text", 7, {"variants": [1]}])
def test_stored_value_of_the_wrong_shape_gives_empty_stats_and_a_problem(stored):
    book = StatsBook(MemoryStore({KEY: stored}), KNOWN)
    assert book.stats == Stats() and book.problems


def test_export_then_import_round_trip():
    store = MemoryStore()
    book = StatsBook(store, KNOWN)
    book.record("spider-1", Result(True, 123_456, 140, 3, 99))
    book.record("doublets", Result(False, 2_000, 4, 0, 5))
    text = book.export("2025-01-01T00:00:00Z")
    other = StatsBook(MemoryStore(), KNOWN)
    other.import_text(text)
    assert other.stats == book.stats
    assert StatsBook(other.storage, KNOWN).stats == book.stats


def corrupt(mutate) -> str:
    book = StatsBook(MemoryStore(), KNOWN)
    book.record("spider-1", Result(True, 10_000, 100, 1, 3))
    doc = json.loads(book.export("now"))
    mutate(doc)
    return json.dumps(doc)


def _set(path, value):
    def mutate(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return mutate


@pytest.mark.parametrize("text, words", [
    ("not json", "not JSON"),
    ("[]", "not a Pocket Patience"),
    ('{"app": "other", "kind": "statistics", "schema": 1, "variants": {}}',
     "not a Pocket Patience"),
    (corrupt(_set(["schema"], 99)), "newer version"),
    (corrupt(_set(["schema"], "1")), "format version"),
    (corrupt(_set(["variants"], [])), "object"),
    (corrupt(_set(["variants", "freecell"], {})), "not a game this app knows"),
    (corrupt(_set(["variants", "spider-1", "won"], -1)), "whole number"),
    (corrupt(_set(["variants", "spider-1", "won"], True)), "whole number"),
    (corrupt(_set(["variants", "spider-1", "lost"], 3)), "do not add up"),
    (corrupt(_set(["variants", "spider-1", "best_streak"], 0)), "streaks"),
    (corrupt(_set(["variants", "spider-1", "best_time_ms"], None)), "best time"),
    (corrupt(_set(["variants", "spider-1", "recent"], [{"won": "yes"}])), "true or false"),
    (corrupt(_set(["variants", "spider-1", "recent"], "x")), "list"),
    ("x" * 2_000_000, "too large"),
])
def test_import_refuses_bad_files_and_changes_nothing(text: str, words: str):
    store = MemoryStore()
    book = StatsBook(store, KNOWN)
    book.record("klondike", Result(True, 1000, 10))
    before, stored_before, writes = book.stats, dict(store.values), store.writes
    with pytest.raises(StatsFileError) as caught:
        book.import_text(text)
    assert words in str(caught.value)
    assert book.stats == before and store.values == stored_before and store.writes == writes


def test_parse_export_accepts_an_empty_file_of_statistics():
    doc = {"app": "pocket-patience", "kind": "statistics", "schema": 1, "variants": {}}
    assert parse_export(json.dumps(doc), KNOWN) == Stats()


def test_summary_and_clock_text():
    vs = played(Result(True, 3_723_000, 150), Result(False, 1000, 3)).of("spider-1")
    rows = dict(summary(vs))
    assert rows["Win rate"] == "50%" and rows["Best time"] == "1:02:03"
    assert rows["Average time of wins"] == "1:02:03" and rows["Fewest moves"] == "150"
    assert dict(summary(VariantStats()))["Win rate"] == "—"
    assert clock_text(59_999) == "0:59" and clock_text(None) == "—"


def test_chart_shows_one_bar_per_recent_result():
    recent = played(*[Result(i % 3 != 0, 60_000 + i, 100) for i in range(25)]).of(
        "spider-1").recent
    svg = chart_svg(recent)
    assert svg.startswith("<svg") and svg.count("data-result=") == 20
    assert svg.count('data-result="won"') == sum(r.won for r in recent[-20:])
    assert "Last 20 games" in svg
    assert "No finished games" in chart_svg(())


def test_chart_of_one_game_has_labelled_axes_and_a_text_alternative():
    svg = chart_svg([Result(True, 125_000, 130, 0, 42)])
    assert svg.count("data-result=") == 1
    # The time axis runs from 0:00 to a round time above the win; the bar carries its time.
    assert ">0:00</text>" in svg and ">3:00</text>" in svg and ">2:05</text>" in svg
    assert ">won</text>" in svg and ">lost</text>" in svg and "oldest to latest" in svg
    assert '<desc id="chart-desc">Game 1, deal 42: won in 2:05, 130 moves</desc>' in svg
    assert 'aria-labelledby="chart-title chart-desc"' in svg
    # One bar of six slots, not a bar as wide as the chart.
    width = float(svg.split('data-result="won"')[0].rsplit('width="', 1)[1].split('"')[0])
    assert width <= 26


def test_chart_marks_a_loss_under_the_axis():
    svg = chart_svg([Result(False, 0, 12, 0, 5), Result(True, 600_000, 200, 0, 6)])
    assert "Game 1, deal 5: lost after 12 moves; Game 2, deal 6: won in 10:00" in svg
    assert ">10:00</text>" in svg  # the top of the axis is the slowest win, rounded up
