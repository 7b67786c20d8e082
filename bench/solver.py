"""Solver figures: share of deals decided and won within a time budget, and solving times.

    python bench/solver.py [--deals 200] [--start 1] [--seeds 9,17,48] [--budget-ms 1000]
                           [--max-nodes N] [--cpu] [VARIANT ...]

For each variant (all nine by default) it solves deals START..START+DEALS-1 in CPython
(or the deals ``--seeds`` lists, such as those a search change can alter: the ones not
decided within the positions it leaves as they were), one at a time, each with the
budget, and prints one Markdown table row: deals, share decided (won or proved lost),
share won (of all deals and of the decided ones), proved losses, and the median and
95th-percentile time per deal. Every won line is replayed with Game.play to check it
wins. A deal answered in a slice that ended past the budget counts as not decided. It
prints figures; it asserts nothing.

Targets (issue 6): Beleaguered Castle >= 97 % decided, Klondike >= 95 %, Spider 1 suit
>= 90 %; the won share of decided deals near the published thoughtful figures
(Klondike draw 1 unlimited passes 90.48 %, Beleaguered Castle 68.17 %, Blake & Gent).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.solver.search import Solution  # noqa: E402
from engine.solver.winnable import attempt, replayed  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (``share`` in 0..1)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def attempt_cpu(variant: str, seed: int, budget_ms: float, max_nodes: int | None) -> Solution:
    """Solve deal ``seed`` with ``budget_ms`` of this process's CPU time (in slices of 20
    ms of wall time), so a loaded machine gives each deal the same work as a quiet one; a
    win is replayed under the rules first."""
    game = engine.new_game(variant, seed)
    solver = engine.Solver(game, max_nodes)
    # No cyclic collection between the slices either, as the page holds it off while a
    # search is alive (web/desk.py, hold): the collector walking each slice's new
    # positions is no cost of the solver's at the table.
    collecting = gc.isenabled()
    gc.disable()
    began = time.process_time()
    try:
        while solver.step(20.0) is None:
            if (time.process_time() - began) * 1000.0 >= budget_ms:
                solver.release()
                break
        answer = solver.solution()._replace(ms=(time.process_time() - began) * 1000.0)
    finally:
        if collecting:
            gc.enable()
    return replayed(game, answer)


def bench(variant: str, deals: range | list[int], budget_ms: float, verbose: bool,
          max_nodes: int | None = None, cpu: bool = False) -> dict[str, float]:
    """Solve every deal of ``deals``; the figures of one table row."""
    counts = {"won": 0, "lost": 0, "unknown": 0}
    times: list[float] = []
    for seed in deals:
        answer = (attempt_cpu if cpu else attempt)(variant, seed, budget_ms, max_nodes)
        late = answer.result != "unknown" and answer.ms > budget_ms
        counts["unknown" if late else answer.result] += 1
        times.append(answer.ms)
        if verbose:
            print(f"  {variant} {seed}: {answer.result} {answer.nodes} positions "
                  f"{answer.ms:.0f} ms{' (late: not counted)' if late else ''}",
                  file=sys.stderr, flush=True)
    n = len(deals)
    decided = counts["won"] + counts["lost"]
    return {"deals": n, "decided": 100 * decided / n, "won": 100 * counts["won"] / n,
            "won_of_decided": 100 * counts["won"] / decided if decided else 0.0,
            "lost": counts["lost"], "median": statistics.median(times),
            "p95": percentile(times, 0.95)}


def main(argv: list[str] | None = None) -> int:
    """Print the figures table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", default=list(engine.VARIANTS))
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--seeds", default=None,
                        help="these deals instead of --start/--deals: numbers joined by commas, "
                        "or @FILE for a file of them (commas or whitespace between)")
    parser.add_argument("--budget-ms", type=float, default=1000.0)
    parser.add_argument("--max-nodes", type=int, default=None,
                        help="also stop each deal after this many positions (figures that do "
                        "not depend on the machine's load)")
    parser.add_argument("--cpu", action="store_true",
                        help="the budget is CPU time of this process, not wall time (figures "
                        "for a loaded machine; times are CPU times too)")
    parser.add_argument("--verbose", action="store_true", help="one line per deal on stderr")
    args = parser.parse_args(argv)
    deals: range | list[int] = range(args.start, args.start + args.deals)
    named = ""
    if args.seeds:
        text = Path(args.seeds[1:]).read_text() if args.seeds.startswith("@") else args.seeds
        deals = [int(word) for word in text.replace(",", " ").split()]
        named = f" ({len(deals)} listed)"
    nodes = f", at most {args.max_nodes} positions" if args.max_nodes else ""
    load = ""
    if hasattr(os, "getloadavg"):
        load = f", load average {os.getloadavg()[0]:.1f} at the start"
    clock = " of CPU" if args.cpu else ""
    span = f"{deals.start}..{deals.stop - 1}" if isinstance(deals, range) else (
        ",".join(map(str, deals[:8])) + (",..." if len(deals) > 8 else ""))
    print(f"Deals {span}{named}, {args.budget_ms:g} ms{clock} each{nodes}, "
          f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs{load}")
    print()
    print("| variant | deals | decided | won | won of decided | proved lost "
          "| median ms | p95 ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    began = time.perf_counter()
    for variant in args.variants:
        row = bench(variant, deals, args.budget_ms, args.verbose, args.max_nodes, args.cpu)
        print(f"| {variant} | {row['deals']} | {row['decided']:.1f} % | {row['won']:.1f} % "
              f"| {row['won_of_decided']:.1f} % | {row['lost']} | {row['median']:.0f} "
              f"| {row['p95']:.0f} |", flush=True)
    print()
    print(f"Total {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
