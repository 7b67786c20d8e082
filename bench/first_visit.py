"""First visit from a deal link on a throttled network, then the installed app.

    .venv/bin/python bench/first_visit.py [--runs 2] [--query ?game=klondike&deal=7]
                                          [--no-compress] [--url URL] [--files]
                                          [--waterfall] [--first-only]

For each network profile (PROFILES: CDP `Network.emulateNetworkConditions`, download in
bytes/s and round-trip latency) and each run, Chromium starts on a new profile in a
temporary folder (a profile on disk, so the service worker installs) and opens the deal
link. It prints, per profile, the medians of:

- first card: a `[data-card]` element laid out and visible (a frame after it appears);
- playable: `<html data-app="ready">` (MicroPython on the main thread drew the table);
- bytes before playable: `encodedDataLength` of every `Network.loadingFinished` of the
  page's CDP session that ended before playable (headers included);
- longest task before playable: the longest main-thread task (PerformanceObserver
  "longtask", over 50 ms; 0 when none) that started before playable;
- solver ready: the solver's worker (Pyodide, started once the table is playable by
  web/start/solver.js) sent its first message (`pp:solver-ready`), and the bytes by then:
  the page's session, plus the worker's own fetches, which the page's CDP session does not
  see (counted from Playwright's request events: body and headers as received);
- verdict shown: the status bar's first settled verdict (`<html data-verdict>` won, lost
  or unknown);
- offline ready: the "Ready to play offline" notice (web/start/offline.js: the service
  worker's first install has cached everything; the bench checks that a cache of the origin
  holds every file of the served service worker's BUILD line), and the bytes by then. The
  service worker's own fetches run in another target, which CDP throttling of the page
  does not reach: they are counted apart ("sw bytes", from Playwright's request events)
  and slowed down on that target (throttle_service_workers), on a link of their own: with
  the precache racing the page and the solver's worker, the figures flatter them a little
  against a real network, where all share one link;
- reload and installed app: once the cache is complete, a reload (the first the service
  worker serves) and a second one (the installed app as a player meets it), with the same
  throttling: first card and playable of each.

It serves the repository with tools/serve.py (br/gzip as a host sends them;
`--no-compress` serves every file as it is; the first table's bytecode is built first
when stale) unless --url is given. It asserts nothing.
Targets (docs/architecture.md §8): at 10 Mbps / 100 ms, playable <= 4.5 s with <= 4.5 MB
before it; 1.6 Mbps / 150 ms is reported.
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

from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from bench.startup import (  # noqa: E402
    FIRST_CARD,
    RECORDER,
    bench_arguments,
    load,
    measure,
    serve_or_use,
    solver,
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
# Marks "offline ready" in window.__startupMarks when the "Ready to play offline" notice
# appears (it goes away after a few seconds).
OFFLINE_NOTICE = """
new MutationObserver((_, observer) => {
  if (document.querySelector('[data-notice="offline-ready"]')) {
    observer.disconnect();
    if (window.__startupMarks) window.__startupMarks["offline ready"] ??= performance.now();
  }
}).observe(document, { childList: true, subtree: true });
"""
LONGEST_BEFORE = """(ready) => Math.max(0, ...window.__longTasks
  .filter(([start]) => start < ready).map(([, duration]) => duration))"""


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
    and a Wire counting what crosses it. A service worker is slowed alike as it starts
    (throttle_service_workers)."""
    down, up, latency = profile
    conditions = {"offline": False, "latency": latency,
                  "downloadThroughput": down, "uploadThroughput": up}
    page = context.pages[0] if context.pages else context.new_page()
    session = context.new_cdp_session(page)
    wire = Wire(session)
    session.send("Network.enable")
    session.send("Network.emulateNetworkConditions", conditions)
    throttle_service_workers(session, conditions)
    return page, session, wire


def throttle_service_workers(session, conditions: dict) -> None:
    """Give the page's service worker the page's network conditions on its own CDP target
    (the page's throttling does not reach it). The page's session attaches to the targets
    the page starts, each paused until its conditions are set (a dedicated worker answers
    "Not supported": the page's throttling already covers it), the commands sent as
    messages to the target. The service worker gets a link of its own, as fast as the
    page's, not a share of the page's."""
    def attached(event: dict) -> None:
        for number, (method, params) in enumerate((
                ("Network.enable", {}), ("Network.emulateNetworkConditions", conditions),
                ("Runtime.runIfWaitingForDebugger", {}))):
            try:
                session.send("Target.sendMessageToTarget", {
                    "sessionId": event["sessionId"],
                    "message": json.dumps({"id": 1 + number, "method": method,
                                           "params": params})})
            except PlaywrightError:  # the page closed as a worker started: nothing to set
                return

    session.on("Target.attachedToTarget", attached)
    session.send("Target.setAutoAttach",
                 {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False})


class Seen:
    """Requests Playwright saw finish: the page's, its workers' and the service worker's
    (Playwright reports a dedicated worker's requests as the page's)."""

    def __init__(self, context) -> None:
        self.finished: list[object] = []
        context.on("requestfinished", lambda request: self.finished.append(request))

    @staticmethod
    def end(request) -> float:
        """The wall time (ms) the response ended."""
        timing = request.timing
        return timing["startTime"] + max(timing["responseEnd"], 0)

    def bytes_until(self, wall_ms: float, which) -> int:
        """Body and header bytes of the requests ``which(request)`` picks that finished
        by ``wall_ms``."""
        return sum(self.size(request) for request in self.finished
                   if which(request) and self.end(request) <= wall_ms)

    @staticmethod
    def size(request) -> int:
        """Body and header bytes as received. Playwright gives no body size for some of a
        worker's responses (the streamed wasm among them): their Content-Length then."""
        sizes = request.sizes()
        body = sizes["responseBodySize"]
        if body <= 0 and (response := request.response()) is not None:
            body = int(response.header_value("content-length") or 0)
        return body + sizes["responseHeadersSize"]

    def worker(self, wire: Wire):
        """Picks the requests of the page's workers: those neither the service worker's
        nor seen finishing on the page's CDP session (nor a blob: read, no network)."""
        seen = {url for _, _, url in wire.done}
        return lambda request: (request.service_worker is None and request.url not in seen
                                and request.url.startswith(("http:", "https:")))


def visit(p, url: str, profile: tuple[float, float, float], base: str,
          timeout_ms: float, files: bool = False,
          waterfall: bool = False, first_only: bool = False) -> dict[str, float]:
    """One first visit, the solver and the offline cache filling, then two reloads
    (``files``: also print the bytes of each file loaded before playable; ``waterfall``:
    when each request of the visit was sent, answered and finished)."""
    with tempfile.TemporaryDirectory(prefix="pp-first-visit-") as folder:
        context = p.chromium.launch_persistent_context(
            folder, executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context.add_init_script(RECORDER)
            context.add_init_script(FIRST_CARD)
            context.add_init_script(OFFLINE_NOTICE)
            seen = Seen(context)
            page, session, wire = throttled_page(context, profile)
            marks = measure(page, lambda: page.goto(url), timeout_ms)
            origin = page.evaluate("performance.timeOrigin")
            ready = marks["ready"]
            if files:
                print("  bytes before playable, per file:")
                for size, where in wire.loads_until(origin + ready):
                    print(f"    {size:>9} {where.removeprefix(base)}")
            row = {"first card": marks.get("first card"), "playable": ready,
                   "bytes": wire.bytes_until(origin + ready),
                   "longest task before playable": page.evaluate(LONGEST_BEFORE, ready),
                   "card before playable": marks.get("first card", 1e18) < ready}
            if first_only:
                return row
            solver(page, marks, timeout_ms)
            if "solver ready" in marks:
                at = origin + marks["solver ready"]
                row["solver ready"] = marks["solver ready"]
                row["bytes by solver ready"] = (wire.bytes_until(at)
                                                + seen.bytes_until(at, seen.worker(wire)))
            else:
                print(f"  the solver's worker failed at {marks['solver error']:.0f} ms",
                      file=sys.stderr)
            try:
                page.wait_for_function("() => !!window.__ppVerdict", timeout=timeout_ms)
            except PlaywrightTimeout:
                print("  no verdict shown", file=sys.stderr)
            else:
                verdict, at = page.evaluate("window.__ppVerdict")
                row["verdict"], row["verdict shown"] = verdict, at
            if waterfall:
                print("     sent   first  finished    bytes url (ms from navigation;"
                      f" playable at {ready:.0f}; the page's session only)")
                print("\n".join(wire.waterfall(origin, base)))
                worker = sorted((seen.end(request) - origin, request)
                                for request in seen.finished if seen.worker(wire)(request))
                if worker:
                    print("  the solver's worker: finished (ms), bytes (body + headers), url,"
                          " as Playwright reported them:")
                    for at, request in worker:
                        size = seen.size(request)
                        served = " (service worker)" if request.response().from_service_worker \
                            else ""
                        print(f"    {at:7.0f} {size:>9} {request.url.removeprefix(base)}{served}")
                print("  start-up marks (ms): " + ", ".join(
                    f"{name} {at:.0f}" for name, at in sorted(
                        ((k, v) for k, v in marks.items()
                         if isinstance(v, (int, float)) and not isinstance(v, bool)),
                        key=lambda kv: kv[1])))
            paths = precache_list(base)  # as late as possible: the tree may be edited
            held = f"({CACHED_COUNT})({json.dumps(paths)})"
            try:
                page.wait_for_function(
                    "() => window.__startupMarks['offline ready'] !== undefined",
                    timeout=timeout_ms)
            except PlaywrightTimeout:
                print(f"  no \"ready offline\" notice after {timeout_ms / 1000:.0f} s; the "
                      f"cache holds {page.evaluate(held)} of {len(paths)} files; caches: "
                      f"{page.evaluate('caches.keys()')}", file=sys.stderr)
                return row
            offline = page.evaluate("window.__startupMarks['offline ready']")
            if (count := page.evaluate(held)) < len(paths):
                print(f"  at the notice, the cache holds {count} of {len(paths)} files",
                      file=sys.stderr)
            row["offline ready"] = offline
            row["bytes offline ready"] = (wire.bytes_until(origin + offline)
                                          + seen.bytes_until(origin + offline, seen.worker(wire)))
            row["sw bytes"] = seen.bytes_until(
                origin + offline, lambda request: request.service_worker is not None)
            page.wait_for_function("() => !!navigator.serviceWorker.controller",
                                   timeout=timeout_ms)
            for name in ("reload", "installed"):
                again = measure(page, page.reload, timeout_ms)
                row[f"{name} first card"] = again.get("first card")
                row[f"{name} playable"] = again["ready"]
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
    ("longest task before playable", "longest task before playable (ms)", 1),
    ("solver ready", "solver ready (s)", 1000),
    ("bytes by solver ready", "MB by then", 1e6),
    ("verdict shown", "verdict shown (s)", 1000),
    ("offline ready", "offline ready (s)", 1000),
    ("bytes offline ready", "MB page + worker by then", 1e6),
    ("sw bytes", "MB sw fetched", 1e6),
    ("reload first card", "reload: first card (s)", 1000),
    ("reload playable", "reload: playable (s)", 1000),
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
                        help="stop after the first visit's playable (no solver, offline"
                             " cache or reloads)")
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
