"""Write the table of a game's daily deals, found ahead by the device's own search.

    python tools/make_dailies.py VARIANT [--first 2026-12-01] [--dates 3650] [--output F]

For each of DATES consecutive dates from FIRST it runs the search a device runs
(engine/solver/daily.py ``DailySearch``) and records which of the date's 64 candidates it
won first, one base64 letter a date, in ``engine/solver/data/daily-<variant>.txt`` (see
:func:`engine.solver.daily.read_table`). A device then reads a date's deal from the table
instead of searching, and the dailies of those dates stay what they are even if the search
changes later. It prints the positions searched and the distinct deals at the end. Run it
with ``nice``: one process, minutes for most games, hours for Spider with four suits.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.solver.daily import (  # noqa: E402
    BUDGET,
    LETTERS,
    DailySearch,
    candidates,
    table_path,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", choices=sorted(BUDGET))
    parser.add_argument("--first", type=date.fromisoformat, default=date(2026, 12, 1))
    parser.add_argument("--dates", type=int, default=3650)
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args()
    variant = args.variant
    letters: list[str] = []
    deals: set[int] = set()
    positions = 0
    began = time.perf_counter()
    for i in range(args.dates):
        day = args.first + timedelta(days=i)
        search = DailySearch(variant, day, table=False)
        deal = search.run()
        index = list(candidates(variant, day)).index(deal)  # (a pool fallback would fail)
        letters.append(LETTERS[index])
        deals.add(deal)
        positions += search.positions
    last = args.first + timedelta(days=args.dates - 1)
    text = "".join(letters)
    lines = [
        f"# The daily deals of {variant} from {args.first} to {last}: a letter a date, the",
        "# index (base64 letters A-Z a-z 0-9 + /) of the first of the date's candidates that",
        f"# the solver won within {BUDGET[variant]:,} positions (engine/solver/daily.py).",
        f"# python tools/make_dailies.py {variant} --first {args.first} --dates {args.dates}",
        f"first {args.first}",
        *(text[i:i + 73] for i in range(0, len(text), 73)),
    ]
    output = args.output or table_path(variant)
    output.write_text("\n".join(lines) + "\n", encoding="ascii")
    print(f"{variant}: {args.dates} dates, {len(deals)} distinct deals, {positions:,} positions, "
          f"{time.perf_counter() - began:.0f} s -> {output}")


if __name__ == "__main__":
    main()
