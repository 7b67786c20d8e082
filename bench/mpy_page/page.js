// bench/mpy_page: what the app's loading script does that this page needs: an error
// before the table is ready shows on the loading screen (and ends a benchmark's wait).
//
// And the solver's transport (window.ppSolver): the table's desk under MicroPython
// (./desk.py, web/forward.py's ForwardingDesk) posts JSON text messages here; once the
// table is ready, Pyodide starts in a worker (./pyodide-worker.mjs, web/deskworker.py)
// and gets them, those posted before it came first; its answers go back to the desk
// (with ?early, the worker starts at once).
// Marks: pp:worker-start, pp:worker-ready (its first message) or pp:worker-error.

function fail(message) {
  if (document.documentElement.dataset.app !== "loading") return;
  document.documentElement.dataset.app = "error";
  document.getElementById("loading-stage").textContent =
    `Pocket Patience could not start.\n${message}`;
}
addEventListener("error", (event) => fail(event.message || "Error"));
addEventListener("unhandledrejection", (event) => fail(String(event.reason)));

const waiting = []; // messages to the worker before it exists
let worker = null;
let listener = null; // the desk's receive(text)
const heard = []; // answers before the desk listens (none expected: it listens first)

window.ppSolver = {
  post: (text) => (worker ? worker.postMessage(text) : waiting.push(text)),
  listen: (receive) => {
    listener = receive;
    for (const text of heard.splice(0)) receive(text);
  },
};

function startWorker() {
  performance.mark("pp:worker-start");
  worker = new Worker("./pyodide-worker.mjs", { type: "module" });
  let first = true;
  worker.onmessage = (event) => {
    if (first) {
      first = false;
      const kind = JSON.parse(event.data).kind;
      performance.mark(kind === "ready" ? "pp:worker-ready" : "pp:worker-error");
    }
    if (listener) listener(event.data);
    else heard.push(event.data);
  };
  for (const text of waiting.splice(0)) worker.postMessage(text);
}

// ?early: the worker starts with the page (its downloads then share the line with the
// table's), to weigh a sooner verdict against a later table.
if (new URLSearchParams(location.search).has("early")) {
  startWorker();
} else {
  new MutationObserver((_, observer) => {
    if (document.documentElement.dataset.app !== "ready") return;
    observer.disconnect();
    startWorker();
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-app"] });
}
