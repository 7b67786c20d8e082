// The interpreter module PyScript loads (pyscript.toml: interpreter): Pyodide's own
// loadPyodide, started from a memory snapshot when one is saved.
//
// Most of Pyodide's start-up is Python initialising itself (about a second on a laptop, far
// more on a phone). Pyodide can save the interpreter's memory right after that and start
// from it later (its _makeSnapshot / _loadSnapshot options), which takes a fraction of the
// time. So: the first start is ordinary; once the table is ready a background worker
// (web/snapshot-worker.mjs) makes a snapshot and keeps it in Cache Storage; every later
// start, online or off, restores it (made from the second visit on, when the service
// worker controls the page). A snapshot that is missing, from another Pyodide
// build, or that fails to load is simply not used (and dropped), so the worst case is
// the ordinary start.

import { loadPyodide as pyodideLoad, version } from "../vendor/pyodide/pyodide.mjs";

export { version };

const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;
export const SNAPSHOT_CACHE = "pp-pyodide-snapshot";
export const SNAPSHOT_KEY = new URL(`./pyodide-snapshot-${version}.bin`, INDEX_URL).href;

// What happened, for the start-up benchmark and tests: "restored", "fresh", "failed".
const report = (globalThis.__pyodideStart = { snapshot: "none" });

async function savedSnapshot() {
  if (!globalThis.caches) return null;
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    return (await cache.match(SNAPSHOT_KEY)) || null;
  } catch {
    return null; // storage disabled (some private modes)
  }
}

async function dropSnapshot() {
  try {
    await caches.delete(SNAPSHOT_CACHE);
  } catch {
    /* nothing to drop */
  }
}

export async function loadPyodide(options = {}) {
  useEarlyWasm();
  const pyodide = await startPython(options);
  await pageScriptsRan();
  return pyodide;
}

async function startPython(options) {
  const config = { ...options, indexURL: INDEX_URL };
  const saved = await savedSnapshot();
  if (saved) {
    try {
      const pyodide = await pyodideLoad({ ...config, _loadSnapshot: saved.arrayBuffer() });
      // The restored interpreter answers; a random module imported before the snapshot
      // would replay the same numbers on every start, so it gets fresh entropy.
      pyodide.runPython("import sys\nif 'random' in sys.modules: sys.modules['random'].seed()");
      report.snapshot = "restored";
      return pyodide;
    } catch (error) {
      console.warn("Pocket Patience: Python snapshot not usable, starting normally:", error);
      report.snapshot = "failed";
      await dropSnapshot();
    }
  }
  const pyodide = await pyodideLoad(config);
  if (report.snapshot === "none") report.snapshot = "fresh";
  whenReady(makeSnapshot);
  return pyodide;
}

// index.html starts compiling Pyodide's wasm as the page begins to load and leaves the
// promise of the module in window.ppPyodideWasm. Pyodide fetches and compiles the wasm
// itself with WebAssembly.instantiateStreaming (only once PyScript and its config are
// loaded): for its next call, that function instantiates the early module instead (and
// drops Pyodide's own download). If the early compile failed, Pyodide's way is used.
function useEarlyWasm() {
  const early = globalThis.ppPyodideWasm;
  delete globalThis.ppPyodideWasm;
  if (!early) return;
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async function (source, imports) {
    WebAssembly.instantiateStreaming = instantiateStreaming;
    let module;
    try {
      module = await early;
    } catch {
      return instantiateStreaming.call(this, source, imports);
    }
    Promise.resolve(source).then((response) => response.body?.cancel(), () => {});
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
}

// index.html runs PyScript before the table's script (web/table.js), so that Python starts
// sooner; web/main.py needs what that script defines. Every module script of the page has
// run once DOMContentLoaded is dispatched, which is nearly always long past by now.
function pageScriptsRan() {
  const [navigation] = performance.getEntriesByType("navigation");
  if (document.readyState === "complete" || !navigation || navigation.domContentLoadedEventStart > 0) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    document.addEventListener("DOMContentLoaded", () => resolve(), { once: true });
  });
}

// Run `task` once the page says it is playable, so the snapshot never slows the start.
function whenReady(task) {
  const root = document.documentElement;
  if (root.dataset.app === "ready") return void setTimeout(task, 500);
  const observer = new MutationObserver(() => {
    if (root.dataset.app === "ready") {
      observer.disconnect();
      setTimeout(task, 500);
    }
  });
  observer.observe(root, { attributes: true, attributeFilter: ["data-app"] });
}

function makeSnapshot() {
  // Only once the app is served by its service worker (the second visit on): a passing
  // visitor, or a test page that never reloads, does not pay for a snapshot.
  if (!globalThis.caches || !globalThis.Worker || !navigator.serviceWorker?.controller) return;
  const worker = new Worker(new URL("./snapshot-worker.mjs", import.meta.url), {
    type: "module",
    name: "pyodide-snapshot",
  });
  const done = (event) => {
    report.snapshotSaved = event.type === "message" ? event.data : "error";
    document.documentElement.dataset.snapshot = String(report.snapshotSaved);
    worker.terminate();
  };
  worker.addEventListener("message", done);
  worker.addEventListener("error", done);
  worker.postMessage({ indexURL: INDEX_URL, cache: SNAPSHOT_CACHE, key: SNAPSHOT_KEY });
}
