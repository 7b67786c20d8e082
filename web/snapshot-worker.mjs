// Makes a Pyodide memory snapshot (see web/pyodide-loader.mjs) away from the page: starts
// a fresh interpreter with _makeSnapshot, copies its memory, stores it in Cache Storage
// under the key it is given, and answers "saved" (or "error: ..."). Any older snapshot in
// that cache is deleted first, so one snapshot at most is kept.

import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";

addEventListener("message", async ({ data }) => {
  try {
    const pyodide = await loadPyodide({ indexURL: data.indexURL, _makeSnapshot: true });
    const snapshot = pyodide.makeMemorySnapshot();
    await caches.delete(data.cache);
    const cache = await caches.open(data.cache);
    await cache.put(data.key, new Response(snapshot, {
      headers: { "Content-Type": "application/octet-stream" },
    }));
    postMessage("saved");
  } catch (error) {
    postMessage(`error: ${error}`);
  }
});
