"""First visit from a deal link: MicroPython's table (bench/mpy_page) against the app's.

    .venv/bin/python bench/mpy_first_visit.py [--runs 5] [--cpu 1 --cpu 4]
                                              [--query ?game=klondike&deal=7]

bench/mpy_page/index.html (written by bench/mpy_page/pages.py from the app's index.html
at the start of each run) is the app's page with its Python started by MicroPython
(PyScript's `mpy` script running web/main.py as it is, engine/rules and the first table's
modules of web/, and web/forward.py's desk, whose solver is Pyodide in a worker started
once the table is ready: bench/mpy_page/page.js); bench/mpy_page/preloaded.html is the
same with what PyScript fetches one step after another (its modules, MicroPython's wasm,
the Python files) preloaded from the page's head. For each page (those two, then the app's
own /) and each CPU slowdown (`--cpu`, CDP Emulation.setCPUThrottlingRate), it runs
`--runs` first visits, alternating the pages, each in Chromium on a new profile, with the
network at 10 Mbps / 100 ms (CDP Network.emulateNetworkConditions, as bench/first_visit.py),
and prints per run and then the medians of:

- first card: a `[data-card]` element laid out and visible (bench/startup.py's FIRST_CARD);
- playable: `<html data-app="ready">`;
- bytes before playable: `encodedDataLength` of every `Network.loadingFinished` that ended
  before playable (bench/first_visit.py's Wire);
- longest task before playable: the longest main-thread task (PerformanceObserver
  "longtask", over 50 ms; 0 when none) that started before playable;
- a move: whether `window.ppTable.act("stock")` then answers with a move (the table is
  playable, not only drawn), and how long that call took;
- verdict: when the status bar first shows the solver's settled verdict ("Winnable", ...:
  `<html data-verdict>` won, lost or unknown), on the position after that move;
- Pyodide up in a worker (MicroPython's pages): when the worker's first message came
  (bench/mpy_page/pyodide-worker.mjs, with the app's Python files written in), with the
  bytes the page's CDP session saw by then. The worker's fetches are not among those
  (Pyodide's 4 MB do not show there); that Pyodide is up 5-7 s after the table, about what
  its 4.05 MB take at this rate, says the throttling reaches them.

`--waterfall` prints each request of each page's first run (sent, first byte, finished,
bytes). `--early` adds MicroPython's page with the worker started with the page
(`?early`), not once the table is ready: its downloads then share the line with the
table's.

The app's page registers its service worker, whose precache fetches are not throttled
(bench/first_visit.py says more); MicroPython's page has none. Serves the repository
with tools/serve.py (br/gzip as a host; MicroPython's files in node_modules have no .br
sibling, so they go out gzipped: 228 kB for the two where brotli is 196 kB). It asserts nothing.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.first_visit import PROFILES, median, throttled_page  # noqa: E402
from bench.mpy_page import pages as spike_pages  # noqa: E402
from bench.startup import (  # noqa: E402
    FIRST_CARD,
    RECORDER,
    bench_arguments,
    load,
    measure,
    serve_or_use,
)
from tools.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

NETWORK = "10 Mbps / 100 ms"
PAGES = {"micropython": "bench/mpy_page/index.html",
         "micropython, preloaded": "bench/mpy_page/preloaded.html", "pyodide (app)": ""}
EARLY = "micropython, worker at once"  # --early: the first page with its worker started early
LONGEST_BEFORE = """(ready) => Math.max(0, ...window.__longTasks
  .filter(([start]) => start < ready).map(([, duration]) => duration))"""
A_MOVE = """() => {
  const before = document.getElementById("st-moves").textContent;
  const t0 = performance.now();
  const answer = window.ppTable.act("stock");
  const ms = performance.now() - t0;
  return [answer?.event, before, document.getElementById("st-moves").textContent, ms];
}"""
# The first settled verdict the status bar shows (web/table/controls.js setVerdict).
VERDICT_RECORDER = """
new MutationObserver(() => {
  const verdict = document.documentElement.dataset.verdict;
  if (!window.__ppVerdict && ["won", "lost", "unknown"].includes(verdict)) {
    window.__ppVerdict = [verdict, performance.now()];
  }
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-verdict"] });
"""
WORKER_MARK = """() => {
  const done = performance.getEntriesByType("mark").find((m) =>
    m.name === "pp:worker-ready" || m.name === "pp:worker-error");
  return done ? [done.name, done.startTime] : null;
}"""


def visit(p, url: str, cpu: float, timeout_ms: float, worker: bool,
          waterfall: str = "") -> dict:
    """One first visit on a new profile; the figures of COLUMNS (``waterfall``: the base
    URL, to print when each request was sent, answered and finished)."""
    with tempfile.TemporaryDirectory(prefix="pp-mpy-first-visit-") as folder:
        context = p.chromium.launch_persistent_context(
            folder, executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context.add_init_script(RECORDER)
            context.add_init_script(FIRST_CARD)
            context.add_init_script(VERDICT_RECORDER)
            page, session, wire = throttled_page(context, PROFILES[NETWORK])
            if cpu != 1:
                session.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
            marks = measure(page, lambda: page.goto(url), timeout_ms)
            origin = page.evaluate("performance.timeOrigin")
            ready = marks["ready"]
            if waterfall:
                print(f"     sent   first  finished    bytes url (ms; playable at {ready:.0f})")
                print("\n".join(wire.waterfall(origin, waterfall)))
            event, before, after, move_ms = page.evaluate(A_MOVE)
            row = {"first card": marks.get("first card"), "playable": ready,
                   "bytes": wire.bytes_until(origin + ready),
                   "longest task before playable": page.evaluate(LONGEST_BEFORE, ready),
                   "cards": page.evaluate("document.querySelectorAll('[data-card]').length"),
                   "move": f"{event} ({before} -> {after})", "move ms": move_ms}
            if worker:
                page.wait_for_function(f"() => ({WORKER_MARK})() !== null", timeout=timeout_ms)
                name, at = page.evaluate(WORKER_MARK)
                row["worker " + name.removeprefix("pp:worker-")] = at
                row["bytes by worker"] = wire.bytes_until(origin + at)
            page.wait_for_function("() => !!window.__ppVerdict", timeout=timeout_ms)
            verdict, at = page.evaluate("window.__ppVerdict")
            row["verdict"], row["verdict shown"] = verdict, at
            return row
        finally:
            context.close()


COLUMNS = (  # (key, heading, divisor)
    ("first card", "first card (s)", 1000),
    ("playable", "playable (s)", 1000),
    ("bytes", "MB before playable", 1e6),
    ("longest task before playable", "longest task before playable (ms)", 1),
    ("move ms", "a move, act() (ms)", 1),
    ("worker ready", "Pyodide up in a worker (s)", 1000),
    ("bytes by worker", "MB by then (page's session)", 1e6),
    ("verdict shown", "verdict shown (s)", 1000),
)


def main() -> int:
    parser = bench_arguments(__doc__.splitlines()[0], 3, "?game=klondike&deal=7")
    parser.add_argument("--cpu", type=float, action="append",
                        help="CPU slowdown rate(s) (default: 1)")
    parser.add_argument("--early", action="store_true",
                        help="also MicroPython's page with the solver's worker started with "
                             "the page, not once the table is ready (?early)")
    parser.add_argument("--waterfall", action="store_true",
                        help="print each request of each page's first run")
    parser.add_argument("--page", choices=list(PAGES), action="append",
                        help="only these pages (default: all)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per wait")
    args = parser.parse_args()
    spike_pages.write()  # from the index.html of now
    server, base = serve_or_use(args.url)
    pages = {name: PAGES[name] for name in args.page} if args.page else dict(PAGES)
    if args.early:
        pages[EARLY] = PAGES["micropython"]
    results: dict[tuple[str, float], list[dict]] = {}
    try:
        with sync_playwright() as p:
            print(f"{NETWORK}, {args.query}, {args.runs} runs, load average {load()}")
            for cpu in args.cpu or [1.0]:
                for _ in range(args.runs):
                    for name, path in pages.items():
                        worker = name.startswith("micropython")
                        first = (name, cpu) not in results
                        query = args.query + ("&early" if name == EARLY else "")
                        row = visit(p, f"{base}/{path}{query}", cpu, args.timeout * 1000,
                                    worker, base if args.waterfall and first else "")
                        results.setdefault((name, cpu), []).append(row)
                        print(f"  {name}, cpu x{cpu:g}: " + ", ".join(
                            f"{k} {v:.0f}" if isinstance(v, float) else f"{k} {v}"
                            for k, v in row.items()), flush=True)
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
    print(f"load average at the end {load()}; medians of {args.runs} runs")
    print("| page | CPU | " + " | ".join(h for _, h, _ in COLUMNS) + " |")
    print("|---|---:|" + "---:|" * len(COLUMNS))
    for (name, cpu), rows in results.items():
        cells = [median(rows, key, scale) for key, _, scale in COLUMNS]
        print(f"| {name} | x{cpu:g} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
