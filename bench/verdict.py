"""The live verdict in the page: how soon it is known, and the longest task meanwhile.

    .venv/bin/python bench/verdict.py [--variants beleaguered-castle,klondike,...]
                                      [--deals 6] [--moves 15] [--wait-ms 1000] [--seed 1]

It serves the repository (tools/serve.py on a free port), opens the app in Debian's headless
Chromium (the solver in Pyodide in the page's worker, as a player has it; measured once
the worker is up) and plays at random: for
each variant, deals 1..--deals, up to --moves random legal moves each (chosen here with a
seeded generator from the moves the page lists, played through the page's intent API as a
tap or drag would). After the deal and after every move it waits up to --wait-ms for the
verdict in the status bar to settle (``<html data-verdict>`` "won" or "lost"; "unknown"
when the solver's budget is spent first) and notes how long that took from the intent.
A PerformanceObserver in the page records every long task (> 50 ms) meanwhile; a long
task that overlaps one of the page's intents is counted as the move's own, any other as
the background (the solver's slices, freeing, the page's timers). A fixed piece of plain
JS timed every 250 ms says how much the machine's load stretched every task meanwhile.

It prints, per variant: the positions looked at, the share whose verdict was known
("won" or "lost") within 1 s and within --wait-ms, the median time to a known verdict,
and the long tasks; then the machine's load (other work on a shared machine stretches
every figure). It prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
# Run as a script, this folder comes first on sys.path and bench/engine.py would shadow
# the engine package: put the repository first instead.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

import engine  # noqa: E402
from bench.startup import load, serve_or_use  # noqa: E402
from tools.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

VARIANTS = "beleaguered-castle,klondike,spider-1,spider-4,doublets"
READY_JS = "() => ['ready', 'error'].includes(document.documentElement.dataset.app)"
OBSERVE_JS = """() => {
    window.__longTasks = [];
    window.__acts = [];
    window.__observer?.disconnect();
    window.__observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
    });
    window.__observer.observe({ type: "longtask" });
    // The machine's load: a fixed piece of plain JS (about 1 ms when calibrated), timed
    // every 250 ms; how much longer it takes is how much the load stretches every task.
    const work = (n) => {
        const t0 = performance.now();
        let x = 0;
        for (let i = 0; i < n; i++) x += i % 7;
        window.__sink = x;
        return performance.now() - t0;
    };
    let n = 1000;
    while (work(n) < 1 && n < 1e8) n *= 2;
    const base = Math.min(work(n), work(n), work(n));
    window.__stretch = [];
    clearInterval(window.__probe);
    window.__probe = setInterval(() => window.__stretch.push(work(n) / base), 250);
}"""
# One intent, then the wait for its verdict: [verdict, ms from the intent, payload facts].
ACT_JS = """async ([kind, data, waitMs]) => {
    const root = document.documentElement;
    const t0 = performance.now();
    const payload = window.ppTable.act(kind, data);
    window.__acts.push([t0, performance.now()]);
    const known = () => ["won", "lost", "unknown"].includes(root.dataset.verdict);
    await new Promise((ok) => {
        if (known() || payload.status !== "playing") return ok();
        const seen = new MutationObserver(() => { if (known()) { seen.disconnect(); ok(); } });
        seen.observe(root, { attributes: true, attributeFilter: ["data-verdict"] });
        setTimeout(() => { seen.disconnect(); ok(); }, waitMs);
    });
    return [root.dataset.verdict || "", performance.now() - t0,
            { status: payload.status, moves: payload.moves }];
}"""
TASKS_JS = "() => [window.__longTasks, window.__acts, window.__stretch]"


def play(page, variant: str, deals: range, moves: int, wait_ms: float,
         rng: random.Random) -> list[tuple[str, float]]:
    """Random play of ``variant``: (verdict, ms) for every position met."""
    seen: list[tuple[str, float]] = []
    for deal in deals:
        verdict, ms, facts = page.evaluate(ACT_JS, ["new", {"variant": variant, "seed": deal},
                                                    wait_ms])
        for n in range(moves + 1):
            if facts["status"] != "playing":
                break
            seen.append((verdict, ms))
            if n == moves:
                break
            src, dst, count = rng.choice(facts["moves"])
            verdict, ms, facts = page.evaluate(
                ACT_JS, ["play", {"src": src, "dst": dst, "count": count}, wait_ms])
    return seen


def long_tasks(page) -> tuple[list[float], list[float], list[float]]:
    """The long tasks' durations (during an intent, in the background) and the load's
    stretch of plain JS, sampled."""
    tasks, acts, stretch = page.evaluate(TASKS_JS)
    moving, background = [], []
    for start, duration in tasks:
        end = start + duration
        during = any(a0 < end and start < a1 for a0, a1 in acts)
        (moving if during else background).append(duration)
    return moving, background, stretch


def tasks_text(durations: list[float]) -> str:
    if not durations:
        return "none"
    return f"{len(durations)}, longest {max(durations):.0f} ms"


def stretch_text(samples: list[float]) -> str:
    if not samples:
        return "-"
    return f"{statistics.median(samples):.1f}x / {max(samples):.1f}x"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default=VARIANTS)
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--moves", type=int, default=15)
    parser.add_argument("--wait-ms", type=float, default=1000.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="bench this URL instead of serving the repository")
    args = parser.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    unknown = [v for v in variants if v not in engine.VARIANTS]
    if unknown:
        parser.error(f"unknown variants: {', '.join(unknown)}")
    deals = range(args.start, args.start + args.deals)
    load_before = load()
    server, url = serve_or_use(args.url)
    rows = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(base_url=url, service_workers="block",
                                          viewport={"width": 1280, "height": 800})
            page = context.new_page()
            page.goto("/")
            page.wait_for_function(READY_JS, timeout=180_000)
            # The solver's worker starts once the table is playable: measured once it is up.
            page.wait_for_function(
                "() => performance.getEntriesByName('pp:solver-ready').length > 0",
                timeout=180_000)
            for variant in variants:
                page.evaluate(OBSERVE_JS)
                seen = play(page, variant, deals, args.moves, args.wait_ms,
                            random.Random(f"{args.seed}:{variant}"))
                rows.append((variant, seen, *long_tasks(page)))
                print(f"  {variant}: {len(seen)} positions", file=sys.stderr, flush=True)
            browser.close()
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
    print(f"Random play: deals {deals.start}..{deals.stop - 1}, up to {args.moves} random "
          f"moves each, up to {args.wait_ms:g} ms a position; the solver in Pyodide in a worker, "
          "headless Chromium")
    print()
    print(f"| variant | positions | known within 1 s | known within {args.wait_ms:g} ms "
          "| median ms to known | long tasks, moves | long tasks, background "
          "| load stretch, median / max |")
    print("|---|---:|---:|---:|---:|---|---|---|")
    for variant, seen, moving, background, stretch in rows:
        n = len(seen)
        known = [ms for verdict, ms in seen if verdict in ("won", "lost")]
        soon = sum(ms <= 1000 for ms in known)
        median = f"{statistics.median(known):.0f}" if known else "-"
        print(f"| {variant} | {n} | {100 * soon / max(1, n):.0f} % "
              f"| {100 * len(known) / max(1, n):.0f} % | {median} "
              f"| {tasks_text(moving)} | {tasks_text(background)} "
              f"| {stretch_text(stretch)} |")
    print()
    print(f"Load average before: {load_before}; after: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
