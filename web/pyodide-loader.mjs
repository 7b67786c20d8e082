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
