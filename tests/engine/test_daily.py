"""The daily deal (engine/solver/daily.py) and the difficulty ratings
(engine/solver/rating.py): docs/solver.md §13 and §14."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest

import engine
from engine.solver.daily import POOL, daily_deal, day_number, parse_day, pool
from engine.solver.rating import (
    LEVELS,
    Rated,
    parse_rated,
    rated_deals,
    rated_path,
    rating,
    ratings,
    split_levels,
)
from engine.solver.winnable import winnable_deals

ROOT = Path(__file__).resolve().parents[2]
DAY = date(2026, 12, 1)


def days(first: date, count: int) -> list[date]:
    return [first + timedelta(days=i) for i in range(count)]


# --- the daily deal ---------------------------------------------------------------------


@pytest.mark.parametrize("variant", engine.VARIANTS)
def test_the_daily_deal_is_one_deal_a_date_and_another_the_next_day(variant: str) -> None:
    today = daily_deal(variant, DAY)
    assert daily_deal(variant, "2026-12-01") == today == daily_deal(variant, DAY)
    assert daily_deal(variant, DAY + timedelta(days=1)) != today
    month = [daily_deal(variant, d) for d in days(DAY, 31)]
    assert len(set(month)) == 31  # a cycle deals no deal twice
    # consecutive days are not consecutive deals of the list
    index = {deal: i for i, deal in enumerate(winnable_deals(variant))}
    steps = {index[b] - index[a] for a, b in zip(month, month[1:], strict=False)}
    assert len(steps) > 20


def test_the_daily_deal_is_pinned_so_every_device_and_version_agrees() -> None:
    """The same date gives the same deal everywhere, and in every later version: a change
    here changes the daily deal people compare."""
    assert [daily_deal("klondike", d) for d in days(DAY, 3)] == [917, 1643, 667]
    assert daily_deal("spider-4", DAY) == 96


def test_a_cycle_deals_the_whole_pool_once_in_a_new_order() -> None:
    variant = "spider-4"
    deals = pool(variant)
    start = date.fromordinal(date(1970, 1, 1).toordinal() + 21 * len(deals))  # a cycle's first day
    assert day_number(start) % len(deals) == 0
    cycle = [daily_deal(variant, d) for d in days(start, len(deals))]
    assert sorted(cycle) == sorted(deals)
    after = [daily_deal(variant, d) for d in days(start + timedelta(days=len(deals)), 20)]
    assert after != cycle[:20]


@pytest.mark.parametrize("variant", engine.VARIANTS)
def test_every_daily_pool_is_part_of_the_shipped_winnable_list(variant: str) -> None:
    assert len(winnable_deals(variant)) >= POOL[variant] == len(pool(variant))
    assert pool(variant) == winnable_deals(variant)[:POOL[variant]]


@pytest.mark.parametrize("variant", ["klondike", "beleaguered-castle", "doublets",
                                     "spider-relaxed-1"])
def test_daily_deals_are_proven_winnable_again(variant: str) -> None:
    """A few dailies solved again from scratch, each win replayed under the rules."""
    for day in days(DAY, 3):
        game = engine.new_game(variant, daily_deal(variant, day))
        answer = engine.solve(game, budget_ms=60_000)
        assert answer.result == "won", (variant, day)
        for move in answer.moves:
            game.play(move)
        assert game.status == "won"


def test_a_date_that_is_not_a_date_is_refused_with_a_message() -> None:
    for bad in ("2026-13-01", "2026-02-30", "26-12-01", "2026/12/01", "", "２０２６-12-01"):
        with pytest.raises(ValueError):
            parse_day(bad)
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        daily_deal("klondike", "tomorrow")


# --- difficulty ---------------------------------------------------------------------------


def test_thirds_by_rank_hold_even_where_counts_tie() -> None:
    rated = [Rated(deal, 50 if deal < 60 else deal, 100 + deal % 7) for deal in range(1, 101)]
    split = split_levels(rated)
    sizes = [len(split.levels[level]) for level in LEVELS]
    assert sizes == [34, 33, 33]
    easy, medium = split.cutoffs  # the 1/3 and 2/3 quantiles of the counts
    assert easy == 50 and medium == 67
    assert all(r.positions <= easy for r in rated if r.deal in split.levels["easy"])
    assert all(r.positions >= medium for r in rated if r.deal in split.levels["hard"])
    assert split_levels([]).cutoffs is None


RATED = [v for v in engine.VARIANTS if rated_path(v).exists()]


def test_every_game_has_rated_deals() -> None:
    assert RATED == list(engine.VARIANTS)


@pytest.mark.parametrize("variant", RATED)
def test_the_shipped_ratings_hold_a_third_each_of_listed_deals(variant: str) -> None:
    rated = ratings(variant).rated
    assert len(rated) >= 300
    listed = set(winnable_deals(variant))
    assert all(r.deal in listed for r in rated)
    sizes = [len(rated_deals(variant, level)) for level in LEVELS]
    assert max(sizes) - min(sizes) <= 1 and sum(sizes) == len(rated)
    easy, medium = ratings(variant).cutoffs
    assert easy <= medium
    hard = rated_deals(variant, "hard")[0]
    assert rating(variant, hard) == "hard" and rating(variant, 0) is None


@pytest.mark.parametrize("variant", ["klondike", "beleaguered-castle", "spider-1", "doublets"])
def test_a_rated_count_is_what_the_solver_expands_again_under_any_hash_seed(variant: str) -> None:
    """Positions, unlike times, are the same on every machine: two rated deals solved again
    in a process with another PYTHONHASHSEED expand exactly the recorded positions. (A
    change to a game's solver that changes its counts fails here: rate its list again.)"""
    sample = [r for r in ratings(variant).rated if r.positions < 5000][::97][:2]
    code = ("import sys, engine\n"
            "for deal in sys.argv[2:]:\n"
            "    a = engine.solve(engine.new_game(sys.argv[1], int(deal)), 1e9, 2_000_000)\n"
            "    print(a.result, a.nodes, len(a.moves))\n")
    for seed in ("1", "4242"):
        done = subprocess.run([sys.executable, "-c", code, variant,
                               *(str(r.deal) for r in sample)],
                              capture_output=True, text=True, cwd=ROOT, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed})
        assert done.stdout.split("\n")[:-1] == [f"won {r.positions} {r.moves}" for r in sample]


def test_cli_rate_writes_positions_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "rated.txt"

    def rate(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "engine", "rate", "doublets", "--output",
                               str(out), *args], capture_output=True, text=True, cwd=ROOT)

    assert rate("--limit", "2").returncode == 0
    first = parse_rated(out.read_text())
    assert [r.deal for r in first] == list(winnable_deals("doublets")[:2])
    done = rate("--limit", "4", "--resume")
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert parse_rated(text)[:2] == first and len(parse_rated(text)) == 4
    assert "# Rated 4 of the first 4 listed deals." in text
    for r in parse_rated(text):
        answer = engine.solve(engine.new_game("doublets", r.deal), 1e9, 2_000_000)
        assert (answer.result, answer.nodes, len(answer.moves)) == ("won", r.positions, r.moves)
    other = rate("--limit", "4", "--max-nodes", "5", "--resume")
    assert other.returncode == 2 and "same command" in other.stderr
