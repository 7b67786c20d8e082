"""Start-up benchmark: time from navigation to `<html data-app="ready">` in headless Chromium.

    .venv/bin/python bench/startup.py [--runs 5] [--url URL] [--stages]

It serves the repository itself (tools/serve.py on a free 127.0.0.1 port) unless --url is
given, then for each run opens a fresh browser context (empty HTTP cache, storage and
code cache) for the first visit and reloads the same page once for the reload figure
(the HTTP cache revalidates against the server). When the page has registered a service
worker, it also waits for it to be active and reloads once more with the network off.
Times are read inside the page (performance.now(), whose origin is the navigation start),
so Playwright's own round trips are not counted. It prints medians; it asserts nothing.
Budgets (DESIGN.md): first visit <= 2.5 s; reload from the service worker's cache with the
network off <= 1.0 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tools.serve import start_server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Records, relative to the navigation start, PyScript's progress events and the moment the
# page marks itself ready. Runs before any script of the page.
RECORDER = """
(() => {
  const marks = (window.__startupMarks = {});
  addEventListener("py:progress", (e) => { marks[e.detail] ??= performance.now(); });
  new MutationObserver(() => {
    const state = document.documentElement && document.documentElement.dataset.app;
    if (state && state !== "loading") marks[state] ??= performance.now();
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-app"] });
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
STAGES = ("Loading Pyodide", "Loaded interpreter", "Loaded files", "Loaded Pyodide", "ready")


def measure(page, action, timeout_ms: float) -> dict[str, float]:
    action()
    page.wait_for_function(
        "() => window.__startupMarks && (window.__startupMarks.ready"
        " || window.__startupMarks.error)",
        timeout=timeout_ms,
    )
    marks = page.evaluate("window.__startupMarks")
    if "ready" not in marks:
        raise SystemExit(f"the page reported an error: {page.inner_text('#loading')!r}")
    return marks


def summary(name: str, runs: list[dict[str, float]], stages: bool) -> None:
    if not runs:
        print(f"{name:<15} not measured (no service worker)")
        return
    ready = [run["ready"] / 1000 for run in runs]
    figures = " ".join(f"{t:.2f}" for t in ready)
    print(f"{name:<15} median {statistics.median(ready):.2f} s   (runs: {figures})")
    if stages:
        for stage in STAGES:
            values = [run[stage] / 1000 for run in runs if stage in run]
            if values:
                print(f"    {stage:<20} median {statistics.median(values):.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description="Measure start-up to a playable table.")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--url", help="bench this URL instead of serving the repository")
    parser.add_argument("--query", default="?game=spider-1&deal=1", help="appended to the URL")
    parser.add_argument("--stages", action="store_true", help="also print start-up stages")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per load")
    args = parser.parse_args()

    if not args.url and not (ROOT / "vendor" / "VERSIONS").exists():
        raise SystemExit("vendor/ is missing: run `make vendor` first")
    server = None
    if args.url:
        base = args.url.rstrip("/")
    else:
        server, base = start_server(ROOT)
    url = f"{base}/{args.query}"

    first, reload, offline = [], [], []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            print(f"Chromium {browser.version}, {url}, {args.runs} runs")
            for _ in range(args.runs):
                context = browser.new_context()
                context.add_init_script(RECORDER)
                page = context.new_page()
                first.append(measure(page, lambda p=page: p.goto(url), args.timeout * 1000))
                reload.append(measure(page, page.reload, args.timeout * 1000))
                if page.evaluate(SERVICE_WORKER_ACTIVE):
                    context.set_offline(True)
                    offline.append(measure(page, page.reload, args.timeout * 1000))
                context.close()
            browser.close()
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()

    summary("first visit", first, args.stages)
    summary("reload", reload, args.stages)
    summary("offline reload", offline, args.stages)
    return 0


if __name__ == "__main__":
    sys.exit(main())
