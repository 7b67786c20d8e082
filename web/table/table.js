// The card table in the page: glue between the Python controller and the DOM.
//
// web/main.py (Python, PyScript) calls window.ppTable.start(bridge, payloadJson) once.
// From then on every player action makes exactly one call `bridge(kind, dataJson)` into
// Python, which plays it with the engine and returns the next render payload (JSON):
// the position with hidden cards as "down", the legal moves, counters and a sentence
// for the live region. The board diffs the DOM; input and ui turn events into intents.
//
// The solver never runs for long in one call: a hint the controller cannot answer at
// once comes back as {event: "thinking"} and the search goes on one slice per
// "hint_step" call, each in its own task (setTimeout), so input and painting get in
// between; after every render, "watch" calls (one short slice each, in background tasks)
// let the solver settle the position's verdict and, on a lost one, look back for the
// latest position it can win. A move made meanwhile changes the position, which drops
// the search in the controller (the next step answers so).

import { saveSoon, STORAGE_PREFIX } from "../start/picture.js";
import { Board } from "./board.js";
import { pace } from "./motion.js";
import { setCardNames } from "./cards.js";
import { Input } from "./input.js";
import { Ui } from "./controls.js";

const WATCH_DELAY_MS = 150; // quiet time after a render before the solver looks at it
const WATCH_SLICE_MS = 4; // at most this much solver time per task
const DRAW_WAIT_MS = 2000; // at most this long a new game waits for the worker's draw

// A task of the lowest priority (Prioritized Task Scheduling), else a plain one.
const background = window.scheduler?.postTask
  ? (fn) => window.scheduler.postTask(fn, { priority: "background" })
  : (fn) => setTimeout(fn, 0);

class App {
  constructor() {
    this.bridge = null;
    this.payload = null;
    this.moves = new Map(); // "src:count" -> [dst, ...] from the engine's legal moves
    this.root = document.getElementById("table");
    this.board = new Board(this.root);
    const app = this;
    this.ui = new Ui({
      undo: () => app.call("undo"),
      redo: () => app.call("redo"),
      hint: () => app.hint(),
      rewind: () => app.call("rewind"),
      finish: () => app.call("finish"),
      restart: () => app.call("restart"),
      newGame: (variant, seed) => app.newGame(variant, seed),
      placeEnd: (dialog) => app.board.placeOverFelt(dialog),
      settings: (changes) => app.call("settings", changes),
      ask: (kind, data) => app.call(kind, data),
      settled: (fn) => app.board.motion.settled(fn),
    });
    this.input = new Input(this.root, this.board, {
      busy: () => app.ui.busy(),
      mode: () => app.payload?.settings?.tap || "auto",
      destinations: (pile, count) => app.moves.get(`${pile}:${count}`) || [],
      play: (src, dst, count) => app.call("play", { src, dst, count }),
      tap: (pile, count) => app.call("tap", { pile, count }),
      foundation: (pile, count) => app.call("foundation", { pile, count }),
      stock: () => app.call("stock"),
      undo: () => app.call("undo"),
      redo: () => app.call("redo"),
      hint: () => app.hint(),
      read: () => app.call("read"),
      announce: (text) => text && app.ui.say(text, true),
    });
    this.settings = {};
    this.hinting = false;
    this.hintMarked = false; // the table has marks of a hint (showHint)
    this.watchGen = 0;
    this.watchTimer = 0;
    this.watchWaiting = -1; // the watchGen of a watch waiting for the solver's worker
    addEventListener("pp:solver", () => this.solverSpoke());
    // The solver's answers nobody waits for wait for the cards to land (web/start/solver.js).
    window.ppSolver?.holdWhile(() => this.board.motion.busy,
      (fn) => this.board.motion.settled(fn));
  }

  start(bridge, json) {
    // A start that a file did not arrive for (a style sheet: web/start/loading.js) stays
    // failed, its "Try again" on screen, rather than drawing a broken table.
    if (window.ppStartMissing) return;
    this.bridge = bridge;
    this.apply(JSON.parse(json));
    // Lay the table out again whenever its box changes (window resize, phone turned,
    // toolbar wrapping): ResizeObserver runs after layout, before the next paint.
    new ResizeObserver(() => this.board.relayout()).observe(this.root);
    document.addEventListener("visibilitychange", () => {
      this.call("visibility", { hidden: document.visibilityState === "hidden" });
    });
    // Another tab of this copy of the app saved the game (its head is written last) or the
    // statistics: follow it at once while this page is on screen (a hidden page follows
    // when it is shown again). Other keys (the table's picture above all) change nothing.
    const followed = ["game", "stats"].map((name) => STORAGE_PREFIX + name);
    addEventListener("storage", (event) => {
      if (event.key !== null && !followed.includes(event.key)) return;
      if (document.visibilityState === "visible" && !this.input.active) this.call("sync");
    });
    document.documentElement.dataset.app = "ready";
  }

  call(kind, data = {}) {
    if (!this.bridge) return null;
    let payload;
    try {
      payload = JSON.parse(this.bridge(kind, JSON.stringify(data)));
    } catch (err) {
      console.warn("table: action failed", kind, err);
      this.board.cancelDrag([...this.board.dragged.keys()].map((el) => this.recOf(el)).filter(Boolean));
      return null;
    }
    if (payload.type === "render") this.apply(payload); // others: stats, share, watch...
    return payload;
  }

  recOf(el) {
    for (const p of this.board.piles.values()) {
      const rec = p.cards.find((c) => c.el === el);
      if (rec) return rec;
    }
    return null;
  }

  apply(payload) {
    // The address bar names the deal: a same-document navigation lays the page out at
    // once, which on a table just changed would be its whole restyle and layout inside the
    // intent. So it goes first, while the table is as the last frame drew it; or, for a
    // new deal that is dealt out, once its cards have landed, in a task of its own (it
    // costs the deal's intent nothing and no frame of its motion).
    const dealt = payload.event === "new" && pace() > 0;
    if (!dealt) this.ui.address(payload);
    const prev = this.payload;
    if (payload.settings) this.settings = payload.settings;
    payload.settings = this.settings;
    if (payload.card_names) setCardNames(payload.card_names);
    const ids = Object.keys(payload.piles);
    const fresh = !prev || prev.family !== payload.family || prev.variant !== payload.variant
      || ids.join() !== Object.keys(prev.piles).join();
    const whole = ["new", "start", "sync"].includes(payload.event);
    if (fresh || whole) {
      this.input.cancelHeld();
      if (fresh) this.board.setup(payload.family, payload.roles, payload.pile_names);
      this.ui.setVariants(payload.variants || [], payload.variant);
      this.ui.setSettings(this.settings, payload.winnable_counts);
    } else if (payload.event === "settings") {
      this.ui.setSettings(this.settings, payload.winnable_counts);
    }
    this.payload = payload;
    this.moves.clear();
    for (const [src, dst, count] of payload.moves) {
      if (src === "stock" || dst === "stock") continue;
      const key = `${src}:${count}`;
      const list = this.moves.get(key);
      if (list) list.push(dst);
      else this.moves.set(key, [dst]);
    }
    const hintMove = payload.move;
    if (this.hintMarked) this.board.clearMarks("hint"); // (a look through the whole table)
    this.hintMarked = false;
    this.board.motion.clearHint();
    const quiet = whole;
    this.board.update(payload.piles, hintMove, !quiet, payload.event === "new");
    if (payload.event === "new") this.board.dealIn();
    if (dealt) this.board.motion.settled(() => this.ui.address(payload));
    if (this.board.dragged.size) {
      this.board.cancelDrag([...this.board.dragged.keys()].map((el) => this.recOf(el)).filter(Boolean));
    }
    this.showLabels(payload);
    if (payload.hint) this.showHint(payload.hint);
    this.input.afterRender();
    this.ui.render(payload);
    // The picture a reload shows at once (web/start/picture.js), once the cards are home.
    this.board.motion.settled(saveSoon);
    this.watch();
  }

  // -- the solver, in slices -----------------------------------------------------------

  // A new game: while the solver's worker draws the deal the settings ask for (a
  // "winnable only" or rated deal, web/forward.py), the answer is "drawing" and the game
  // is asked for again when the worker speaks; after DRAW_WAIT_MS, dealt without it.
  newGame(variant, seed, until = performance.now() + DRAW_WAIT_MS) {
    const wait = performance.now() < until;
    const answer = this.call("new", { variant, seed, wait });
    if (answer?.event !== "drawing") return answer;
    const again = () => {
      removeEventListener("pp:solver", again);
      clearTimeout(timer);
      this.newGame(variant, seed, until);
    };
    addEventListener("pp:solver", again);
    const timer = setTimeout(again, DRAW_WAIT_MS);
    return answer;
  }

  hint() {
    if (this.hinting) return; // a search for the hint is already under way
    const answer = this.call("hint");
    if (answer?.event !== "thinking") return;
    this.hinting = true;
    this.ui.thinking(true);
    const step = () => {
      if (this.input.active) {
        // A pointer is down (maybe a drag): a render now would cancel it. Wait; a move
        // it ends with changes the position, and the next step hears the search is off.
        setTimeout(step, 50);
        return;
      }
      const next = this.call("hint_step");
      if (next?.event === "thinking") {
        setTimeout(step, 0);
        return;
      }
      this.hinting = false; // answered (the render is applied) or cancelled by a move
      this.ui.thinking(false);
      this.watch();
    };
    setTimeout(step, 0);
  }

  // The background look at the position (its verdict, and the walk back from a lost one):
  // it starts once no render came for WATCH_DELAY_MS (moves made in quick succession do
  // not compete with it), then runs one short slice per task until the controller says it
  // is done. The tasks have the lowest priority (input, rendering and timers go first),
  // one slice each, back to back: an idle callback would get one slice per 50 ms idle
  // period, a twelfth of the time, and the verdict would come seconds late. A hidden page
  // stops; it carries on when shown again.
  watch(soon = false) {
    if (!soon) {
      this.watchGen += 1; // a slice already queued for the old position stands down
      clearTimeout(this.watchTimer);
      this.watchTimer = setTimeout(() => this.watch(true), WATCH_DELAY_MS);
      return;
    }
    if (this.hinting || !this.bridge || document.visibilityState === "hidden") return;
    const gen = this.watchGen;
    if (this.board.motion.busy) { // not while cards fly: after them
      this.board.motion.settled(() => gen === this.watchGen && this.watch(true));
      return;
    }
    background(() => {
      if (gen !== this.watchGen || this.hinting) return; // the hint's search re-arms us
      const answer = this.call("watch", { ms: WATCH_SLICE_MS });
      if (!answer) return;
      this.ui.setVerdict(answer);
      if (answer.done) return;
      // The solver's worker has not answered for this position yet: no asking again
      // until it says something (web/start/solver.js's "pp:solver" event).
      if (answer.waiting) this.watchWaiting = gen;
      else this.watch(true);
    });
  }

  // A message from the solver's worker came in: a watch waiting for it goes on.
  solverSpoke() {
    if (this.watchWaiting !== this.watchGen) return;
    this.watchWaiting = -1;
    this.watch(true);
  }

  showHint([src, dst, count]) {
    this.hintMarked = true;
    // The cards rise and a ghost of them slides to where they would land (a card turned
    // from the stock too; a deal to every column or a recycle has only its marks).
    const lift = Math.round(this.board.geom.ch * 0.06);
    if (src === "stock" || dst === "stock") {
      this.board.markPile("hint", src === "stock" ? "stock" : "waste", "from");
      if (src !== "stock") this.board.markPile("hint", "stock", "to");
      else this.board.motion.showHint(this.board.landing(src, 1, dst), lift);
      return;
    }
    this.board.markGroup("hint", src, count, "from");
    this.board.markPile("hint", dst, "to");
    this.board.motion.showHint(this.board.landing(src, count, dst), lift);
  }

  // The words on the table come from the facts the engine gives (payload.info) and its
  // legal moves, whatever the game: deals left on the stock, the rank a foundation needs,
  // and a ↻ on an empty stock that the waste can be turned back onto (with the redeals
  // left where they are counted).
  showLabels(payload) {
    const info = payload.info || {};
    const need = info.needs === "T" ? "10" : info.needs;
    this.board.setLabel("needs", need ? `Foundation\nneeds ${need}` : "");
    let stock = info.deals_left ? String(info.deals_left) : "";
    if (info.redeals_left !== undefined) stock = `↻ ${info.redeals_left}`;
    else if (!payload.piles.stock?.length && payload.moves.some(([, dst]) => dst === "stock")) {
      stock = "↻";
    }
    this.board.setLabel("stock", stock);
  }
}

const app = new App();
window.ppTable = {
  start: (bridge, json) => app.start(bridge, json),
  // The table's intent API (what a tap, drag or key ends in), e.g. act("new", {variant, seed}).
  // Returns the controller's answer (a render payload, or e.g. the stats for "stats").
  act: (kind, data) => app.call(kind, data || {}),
};
// window.localStorage for web/main.py, every call caught here: under MicroPython a
// JavaScript exception is not turned into a Python one but unwinds through the
// interpreter, so a storage that throws (forbidden, full) would stop the page. Each call
// answers {ok: true, value} or {ok: false, error}; keys() gives the keys as JSON text.
const stored = (read) => {
  try {
    return { ok: true, value: read(window.localStorage) };
  } catch (error) {
    return { ok: false, error: `${error?.name}: ${error?.message}` };
  }
};
window.ppStorage = {
  available: () => stored((ls) => !!ls).ok,
  get: (key) => stored((ls) => ls.getItem(key)),
  set: (key, value) => stored((ls) => ls.setItem(key, value)),
  remove: (key) => stored((ls) => ls.removeItem(key)),
  keys: () => stored((ls) => JSON.stringify(Object.keys(ls))),
};
// web/main.py waits for this when Python came up before this script ran.
window.dispatchEvent(new Event("pp:table"));
