// The solver's transport (window.ppSolver). The table's solver desk on the main thread
// (web/forward.py's ForwardingDesk, under MicroPython) posts JSON text messages here; once
// the table is playable, Pyodide starts in a worker (web/start/solver-worker.mjs, running
// web/deskworker.py) and gets them, those posted before it came first; its answers go
// back to the desk. Nothing of Pyodide is fetched before the table is playable, so the
// first table never waits for the solver's 4 MB.
//
// Marks for tests and benchmarks: pp:solver-start, pp:solver-ready (its first message) or
// pp:solver-error (then the desk keeps answering without a solver: heuristic hints, no
// verdict); window.ppSolverReport: how the worker's Python started (solver-worker.mjs).

const waiting = []; // messages for the worker before it exists
const heard = []; // its answers before the desk listens
let worker = null;
let listener = null; // the desk's receive(text)

window.ppSolver = {
  post(text) {
    if (worker) worker.postMessage(text);
    else waiting.push(text);
  },
  listen(receive) {
    listener = receive;
    for (const text of heard.splice(0)) receive(text);
  },
};

function start() {
  performance.mark("pp:solver-start");
  try {
    worker = new Worker(new URL("./solver-worker.mjs", import.meta.url), { type: "module" });
  } catch (error) {
    performance.mark("pp:solver-error");
    console.error("Pocket Patience: the solver could not start:", error);
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
      performance.mark(kind === "ready" ? "pp:solver-ready" : "pp:solver-error");
    }
    if (listener) listener(data);
    else heard.push(data);
    // For web/table/table.js: a watch that waits for the worker asks again now.
    dispatchEvent(new Event("pp:solver"));
  };
  worker.onerror = (event) => {
    performance.mark("pp:solver-error");
    console.error("Pocket Patience: the solver stopped:", event.message);
  };
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
