"""What the main thread does while the first table comes up: a DevTools trace, read back.

    .venv/bin/python bench/trace_start.py [--runs 1] [--cpu 4] [--query ?game=klondike&deal=7]
                                          [--over 50] [--depth 3] [--keep DIR] [--url URL]

Each run opens the deal link in a new incognito context of headless Chromium with the CPU
slowed (CDP `Emulation.setCPUThrottlingRate`, 4 as Lighthouse's mobile run), records a
DevTools trace until `<html data-app="ready">`, and prints the main thread's tasks longer
than `--over` ms that started before then: when each began, how long it took (and its
thread's CPU time, which a busy machine stretches less than the wall clock), and what it
held (the trace events inside it, to `--depth` levels, with the script or function they
ran, those of 2 ms or more). Then the paints (first paint, first contentful paint, the
largest contentful paint candidates with their size) and the page's pp: marks. It serves
the repository (tools/serve.py, br/gzip) unless --url is given. It asserts nothing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.startup import RECORDER, bench_arguments, load, serve_or_use  # noqa: E402
from tools.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

# The page's largest-contentful-paint candidates: [ms, size, what].
LCP_RECORDER = """
(() => {
  const seen = (window.__lcp = []);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const el = e.element;
      const what = el ? el.tagName + (el.id ? "#" + el.id : "") +
        (el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : "") +
        " " + JSON.stringify((el.textContent || "").trim().slice(0, 30)) : "(gone)";
      seen.push([e.startTime, e.size, what]);
    }
  }).observe({ type: "largest-contentful-paint", buffered: true });
})();
"""
CATEGORIES = ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline",
              "v8.execute", "blink.user_timing", "loading", "v8", "blink"]
# Events that say little on their own (wrappers around the ones that matter).
NOISE = {"ThreadControllerImpl::RunTask", "RunTask", "ThreadController active",
         "RunNormalPriorityTask", "SimpleWatcher::OnHandleReady"}


def main_thread(events: list[dict]) -> tuple[int, int]:
    """(pid, tid) of the page's main thread: where web/main.py's first mark was set."""
    return next((e["pid"], e["tid"]) for e in events if e.get("name") == "pp:main")


def label(event: dict) -> str:
    """The event's name and what it ran (script URL, function, listener)."""
    data = event.get("args", {}).get("data") or event.get("args", {}).get("beginData") or {}
    bits = [event["name"]]
    for key in ("type", "functionName", "url", "fileName", "name"):
        value = data.get(key) if isinstance(data, dict) else None
        if value:
            value = str(value)
            if key in ("url", "fileName"):
                value = value.split("/", 3)[-1][:70]
            bits.append(f"{key}={value}")
    line = data.get("lineNumber") if isinstance(data, dict) else None
    if line is not None:
        bits.append(f"line={line}")
    return " ".join(bits)


def complete_events(events: list[dict], thread: tuple[int, int]) -> list[dict]:
    """The thread's events as [ts, dur] spans, B/E pairs joined."""
    spans, stack = [], []
    for e in events:
        if (e.get("pid"), e.get("tid")) != thread:
            continue
        if e.get("ph") == "X" and "dur" in e:
            spans.append(e)
        elif e.get("ph") == "B":
            stack.append(e)
        elif e.get("ph") == "E" and stack:
            begin = stack.pop()
            span = {**begin, "ph": "X", "dur": e["ts"] - begin["ts"]}
            if "tts" in begin and "tts" in e:
                span["tdur"] = e["tts"] - begin["tts"]
            spans.append(span)
    spans.sort(key=lambda e: (e["ts"], -e["dur"]))
    return spans


def tree(spans: list[dict], top: dict, depth: int, min_us: float) -> list[str]:
    """The events inside ``top``, indented by nesting, to ``depth`` levels."""
    end = top["ts"] + top["dur"]
    inside = [s for s in spans if s is not top and top["ts"] <= s["ts"] < end
              and s["ts"] + s["dur"] <= end + 1]
    lines: list[str] = []
    stack: list[tuple[float, bool]] = []  # (end, counts as a level) of the open parents
    for s in inside:
        while stack and s["ts"] >= stack[-1][0]:
            stack.pop()
        level = sum(counts for _, counts in stack)
        noise = s["name"] in NOISE or s["name"].startswith("HTMLParserScriptRunner")
        stack.append((s["ts"] + s["dur"], not noise))
        if noise:
            continue
        if level < depth and s["dur"] >= min_us:
            lines.append(f"{'  ' * (level + 2)}{s['dur'] / 1000:7.1f} ms  {label(s)}")
    return lines


def report(events: list[dict], ready_ms: float, origin_us: float, over: float,
           depth: int) -> None:
    thread = main_thread(events)
    spans = complete_events(events, thread)
    kind = "RunTask" if any(s["name"] == "RunTask" for s in spans) else \
        "ThreadControllerImpl::RunTask"
    tasks = [s for s in spans if s["name"] == kind
             and s["dur"] >= over * 1000 and (s["ts"] - origin_us) / 1000 <= ready_ms]
    print(f"  tasks over {over:.0f} ms until {ready_ms:.0f} ms: {len(tasks)}")
    for task in tasks:
        cpu = f" ({task['tdur'] / 1000:.1f} ms of CPU)" if "tdur" in task else ""
        at = (task["ts"] - origin_us) / 1000
        print(f"    at {at:7.0f} ms: {task['dur'] / 1000:6.1f} ms{cpu}")
        for line in tree(spans, task, depth, 2000):
            print(line)
    print("  paints:")
    for e in events:
        if (e.get("pid"), e.get("tid")) != thread:
            continue
        name = e.get("name", "")
        if name in ("firstPaint", "firstContentfulPaint", "largestContentfulPaint::Candidate"):
            data = e.get("args", {}).get("data", {})
            extra = (f" size={data.get('size')} type={data.get('type')} "
                     f"node={data.get('nodeId')}" if "Candidate" in name else "")
            print(f"    {(e['ts'] - origin_us) / 1000:7.0f} ms  {name}{extra}")


def main() -> int:
    parser = bench_arguments(__doc__.splitlines()[0], 1, "?game=klondike&deal=7")
    parser.add_argument("--cpu", type=float, default=4, help="CPU slowdown (1: none)")
    parser.add_argument("--over", type=float, default=50, help="list tasks over this (ms)")
    parser.add_argument("--depth", type=int, default=5, help="levels shown inside a task")
    parser.add_argument("--keep", type=Path, help="write each run's trace JSON here")
    parser.add_argument("--after", type=float, default=300,
                        help="ms to go on recording after the table is ready")
    parser.add_argument("--all", action="store_true",
                        help="list the tasks of the --after time too, not only before ready")
    parser.add_argument("--mobile", action="store_true",
                        help="a phone's screen, as Lighthouse's mobile run (412x823, DPR 1.75)")
    parser.add_argument("--no-trace", dest="trace", action="store_false",
                        help="only the start-up stages and long tasks the page observes")
    args = parser.parse_args()
    server, base = serve_or_use(args.url)
    url = f"{base}/{args.query}"
    longest: list[float] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            print(f"Chromium {browser.version}, {url}, CPU x{args.cpu:g}, load {load()}")
            for number in range(1, args.runs + 1):
                context = browser.new_context(**(
                    {"viewport": {"width": 412, "height": 823}, "device_scale_factor": 1.75,
                     "is_mobile": True, "has_touch": True} if args.mobile else {}))
                context.add_init_script(RECORDER)
                context.add_init_script(LCP_RECORDER)
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.cpu})
                if args.trace:
                    browser.start_tracing(page=page, categories=CATEGORIES)
                page.goto(url)
                page.wait_for_function("() => document.documentElement.dataset.app"
                                       " === 'ready'", timeout=120_000)
                marks = page.evaluate("""() => Object.fromEntries(
                    performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]))""")
                ready_ms = page.evaluate("() => performance.now()")
                page.wait_for_timeout(args.after)
                if args.all:
                    ready_ms = page.evaluate("() => performance.now()")
                stages = page.evaluate("() => window.__startupMarks")
                longs = page.evaluate("() => window.__longTasks")
                print("  largest contentful paint candidates: " + "; ".join(
                    f"{ms:.0f} ms {size} px² {what}"
                    for ms, size, what in page.evaluate("() => window.__lcp")))
                print(f"run {number}: stages " + ", ".join(
                    f"{name} {ms:.0f}" for name, ms in sorted(stages.items(), key=lambda x: x[1])))
                print("  long tasks before ready (observed): " + ", ".join(
                    f"{d:.0f} ms at {t:.0f}" for t, d in longs if t <= ready_ms))
                longest.append(max((d for t, d in longs if t <= ready_ms), default=0))
                if not args.trace:
                    context.close()
                    continue
                raw = browser.stop_tracing()
                events = json.loads(raw)["traceEvents"]
                if args.keep:
                    args.keep.mkdir(parents=True, exist_ok=True)
                    (args.keep / f"trace-{number}.json").write_bytes(raw)
                # performance.now()'s origin in trace time, from a mark the page set
                origin = next(e["ts"] - marks[e["name"]] * 1000 for e in events
                              if e.get("name") in marks and e.get("ph") in ("R", "I", "n", "b"))
                report(events, ready_ms, origin, args.over, args.depth)
                context.close()
            browser.close()
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
    if longest:
        print("longest task before ready (observed), per run: "
              + ", ".join(f"{ms:.0f} ms" for ms in longest))
    print(f"load at the end {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
