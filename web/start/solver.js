// The solver's transport (window.ppSolver). The table's solver desk on the main thread
// (web/forward.py's ForwardingDesk, under MicroPython) posts JSON text messages here; once
// the table is playable, Pyodide starts in a worker (web/start/solver-worker.mjs, running
// web/deskworker.py) and gets them, those posted before it came first; its answers go
// back to the desk. Nothing of Pyodide is fetched before the table is playable, so the
// first table never waits for the solver's 4 MB.
//
// Reading an answer is the desk's work, in Python on the main thread: the answers nobody
// waits for (the watch's verdicts, the lists' sizes) wait while the table's cards fly
// (web/table/table.js says when, holdWhile) and are then read one per task, so that no
// frame of a motion, and no one task, carries them. The others (a hint the player asked
// for, a deal drawn for a new game, a daily deal found, the worker's start) are read at once.
//
// Marks for tests and benchmarks: pp:solver-start, pp:solver-ready (its first message) or
// pp:solver-error (then the desk keeps answering without a solver: heuristic hints, no
// verdict; window.ppSolver.failed is true and a pp:solver-failed event tells the menu); window.ppSolverReport: how the worker's Python started (solver-worker.mjs);
// window.ppSolverTally: how many answers were held, and read (of the kinds held: while
// cards flew too).

const waiting = []; // messages for the worker before it exists
const heard = []; // its answers before the desk listens
const held = []; // answers nobody waits for, held while cards fly
const HELD_KINDS = new Set(["watch", "counts"]);
let worker = null;
let listener = null; // the desk's receive(text)
let flying = () => false; // web/table/table.js: whether the table's cards fly
let whenSettled = (fn) => fn(); // and how to wait until they have landed
let releasing = false; // a task to read the next held answer is on its way
const tally = { held: 0, read: 0, readFlying: 0 }; // (of the kinds held)
window.ppSolverTally = tally;

function deliver(text, kind) {
  if (HELD_KINDS.has(kind)) {
    tally.read += 1;
    if (flying()) tally.readFlying += 1;
  }
  if (listener) listener(text);
  else heard.push(text);
  // For web/table/table.js: a watch that waits for the worker asks again now.
  dispatchEvent(new Event("pp:solver"));
}

// The held answers, one per task once the cards have landed (again after any motion that
// starts meanwhile).
function release() {
  if (releasing || !held.length) return;
  releasing = true;
  const next = () => {
    releasing = false;
    if (!held.length) return;
    if (flying()) {
      whenSettled(release);
      return;
    }
    const [text, kind] = held.shift();
    deliver(text, kind);
    if (held.length) {
      releasing = true;
      setTimeout(next, 0);
    }
  };
  setTimeout(next, 0);
}

function arrived(text) {
  let kind = "";
  try {
    kind = JSON.parse(text).kind;
  } catch {
    /* the desk drops what it cannot read */
  }
  if (!HELD_KINDS.has(kind) || (!held.length && !flying())) {
    deliver(text, kind);
    return;
  }
  held.push([text, kind]);
  tally.held += 1;
  if (held.length === 1) whenSettled(release);
}

window.ppSolver = {
  post(text) {
    if (worker) worker.postMessage(text);
    else waiting.push(text);
  },
  listen(receive) {
    listener = receive;
    for (const text of heard.splice(0)) receive(text);
  },
  // ``busy()``: whether the table's cards fly; ``settled(fn)``: call fn once they have landed.
  holdWhile(busy, settled) {
    flying = busy;
    whenSettled = settled;
  },
};

// The solver could not start or stopped: the table plays on without it, and says so where
// it would have offered the solver's work (the menu's winnable deals).
function failed(...why) {
  performance.mark("pp:solver-error");
  console.error("Pocket Patience: the solver could not start or stopped:", ...why);
  window.ppSolver.failed = true;
  dispatchEvent(new Event("pp:solver-failed"));
}

function start() {
  performance.mark("pp:solver-start");
  try {
    worker = new Worker(new URL("./solver-worker.mjs", import.meta.url), { type: "module" });
  } catch (error) {
    failed(error);
    return;
  }
  let first = true;
  worker.onmessage = ({ data }) => {
    if (data.startsWith('{"kind":"report"')) {
      window.ppSolverReport = JSON.parse(data); // the worker's start, for tests and bench/
      return;
    }
    if (first) {
      first = false;
      let kind = "error";
      try {
        kind = JSON.parse(data).kind;
      } catch {
        /* not a message of the worker's */
      }
      if (kind === "ready") performance.mark("pp:solver-ready");
      else failed(data.slice(0, 200));
    }
    arrived(data);
  };
  worker.onerror = (event) => failed(event.message || "its script did not load");
  for (const text of waiting.splice(0)) worker.postMessage(text);
}

const root = document.documentElement;
if (root.dataset.app === "ready") {
  start();
} else {
  new MutationObserver((_, observer) => {
    if (root.dataset.app !== "ready") return;
    observer.disconnect();
    start();
  }).observe(root, { attributes: true, attributeFilter: ["data-app"] });
}
