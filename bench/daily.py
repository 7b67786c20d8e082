"""What the daily deal costs a device: positions and seconds to find it, date after date.

    python bench/daily.py [--dates 365] [--first 2026-12-01] [--distinct 3650] [VARIANT ...]

For each variant (all nine by default) it searches for the daily deal of DATES
consecutive dates from FIRST in CPython (engine/solver/daily.py, one search after
another, as a device would with no table found ahead) and prints one Markdown row: the
median, 95th percentile and maximum of the positions expanded and of the seconds taken
per date, the mean candidates tried, and how many distinct deals the dates got. With
``--distinct N`` it also counts the distinct candidates of N consecutive dates (all 64 of
each): N * 64 means no two dates share one, so their dailies all differ. It prints
figures; it asserts nothing. Run it with ``nice``: Spider with four suits takes minutes.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.solver.daily import BUDGET, CANDIDATES, DailySearch, candidates  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (``share`` in 0..1)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def bench(variant: str, first: date, count: int) -> dict[str, float]:
    """Find the dailies of ``count`` dates from ``first``; their figures."""
    positions: list[float] = []
    seconds: list[float] = []
    tried: list[int] = []
    deals = set()
    for i in range(count):
        began = time.perf_counter()
        search = DailySearch(variant, first + timedelta(days=i), table=False)
        deals.add(search.run())
        seconds.append(time.perf_counter() - began)
        positions.append(search.positions)
        tried.append(search.tried)
    return {"dates": count, "distinct": len(deals), "tried": sum(tried) / count,
            "p50": percentile(positions, 0.5), "p95": percentile(positions, 0.95),
            "max": max(positions), "s50": percentile(seconds, 0.5),
            "s95": percentile(seconds, 0.95), "smax": max(seconds)}


def distinct_candidates(variant: str, first: date, count: int) -> int:
    """Distinct candidate deals of ``count`` consecutive dates (all of them)."""
    seen: set[int] = set()
    for i in range(count):
        seen.update(candidates(variant, first + timedelta(days=i)))
    return len(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", default=list(engine.VARIANTS))
    parser.add_argument("--dates", type=int, default=365)
    parser.add_argument("--first", type=date.fromisoformat, default=date(2026, 12, 1))
    parser.add_argument("--distinct", type=int, default=0)
    args = parser.parse_args()
    print("| variant | budget | dates | distinct | candidates tried | positions p50 / p95 / max"
          " | seconds p50 / p95 / max |")
    print("|---|---|---|---|---|---|---|")
    for variant in args.variants:
        r = bench(variant, args.first, args.dates)
        print(f"| {variant} | {BUDGET[variant]:,} | {r['dates']} | {r['distinct']} | "
              f"{r['tried']:.2f} | {r['p50']:,.0f} / {r['p95']:,.0f} / {r['max']:,.0f} | "
              f"{r['s50']:.2f} / {r['s95']:.2f} / {r['smax']:.2f} |", flush=True)
        if args.distinct:
            n = distinct_candidates(variant, args.first, args.distinct)
            print(f"  {variant}: {n:,} distinct candidates over {args.distinct:,} dates "
                  f"({CANDIDATES} a date)", flush=True)


if __name__ == "__main__":
    main()
