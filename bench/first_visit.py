"""First visit from a deal link on a throttled network, then the installed app.

    .venv/bin/python bench/first_visit.py [--runs 2] [--query ?game=klondike&deal=7]
                                          [--no-compress] [--url URL] [--files]

For each network profile (PROFILES: CDP `Network.emulateNetworkConditions`, download in
bytes/s and round-trip latency) and each run, Chromium starts on a new profile in a
temporary folder (a profile on disk, so the service worker installs) and opens the deal
link. It prints, per profile, the medians of:

- first card: a `[data-card]` element laid out and visible (a frame after it appears);
- playable: `<html data-app="ready">`;
- bytes before playable: `encodedDataLength` of every `Network.loadingFinished` of the
  page's CDP session that ended before playable (headers included);
- offline ready: when a cache of the origin holds every file listed in the served,
  rendered /service-worker.js (its BUILD line), and the bytes by then. The
  service worker's own fetches run in another target, which CDP throttling of the page
  does not reach: they are counted apart ("sw bytes", from Playwright's request events)
  and are NOT slowed down, so with the precache racing the page the throttled figures
  flatter the page less than a real network would;
- longest task after playable: the longest main-thread task (PerformanceObserver
  "longtask") that starts after playable and before the page has compiled the app's
  modules the first table did not import (web/start/pyodide-loader.mjs) and then been
  idle for AFTER_READY_S: the time a first move may wait;
- installed app: once the cache is complete, one reload (the page is controlled, the
  Python snapshot gets saved), then a measured reload with the same throttling: first card
  and playable.

It serves the repository with tools/serve.py (br/gzip as a host sends them;
`--no-compress` serves every file as it is) unless --url is given. It asserts nothing.
Budget (docs/architecture.md §8): at 10 Mbps / 100 ms, playable <= 4.5 s with <= 4.5 MB before it.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from bench.startup import (  # noqa: E402
    FIRST_CARD,
    RECORDER,
    bench_arguments,
    load,
    measure,
    serve_or_use,
)
from tools.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

# name -> (download bytes/s, upload bytes/s, round-trip latency ms)
PROFILES = {
    "10 Mbps / 100 ms": (10_000_000 / 8, 5_000_000 / 8, 100),
    "1.6 Mbps / 150 ms": (1_600_000 / 8, 750_000 / 8, 150),
}

# How many of the listed files the fullest cache of the origin holds (by path); whatever
# the service worker names its cache.
CACHED_COUNT = """
async (paths) => {
  let most = 0;
  for (const name of await caches.keys()) {
    const keys = await (await caches.open(name)).keys();
    const held = new Set(keys.map((request) => new URL(request.url).pathname));
    const count = paths.filter((path) => held.has(new URL(path, location.href).pathname));
    most = Math.max(most, count.length);
  }
  return most;
}
"""
NOW = "() => performance.timeOrigin + performance.now()"
# Quiet time after the page has compiled the modules the first table did not import, in
# which the table's first background look at the position runs.
AFTER_READY_S = 2.0
LONGEST_AFTER_READY = """(ready) => Math.max(0, ...window.__longTasks
  .filter(([start]) => start >= ready).map(([, duration]) => duration))"""


def precache_list(base: str) -> list[str]:
    """The file list baked into the served service worker's BUILD line."""
    with urllib.request.urlopen(f"{base}/service-worker.js") as response:
        text = response.read().decode()
    line = re.search(r"^const BUILD = (.*); // @build$", text, re.MULTILINE)
    return list(json.loads(line.group(1)).get("files") or {}) if line else []


class Wire:
    """Bytes on the page's CDP session, each with the wall time (ms) its load finished
    and its URL."""

    def __init__(self, session) -> None:
        self.offset: float | None = None  # wall ms minus CDP monotonic ms
        self.urls: dict[str, str] = {}
        self.done: list[tuple[float, int, str]] = []
        # request id -> [sent, first byte, finished] (CDP ms; None until it happens)
        self.times: dict[str, list[float | None]] = {}
        session.on("Network.requestWillBeSent", self._sent)
        session.on("Network.responseReceived", self._received)
        session.on("Network.loadingFinished", self._finished)

    def _sent(self, event: dict) -> None:
        if self.offset is None:
            self.offset = event["wallTime"] * 1000 - event["timestamp"] * 1000
        self.urls[event["requestId"]] = event["request"]["url"]
        self.times[event["requestId"]] = [event["timestamp"] * 1000, None, None]

    def _received(self, event: dict) -> None:
        if event["requestId"] in self.times:
            self.times[event["requestId"]][1] = event["timestamp"] * 1000

    def _finished(self, event: dict) -> None:
        self.done.append((event["timestamp"] * 1000, int(event["encodedDataLength"]),
                          self.urls.get(event["requestId"], "?")))
        if event["requestId"] in self.times:
            self.times[event["requestId"]][2] = event["timestamp"] * 1000

    def waterfall(self, origin_ms: float, base: str) -> list[str]:
        """One line per request: sent, first byte and finished (ms from the navigation
        start), bytes and URL, in the order they were sent."""
        offset = self.offset or 0.0
        sizes = {url: size for _, size, url in self.done}
        lines = []
        for rid, (sent, first, end) in sorted(self.times.items(), key=lambda kv: kv[1][0]):
            url = self.urls[rid]
            cells = [f"{t + offset - origin_ms:7.0f}" if t is not None else "      -"
                     for t in (sent, first, end)]
            lines.append(f"    {' '.join(cells)} {sizes.get(url, 0):>9} "
                         f"{url.removeprefix(base)}")
        return lines

    def loads_until(self, wall_ms: float) -> list[tuple[int, str]]:
        """(bytes, URL) of each load finished by ``wall_ms``, biggest first."""
        offset = self.offset or 0.0
        return sorted(((size, url) for at, size, url in self.done if at + offset <= wall_ms),
                      reverse=True)

    def bytes_until(self, wall_ms: float) -> int:
        return sum(size for size, _ in self.loads_until(wall_ms))


def throttled_page(context, profile: tuple[float, float, float]):
    """The context's page with its network slowed to ``profile`` (CDP), its CDP session,
    and a Wire counting what crosses it."""
    down, up, latency = profile
    page = context.pages[0] if context.pages else context.new_page()
    session = context.new_cdp_session(page)
    wire = Wire(session)
    session.send("Network.enable")
    session.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": latency,
        "downloadThroughput": down, "uploadThroughput": up})
    return page, session, wire


def visit(p, url: str, profile: tuple[float, float, float], base: str,
          timeout_ms: float, files: bool = False,
          waterfall: bool = False, first_only: bool = False) -> dict[str, float]:
    """One first visit, the offline cache filling, and the installed app's reload
    (``files``: also print the bytes of each file loaded before playable; ``waterfall``:
    when each request of the visit was sent, answered and finished)."""
    with tempfile.TemporaryDirectory(prefix="pp-first-visit-") as folder:
        context = p.chromium.launch_persistent_context(
            folder, executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context.add_init_script(RECORDER)
            context.add_init_script(FIRST_CARD)
            sw_requests = []
            context.on("requestfinished",
                       lambda r: r.service_worker is not None and sw_requests.append(r))
            page, session, wire = throttled_page(context, profile)
            marks = measure(page, lambda: page.goto(url), timeout_ms)
            paths = precache_list(base)  # as late as possible: the tree may be edited
            origin = page.evaluate("performance.timeOrigin")
            if waterfall:
                print("     sent   first  finished    bytes url (ms from navigation;"
                      f" playable at {marks['ready']:.0f})")
                print("\n".join(wire.waterfall(origin, base)))
                print("  start-up marks (ms): " + ", ".join(
                    f"{name} {at:.0f}" for name, at in sorted(
                        ((k, v) for k, v in marks.items()
                         if isinstance(v, (int, float)) and not isinstance(v, bool)),
                        key=lambda kv: kv[1])))
            if files:
                print("  bytes before playable, per file:")
                for size, where in wire.loads_until(origin + marks["ready"]):
                    print(f"    {size:>9} {where.removeprefix(base)}")
            row = {"first card": marks.get("first card"), "playable": marks["ready"],
                   "bytes": wire.bytes_until(origin + marks["ready"]),
                   "card before playable": marks.get("first card", 1e18) < marks["ready"]}
            if first_only:
                return row
            page.wait_for_function("() => window.__pyodideStart?.precompiled !== undefined",
                                   timeout=timeout_ms)
            page.wait_for_timeout(AFTER_READY_S * 1000)
            row["longest task after playable"] = page.evaluate(LONGEST_AFTER_READY,
                                                               marks["ready"])
            held = f"({CACHED_COUNT})({json.dumps(paths)})"
            try:
                page.wait_for_function(f"async () => (await {held}) >= {len(paths)}",
                                       timeout=timeout_ms, polling=100)
            except PlaywrightTimeout:
                print(f"  the offline cache holds {page.evaluate(held)} of {len(paths)} "
                      f"files after {timeout_ms / 1000:.0f} s; caches: "
                      f"{page.evaluate('caches.keys()')}", file=sys.stderr)
            else:
                complete = page.evaluate(NOW)
                row["offline ready"] = complete - origin
                row["bytes offline ready"] = wire.bytes_until(complete)
                row["sw bytes"] = sum(r.sizes()["responseBodySize"]
                                      + r.sizes()["responseHeadersSize"] for r in sw_requests)
                page.wait_for_function("() => !!navigator.serviceWorker.controller",
                                       timeout=timeout_ms)
                measure(page, page.reload, timeout_ms)  # controlled: the snapshot is made
                try:
                    page.wait_for_function("() => document.documentElement.dataset.snapshot",
                                           timeout=timeout_ms)
                except PlaywrightTimeout:
                    print("  no Python snapshot was saved", file=sys.stderr)
                installed = measure(page, page.reload, timeout_ms)
                row["installed first card"] = installed.get("first card")
                row["installed playable"] = installed["ready"]
            return row
        finally:
            context.close()


def median(rows: list[dict], key: str, scale: float) -> str:
    """The median of ``key`` over ``rows`` that have it, divided by ``scale``; "-" if none."""
    values = [row[key] / scale for row in rows if row.get(key) is not None]
    return f"{statistics.median(values):.2f}" if values else "-"


COLUMNS = (  # (key, heading, divisor)
    ("first card", "first card (s)", 1000),
    ("playable", "playable (s)", 1000),
    ("bytes", "MB before playable", 1e6),
    ("longest task after playable", "longest task after playable (ms)", 1),
    ("offline ready", "offline ready (s)", 1000),
    ("bytes offline ready", "MB page by then", 1e6),
    ("sw bytes", "MB sw fetched (unthrottled)", 1e6),
    ("installed first card", "installed: first card (s)", 1000),
    ("installed playable", "installed: playable (s)", 1000),
)


def table(results: dict[str, list[dict]]) -> str:
    lines = ["| network | " + " | ".join(h for _, h, _ in COLUMNS) + " |",
             "|---|" + "---:|" * len(COLUMNS)]
    for name, rows in results.items():
        cells = [median(rows, key, scale) for key, _, scale in COLUMNS]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = bench_arguments(__doc__.splitlines()[0], 2, "?game=klondike&deal=7")
    parser.add_argument("--no-compress", dest="compress", action="store_false",
                        help="serve every file as it is (no br/gzip)")
    parser.add_argument("--profile", choices=list(PROFILES), action="append",
                        help="only these network profiles (default: all)")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds per wait")
    parser.add_argument("--files", action="store_true",
                        help="print the bytes of each file loaded before playable")
    parser.add_argument("--waterfall", action="store_true",
                        help="print when each request of the first visit was sent, answered"
                             " and finished")
    parser.add_argument("--first-only", action="store_true",
                        help="stop after the first visit's playable (no offline cache, no"
                             " installed app)")
    args = parser.parse_args()
    server, base = serve_or_use(args.url, compress=args.compress)
    url = f"{base}/{args.query}"
    paths = precache_list(base)
    results: dict[str, list[dict]] = {}
    try:
        with sync_playwright() as p:
            print(f"{url}, {args.runs} runs, compression "
                  f"{'on' if args.compress else 'off'}, load average {load()}")
            for name in args.profile or list(PROFILES):
                for _ in range(args.runs):
                    row = visit(p, url, PROFILES[name], base, args.timeout * 1000, args.files,
                                args.waterfall, args.first_only)
                    results.setdefault(name, []).append(row)
                    print(f"  {name}: " + ", ".join(
                        f"{k} {v:.0f}" if isinstance(v, float) else f"{k} {v}"
                        for k, v in row.items()), flush=True)
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
    print(f"load average at the end {load()}; medians of {args.runs} runs; "
          f"precache {len(paths)} files")
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
