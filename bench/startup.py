"""Start-up benchmark: time from navigation to `<html data-app="ready">` in headless Chromium.

    .venv/bin/python bench/startup.py [--runs 5] [--url URL] [--stages] [--offline-runs 5]

It serves the repository itself (tools/serve.py on a free 127.0.0.1 port, after building
the first table's MicroPython bytecode under build/mpy/ when it is stale, as `make mpy`
does) unless --url is given, then for each run starts Chromium on a new, empty profile (no
HTTP cache, storage or code cache) for the first visit and reloads the same page once for
the reload figure (the HTTP cache revalidates against the server). A profile on disk, as a
person's browser has, not an incognito context, whose in-memory HTTP cache keeps no big
entry. When the page has registered a service worker, it also waits for it to be active
and reloads once more with the network off.
`--offline-runs N` (default 5) measures the installed app as a player meets it: one
context visits, waits until the service worker controls the page, then reloads N times
with the network off and every request that would still leave aborted; it prints the
median of those N.
For every case it prints the first card (a `[data-card]` element laid out and visible),
ready (the table playable: MicroPython on the main thread) and solver ready (the solver's
worker, Pyodide, sent its first message: the `pp:solver-ready` mark of
web/start/solver.js, which starts it once the table is playable), and how the worker's
Python got its standard library (`window.ppSolverReport`).
Times are read inside the page (performance.now(), whose origin is the navigation start),
so Playwright's own round trips are not counted. It prints medians; it asserts nothing.
`--stages` also prints, per case, when each start-up step ends and the median time of the
step itself (see STAGES); with the load average it prints at the start and the end, these
are what to compare between runs on a shared machine, where other work stretches totals.
Budgets (docs/architecture.md §8): reload first card <= 0.3 s (median, localhost); reload
from the service worker's cache with the network off <= 1.0 s.
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from tools.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tools.serve import start_server  # noqa: E402

# Records, relative to the navigation start, the progress events of MicroPython's start
# (pp:progress, web/start/micropython-loader.mjs), the moment
# MicroPython's wasm is compiled and instantiated on the main thread, the marks web/main.py
# sets (pp:main when it starts, pp:imported once the app's modules are imported), the
# moment the page marks itself ready, and the first settled verdict the status bar shows
# (`<html data-verdict>` won, lost or unknown: window.__ppVerdict, [verdict, ms]). Runs
# before any script of the page.
RECORDER = """
(() => {
  const marks = (window.__startupMarks = {});
  const mark = (name) => { marks[name] ??= performance.now(); };
  addEventListener("pp:progress", (e) => mark(e.detail));
  // MicroPython's wasm (not another module's).
  const isPython = (result) => {
    const exports = (result.instance || result).exports || {};
    return Object.keys(exports).some((name) => name.startsWith("mp_js"));
  };
  for (const name of ["instantiateStreaming", "instantiate"]) {
    const original = WebAssembly[name];
    WebAssembly[name] = function (...args) {
      const result = original.apply(this, args);
      result.then((done) => isPython(done) && mark("wasm instantiated"), () => {});
      return result;
    };
  }
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name.startsWith("pp:")) marks[entry.name] ??= entry.startTime;
    }
  }).observe({ type: "mark", buffered: true });
  // [start, duration] of every long task (> 50 ms) of the main thread.
  const long = (window.__longTasks = []);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) long.push([entry.startTime, entry.duration]);
  }).observe({ type: "longtask", buffered: true });
  new MutationObserver(() => {
    const state = document.documentElement && document.documentElement.dataset.app;
    if (state && state !== "loading") mark(state);
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-app"] });
  new MutationObserver(() => {
    const verdict = document.documentElement && document.documentElement.dataset.verdict;
    if (!window.__ppVerdict && ["won", "lost", "unknown"].includes(verdict)) {
      window.__ppVerdict = [verdict, performance.now()];
    }
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-verdict"] });
})();
"""
# Marks "first card" in window.__startupMarks (bench/startup.py's RECORDER) at the frame
# after a card element is first laid out and visible, whatever draws it (the table, or a
# picture of the saved one).
FIRST_CARD = """
(() => {
  let seen = false;
  const check = () => {
    if (seen) return;
    for (const card of document.querySelectorAll("[data-card]")) {
      const box = card.getBoundingClientRect();
      if (box.width > 0 && box.height > 0 && card.checkVisibility({ visibilityProperty: true })) {
        seen = true;
        observer.disconnect();
        requestAnimationFrame(() => {
          if (window.__startupMarks) window.__startupMarks["first card"] ??= performance.now();
        });
        return;
      }
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, attributes: true });
})();
"""
SERVICE_WORKER_ACTIVE = """
async () => {
  if (!("serviceWorker" in navigator)) return false;
  if (!(await navigator.serviceWorker.getRegistrations()).length) return false;
  await navigator.serviceWorker.ready;
  return true;
}
"""
# (mark, what the step up to it is), in the order they happen. A mark a run lacks is left
# out of that run's steps.
STAGES = (
    ("pp:picture", "the saved table's picture painted (a reload)"),
    ("Loading MicroPython", "page, MicroPython's loader and its wasm"),
    ("wasm instantiated", "MicroPython's wasm fetched and compiled"),
    ("Loading files", "MicroPython started"),
    ("Loaded files", "the first table's bytecode fetched and written"),
    ("Loaded MicroPython", "the interpreter ready"),
    ("Running web/main.py", "web/main.py fetched, a task begun"),
    ("pp:main", "main.py started"),
    ("pp:imported", "the app's modules imported"),
    ("ready", "first table drawn"),
    ("pp:solver-start", "the solver's worker started"),
    ("pp:solver-ready", "Pyodide up in the worker, its first message"),
)
# When the solver's worker has answered or failed: [mark, ms], or null while it has not.
SOLVER_DONE = """() => {
  const done = performance.getEntriesByType("mark").find((m) =>
    m.name === "pp:solver-ready" || m.name === "pp:solver-error");
  return done ? [done.name, done.startTime] : null;
}"""


def measure(page, action, timeout_ms: float) -> dict[str, float]:
    action()
    page.wait_for_function(
        "() => window.__startupMarks && (window.__startupMarks.ready"
        " || window.__startupMarks.error)",
        timeout=timeout_ms,
    )
    # The page's own marks too: an observer's callback may not have run yet.
    marks = page.evaluate("""() => Object.assign(Object.fromEntries(performance
      .getEntriesByType("mark").filter((m) => m.name.startsWith("pp:"))
      .map((m) => [m.name, m.startTime])), window.__startupMarks)""")
    if "ready" not in marks:
        raise SystemExit(f"the page reported an error: {page.inner_text('#loading')!r}")
    return marks


def solver(page, marks: dict, timeout_ms: float) -> dict:
    """``marks`` with "solver ready" (or "solver error") once the solver's worker has sent
    its first message, its other pp: marks, and "stdlib": which standard library the
    worker's Python was given (window.ppSolverReport, solver-worker.mjs)."""
    page.wait_for_function(f"() => ({SOLVER_DONE})() !== null", timeout=timeout_ms)
    name, at = page.evaluate(SOLVER_DONE)
    marks["solver " + name.removeprefix("pp:solver-")] = at
    marks.update(page.evaluate("""() => Object.fromEntries(performance
      .getEntriesByType("mark").filter((m) => m.name.startsWith("pp:"))
      .map((m) => [m.name, m.startTime]))"""))
    try:  # the report follows the first message
        page.wait_for_function("() => window.ppSolverReport?.stdlib", timeout=5000)
    except PlaywrightTimeout:
        pass
    marks["stdlib"] = page.evaluate(
        "(({stdlib, stdlibProblem}) => stdlibProblem ? `${stdlib} (${stdlibProblem})` : stdlib)"
        "(window.ppSolverReport || {stdlib: 'unknown'})")
    return marks


def summary(name: str, runs: list[dict[str, float]], stages: bool) -> None:
    if not runs:
        print(f"{name:<15} not measured (no service worker)")
        return
    ready = [run["ready"] / 1000 for run in runs]
    figures = " ".join(f"{t:.2f}" for t in ready)
    print(f"{name:<15} median {statistics.median(ready):.2f} s   (runs: {figures})")
    for key in ("first card", "solver ready"):
        # first card: the table, or the picture of the last one
        times = [run[key] / 1000 for run in runs if key in run]
        if times:
            print(f"    {key}: median {statistics.median(times):.2f} s   "
                  f"(runs: {' '.join(f'{t:.2f}' for t in times)})")
    failed = sum("solver error" in run for run in runs)
    if failed:
        print(f"    the solver's worker failed to start in {failed} of {len(runs)} runs")
    libs = collections.Counter(str(run.get("stdlib")) for run in runs)
    print("    the solver's standard library: "
          f"{', '.join(f'{k} in {n}' for k, n in sorted(libs.items()))}")
    if stages:
        print(f"    {'at (median)':>30}  {'step (median)':>13}")
        for stage, step in STAGES:
            at = [run[stage] / 1000 for run in runs if stage in run]
            steps = [(run[stage] - since(run, stage)) / 1000 for run in runs if stage in run]
            if at:
                print(f"    {stage:<20} {statistics.median(at):6.2f} s"
                      f"  {statistics.median(steps):9.2f} s   {step}")


def since(run: dict[str, float], stage: str) -> float:
    """When the step to ``stage`` began: the run's last earlier mark, else the navigation."""
    names = [name for name, _ in STAGES]
    return next((run[name] for name in reversed(names[: names.index(stage)]) if name in run),
                0.0)


def measure_offline(browser, url: str, runs: int, timeout_ms: float) -> list[dict[str, float]]:
    """``runs`` offline reloads of the installed app (the service worker controls it)."""
    context = browser.new_context(service_workers="allow")
    context.add_init_script(RECORDER)
    context.add_init_script(FIRST_CARD)
    page = context.new_page()
    try:
        solver(page, measure(page, lambda: page.goto(url), timeout_ms), timeout_ms)
        page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=timeout_ms)
        context.set_offline(True)
        left: list[str] = []
        context.route("**/*", lambda route: (left.append(route.request.url), route.abort()))
        results = [solver(page, measure(page, page.reload, timeout_ms), timeout_ms)
                   for _ in range(runs)]
        if left:
            print(f"requests that tried to leave while offline: {left}")
        return results
    finally:
        context.close()


def load() -> str:
    """The machine's 1/5/15-minute load averages (other work skews every figure)."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not on every platform
        return "unknown"


def bench_arguments(description: str, runs: int, query: str) -> argparse.ArgumentParser:
    """The options every page benchmark takes: --runs, --url (else the repository is
    served), --query (the deal to open)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--runs", type=int, default=runs)
    parser.add_argument("--url", help="bench this URL instead of serving the repository")
    parser.add_argument("--query", default=query, help="appended to the URL")
    return parser


def serve_or_use(url: str | None, **serve_options) -> tuple[object | None, str]:
    """(server, base URL): ``url`` as given, else the repository served on a free port
    (tools/serve.py; stop the server when done)."""
    if url:
        return None, url.rstrip("/")
    if not (ROOT / "vendor" / "VERSIONS").exists():
        raise SystemExit("vendor/ is missing: run `make vendor` first")
    from tools.mpy_build import OUT, ensure

    ensure(ROOT / OUT)  # the first table's bytecode, as `make mpy` makes it
    return start_server(ROOT, **serve_options)


def main() -> int:
    parser = bench_arguments("Measure start-up to a playable table.", 5,
                             "?game=spider-1&deal=1")
    parser.add_argument("--stages", action="store_true", help="also print start-up stages")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per load")
    parser.add_argument("--offline-runs", type=int, default=5,
                        help="offline reloads of the installed app (0: skip)")
    args = parser.parse_args()
    server, base = serve_or_use(args.url)
    url = f"{base}/{args.query}"

    first, reload, offline, installed = [], [], [], []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            print(f"Chromium {browser.version}, {url}, {args.runs} runs, "
                  f"load average {load()}")
            timeout = args.timeout * 1000
            for _ in range(args.runs):
                with tempfile.TemporaryDirectory(prefix="pp-bench-") as profile:
                    context = p.chromium.launch_persistent_context(
                        profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS
                    )
                    context.add_init_script(RECORDER)
                    context.add_init_script(FIRST_CARD)
                    page = context.pages[0] if context.pages else context.new_page()
                    first.append(solver(page, measure(page, lambda p=page: p.goto(url),
                                                      timeout), timeout))
                    reload.append(solver(page, measure(page, page.reload, timeout), timeout))
                    if page.evaluate(SERVICE_WORKER_ACTIVE):
                        context.set_offline(True)
                        offline.append(solver(page, measure(page, page.reload, timeout),
                                              timeout))
                    context.close()
            if args.offline_runs:
                installed = measure_offline(browser, url, args.offline_runs,
                                            args.timeout * 1000)
            browser.close()
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()

    print(f"load average at the end {load()}")
    summary("first visit", first, args.stages)
    summary("reload", reload, args.stages)
    summary("offline reload", offline, args.stages)
    if installed:
        summary("offline reload, installed app (service worker)", installed, args.stages)
    if not args.url:
        from tools.precache import build_info

        info = build_info(ROOT)
        print(f"precache: {info['bytes']:,} bytes in {len(info['files'])} files "
              f"(cache {info['cache']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
