// The page's Python: MicroPython on the main thread, started by this module script.
//
// It loads MicroPython (vendor/micropython, handed the wasm that web/start/early.js began
// to download as the page began to load), writes the first table's modules into its file
// system as bytecode (the modules of mpy.toml, in one file, PACK_URL, which the page's
// head preloads), imports them a few to a task, and runs web/main.py, which draws the
// first table. Each
// step is a task of its own, so that no one task holds the main thread for long on a
// slow phone.
//
// web/main.py is written against PyScript's API (`from pyscript import document, window`,
// `pyscript.ffi.create_proxy`); this page does not load PyScript (its own start-up, which
// writes and compiles its Python library, cost more than the rest of MicroPython's start),
// so the three names come from a two-line `pyscript` package written here, over
// MicroPython's own `js` and `jsffi` modules.
//
// Progress goes out as `pp:progress` events on window (web/start/loading.js shows them;
// bench/startup.py times them), detail one of STAGES below, in that order. A failure
// rejects this module's work, which web/start/loading.js shows on the loading screen.

import { loadMicroPython } from "../../vendor/micropython/micropython.mjs";

const ROOT = new URL("../../", import.meta.url);
const WASM_URL = new URL("vendor/micropython/micropython.wasm", ROOT).href;
// The first table's bytecode as one file (tools/mpy_build.py's PACK): a 4-byte
// little-endian length, a JSON list of [path, size] in import order, the files' bytes.
const PACK_URL = new URL("build/mpy/first-table.pack", ROOT).href;

export const STAGES = ["Loading MicroPython", "Loading files", "Loaded files",
  "Loaded MicroPython", "Running web/main.py"];

const PYSCRIPT = {
  "pyscript/__init__.py": "import js as window\ndocument = window.document\n",
  "pyscript/ffi.py": "from jsffi import create_proxy, to_js\n",
};

function progress(detail) {
  dispatchEvent(new CustomEvent("pp:progress", { detail }));
}

// A new task: what came before is done, and the page may paint or answer in between.
// (scheduler.yield where there is one; setTimeout's nested calls wait 4 ms each.)
function nextTask() {
  if (globalThis.scheduler?.yield) return globalThis.scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

// How long one task of module imports may run before the next import waits for a new
// task: short enough that a slow phone's (4x slower) tasks stay under 50 ms.
const SLICE_MS = 10;

// The module a bytecode file holds: "web/stats.mpy" -> "web.stats",
// "engine/rules/__init__.mpy" -> "engine.rules".
export function moduleOf(path) {
  return path.replace(/\.mpy$/, "").replace(/\/__init__$/, "").replaceAll("/", ".");
}

// Imports the first table's modules in the pack's order (each after those its body
// imports: tools/mpy_build.py), as many to a task as fit in SLICE_MS, so that web/main.py
// finds them imported and no one task runs them all. A module that fails to import is
// left for web/main.py, whose own import of it fails the start with its error shown.
async function importAll(mp, paths) {
  let start = performance.now();
  for (const path of paths) {
    try {
      mp.pyimport(moduleOf(path));
    } catch {
      return;
    }
    if (performance.now() - start > SLICE_MS) {
      await nextTask();
      start = performance.now();
    }
  }
}

// The page's first contentful paint has reached the screen (its paint timing entry comes
// once the frame is presented, which a busy machine's compositor may do well after the
// main thread has drawn it), then one more frame and a task: whatever is on screen by
// now (a reload's picture too) gets painted first. A page in the background paints
// nothing and does not wait; each wait ends at FRAME_WAIT_MS whatever happens.
const FRAME_WAIT_MS = 1000;
function painted() {
  if (document.visibilityState === "hidden") return Promise.resolve();
  const contentful = () => performance.getEntriesByName("first-contentful-paint").length > 0;
  const first = new Promise((resolve) => {
    if (contentful()) return resolve();
    const observer = new PerformanceObserver(() => {
      if (!contentful()) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: "paint" });
    setTimeout(resolve, FRAME_WAIT_MS);
  });
  return first.then(() => new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, FRAME_WAIT_MS);
  }));
}

async function earlyWasm() {
  try {
    const blob = await window.ppMicroPythonWasm;
    if (!blob) return WASM_URL; // not served: MicroPython asks for it itself
    return URL.createObjectURL(blob);
  } catch {
    return WASM_URL; // a failed early download: MicroPython fetches the file itself
  }
}

// A file the start needs did not arrive: the loading screen says which (web/start/
// loading.js), and the start fails with `error`.
function missing(url, why, error) {
  dispatchEvent(new CustomEvent("pp:missing", { detail: { url: String(url), why } }));
  return error;
}

async function fetched(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw missing(url, "", error); // the network's failure
  }
  const why = `HTTP ${response.status}`;
  if (!response.ok) throw missing(url, why, new Error(`${url}: ${why}`));
  return response;
}

async function bytesOf(url) {
  return new Uint8Array(await (await fetched(url)).arrayBuffer());
}

async function textOf(url) {
  return (await fetched(url)).text();
}

// [path, bytes] of each file of the pack, in its order.
export function unpack(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = view.getUint32(0, true);
  const entries = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + size)));
  let at = 4 + size;
  const files = entries.map(([path, length]) => {
    const file = [path, bytes.subarray(at, at + length)];
    at += length;
    return file;
  });
  if (at !== bytes.byteLength) throw new Error(`${PACK_URL}: not a whole pack`);
  return files;
}

function write(mp, path, bytes) {
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i += 1) {
    try {
      mp.FS.mkdir(parts.slice(0, i).join("/"));
    } catch {
      // there already
    }
  }
  mp.FS.writeFile(path, bytes);
}

async function interpreter() {
  const url = await earlyWasm();
  // What is on screen (the loading screen, or a reload's picture of the last table:
  // web/start/picture.js) is painted before MicroPython's start takes the main thread:
  // else a fast start can keep the page's first frame waiting until it is done.
  await painted();
  progress(STAGES[0]);
  try {
    return await loadMicroPython({
      url,
      stdout: (line) => console.log(line),
      stderr: (line) => console.error(line),
    });
  } catch (error) {
    // The early download failed and MicroPython's own fetch of the wasm too.
    if (url === WASM_URL && /fetch/i.test(String(error))) throw missing(url, "", error);
    throw error;
  } finally {
    if (url.startsWith("blob:")) URL.revokeObjectURL(url);
  }
}

async function start() {
  const mainSource = textOf(new URL("web/main.py", ROOT));
  const pack = bytesOf(PACK_URL);
  mainSource.catch(() => {}); // awaited below; a failure is reported there
  pack.catch(() => {});
  const mp = await interpreter();
  await nextTask();
  progress(STAGES[1]);
  const loaded = unpack(await pack);
  for (const [path, bytes] of loaded) write(mp, path, bytes);
  for (const [path, text] of Object.entries(PYSCRIPT)) write(mp, path, text);
  progress(STAGES[2]);
  await nextTask();
  await importAll(mp, loaded.map(([path]) => path));
  progress(STAGES[3]);
  const source = await mainSource;
  await nextTask();
  progress(STAGES[4]);
  await mp.runPythonAsync(source);
}

start();
