// bench/mpy_page: what the app's loading script does that this page needs: an error
// before the table is ready shows on the loading screen (and ends a benchmark's wait).
// With ?worker=1, once the table is ready, Pyodide starts in a worker (no solver in it
// yet), to see the order: the table first, the solver's Python after.

function fail(message) {
  if (document.documentElement.dataset.app !== "loading") return;
  document.documentElement.dataset.app = "error";
  document.getElementById("loading-stage").textContent =
    `Pocket Patience could not start.\n${message}`;
}
addEventListener("error", (event) => fail(event.message || "Error"));
addEventListener("unhandledrejection", (event) => fail(String(event.reason)));

if (new URLSearchParams(location.search).has("worker")) {
  new MutationObserver((_, observer) => {
    if (document.documentElement.dataset.app !== "ready") return;
    observer.disconnect();
    performance.mark("pp:worker-start");
    const worker = new Worker("./pyodide-worker.mjs", { type: "module" });
    worker.onmessage = (event) => performance.mark(`pp:worker-${event.data}`);
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-app"] });
}
