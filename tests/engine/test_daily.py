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
from engine.rules.variants import DEAL_MAX, DEAL_MIN
from engine.solver.daily import (
    BUDGET,
    CANDIDATES,
    POOL,
    DailySearch,
    candidates,
    daily_deal,
    is_candidate,
    parse_day,
    pinned_space,
    pool_deal,
    read_table,
    round_keys,
    scramble,
    table_path,
    tabled,
)
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
from engine.solver.search import Solver
from engine.solver.winnable import winnable_deals

ROOT = Path(__file__).resolve().parents[2]
DAY = date(2026, 12, 1)


def days(first: date, count: int) -> list[date]:
    return [first + timedelta(days=i) for i in range(count)]


# --- the daily deal ---------------------------------------------------------------------
# The expected deals are derived by calling the solver, never written down: a change to a
# game's search may change which candidate of a date wins first.

CHEAP = ["klondike", "doublets", "beleaguered-castle", "spider-relaxed-1"]
FAR = date(2040, 3, 1)  # past the tables found ahead: a date the device searches


def won_within_budget(variant: str, deal: int, own: bool = False) -> bool:
    """Whether the daily's search (its pinned space where it has one; ``own``: the solver's
    own search) wins ``deal`` within the budget."""
    game = engine.new_game(variant, deal)
    solver = Solver(game, BUDGET[variant], None if own else pinned_space(game.rules))
    solver.step(1e9)
    return solver.result == "won"


@pytest.mark.parametrize("variant", CHEAP)
def test_the_daily_deal_is_the_first_candidate_the_solver_wins_within_the_budget(
        variant: str) -> None:
    for day in days(FAR, 2):
        assert tabled(variant, day) is None
        deal = daily_deal(variant, day)
        tried = list(candidates(variant, day))
        index = tried.index(deal)
        assert won_within_budget(variant, deal)
        assert not any(won_within_budget(variant, d) for d in tried[:index])
    assert daily_deal(variant, "2040-03-01") == daily_deal(variant, FAR)
    assert daily_deal(variant, FAR + timedelta(days=1)) != daily_deal(variant, FAR)


def test_four_suit_spider_dailies_keep_the_search_they_were_defined_with() -> None:
    """No table covers four-suit Spider's dailies, so each device searches them: with the
    search they were defined with (engine.solver.daily.pinned_space), not the solver's own.
    The solver's own search (a portfolio whose later searches take the macro steps,
    docs/solver.md §8.10 to §8.16) wins the first candidate of 2026-12-24 within the
    budget, and still the dailies are the deals the search gave when they were defined."""
    day = "2026-12-03"
    second = list(candidates("spider-4", day))[1]
    assert [DailySearch("spider-4", d).run() for d in ("2026-12-02", day, "2026-12-04")] == \
        [3088020867, second, 4199348819]
    assert second == 603090388
    first = next(candidates("spider-4", "2026-12-24"))
    assert won_within_budget("spider-4", first, own=True)  # the changed solver's own search
    assert DailySearch("spider-4", "2026-12-24").run() == 2664461287 != first


def test_klondike_dailies_keep_the_search_they_were_defined_with() -> None:
    """Klondike's solver places a talon card only together with a card put on it
    (docs/solver.md §7.14); its dailies keep the search they were defined with, which
    places it bare. On 2040-03-31 (no table covers it) the solver's own search wins the
    first candidate within the budget, and still the daily is the second: the first the
    dailies' search wins."""
    day = "2040-03-31"
    first, second = list(candidates("klondike", day))[:2]
    assert won_within_budget("klondike", first, own=True)
    assert not won_within_budget("klondike", first)
    assert won_within_budget("klondike", second)
    assert daily_deal("klondike", day) == DailySearch("klondike", day).run() == second


def test_no_two_dates_share_a_candidate_so_ten_years_of_dailies_are_all_distinct() -> None:
    """The daily is one of its date's candidates, and the candidates of 3,650 consecutive
    dates are all different: 3,650 distinct dailies (bench/daily.py counts the dailies
    themselves)."""
    seen: set[int] = set()
    for day in days(DAY, 3650):
        some = list(candidates("klondike", day))
        assert len(some) == CANDIDATES and all(DEAL_MIN <= d <= DEAL_MAX for d in some)
        seen.update(some)
    assert len(seen) == 3650 * CANDIDATES
    for variant in engine.VARIANTS:  # every game has its own candidates
        assert len({next(candidates(variant, DAY)) for _ in range(2)}) == 1
    assert len({next(candidates(v, DAY)) for v in engine.VARIANTS}) == len(engine.VARIANTS)


def test_the_candidates_are_a_bijection_of_their_numbers() -> None:
    """A Feistel network: distinct numbers stay distinct (checked on a block of 2**16 and
    at the ends of the range), so candidates never collide, whatever the key."""
    key = round_keys(12345)
    block = {scramble(n, key) for n in range(1 << 16)}
    assert len(block) == 1 << 16
    ends = [0, 1, (1 << 32) - 2, (1 << 32) - 1]
    assert len({scramble(n, key) for n in ends}) == 4
    assert all(0 <= scramble(n, key) < 1 << 32 for n in ends)
    assert is_candidate("klondike", DAY, next(candidates("klondike", DAY)))
    assert not is_candidate("klondike", DAY + timedelta(days=1),
                            next(candidates("klondike", DAY)))
    assert not is_candidate("no-such-game", DAY, 1)


def test_the_search_in_slices_finds_what_one_call_finds() -> None:
    """The answer depends on positions, not on time: slices of a hundredth of a millisecond
    give the deal and the positions of one long call."""
    whole = DailySearch("spider-1", DAY, table=False)
    whole.run()
    sliced = DailySearch("spider-1", DAY, table=False)
    steps = 0
    while sliced.step(0.01) is None:
        steps += 1
    assert (sliced.deal, sliced.positions, sliced.tried) == \
        (whole.deal, whole.positions, whole.tried)
    assert steps > 10 and sliced.done


def test_the_daily_deal_is_the_same_under_any_hash_seed() -> None:
    """Every device agrees: the dailies of a few dates and the positions their searches
    took, in processes with different PYTHONHASHSEED values; and each game's search of its
    first candidate, within the budget (Spider with four suits: a few thousand)."""
    code = ("import engine\n"
            "from engine.solver.daily import DailySearch, BUDGET, candidates\n"
            f"for v in {CHEAP!r}:\n"
            "    for d in ('2026-12-01', '2040-06-30'):\n"
            "        s = DailySearch(v, d, table=False)\n"
            "        s.run(); print(v, d, s.deal, s.tried, s.positions)\n"
            "for v in engine.VARIANTS:\n"
            "    deal = next(candidates(v, '2026-12-01'))\n"
            "    a = engine.solve(engine.new_game(v, deal), 1e9, min(BUDGET[v], 4000))\n"
            "    print(v, deal, a.result, a.nodes, len(a.moves))\n")
    outputs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              cwd=ROOT, check=True, env={**os.environ, "PYTHONHASHSEED": seed}
                              ).stdout for seed in ("0", "1", "4242")]
    assert outputs[0] == outputs[1] == outputs[2]
    assert len(outputs[0].split("\n")) == 2 * len(CHEAP) + len(engine.VARIANTS) + 1


def test_a_date_whose_candidates_all_fail_falls_back_to_the_pinned_pool(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BUDGET, "klondike", 1)  # no deal is won in one position
    search = DailySearch("klondike", DAY, table=False)
    deal = search.run()
    assert search.tried == CANDIDATES and deal == pool_deal("klondike", DAY)
    assert deal in winnable_deals("klondike")[:POOL["klondike"]]
    assert pool_deal("klondike", DAY + timedelta(days=1)) != deal


TABLED = [v for v in engine.VARIANTS if table_path(v).exists()]


@pytest.mark.parametrize("variant", TABLED)
def test_a_table_found_ahead_covers_ten_years_with_distinct_deals(variant: str) -> None:
    """tools/make_dailies.py recorded the device's search for 3,650 dates: each date's
    deal is one of its candidates (so all differ), read with no search."""
    first, letters = read_table(variant)
    assert first <= DAY and len(letters) >= 3650
    deals = [tabled(variant, day) for day in days(first, 3650)]
    assert len(set(deals)) == 3650 and None not in deals
    assert tabled(variant, first - timedelta(days=1)) is None
    search = DailySearch(variant, first)
    assert search.done and search.positions == 0 and search.deal == deals[0]


def test_a_table_that_is_not_one_is_refused(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.solver import daily

    monkeypatch.setattr(daily, "DATA", tmp_path)
    monkeypatch.setattr(daily, "_TABLES", {})
    (tmp_path / "daily-klondike.txt").write_text("# made by hand\nfirst 2026-12-01\nAB*C\n")
    with pytest.raises(ValueError, match="not a table"):
        read_table("klondike")
    assert read_table("doublets") == (date.min, "")  # none: every date is searched


@pytest.mark.parametrize("variant", CHEAP)
def test_daily_deals_are_proven_winnable_again(variant: str) -> None:
    """A few dailies (from the tables found ahead, where there are) solved again from
    scratch with a generous budget, each win replayed under the rules."""
    for day in days(DAY, 2):
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
    with pytest.raises(ValueError, match="no daily"):
        daily_deal("no-such-game", DAY)


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
