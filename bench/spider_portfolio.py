"""Four-suit Spider's portfolio (docs/solver.md §8.10): what each search alone does on each
deal, and what a schedule of turns between two of them would decide in a CPU budget.

    python bench/spider_portfolio.py run '{"through": true, "quota": 30}' 1-200 40000 > a.jsonl
    python bench/spider_portfolio.py run '{}' @seeds.txt 40000 > b.jsonl
    python bench/spider_portfolio.py schedule b.jsonl a.jsonl [--budget-ms 1000]

``run`` solves each deal with one search alone (WEIGHTS of four-suit Spider with the given
fields replaced, no portfolio), up to a number of positions, and prints one JSON line a
deal: the answer, positions and CPU ms (wins replayed). ``schedule`` works out, from two
such files (the first search's, then the second's), what the portfolio of the two would
answer on each deal for several schedules (positions alone, shares of a round), as
Solver's turns go: by positions, never by the clock, so a portfolio's positions follow
from each search's own. Time is charged at each search's mean CPU per position over the
file (``--us`` to give them), so loads of the two runs need not match. A "?" counts deals
where the schedule needs positions beyond what a file measured. It prints figures; it
asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.solver.search import _ROUND, Solver  # noqa: E402
from engine.solver.spider import WEIGHTS, SpiderSpace  # noqa: E402
from engine.solver.winnable import replayed  # noqa: E402


def seeds_of(text: str) -> list[int]:
    """``A-B``, or ``@FILE`` of numbers."""
    if text.startswith("@"):
        return [int(word) for word in Path(text[1:]).read_text().replace(",", " ").split()]
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def run(fields: dict[str, object], seeds: list[int], limit: int) -> None:
    """One JSON line a deal: one search alone, up to ``limit`` positions."""
    weights = WEIGHTS[4, False]._replace(**fields)
    for seed in seeds:
        game = engine.new_game("spider-4", seed)
        began = time.process_time()
        solver = Solver(game, limit, SpiderSpace(game.rules, weights))
        while solver.step(50.0) is None:
            pass
        cpu = (time.process_time() - began) * 1000.0
        answer = replayed(game, solver.solution())
        print(json.dumps({"seed": seed, "result": answer.result, "nodes": answer.nodes,
                          "cpu": round(cpu)}), flush=True)


def load(path: str) -> dict[int, dict]:
    """A ``run`` file, by deal."""
    lines = Path(path).read_text().split("\n")
    return {line["seed"]: line for line in map(json.loads, filter(None, lines))}


def due(first: int, second: int, after: int, ours: int, theirs: int) -> tuple[int, int]:
    """Solver._due's turn from the counts: (which search, positions it may expand)."""
    if first < after:
        return 0, after - first
    rounds = second // (theirs * _ROUND) + 1
    if first - after < ours * _ROUND * rounds:
        return 0, ours * _ROUND * rounds - (first - after)
    return 1, theirs * _ROUND * rounds - second


def portfolio(runs: tuple[dict, dict], us: tuple[float, float], after: int,
              share: tuple[int, int], budget_ms: float) -> str:
    """The portfolio's answer on one deal: "won", "unknown" (out of budget) or "?"."""
    win = [r["nodes"] if r["result"] == "won" else None for r in runs]
    done = [0, 0]
    cpu = 0.0
    while True:
        who, n = due(done[0], done[1], after, *share)
        if win[who] is not None and done[who] + n >= win[who]:
            return "won" if cpu + (win[who] - done[who]) * us[who] / 1000 <= budget_ms \
                else "unknown"
        if cpu + n * us[who] / 1000 > budget_ms:
            return "unknown"
        if done[who] + n > runs[who]["nodes"]:
            return "?"
        done[who] += n
        cpu += n * us[who] / 1000


def schedule(first: str, second: str, budget_ms: float, us: list[float] | None) -> None:
    """Deals won in the budget by each search alone and by several schedules."""
    a, b = load(first), load(second)
    seeds = sorted(set(a) & set(b))
    if us is None:
        us = [sum(r["cpu"] for r in each.values()) * 1000 / sum(r["nodes"] for r in each.values())
              for each in (a, b)]
    print(f"{len(seeds)} deals, {budget_ms:g} ms of CPU each, "
          f"{us[0]:.1f} and {us[1]:.1f} µs a position")
    for name, alone in (("first alone", (a, b)), ("second alone", (b, a))):
        won = sum(portfolio((alone[0][s], alone[1][s]), (us[0], us[1]) if name[0] == "f"
                            else (us[1], us[0]), 1 << 40, (1, 1), budget_ms) == "won"
                  for s in seeds)
        print(f"{name}: {won} won")
    print("| alone first | 1:1 | 1:2 | 2:1 | 1:3 |")
    print("|---:|---:|---:|---:|---:|")
    for after in (0, 5_000, 10_000, 15_000, 20_000, 25_000):
        cells = []
        for share in ((1, 1), (1, 2), (2, 1), (1, 3)):
            answers = [portfolio((a[s], b[s]), (us[0], us[1]), after, share, budget_ms)
                       for s in seeds]
            unsure = answers.count("?")
            cells.append(f"{answers.count('won')}" + (f" (?{unsure})" if unsure else ""))
        print(f"| {after:,} | " + " | ".join(cells) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("run")
    one.add_argument("fields", help="Weights fields to replace, as JSON")
    one.add_argument("seeds", help="A-B or @FILE")
    one.add_argument("limit", type=int)
    two = sub.add_parser("schedule")
    two.add_argument("first")
    two.add_argument("second")
    two.add_argument("--budget-ms", type=float, default=1000.0)
    two.add_argument("--us", type=float, nargs=2, default=None,
                     help="CPU µs a position of the first and second search")
    args = parser.parse_args(argv)
    if args.command == "run":
        run(json.loads(args.fields), seeds_of(args.seeds), args.limit)
    else:
        schedule(args.first, args.second, args.budget_ms, args.us)
    return 0


if __name__ == "__main__":
    sys.exit(main())
