"""The solver in the browser: the same deals solved in Pyodide (headless Chromium) and in CPython.

    .venv/bin/python bench/solver_browser.py [--variant beleaguered-castle] [--deals 30]
                                             [--start 1] [--budget-ms 1000]

It serves the repository (tools/serve.py on a free 127.0.0.1 port), opens a plain page of
it in Debian's Chromium and starts Pyodide there from vendor/ (the app's own interpreter
build) with the engine's files written into its file system; then for each deal it runs
``engine.solve(new_game(variant, deal), budget_ms)`` in the page (one page.evaluate per
deal) and, right after, the same call here in CPython, so both meet the same load on the
machine. Won lines are replayed with Game.play on both sides. It prints one row per
interpreter: share decided (won or proved lost), share won, proved losses, the median and
95th-percentile solving time, and how the two answers compare deal by deal. It prints
figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
# Run as a script, this folder comes first on sys.path and bench/engine.py would shadow
# the engine package: put the repository first instead.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

import engine  # noqa: E402
from bench.solver import percentile  # noqa: E402
from engine.solver.winnable import attempt  # noqa: E402
from tools.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tools.serve import start_server  # noqa: E402

# Start Pyodide from vendor/ and write the engine's modules into its file system.
START_JS = """async (files) => {
    const { loadPyodide } = await import('/vendor/pyodide/pyodide.mjs');
    const py = await loadPyodide({ indexURL: '/vendor/pyodide/' });
    for (const path of files) {
        py.FS.mkdirTree('/home/pyodide/' + path.slice(0, path.lastIndexOf('/')));
        const response = await fetch('/' + path);
        py.FS.writeFile('/home/pyodide/' + path, await response.text());
    }
    window.benchPy = py;
    return py.runPython('import sys; sys.version.split()[0]');
}"""
SOLVE_PY = """
import json
import engine

def bench_solve(variant, seed, budget_ms):
    game = engine.new_game(variant, seed)
    answer = engine.solve(game, budget_ms=budget_ms)
    if answer.result == "won":
        check = game.copy()
        for move in answer.moves:
            check.play(move)
        assert check.status == "won", f"deal {seed}: the solution does not win"
    return json.dumps([answer.result, answer.ms, answer.nodes])
"""
SOLVE_JS = "([variant, seed, budget]) => JSON.parse(window.benchSolve(variant, seed, budget))"


def solve_here(variant: str, seed: int, budget_ms: float) -> tuple[str, float, int]:
    """The same solve in CPython (won lines replayed)."""
    answer = attempt(variant, seed, budget_ms, None)
    return answer.result, answer.ms, answer.nodes


def row(name: str, answers: list[tuple[str, float, int]]) -> str:
    """One Markdown table row of figures."""
    n = len(answers)
    won = sum(a[0] == "won" for a in answers)
    lost = sum(a[0] == "lost" for a in answers)
    times = [a[1] for a in answers]
    nodes_per_ms = sum(a[2] for a in answers) / max(1e-9, sum(times))
    decided = won + lost
    of_decided = 100 * won / decided if decided else 0.0
    return (f"| {name} | {n} | {100 * decided / n:.1f} % | {100 * won / n:.1f} % "
            f"| {of_decided:.1f} % | {lost} | {statistics.median(times):.0f} "
            f"| {percentile(times, 0.95):.0f} | {nodes_per_ms:.1f} |")


def main(argv: list[str] | None = None) -> int:
    """Print the figures of both interpreters."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="beleaguered-castle", choices=engine.VARIANTS)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--budget-ms", type=float, default=1000.0)
    parser.add_argument("--verbose", action="store_true", help="one line per deal on stderr")
    args = parser.parse_args(argv)
    deals = range(args.start, args.start + args.deals)
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "engine").rglob("*.py")
                   if "__pycache__" not in p.parts)
    server, url = start_server(ROOT)
    browser_answers: list[tuple[str, float, int]] = []
    here_answers: list[tuple[str, float, int]] = []
    began = time.perf_counter()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(base_url=url)
            page.goto("/pyscript.toml")  # any page of the origin: the bench needs no app
            pyodide_python = page.evaluate(START_JS, files)
            page.evaluate("""(code) => {
                window.benchPy.runPython(code);
                window.benchSolve = window.benchPy.globals.get('bench_solve');
            }""", SOLVE_PY)
            for seed in deals:
                result, ms, nodes = page.evaluate(SOLVE_JS, [args.variant, seed, args.budget_ms])
                browser_answers.append((result, ms, nodes))
                here_answers.append(solve_here(args.variant, seed, args.budget_ms))
                if args.verbose:
                    print(f"  {seed}: Pyodide {result} {ms:.0f} ms {nodes} positions; CPython "
                          f"{here_answers[-1][0]} {here_answers[-1][1]:.0f} ms "
                          f"{here_answers[-1][2]} positions", file=sys.stderr, flush=True)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    print(f"{args.variant}, deals {deals.start}..{deals.stop - 1}, {args.budget_ms:g} ms each; "
          f"Pyodide: Python {pyodide_python} in headless Chromium; "
          f"CPython {sys.version.split()[0]}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print()
    print("| interpreter | deals | decided | won | won of decided | proved lost | median ms "
          "| p95 ms | positions per ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(row("Pyodide (Chromium)", browser_answers))
    print(row("CPython", here_answers))
    pairs = list(zip(browser_answers, here_answers, strict=True))
    same = sum(b[0] == h[0] for b, h in pairs)
    clash = sum({b[0], h[0]} == {"won", "lost"} for b, h in pairs)
    only_here = sum(b[0] == "unknown" and h[0] != "unknown" for b, h in pairs)
    only_browser = sum(h[0] == "unknown" and b[0] != "unknown" for b, h in pairs)
    print()
    print(f"Same answer on {same} of {len(pairs)} deals; decided only in CPython: {only_here}, "
          f"only in Pyodide: {only_browser}; won in one and lost in the other: {clash}.")
    print(f"Total {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
