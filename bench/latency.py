"""Input latency benchmark: input event to DOM updated, for real moves on the card table.

    .venv/bin/python bench/latency.py [--moves 200] [--variant spider-2] [--deal 5] [--url URL]

It serves the repository (tools/serve.py on a free 127.0.0.1 port) unless --url is given,
opens the deal in headless Chromium (1280x800) and plays --moves actions with real input:
mostly mouse drags of the move the engine's hint picks (played on a CPython twin of the
game to know where each card is), every fourth move a click on that card instead (the
page sends it to its best place; the twin is then read back from the page's autosave), a
click on the stock when the hint says so, and every tenth action a U / R key press; when
the twin has no move left it starts the next deal (not measured). Animations run as for a
player (no reduced motion); --reduced-motion turns them off, for a comparison run.

The figure for an action is measured inside the page: from the input event's timeStamp
(pointerup of a drop or click, keydown of a key) to the MutationObserver callback that
follows the table's DOM update, i.e. the end of the synchronous handler (JS + the one
Python call + the DOM diff). A PerformanceObserver counts long tasks (> 50 ms) from the
first action to the last, and how many of them overlap an input's handling (the others
fall between actions: animation frames, the benchmark's own polling, other processes on
a busy machine stretching a task). It prints p50, p95 and max per kind and overall; it asserts
nothing. Budgets (docs/architecture.md §8): p95 <= 16 ms (aim for 8 ms); no long task over 50 ms.

Then (--deep, default 100,1000,5000) the cost of an action deep into one game: a Klondike
deal is played on by stock turns and recycles through the page's intent API, and at each
of those move counts 100 more actions are timed in the page (the Python call, the render
and the autosave): it should not grow with the length of the game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

import engine  # noqa: E402
from tools.chromium import CHROMIUM  # noqa: E402
from tools.chromium import CHROMIUM_ARGS as BROWSER_ARGS  # noqa: E402
from tools.serve import start_server  # noqa: E402
from web.saves import GameSaves  # noqa: E402
from web.storage import MemoryBackend, Storage  # noqa: E402

CHROMIUM_ARGS = [*BROWSER_ARGS, "--js-flags=--expose-gc"]  # window.gc() for the heap figures
# The JS heap after a full collection, and the size of Pyodide's wasm memory, in bytes.
HEAP_JS = """() => {
  window.gc();
  return [performance.memory.usedJSHeapSize, document.querySelectorAll('*').length];
}"""

RECORDER = """() => {
  window.__lat = [];
  window.__long = [];
  window.__pending = null;
  const mark = (e) => {
    window.__pending = { t: e.timeStamp, type: e.type };
    window.__last = `${e.type}@${Math.round(e.timeStamp)}`;
  };
  document.addEventListener("pointerup", mark, true);
  document.addEventListener("keydown", mark, true);
  window.__windows = [];
  new MutationObserver(() => {
    const p = window.__pending;
    if (p) {
      const now = performance.now();
      window.__lat.push(now - p.t);
      window.__windows.push([p.t, now]);
      window.__pending = null;
    }
  }).observe(document.getElementById("table"),
             { subtree: true, childList: true, attributes: true, characterData: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push([e.duration, e.startTime, window.__last]);
  }).observe({ type: "longtask" });
}"""


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


class Bench:
    def __init__(self, page) -> None:
        self.page = page
        self.figures: dict[str, list[float]] = {"drag": [], "tap": [], "click": [], "key": []}

    def center(self, selector: str) -> tuple[float, float]:
        b = self.page.locator(selector).bounding_box()
        return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2

    def card_point(self, pile: str, index: int, count: int) -> tuple[float, float]:
        cards = self.page.locator(f'[data-pile="{pile}"] > [data-card]')
        b = cards.nth(index).bounding_box()
        if index < count - 1:
            nxt = cards.nth(index + 1).bounding_box()
            if abs(nxt["x"] - b["x"]) > 2:
                x = b["x"] + b["width"] - 5 if nxt["x"] < b["x"] else b["x"] + 5
                return x, b["y"] + b["height"] / 2
            return b["x"] + b["width"] / 2, b["y"] + max(3, min(10, (nxt["y"] - b["y"]) / 2))
        return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2

    def drop_point(self, pile: str) -> tuple[float, float]:
        cards = self.page.locator(f'[data-pile="{pile}"] > [data-card]')
        n = cards.count()
        b = cards.nth(n - 1).bounding_box() if n else self.page.locator(
            f'[data-pile="{pile}"]').bounding_box()
        return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2

    def measured(self, kind: str, action) -> bool:
        """Run ``action`` and record its latency; False if the table did not change."""
        before = self.page.evaluate("window.__lat.length")
        self.page.evaluate("window.__pending = null")
        action()
        try:
            self.page.wait_for_function("(n) => window.__lat.length > n", arg=before,
                                        timeout=2000)
        except Exception:
            return False
        self.figures[kind].append(self.page.evaluate("window.__lat[window.__lat.length - 1]"))
        # Let the move's animations end (as a player would see them) before the next one.
        self.page.wait_for_function("() => document.getAnimations().length === 0", timeout=3000)
        return True

    def drag(self, move: engine.Move) -> bool:
        page = self.page
        count = page.locator(f'[data-pile="{move.src}"] > [data-card]').count()
        x0, y0 = self.card_point(move.src, count - move.count, count)
        x1, y1 = self.drop_point(move.dst)

        def act() -> None:
            page.mouse.move(x0, y0)
            page.mouse.down()
            page.mouse.move(x1, y1, steps=5)
            page.mouse.up()

        return self.measured("drag", act)

    def tap(self, move: engine.Move) -> bool:
        count = self.page.locator(f'[data-pile="{move.src}"] > [data-card]').count()
        x, y = self.card_point(move.src, count - move.count, count)
        return self.measured("tap", lambda: self.page.mouse.click(x, y))

    def saved_game(self) -> engine.Game:
        """The game the page autosaved (a tap picks its own destination)."""
        backend = MemoryBackend()
        backend.items.update(self.page.evaluate("() => ({...localStorage})"))
        return GameSaves(Storage(backend)).load().game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--variant", default="spider-2", choices=engine.VARIANTS)
    parser.add_argument("--deal", type=int, default=5)
    parser.add_argument("--url", help="measure this server instead of serving the repository")
    parser.add_argument("--reduced-motion", action="store_true",
                        help="the system asks for reduced motion: no animation at all")
    parser.add_argument("--debug", help="on a failed move, save a screenshot here")
    parser.add_argument("--deep", default="100,1000,5000",
                        help="move counts at which to time actions deep into one game "
                             "('' to skip)")
    args = parser.parse_args(argv)

    server = None
    url = args.url
    if url is None:
        server, url = start_server(ROOT)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(
                viewport={"width": 1280, "height": 800},
                reduced_motion="reduce" if args.reduced_motion else "no-preference")
            page = context.new_page()
            seed = args.deal
            page.goto(f"{url}/?game={args.variant}&deal={seed}")
            page.wait_for_function("() => document.documentElement.dataset.app === 'ready'",
                                   timeout=120_000)
            page.evaluate(RECORDER)
            heap_start = page.evaluate(HEAP_JS)
            bench = Bench(page)
            game = engine.new_game(args.variant, seed)
            done = 0
            while done < args.moves:
                if done % 10 == 9 and game.can_undo:
                    if bench.measured("key", lambda: page.keyboard.press("u")):
                        game.undo()
                        done += 1
                    if done < args.moves and bench.measured("key",
                                                            lambda: page.keyboard.press("r")):
                        game.redo()
                        done += 1
                    continue
                move = engine.hint(game) if game.status == "playing" else None
                if move is None:
                    seed += 1  # nothing left to try: next deal, not measured
                    page.evaluate("([v, s]) => { window.__last = 'new'; "
                                  "ppTable.act('new', {variant: v, seed: s}); }",
                                  [args.variant, seed])
                    page.wait_for_function("() => document.getAnimations().length === 0")
                    game = engine.new_game(args.variant, seed)
                    continue
                if move.src == "stock" or move.dst == "stock":
                    ok = bench.measured("click", lambda: page.mouse.click(
                        *bench.center('[data-pile="stock"]')))
                elif done % 4 == 3:
                    ok = bench.tap(move)
                    if ok:
                        game = bench.saved_game()
                        done += 1
                        continue
                else:
                    ok = bench.drag(move)
                if not ok:
                    print(f"warning: {move} changed nothing in the page; stopping",
                          file=sys.stderr)
                    if args.debug:
                        page.screenshot(path=args.debug)
                        print(page.inner_text("#announce"), game.position()["piles"],
                              file=sys.stderr)
                    break
                game.play(move)
                done += 1
            long_tasks = page.evaluate("window.__long")
            windows = page.evaluate("window.__windows")
            heap_end = page.evaluate(HEAP_JS)
            deep = deep_game(page, [int(n) for n in args.deep.split(",") if n.strip()])
            context.close()
            browser.close()
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()

    every = [v for vs in bench.figures.values() for v in vs]
    print(f"input event -> DOM updated, {len(every)} actions on {args.variant} "
          f"(headless Chromium, 1280x800):")
    for kind, values in [*bench.figures.items(), ("all", every)]:
        if values:
            print(f"  {kind:5} n={len(values):3}  p50 {statistics.median(values):6.1f} ms  "
                  f"p95 {percentile(values, 0.95):6.1f} ms  max {max(values):6.1f} ms")
    worst = max((d for d, _, _ in long_tasks), default=0)
    in_input = [d for d, start, _ in long_tasks
                if any(start <= done and start + d >= t for t, done in windows)]
    print(f"long tasks (> 50 ms) during play: {len(long_tasks)}"
          + (f", longest {worst:.0f} ms" if long_tasks else "")
          + f"; overlapping an input's handling: {len(in_input)}")
    for duration, start, last in long_tasks:
        print(f"  {duration:.0f} ms at {start:.0f} ms, after {last or 'no input yet'}")
    print(f"JS heap after GC: {heap_start[0] / 1e6:.1f} MB before play, "
          f"{heap_end[0] / 1e6:.1f} MB after; DOM elements {heap_start[1]} -> {heap_end[1]}")
    if deep:
        print("time per action deep into one game (klondike deal 7, stock turns and "
              "recycles through ppTable.act, 100 timed at each count):")
        for moves, times, stored in deep:
            print(f"  at move {moves:5}: p50 {statistics.median(times):5.2f} ms  "
                  f"p95 {percentile(times, 0.95):5.2f} ms  saved game {stored:,} chars")
    return 0


# Actions through the page's intent API, untimed and timed (the Python call, the render
# and the autosave), and the size of the saved game.
ADVANCE_JS = "(n) => { for (let i = 0; i < n; i++) window.ppTable.act('stock'); }"
TIMED_JS = """(n) => {
  const times = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    window.ppTable.act('stock');
    times.push(performance.now() - start);
  }
  return times;
}"""
SAVED_CHARS_JS = """() => Object.keys(localStorage).filter((k) => /^pp:v1:.*game/.test(k))
  .reduce((sum, k) => sum + localStorage[k].length, 0)"""


def deep_game(page, counts: list[int]) -> list[tuple[int, list[float], int]]:
    """(moves, action times in ms, saved-game size) at each of ``counts`` moves."""
    if not counts:
        return []
    page.evaluate("() => window.ppTable.act('new', {variant: 'klondike', seed: 7})")
    done, out = 0, []
    for target in sorted(counts):
        page.evaluate(ADVANCE_JS, target - done)
        times = page.evaluate(TIMED_JS, 100)
        done = target + 100
        out.append((target, times, page.evaluate(SAVED_CHARS_JS)))
    return out


if __name__ == "__main__":
    sys.exit(main())
