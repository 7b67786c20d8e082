"""Frame times of the table's motion on a phone profile: a Klondike finish and ordinary moves.

    .venv/bin/python bench/motion.py [--throttle 4] [--moves 40] [--speed normal] [--url URL]
    .venv/bin/python bench/motion.py --frames raf ...
    .venv/bin/python bench/motion.py --trace [--throttle 4]
    .venv/bin/python bench/motion.py --against DIR [--pairs 3] [--only deal,spider]

It serves the repository (tools/serve.py on a free 127.0.0.1 port) unless --url is given,
opens headless Chromium at a phone's size (390x844, touch, device scale 3) with the CPU
slowed --throttle times (CDP Emulation.setCPUThrottlingRate), and records the frames the
page's motion shows while:

- finish: a Klondike table with every card face up in four built columns goes home in the
  finish's cascade (52 cards flying one after another), then is undone (52 cards back);
  --rounds times;
- deal: --rounds new Klondike deals (28 cards dealt out from the stock);
- spider: --rounds new one-suit Spider deals (54 cards dealt out), each followed by
  sp-stock: a deal from its stock (a card onto each of the 10 columns);
- moves: --moves ordinary moves of a Klondike deal (the engine's heuristic hint on a
  CPython twin, sent through the page's intent API, the stock when it says so), each
  followed by the time its animation takes.

and, as a baseline of what the machine gives a page with next to nothing moving (a busy
machine shows here), --idle seconds of one small element sliding across the table.

How frames are counted (--frames):

- trace (the default): from what the compositor presented, in a DevTools trace of each
  action (category disabled-by-default-devtools.timeline.frame: one PipelineReporter
  event per frame of the page's compositor, begun at a vsync, with its state: presented
  whole, presented without the main thread's update of that frame ("partial": the
  compositor's animations moved, the page's own change came a frame or more later),
  dropped, or nothing to draw). A frame time is the time between the vsyncs of two
  presented frames that follow each other. Nothing runs in the page each frame.
- raf: the old way, the time between the page's animation frames (a requestAnimationFrame
  loop in the page). That loop makes Chromium run a main-thread frame, and style every
  animating element, in every frame, which the motion alone does not: its figures are of
  a busier page than a player's.

For each case it prints the median, p95 and max frame time and the share of frames
dropped (a frame is due every 1/60 s; a frame time of n such periods drops n - 1 of
them); with trace, also the share of presented frames that were partial; the main
thread's tasks over 50 ms from the intent on (the Long Tasks API; the intent's own task
included, and how many of them were intents, handled in over 50 ms); and the machine's
load average when it ended (a shared machine's figures mean little under load). Budgets:
a frame every 16.7 ms, no task over 50 ms. It asserts nothing.

With --trace it runs one of each (a finish, its undo, a Klondike deal, three moves, a
Spider deal and a deal from its stock) under Chromium's tracing with many more categories
and prints, besides the frames, where the page's main thread spent its time in thread CPU
time (which a busy machine stretches far less than the wall clock): per frame, by kind of
work (script, style, layout, paint, commit, gc) and by trace event; its three longest
tasks; the style recalcs and the elements they styled; the other threads' CPU per frame;
and what the page's MutationObservers (PyScript's among them) were called for.
MOTION_TRACE_DIR=dir keeps each trace there (dir/finish.json, ...) for chrome://tracing or
Perfetto.

With --against DIR (another checkout with its build/mpy, such as a copy of this one with
a change undone) it measures this checkout and that one in turn, --pairs times each, each
in a browser of its own, and ends with each case's dropped share, p95 and long tasks run by
run for both: on a shared machine whose load comes and goes, figures taken in turn are the
ones that can be compared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

import engine  # noqa: E402
from tools.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tools.positions import built_columns  # noqa: E402
from tools.serve import start_server  # noqa: E402
from web.saves import GameSaves  # noqa: E402
from web.storage import MemoryBackend, Storage  # noqa: E402

FRAME_MS = 1000 / 60
READY_JS = "() => document.documentElement.dataset.app === 'ready'"
# The main thread's tasks over 50 ms (Long Tasks API) that began since window.__since; with
# `raf`, also a requestAnimationFrame loop that keeps every frame's time while window.__rec
# is on (the old way of counting frames: see the docstring).
WATCH_JS = """(raf) => {
  window.__frames = [];
  window.__rec = false;
  window.__long = [];
  window.__since = Infinity;
  if (raf) {
    const tick = (t) => {
      if (window.__rec) window.__frames.push(t);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.startTime >= window.__since) window.__long.push(e.duration);
    }
  }).observe({ type: "longtask" });
}"""
# The intent handled at once (timed), then frames recorded from the next one on. The marks
# bound the frames taken from a trace: those begun after the intent's task.
ACT_JS = """([kind, data]) => {
  window.__long = [];
  const t0 = performance.now();
  window.__since = t0 - 1;
  window.ppTable.act(kind, data);
  const t1 = performance.now();
  performance.mark("pp:bench-acted");
  window.__frames = [];
  window.__rec = true;
  return t1 - t0;
}"""
STOP_JS = """() => { window.__rec = false; performance.mark("pp:bench-settled");
  return [window.__frames, window.__long]; }"""
IDLE_JS = "() => document.getAnimations().every((a) => a.playState !== 'running')"
# The same, waited for inside the page (a look every 100 ms on a timer): no call from
# Playwright lands in the page's main thread while the motion is measured.
SETTLE_JS = """() => new Promise((done) => {
  const look = () => document.getAnimations().every((a) => a.playState !== 'running')
    ? done() : setTimeout(look, 100);
  look();
})"""
# A few frames drawn (and a task after them).
SETTLE_FRAMES_JS = """() => new Promise((done) => {
  let n = 0;
  const next = () => (++n < 6 ? requestAnimationFrame(next) : setTimeout(done, 0));
  requestAnimationFrame(next);
})"""
# The idle baseline's motion: a small element sliding over the table for `ms` (one layer,
# animated by the compositor), with the marks that bound its frames.
SLIDE_JS = """(ms) => {
  window.__long = [];
  window.__since = performance.now();
  const el = document.createElement("div");
  el.style.cssText = "position:fixed;left:0;top:0;width:4px;height:4px;z-index:9999;"
    + "background:#fff;will-change:transform;pointer-events:none";
  document.body.append(el);
  performance.mark("pp:bench-acted");
  window.__frames = [];
  window.__rec = true;
  el.animate([{ transform: "translateX(0)" }, { transform: "translateX(300px)" }],
    { duration: ms }).onfinish = () => el.remove();
}"""
# The solver's worker said its first word (it starts Pyodide once the table is ready).
SOLVER_UP_JS = """() => performance.getEntriesByName('pp:solver-ready').length
    + performance.getEntriesByName('pp:solver-error').length > 0"""
SET_STORAGE_JS = """(items) => {
    localStorage.clear();
    for (const [key, value] of Object.entries(items)) localStorage.setItem(key, value);
}"""
# What a trace needs for the presented frames (and the marks that bound them).
FRAME_CATEGORIES = ["disabled-by-default-devtools.timeline.frame", "blink.user_timing"]
PRESENTED = ("STATE_PRESENTED_ALL", "STATE_PRESENTED_PARTIAL")


def frame_figures(deltas: list[float]) -> dict[str, float]:
    """Median, p95 and max of the deltas, and the share of due frames that were dropped."""
    ordered = sorted(deltas)
    due = sum(max(1, round(d / FRAME_MS)) for d in deltas)
    return {
        "frames": len(deltas),
        "median": statistics.median(ordered),
        "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
        "max": ordered[-1],
        "dropped": (due - len(deltas)) / due if due else 0.0,
    }


def trace_events(data: bytes) -> list[dict]:
    import json

    events = json.loads(data)
    return events["traceEvents"] if isinstance(events, dict) else events


def presented_frames(events: list[dict]) -> tuple[list[float], int]:
    """The frame times (ms) between the presented frames of the page's compositor that began
    between the marks pp:bench-acted and pp:bench-settled, and how many of those frames
    were partial (presented without the main thread's update).

    Each PipelineReporter span is one frame of one compositor: begun at its vsync, its
    state says whether it reached the screen. A frame may have two (the compositor's part
    and the main thread's, when the latter is late): a frame counts once, presented if
    any part of it was, partial if no part was presented whole."""
    marks = {e["name"]: e for e in events if e.get("name", "").startswith("pp:bench-")}
    acted, settled = marks.get("pp:bench-acted"), marks.get("pp:bench-settled")
    if acted is None:
        return [], 0
    pid = acted["pid"]  # the page's renderer
    begin, end = acted["ts"], settled["ts"] if settled else float("inf")
    states: dict[int, tuple[float, set[str]]] = {}
    for e in events:
        if e.get("name") != "PipelineReporter" or e.get("ph") != "b" or e.get("pid") != pid:
            continue
        fr = (e.get("args") or {}).get("frame_reporter") or {}
        if not begin <= e["ts"] <= end or "frame_sequence" not in fr:
            continue
        ts, seen = states.setdefault(fr["frame_sequence"], (e["ts"], set()))
        seen.add(fr.get("state", ""))
        states[fr["frame_sequence"]] = (min(ts, e["ts"]), seen)
    shown = sorted((ts, seen) for ts, seen in states.values() if seen & set(PRESENTED))
    partial = sum(1 for _, seen in shown if PRESENTED[0] not in seen)
    times = [ts / 1000 for ts, _ in shown]
    return [b - a for a, b in zip(times, times[1:], strict=False)], partial


class Recorder:
    """How one page's actions are recorded: the page, its browser (for tracing), how frames
    are counted (``frames``: "trace" or "raf") and the categories a trace takes."""

    def __init__(self, browser, page, frames: str = "trace") -> None:
        self.browser = browser
        self.page = page
        self.frames = frames
        self.categories = FRAME_CATEGORIES
        self.last_trace = b""  # the trace of the last action recorded with frames=trace

    def start_tracing(self) -> None:
        """Tracing on, and the page's next frames drawn before anything is measured: the
        renderer's own start of the trace would otherwise land in the intent's task."""
        self.browser.start_tracing(page=self.page, categories=self.categories)
        self.page.evaluate(SETTLE_FRAMES_JS)

    def record(self, kind: str, **data) -> tuple[float, list[float], int, list[float]]:
        """The time the page took to handle the intent (the Python call and the DOM
        update), the frame times from then until every animation has ended, how many of
        those frames were partial (trace only) and the long tasks."""
        tracing = self.frames == "trace"
        if tracing:
            self.start_tracing()
        handled = self.page.evaluate(ACT_JS, [kind, data])
        self.page.evaluate(SETTLE_JS)
        self.page.wait_for_timeout(50)
        times, long = self.page.evaluate(STOP_JS)
        if not tracing:
            return handled, [b - a for a, b in zip(times, times[1:], strict=False)], 0, long
        self.last_trace = self.browser.stop_tracing()
        deltas, partial = presented_frames(trace_events(self.last_trace))
        return handled, deltas, partial, long

    def idle(self, seconds: float) -> Run:
        """The baseline: a small element sliding for ``seconds``."""
        run = Run("idle")
        if self.frames == "trace":
            self.start_tracing()
        self.page.evaluate(SLIDE_JS, seconds * 1000)
        self.page.wait_for_timeout(seconds * 1000 + 100)
        times, run.long = self.page.evaluate(STOP_JS)
        run.handled.append(0.0)
        if self.frames == "trace":
            run.deltas, partial = presented_frames(trace_events(self.browser.stop_tracing()))
            run.partial += partial
            run.traced = True
        else:
            run.deltas = [b - a for a, b in zip(times, times[1:], strict=False)]
        return run


def load(page, game: engine.Game, speed: str, raf: bool) -> None:
    """Open the app on ``game`` (the autosave a reload resumes) at ``speed``."""
    backend = MemoryBackend()
    GameSaves(Storage(backend)).save(game, "bench", 0, False)
    page.goto("/pyscript.toml")
    page.evaluate(SET_STORAGE_JS, backend.items)
    page.goto("/")
    page.wait_for_function(READY_JS, timeout=120_000)
    # The start's background work (Pyodide starting in the solver's worker once the table
    # is playable, which takes CPU from the page on a small machine) is over before
    # anything is measured.
    page.wait_for_function(SOLVER_UP_JS, polling=200, timeout=120_000)
    page.evaluate("(s) => { window.ppTable.act('settings', { speed: s }); }", speed)
    page.evaluate(WATCH_JS, raf)


class Run:
    """What one kind of action cost: the page's handling of each, the frames after."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.handled: list[float] = []
        self.deltas: list[float] = []
        self.partial = 0
        self.traced = False  # frames from a trace (with their partial ones counted)
        self.long: list[float] = []

    def add(self, rec: Recorder, kind: str, **data) -> None:
        handled, deltas, partial, long = rec.record(kind, **data)
        self.traced = rec.frames == "trace"
        self.handled.append(handled)
        self.deltas += deltas
        self.partial += partial
        self.long += long

    @property
    def long_intents(self) -> int:
        """How many of the long tasks were intents (handled in over 50 ms): the others are
        the motion's frames and whatever ran beside them."""
        return sum(1 for ms in self.handled if ms > 50)

    def show(self) -> None:
        if not self.deltas:
            print(f"{self.name:7s} no frames recorded")
            return
        f = frame_figures(self.deltas)
        partial = (f"  partial {100 * self.partial / (len(self.deltas) + 1):4.1f} %"
                   if self.traced else "")
        print(f"{self.name:7s} frames {f['frames']:5d}  median {f['median']:5.1f} ms"
              f"  p95 {f['p95']:5.1f} ms  max {f['max']:6.1f} ms"
              f"  dropped {100 * f['dropped']:4.1f} %{partial}"
              f"  | handled in median {statistics.median(self.handled):6.1f} ms"
              f" max {max(self.handled):6.1f} ms"
              f"  | tasks > 50 ms {len(self.long):3d} (intents {self.long_intents}),"
              f" longest {max(self.long, default=0):5.0f} ms"
              f"  | load {os.getloadavg()[0]:.1f}")


def finish_rounds(rec: Recorder, rounds: int) -> tuple[Run, Run]:
    home, back = Run("finish"), Run("undo")
    for _ in range(rounds):
        home.add(rec, "finish")
        back.add(rec, "undo")
    return home, back


def deals(rec: Recorder, rounds: int, seed: int) -> Run:
    """New Klondike deals (the cards dealt out from the stock)."""
    run = Run("deal")
    for i in range(rounds):
        run.add(rec, "new", variant="klondike", seed=seed + 1 + i)
    return run


def spider_deals(rec: Recorder, rounds: int, seed: int) -> tuple[Run, Run]:
    """New one-suit Spider deals, each followed by a deal from its stock."""
    dealt, stock = Run("spider"), Run("sp-stock")
    for i in range(rounds):
        dealt.add(rec, "new", variant="spider-1", seed=seed + 1 + i)
        stock.add(rec, "stock")
    return dealt, stock


def ordinary_moves(rec: Recorder, count: int, seed: int) -> Run:
    game = engine.new_game("klondike", seed)
    run = Run("moves")
    for _ in range(count):
        move = engine.hint(game)
        if move is None:
            break
        game.play(move)
        if "stock" in (move.src, move.dst):
            run.add(rec, "stock")
        else:
            run.add(rec, "play", src=move.src, dst=move.dst, count=move.count)
    return run


# Every MutationObserver's callbacks counted and timed in the page (installed before any
# script runs): what the document's observers (PyScript's among them) cost while cards fly.
COUNT_MUTATIONS_JS = """(() => {
  const Native = window.MutationObserver;
  window.__mo = { calls: 0, records: 0, ms: 0 };
  window.MutationObserver = class extends Native {
    constructor(callback) {
      super((records, observer) => {
        const t0 = performance.now();
        try { return callback(records, observer); } finally {
          window.__mo.calls += 1;
          window.__mo.records += records.length;
          window.__mo.ms += performance.now() - t0;
        }
      });
    }
  };
})();"""
TRACE_CATEGORIES = [
    "toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "v8",
    "v8.execute", "blink", "cc", "gpu", "viz", "disabled-by-default-devtools.timeline.frame",
    "blink.user_timing",
]
# Main-thread trace events by the kind of work, from their names (Blink's own among them:
# Document::recalcStyle, LocalFrameView::performLayout, PaintArtifactCompositor::Update).
KIND_WORDS = [
    ("gc", ("GC", "Sweep")),
    ("style", ("recalcStyle", "updateStyle", "UpdateLayoutTree", "rebuildLayoutTree",
               "RecalculateStyles", "Style")),
    ("layout", ("Layout", "ResizeObserver", "IntersectionObserver")),
    ("paint", ("Paint", "Layerize", "CompositingInputs", "UpdateLayer")),
    ("commit", ("Commit", "commit")),
    ("script", ("FunctionCall", "EvaluateScript", "TimerFire", "FireAnimationFrame",
                "EventDispatch", "RunMicrotasks", "v8", "V8", "XHR")),
]


def kind_of(name: str) -> str:
    for kind, words in KIND_WORDS:
        if any(w in name for w in words):
            return kind
    return "other"


TASK_NAMES = ("ThreadControllerImpl::RunTask", "RunTask")


def largest(values: dict[str, float]) -> list[tuple[str, float]]:
    return sorted(values.items(), key=lambda kv: -kv[1])


def trace_summary(data: bytes, frames: int) -> None:
    """Print where the renderer's main thread spent its time, in thread (CPU) time, which a
    busy machine does not stretch as it does the wall clock: self time by kind of work and
    by trace event, per frame; its longest tasks; style recalcs and the elements they
    styled; the other threads' CPU time per frame."""
    import json
    from collections import defaultdict

    events = json.loads(data)
    events = events["traceEvents"] if isinstance(events, dict) else events
    names = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    spans = defaultdict(list)  # thread -> [(start, end, name, args, cpu)]
    begun = defaultdict(list)
    for e in events:
        key = (e.get("pid"), e.get("tid"))
        if e.get("ph") == "X" and "dur" in e:
            spans[key].append((e["ts"], e["ts"] + e["dur"], e["name"], e.get("args", {}),
                               e.get("tdur", e["dur"])))
        elif e.get("ph") == "B":
            begun[key].append(e)
        elif e.get("ph") == "E" and begun[key]:
            b = begun[key].pop()
            cpu = e["tts"] - b["tts"] if "tts" in e and "tts" in b else e["ts"] - b["ts"]
            spans[key].append((b["ts"], e["ts"], b["name"], b.get("args", {}), cpu))
    mains = [k for k, n in names.items() if n == "CrRendererMain"]
    main = max(mains, key=lambda k: len(spans[k]))  # the page's (not an empty tab's)
    by_kind: dict[str, float] = defaultdict(float)
    by_name: dict[str, float] = defaultdict(float)
    tasks = []  # (cpu ms, {kind: ms})
    styled = []
    stack: list[dict] = []  # open spans: end, name, cpu, children's cpu, kinds below

    def close() -> None:
        item = stack.pop()
        own = max(0.0, item["cpu"] - item["child"]) / 1000
        name = item["name"]
        kind = kind_of(name)
        by_kind[kind] += own
        by_name[name] += own
        for outer in stack:
            outer["kinds"][kind] += own
        item["kinds"][kind] += own
        if stack:
            stack[-1]["child"] += item["cpu"]
        elif name in TASK_NAMES:
            tasks.append((item["cpu"] / 1000, dict(item["kinds"])))

    for start, end, name, args, cpu in sorted(spans[main], key=lambda s: (s[0], -s[1])):
        while stack and stack[-1]["end"] <= start:
            close()
        if name == "UpdateLayoutTree":
            data_ = args.get("data") or {}
            styled.append(data_.get("elementCount") or args.get("elementCount") or 0)
        stack.append({"end": end, "name": name, "cpu": cpu, "child": 0,
                      "kinds": defaultdict(float)})
    while stack:
        close()
    per = max(frames, 1)
    total = sum(by_kind.values())
    kinds = "  ".join(f"{k} {v / per:.2f}" for k, v in largest(by_kind))
    print(f"    main thread CPU {total:6.1f} ms = {total / per:5.2f} ms/frame"
          f" ({frames} frames): {kinds}")
    top = "  ".join(f"{n} {v / per:.2f}" for n, v in largest(by_name)[:8])
    print(f"    by event, ms/frame: {top}")
    tasks.sort(key=lambda t: -t[0])
    for cpu, kinds_ in tasks[:3]:
        parts = " ".join(f"{k} {v:.1f}" for k, v in largest(kinds_) if v >= 0.1)
        print(f"    task CPU {cpu:6.1f} ms: {parts}")
    if styled:
        print(f"    style recalcs {len(styled)}, elements {sum(styled)} (max {max(styled)} in one)")
    busy: dict[str, float] = defaultdict(float)
    for key, items in spans.items():
        if key == main or key not in names:
            continue
        end = 0
        for s_, e_, _n, _a, cpu in sorted(items):  # top-level spans only
            if s_ >= end:
                busy[names[key]] += cpu / 1000
                end = e_
    others = "  ".join(f"{n} {v / per:.2f}" for n, v in largest(busy)[:5] if v / per >= 0.05)
    print(f"    other threads CPU, ms/frame: {others}")


def traced(rec: Recorder, name: str, kind: str, **data) -> None:
    """One action under Chromium's tracing, with its frame figures and where the time went."""
    page = rec.page
    before = page.evaluate("() => ({...window.__mo})")
    run = Run(name)
    run.add(rec, kind, **data)
    trace = rec.last_trace
    if os.environ.get("MOTION_TRACE_DIR"):
        Path(os.environ["MOTION_TRACE_DIR"], f"{name}.json").write_bytes(trace)
    after = page.evaluate("() => ({...window.__mo})")
    run.show()
    mo = {k: after[k] - before[k] for k in after}
    print(f"    mutation observers: {mo['calls']} callbacks, {mo['records']} records,"
          f" {mo['ms']:.1f} ms in them")
    trace_summary(trace, len(run.deltas) + 1)


CASES = ("idle", "finish", "deal", "spider", "moves")


def trace_all(rec: Recorder, cdp, args, cases: set[str]) -> None:
    """--trace: one of each action traced (a finish, its undo, a deal, a few moves, a Spider
    deal and its stock deal)."""
    if "finish" in cases:
        traced(rec, "finish", "finish")
        traced(rec, "undo", "undo")
    if "deal" in cases:
        traced(rec, "deal", "new", variant="klondike", seed=args.deal + 1)
    if "spider" in cases:
        traced(rec, "spider", "new", variant="spider-1", seed=args.deal)
        traced(rec, "sp-stock", "stock")
    if "moves" not in cases:
        return
    page = rec.page
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    page.evaluate("(d) => { window.ppTable.act('new', d); }",
                  {"variant": "klondike", "seed": args.deal})
    page.wait_for_function(IDLE_JS, polling=100, timeout=60_000)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
    game = engine.new_game("klondike", args.deal)
    for i in range(3):
        move = engine.hint(game)
        game.play(move)
        if "stock" in (move.src, move.dst):
            traced(rec, f"move{i}", "stock")
        else:
            traced(rec, f"move{i}", "play", src=move.src, dst=move.dst, count=move.count)


def measure(url: str, args, label: str = "") -> list[Run]:
    """Every case asked for, on the app served at ``url``, in a browser of its own; each
    figure printed as it comes (after ``label``) and the runs returned."""
    runs: list[Run] = []

    def show(run: Run) -> None:
        if label:
            print(f"{label:6s}", end=" ")
        run.show()
        runs.append(run)

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(
            base_url=url, viewport={"width": 390, "height": 844}, device_scale_factor=3,
            is_mobile=True, has_touch=True, service_workers="block")
        context.add_init_script(COUNT_MUTATIONS_JS)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        frames = "trace" if args.trace else args.frames
        load(page, built_columns(), args.speed, raf=frames == "raf")
        rec = Recorder(browser, page, frames)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
        cases = set(args.only.split(",")) if args.only else set(CASES)
        if args.trace:
            rec.categories = TRACE_CATEGORIES
            trace_all(rec, cdp, args, cases)
            browser.close()
            return runs
        if "idle" in cases:
            show(rec.idle(args.idle))
        if "finish" in cases:
            for run in finish_rounds(rec, args.rounds):
                show(run)
        if "deal" in cases:
            show(deals(rec, args.rounds, args.deal))
        if "spider" in cases:
            for run in spider_deals(rec, args.rounds, args.deal):
                show(run)
        if "moves" in cases:
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            page.evaluate("(d) => { window.ppTable.act('new', d); }",
                          {"variant": "klondike", "seed": args.deal})
            page.wait_for_function(IDLE_JS, polling=100, timeout=60_000)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
            show(ordinary_moves(rec, args.moves, args.deal))
        browser.close()
    return runs


def compare(pairs: dict[str, list[list[Run]]]) -> None:
    """--against: each case's share of frames dropped, p95 frame time and tasks over 50 ms,
    run by run, for this checkout and the other (measured in turn, so under much the same
    load)."""
    print("\nin turn, run by run: dropped % | p95 ms | partial % (trace) | tasks > 50 ms")
    names = [run.name for run in next(iter(pairs.values()))[0]]
    for i, name in enumerate(names):
        parts = []
        for label, rounds in pairs.items():
            figures = [frame_figures(r[i].deltas) for r in rounds if r[i].deltas]
            dropped = "/".join(f"{100 * f['dropped']:.0f}" for f in figures)
            p95 = "/".join(f"{f['p95']:.0f}" for f in figures)
            partial = "/".join(f"{100 * r[i].partial / (len(r[i].deltas) + 1):.0f}"
                               for r in rounds if r[i].deltas and r[i].traced) or "-"
            tasks = "/".join(str(len(r[i].long)) for r in rounds)
            mean = statistics.mean(100 * f["dropped"] for f in figures) if figures else 0
            parts.append(f"{label} {dropped} (mean {mean:.1f}) | {p95} | {partial} | {tasks}")
        print(f"{name:8s} " + "   ".join(parts))
    print(f"load {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--throttle", type=float, default=4.0, help="CPU slow-down (CDP)")
    parser.add_argument("--rounds", type=int, default=3, help="finishes (and their undos)")
    parser.add_argument("--moves", type=int, default=40, help="ordinary moves")
    parser.add_argument("--deal", type=int, default=7, help="Klondike deal of the moves")
    parser.add_argument("--idle", type=float, default=3.0, help="seconds of the baseline")
    parser.add_argument("--speed", default="normal", choices=["slow", "normal", "fast"])
    parser.add_argument("--frames", default="trace", choices=["trace", "raf"],
                        help="count the compositor's presented frames (trace) or the page's "
                             "animation frames (raf, a loop in the page)")
    parser.add_argument("--url", help="an app already served (default: serve this checkout)")
    parser.add_argument("--only", default="",
                        help="comma-separated cases to run (idle,finish,deal,spider,moves)")
    parser.add_argument("--trace", action="store_true",
                        help="one of each action under Chromium's tracing: where the time goes")
    parser.add_argument("--against", type=Path,
                        help="another checkout (with its build/mpy) measured in turn with this")
    parser.add_argument("--pairs", type=int, default=3, help="turns of each with --against")
    args = parser.parse_args()
    frames = "trace" if args.trace else args.frames
    print(f"phone 390x844 @3x, CPU / {args.throttle:g}, speed {args.speed}, frames {frames}")
    servers = []
    try:
        if args.against:
            urls = {}
            for label, root in (("this", ROOT), ("that", args.against.resolve())):
                server, urls[label] = start_server(root)
                servers.append(server)
            pairs: dict[str, list[list[Run]]] = {label: [] for label in urls}
            for _ in range(args.pairs):
                for label, url in urls.items():
                    pairs[label].append(measure(url, args, label))
            compare(pairs)
            return
        url = args.url
        if not url:
            server, url = start_server(ROOT)
            servers.append(server)
        measure(url, args)
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    main()
