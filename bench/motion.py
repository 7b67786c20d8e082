"""Frame times of the table's motion on a phone profile: a Klondike finish and ordinary moves.

    .venv/bin/python bench/motion.py [--throttle 4] [--moves 40] [--speed normal] [--url URL]

It serves the repository (tools/serve.py on a free 127.0.0.1 port) unless --url is given,
opens headless Chromium at a phone's size (390x844, touch, device scale 3) with the CPU
slowed --throttle times (CDP Emulation.setCPUThrottlingRate), and records in the page the
time between animation frames (requestAnimationFrame deltas) while:

- finish: a Klondike table with every card face up in four built columns goes home in the
  finish's cascade (52 cards flying one after another), then is undone (52 cards back);
  --rounds times;
- deal: --rounds new Klondike deals (28 cards dealt out from the stock);
- moves: --moves ordinary moves of a Klondike deal (the engine's heuristic hint on a
  CPython twin, sent through the page's intent API, the stock when it says so), each
  followed by the time its animation takes.

and, as a baseline of what the machine gives an idle page (a busy machine shows here),
--idle seconds of the same table with nothing moving. For each it prints the median, p95
and max frame time and the share of frames dropped (a frame is due every 1/60 s; a delta
of n such periods drops n - 1 of them), the main thread's tasks over 50 ms from the
intent on (the Long Tasks API; the intent's own task included), with the machine's load
average when it ended (a shared machine's figures mean little under load). Budgets: a
frame every 16.7 ms, no task over 50 ms. It asserts nothing.
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
# A requestAnimationFrame loop that keeps every frame's time while window.__rec is on.
# ... and the main thread's tasks over 50 ms (Long Tasks API) that began since __since.
FRAMES_JS = """() => {
  window.__frames = [];
  window.__rec = false;
  window.__long = [];
  window.__since = Infinity;
  const tick = (t) => {
    if (window.__rec) window.__frames.push(t);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.startTime >= window.__since) window.__long.push(e.duration);
    }
  }).observe({ type: "longtask" });
}"""
# The intent handled at once (timed), then frames recorded from the next one on.
ACT_JS = """([kind, data]) => {
  window.__long = [];
  const t0 = performance.now();
  window.__since = t0 - 1;
  window.ppTable.act(kind, data);
  const t1 = performance.now();
  window.__frames = [];
  window.__rec = true;
  return t1 - t0;
}"""
STOP_JS = "() => { window.__rec = false; return [window.__frames, window.__long]; }"
IDLE_JS = "() => document.getAnimations().every((a) => a.playState !== 'running')"
SET_STORAGE_JS = """(items) => {
    localStorage.clear();
    for (const [key, value] of Object.entries(items)) localStorage.setItem(key, value);
}"""


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


def record(page, kind: str, **data) -> tuple[float, list[float], list[float]]:
    """The time the page took to handle the intent (the Python call and the DOM update),
    the frame deltas from then until every animation has ended, and the long tasks."""
    handled = page.evaluate(ACT_JS, [kind, data])
    page.wait_for_function(IDLE_JS, polling=100, timeout=60_000)
    page.wait_for_timeout(50)
    times, long = page.evaluate(STOP_JS)
    return handled, [b - a for a, b in zip(times, times[1:], strict=False)], long


def load(page, game: engine.Game, speed: str) -> None:
    """Open the app on ``game`` (the autosave a reload resumes) at ``speed``."""
    backend = MemoryBackend()
    GameSaves(Storage(backend)).save(game, "bench", 0, False)
    page.goto("/pyscript.toml")
    page.evaluate(SET_STORAGE_JS, backend.items)
    page.goto("/")
    page.wait_for_function(READY_JS, timeout=120_000)
    page.evaluate("(s) => { window.ppTable.act('settings', { speed: s }); }", speed)
    page.evaluate(FRAMES_JS)


class Run:
    """What one kind of action cost: the page's handling of each, the frames after."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.handled: list[float] = []
        self.deltas: list[float] = []
        self.long: list[float] = []

    def add(self, page, kind: str, **data) -> None:
        handled, deltas, long = record(page, kind, **data)
        self.handled.append(handled)
        self.deltas += deltas
        self.long += long

    def show(self) -> None:
        if not self.deltas:
            print(f"{self.name:7s} no frames recorded")
            return
        f = frame_figures(self.deltas)
        print(f"{self.name:7s} frames {f['frames']:5d}  median {f['median']:5.1f} ms"
              f"  p95 {f['p95']:5.1f} ms  max {f['max']:6.1f} ms"
              f"  dropped {100 * f['dropped']:4.1f} %"
              f"  | handled in median {statistics.median(self.handled):6.1f} ms"
              f" max {max(self.handled):6.1f} ms"
              f"  | tasks > 50 ms {len(self.long):3d}, longest {max(self.long, default=0):5.0f} ms"
              f"  | load {os.getloadavg()[0]:.1f}")


def idle(page, seconds: float) -> Run:
    run = Run("idle")
    page.evaluate("""() => { window.__frames = []; window.__long = [];
        window.__since = performance.now(); window.__rec = true; }""")
    page.wait_for_timeout(seconds * 1000)
    times, run.long = page.evaluate(STOP_JS)
    run.handled.append(0.0)
    run.deltas = [b - a for a, b in zip(times, times[1:], strict=False)]
    return run


def finish_rounds(page, rounds: int) -> tuple[Run, Run]:
    home, back = Run("finish"), Run("undo")
    for _ in range(rounds):
        home.add(page, "finish")
        back.add(page, "undo")
    return home, back


def deals(page, rounds: int, seed: int) -> Run:
    """New Klondike deals (the cards dealt out from the stock)."""
    run = Run("deal")
    for i in range(rounds):
        run.add(page, "new", variant="klondike", seed=seed + 1 + i)
    return run


def ordinary_moves(page, count: int, seed: int) -> Run:
    game = engine.new_game("klondike", seed)
    run = Run("moves")
    for _ in range(count):
        move = engine.hint(game)
        if move is None:
            break
        game.play(move)
        if "stock" in (move.src, move.dst):
            run.add(page, "stock")
        else:
            run.add(page, "play", src=move.src, dst=move.dst, count=move.count)
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--throttle", type=float, default=4.0, help="CPU slow-down (CDP)")
    parser.add_argument("--rounds", type=int, default=3, help="finishes (and their undos)")
    parser.add_argument("--moves", type=int, default=40, help="ordinary moves")
    parser.add_argument("--deal", type=int, default=7, help="Klondike deal of the moves")
    parser.add_argument("--idle", type=float, default=3.0, help="seconds of the baseline")
    parser.add_argument("--speed", default="normal", choices=["slow", "normal", "fast"])
    parser.add_argument("--url", help="an app already served (default: serve this checkout)")
    args = parser.parse_args()
    server = None
    url = args.url
    if not url:
        server, url = start_server(ROOT)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(
                base_url=url, viewport={"width": 390, "height": 844}, device_scale_factor=3,
                is_mobile=True, has_touch=True, service_workers="block")
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            load(page, built_columns(), args.speed)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
            print(f"phone 390x844 @3x, CPU / {args.throttle:g}, speed {args.speed}")
            idle(page, args.idle).show()
            for run in finish_rounds(page, args.rounds):
                run.show()
            deals(page, args.rounds, args.deal).show()
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            page.evaluate("(d) => { window.ppTable.act('new', d); }",
                          {"variant": "klondike", "seed": args.deal})
            page.wait_for_function(IDLE_JS, polling=100, timeout=60_000)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
            ordinary_moves(page, args.moves, args.deal).show()
            browser.close()
    finally:
        if server:
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    main()
