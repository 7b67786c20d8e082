// The interpreter module PyScript loads (pyscript.toml: interpreter): Pyodide's own
// loadPyodide, started from a memory snapshot when one is saved.
//
// Most of Pyodide's start-up is Python initialising itself (about a second on a laptop, far
// more on a phone). Pyodide can save the interpreter's memory right after that and start
// from it later (its _makeSnapshot / _loadSnapshot options), which takes a fraction of the
// time. So: the first start is ordinary; once the table is ready a background worker
// (web/start/snapshot-worker.mjs) makes a snapshot and keeps it in Cache Storage; every later
// start, online or off, restores it (made from the second visit on, when the service
// worker controls the page). A snapshot that is missing, from another Pyodide
// build, or that fails to load is simply not used (and dropped), so the worst case is
// the ordinary start.
//
// The snapshot also holds the app's own modules, already imported (APP_MODULES), so a
// restored start skips importing them too. It is therefore made for one version of the
// app and keyed by it: the version in the name of the service worker's precache, a hash of
// every file the app is served from (service-worker.js). A page starts from a snapshot
// only when a service worker serves it and exactly one precache of this copy of the app
// exists; while an update is being installed, or after one, the key differs or is
// unknown, and Python starts normally, so modules of an older version are never restored.
//
// Copies of the app on one origin (a/ and b/ of one site) never see each other's caches:
// both the precache's name and the snapshot cache's carry the key of the app's folder,
// which is its service worker's scope (web/start/offline.js registers ./service-worker.js there).
//
// The standard library comes precompiled (python_stdlib_compiled.zip, .pyc files made by
// this Pyodide's own Python: tools/vendor.py), so Python does not compile the ~190
// modules it imports on every start. web/start/early.js starts the download as the page begins
// to load (window.ppStdlib); the loader takes that response (or fetches the file itself,
// and once more if a download fails) and hands it to Pyodide; when the file is not
// served, Pyodide's plain python_stdlib.zip is used, as before. A snapshot is keyed by
// which of the two it was made with, since the interpreter it holds has read that zip's
// directory.
//
// PyScript fetches the app's files only once Python has started; the loader fetches them
// while Python starts and hands the responses over (handOverAppFiles). Starting Python
// itself before PyScript asks for it (it first opens its package cache) was tried and
// measured slower: both then compete for the main thread.

import { loadPyodide as pyodideLoad, version } from "../../vendor/pyodide/pyodide.mjs";

export { version };

const INDEX_URL = new URL("../../vendor/pyodide/", import.meta.url).href;
const CONFIG_URL = new URL("../../pyscript.toml", import.meta.url).href;
const STDLIB_URLS = {
  compiled: new URL("./python_stdlib_compiled.zip", INDEX_URL).href,
  plain: new URL("./python_stdlib.zip", INDEX_URL).href,
};
// The modules of the compiled library that a start does not import (tools/stdlib_cut.py).
const REST_URL = new URL("./python_stdlib_rest.zip", INDEX_URL).href;
const REST_PATH = "/lib/python_stdlib_rest.zip";
const SCOPE_KEY = scopeKey(new URL("../../", import.meta.url).pathname);
export const SNAPSHOT_CACHE = `pp-pyodide-snapshot-${SCOPE_KEY}`;
// service-worker.js: PREFIX + scope key + "-" + version
const APP_CACHE_PREFIX = `pocket-patience-${SCOPE_KEY}-`;
// What web/main.py imports before it draws the first table. Anything else still imports
// from the files as usual, so this list only decides how much a restored start skips.
const APP_MODULES = ["web.controller", "web.storage"];

// What happened, for the start-up benchmark and tests: snapshot "none" (not looked for),
// "restored", "fresh" or "failed"; app: the app version the snapshot is keyed by;
// modules: whether the restored interpreter had the app's modules imported already;
// stdlib: "compiled" or "plain", the standard library Python was given.
const report = (globalThis.__pyodideStart = { snapshot: "none", app: null, stdlib: null });

// Started now, while PyScript is still busy with its config.
const stdlib = fetchStdlib();
// PyScript has just read the config (index.html preloads it): its copy in the HTTP cache,
// not a second request, even one that only revalidates.
const configText = fetch(CONFIG_URL, { cache: "force-cache" })
  .then((r) => (r.ok ? r.text() : "")).catch(() => "");
const appFiles = prefetchAppFiles();
// The solver's files ([files_after_start]): on a page the service worker serves they are
// read from its cache at once (no network) and written as soon as Python is up; elsewhere
// they wait for the table (addLaterFiles), a daily-deal link's too (its deal is checked
// after the table, web/dailies.py).
const laterFiles = configText.then((text) => configPairs(text, CONFIG_URL, "files_after_start"));
const laterAtOnce = navigator.serviceWorker?.controller;
const laterEarly = laterAtOnce ? laterFiles.then(fetchAll).catch(() => null) : null;
// A page the service worker serves has the rest of the standard library in its cache: read
// at once (no network), it is mounted as soon as Python is up. (A synchronous request, the
// finder's way below, is not served by a service worker in Chromium, so offline it would
// fail.) Elsewhere it waits for the table, not to slow the first visit.
const restEarly = navigator.serviceWorker?.controller
  ? fetch(REST_URL).then((r) => (r.ok ? r.arrayBuffer() : null)).catch(() => null)
  : null;

// {kind, url}: the compiled standard library as a blob: URL (the response is read once
// here, so Pyodide does not download it again), else the plain one's own URL.
async function fetchStdlib() {
  const early = globalThis.ppStdlib;
  delete globalThis.ppStdlib;
  for (const download of [early, null]) {
    try {
      const response = await (download ?? fetch(STDLIB_URLS.compiled, { cache: "no-cache" }));
      if (response.ok) {
        return { kind: "compiled", url: URL.createObjectURL(await response.blob()) };
      }
      response.body?.cancel();
      report.stdlibProblem = `HTTP ${response.status}`;
      break; // not served: the plain library it is
    } catch (error) {
      report.stdlibProblem = String(error); // a failed download: once more, then plain
    }
  }
  return { kind: "plain", url: STDLIB_URLS.plain };
}

// The key of the app's folder in cache names: FNV-1a (32 bits, hex) of its path's UTF-8
// bytes, as service-worker.js computes it for its scope.
function scopeKey(path) {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(path)) {
    hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

function snapshotKey(app, kind) {
  return new URL(`./pyodide-snapshot-${version}-${kind}-app-${app}.bin`, INDEX_URL).href;
}

// The app version this page is served from (see above), or null when it is not known.
async function appVersion() {
  if (!globalThis.caches || !navigator.serviceWorker?.controller) return null;
  try {
    const names = (await caches.keys()).filter((name) => name.startsWith(APP_CACHE_PREFIX));
    return names.length === 1 ? names[0].slice(APP_CACHE_PREFIX.length) : null;
  } catch {
    return null; // storage disabled (some private modes)
  }
}

async function savedSnapshot(app, kind) {
  if (!app) return null;
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    return (await cache.match(snapshotKey(app, kind))) || null;
  } catch {
    return null;
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
  // The picture of the last table (web/start/picture.js) is painted before Python's
  // start takes the main thread (restoring a snapshot is one long task).
  if (document.documentElement.dataset.picture) await painted();
  const pyodide = await startPython(options);
  performance.mark("pp:python"); // start-up stages, read by bench/
  const later = addLaterFiles(pyodide, await laterFiles);
  if (laterEarly) later.write(await laterEarly, "early");
  whenReady(() => later.background().finally(() => precompileLater(pyodide)), 0);
  if (report.snapshot !== "restored") {
    await precompileFirst(pyodide, await appFiles);
    performance.mark("pp:precompiled");
  }
  await pageScriptsRan();
  handOverAppFiles(await appFiles);
  // For tests and the benchmark: the interpreter itself (not enumerable: the report
  // stays plain JSON).
  Object.defineProperty(report, "interpreter", { value: pyodide });
  return pyodide;
}

// PyScript fetches the app's files (the [files] table of pyscript.toml) only once Python
// has started, which is the longest step of the start. So they are fetched here, while
// Python starts (a Map of URL -> response promise; empty if the config cannot be read).
async function prefetchAppFiles() {
  const early = new Map();
  try {
    for (const [url] of configPairs(await configText, CONFIG_URL)) {
      const download = fetch(url);
      download.catch(() => {}); // then PyScript's own request fetches it again
      early.set(url, download);
    }
  } catch {
    /* PyScript fetches the files itself */
  }
  report.filesPrefetched = early.size;
  return early;
}

// The [url, path] pairs of a table of files; tools/check_pyscript_files.py writes it as
// one `"./<file>" = "<path>"` line per file (web/start/snapshot-worker.mjs reads [files]
// the same way).
function configPairs(text, base, name = "files") {
  const [, table = ""] = text.split(new RegExp(`^\\[${name}\\][ \\t]*$`, "m"));
  const [files] = table.split(/^\[/m);
  return [...files.matchAll(/^"([^"]+)"\s*=\s*"([^"]+)"/gm)]
    .map(([, url, path]) => [new URL(url, base).href, path]);
}

// [[path, bytes]] of every [url, path] pair, or a rejection if one is not served.
function fetchAll(pairs) {
  return Promise.all(pairs.map(async ([url, path]) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return [path, new Uint8Array(await response.arrayBuffer())];
  }));
}

// Until PyScript has written the app's files, its request for one of them (a GET by
// absolute URL) gets the response fetched early, once; everything else, and any file
// whose early download failed, goes to the network as usual.
function handOverAppFiles(early) {
  report.filesHandedOver = 0;
  if (!early.size) return;
  const browserFetch = globalThis.fetch;
  const restore = () => {
    if (globalThis.fetch === prefetched) globalThis.fetch = browserFetch;
    removeEventListener("py:progress", loaded);
  };
  const loaded = (event) => event.detail === "Loaded files" && restore();
  function prefetched(input, init) {
    const download = typeof input === "string" && !init?.method && early.get(input);
    if (!download) return browserFetch.call(this, input, init);
    early.delete(input);
    if (!early.size) restore();
    report.filesHandedOver += 1;
    return download.catch(() => browserFetch.call(this, input, init));
  }
  globalThis.fetch = prefetched;
  addEventListener("py:progress", loaded);
}

async function startPython(options) {
  const [app, lib] = await Promise.all([appVersion(), stdlib]);
  report.app = app;
  report.stdlib = lib.kind;
  try {
    const pyodide = await startWith({ ...options, indexURL: INDEX_URL, stdLibURL: lib.url },
      app, lib.kind);
    if (lib.kind === "compiled") addRestOfStdlib(pyodide);
    return pyodide;
  } finally {
    if (lib.url.startsWith("blob:")) URL.revokeObjectURL(lib.url);
  }
}

async function startWith(config, app, kind) {
  const saved = await savedSnapshot(app, kind);
  if (saved) {
    try {
      const pyodide = await pyodideLoad({ ...config, _loadSnapshot: saved.arrayBuffer() });
      // The restored interpreter answers; a random module imported before the snapshot
      // would replay the same numbers on every start, so it gets fresh entropy.
      pyodide.runPython("import sys\nif 'random' in sys.modules: sys.modules['random'].seed()");
      report.snapshot = "restored";
      report.modules = pyodide.runPython(
        `import sys\nall(name in sys.modules for name in ${JSON.stringify(APP_MODULES)})`);
      return pyodide;
    } catch (error) {
      console.warn("Pocket Patience: Python snapshot not usable, starting normally:", error);
      report.snapshot = "failed";
      await dropSnapshot();
    }
  }
  const pyodide = await pyodideLoad(config);
  if (report.snapshot === "none") report.snapshot = "fresh";
  if (app) whenReady(() => makeSnapshot(app, kind));
  return pyodide;
}

// web/start/early.js starts compiling Pyodide's wasm as the page begins to load and leaves the
// promise of the module in window.ppPyodideWasm. Pyodide fetches the wasm itself as it
// starts and compiles it with WebAssembly.instantiateStreaming: that one fetch is answered
// here with an empty response (no second download of 2.8 MB), and that one call
// instantiates the early module instead. If the early compile failed, the wasm is fetched
// and compiled Pyodide's way.
const WASM_URL = new URL("./pyodide.asm.wasm", INDEX_URL).href;

function useEarlyWasm() {
  const early = globalThis.ppPyodideWasm;
  delete globalThis.ppPyodideWasm;
  if (!early) return;
  const browserFetch = globalThis.fetch;
  const placeholder = Symbol("early wasm");
  function wasmFetch(input, init) {
    if (String(input instanceof Request ? input.url : input) !== WASM_URL) {
      return browserFetch.call(this, input, init);
    }
    if (globalThis.fetch === wasmFetch) globalThis.fetch = browserFetch;
    const response = new Response(null, { headers: { "content-type": "application/wasm" } });
    response[placeholder] = true;
    return Promise.resolve(response);
  }
  globalThis.fetch = wasmFetch;
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async function (source, imports) {
    WebAssembly.instantiateStreaming = instantiateStreaming;
    if (globalThis.fetch === wasmFetch) globalThis.fetch = browserFetch;
    let module;
    try {
      module = await early;
    } catch {
      const response = await source;
      const real = response?.[placeholder] ? browserFetch(WASM_URL) : response;
      return instantiateStreaming.call(this, real, imports);
    }
    Promise.resolve(source).then((response) => response.body?.cancel(), () => {});
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
}

function painted() {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

// index.html runs PyScript before the table's script (web/table/table.js), so that Python starts
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

// Run `task` `delay` ms after the page says it is playable, so it never slows the start.
function whenReady(task, delay = 500) {
  const root = document.documentElement;
  if (root.dataset.app === "ready") return void setTimeout(task, delay);
  const observer = new MutationObserver(() => {
    if (root.dataset.app === "ready") {
      observer.disconnect();
      setTimeout(task, delay);
    }
  });
  observer.observe(root, { attributes: true, attributeFilter: ["data-app"] });
}

// The compiled library holds only what a start imports; the rest of it (a zip of its own)
// is written into Python's file system in the background once the table is playable, or
// at once, with a synchronous download, when Python imports one of its modules before
// that (a finder at the end of sys.meta_path, asked only for modules no other finder
// has; it knows the rest's module names from an index in the compiled zip).
// report.rest: "early" (from the worker's cache), "background" or "sync", how it came
// (absent while it has not come), and
// report.restWhen: the page's data-app then ("ready" when it came after the first table).
const REST_FINDER = `
import sys
from importlib.machinery import PathFinder


class StdlibRestFinder:
    """Finds a standard module in the rest of the library, mounting it first."""

    names = None

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        if cls.names is None:
            # zipimport, not zipfile: zipfile decodes names with a codec of the rest.
            import zipimport
            core = next(p for p in sys.path if p.endswith(".zip"))
            index = zipimport.zipimporter(core).get_data("python_stdlib_rest.txt")
            cls.names = frozenset(index.decode().split())
        if fullname not in cls.names:
            return None
        import _pp_stdlib_rest
        if not _pp_stdlib_rest.mount():
            return None
        package = fullname.rpartition(".")[0].replace(".", "/")
        where = "${REST_PATH}" + ("/" + package if package else "")
        return PathFinder.find_spec(fullname, [where])

    @classmethod
    def invalidate_caches(cls):
        pass


if not any(getattr(f, "__name__", "") == "StdlibRestFinder" for f in sys.meta_path):
    sys.meta_path.append(StdlibRestFinder)
`;

// The body of a synchronous GET of url (the caller waits for it), or an Error when it is
// not served. Bytes come as a string of x-user-defined characters (a synchronous request
// of a page cannot ask for an ArrayBuffer).
function syncBytes(url) {
  const request = new XMLHttpRequest();
  request.open("GET", url, false);
  request.overrideMimeType("text/plain; charset=x-user-defined");
  request.send();
  if (request.status !== 200) throw new Error(`${url}: HTTP ${request.status}`);
  const text = request.responseText;
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

function addRestOfStdlib(pyodide) {
  let mounted = false;
  const mount = (bytes, how) => {
    if (mounted) return;
    pyodide.FS.writeFile(REST_PATH, bytes);
    mounted = true;
    report.rest = how;
    report.restWhen = document.documentElement.dataset.app; // "loading" or "ready"
  };
  const mountNow = () => {
    if (mounted) return true;
    try {
      // A synchronous download: the import waits for it.
      mount(syncBytes(REST_URL), "sync");
      return true;
    } catch (error) {
      console.warn("Pocket Patience: the rest of the standard library is not there:", error);
      return false;
    }
  };
  pyodide.registerJsModule("_pp_stdlib_rest", { mount: mountNow });
  pyodide.runPython(REST_FINDER);
  if (restEarly) {
    restEarly.then((buffer) => buffer && mount(new Uint8Array(buffer), "early"));
  }
  whenReady(async () => {
    if (mounted) return;
    try {
      const response = await fetch(REST_URL);
      if (response.ok) mount(new Uint8Array(await response.arrayBuffer()), "background");
    } catch {
      /* an import will try once more, synchronously */
    }
  });
}

// The solver (the [files_after_start] table of pyscript.toml: its modules and its lists
// of deals) is not needed to draw and play the first table, so PyScript does not copy it:
// its files are written into Python's file system, at the same paths, once the table is
// playable (or at once from the service worker's cache, above), or, when Python imports
// one of its modules before that, with one synchronous download of them all (a finder at
// the end of sys.meta_path, asked only for modules no other finder has). The lists are
// read with open() by the solver's modules, so every file comes before any of them is
// imported. report.later: "early", "background" or "sync", how they came (absent while
// they have not), report.laterWhen: the page's data-app then, and report.laterBundled:
// whether a "sync" came in one download. Until they come (or their
// background download fails), sys.modules["_pp_later_files"].pending() is true: web/desk.py's
// background watch waits for them rather than import the solver, which would download them
// at once. (Put there, not imported: an import now would have Python list the folders of
// sys.path before PyScript has written its own package there.)
const LATER_FINDER = `
import sys
from importlib.machinery import PathFinder

sys.modules["_pp_later_files"] = LATER


class LaterFilesFinder:
    """Finds a module of the files written after the start, writing them first."""

    names = frozenset(NAMES)

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        if fullname not in cls.names:
            return None
        if not sys.modules["_pp_later_files"].write_now():
            return None
        import importlib
        importlib.invalidate_caches()  # the folders' listings predate the new files
        return PathFinder.find_spec(fullname, path)

    @classmethod
    def invalidate_caches(cls):
        pass


if not any(getattr(f, "__name__", "") == "LaterFilesFinder" for f in sys.meta_path):
    sys.meta_path.append(LaterFilesFinder)
`;

// The module names of .py paths: "a/b/__init__.py" is "a.b", "a/b/c.py" is "a.b.c".
function moduleNames(paths) {
  return paths.filter((path) => path.endsWith(".py"))
    .map((path) => path.slice(0, -3).replace(/\/__init__$/, "").replaceAll("/", "."));
}

// Every [url, path] pair's [path, bytes] from the one file that holds them all
// (tools/later_bundle.py: a JSON object of path -> text), or null when the host does not
// serve it or it lacks a file.
const BUNDLE_URL = new URL("../../files_after_start.json", import.meta.url).href;

function bundled(pairs) {
  let files;
  try {
    files = JSON.parse(new TextDecoder().decode(syncBytes(BUNDLE_URL)));
  } catch {
    return null;
  }
  if (!pairs.every(([, path]) => typeof files?.[path] === "string")) return null;
  const encoder = new TextEncoder();
  return pairs.map(([, path]) => [path, encoder.encode(files[path])]);
}

function addLaterFiles(pyodide, pairs) {
  let written = !pairs.length;
  let failed = false; // the background download
  const home = pyodide.FS.cwd();
  const write = (files, how) => {
    if (written || !files) return;
    for (const [path, bytes] of files) {
      const full = `${home}/${path}`;
      pyodide.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
      pyodide.FS.writeFile(full, bytes);
    }
    written = true;
    report.later = how;
    report.laterWhen = document.documentElement.dataset.app; // "loading" or "ready"
  };
  const writeNow = () => {
    if (written) return true;
    try {
      // Synchronous downloads, as for the rest of the standard library above: all the
      // files in one (tools/later_bundle.py), or, on a host without it, one by one.
      const bundle = bundled(pairs);
      report.laterBundled = !!bundle;
      write(bundle ?? pairs.map(([url, path]) => [path, syncBytes(url)]), "sync");
      return true;
    } catch (error) {
      console.warn("Pocket Patience: the solver's files are not there:", error);
      return false;
    }
  };
  if (pairs.length) {
    const pending = () => !written && !failed;
    const names = JSON.stringify(moduleNames(pairs.map(([, path]) => path)));
    const namespace = pyodide.globals.get("dict")();
    namespace.set("LATER", { write_now: writeNow, pending });
    pyodide.runPython(LATER_FINDER.replace("NAMES", names), { globals: namespace });
    namespace.destroy();
  }
  const background = async () => {
    if (written) return;
    try {
      write(await fetchAll(pairs), "background");
    } catch {
      failed = true; // an import will try once more, synchronously
    }
  };
  return { write, background };
}

// Python compiles each of the app's modules from source when it is first imported, and
// web/main.py imports those the first table needs in one go: on a slow phone, one task of
// seconds. So before PyScript writes the app's files ([files]) and runs web/main.py, each
// of its modules is written and compiled here, one per task, and its bytecode put in
// __pycache__, where the import finds it: the same work, in pieces between which the page
// can paint and take input. Hash-checked .pyc files (the import checks the source's hash),
// as PyScript then writes the same files again and a new mtime would make a timestamped
// .pyc stale. Not for a restored snapshot, whose modules are imported already. A file
// that fails here is simply compiled by its import. report.precompiledFirst: how many.
const PRECOMPILE_FIRST = `
import os
from importlib import _bootstrap_external as external
from importlib.util import source_hash


def precompile_checked(path):
    """Write the hash-checked bytecode of the source at path; False if it fails."""
    try:
        with open(path, "rb") as f:
            source = f.read()
        code = compile(source, path, "exec", dont_inherit=True)
        cached = external.cache_from_source(path)
        os.makedirs(os.path.dirname(cached), exist_ok=True)
        with open(cached, "wb") as f:
            f.write(external._code_to_hash_pyc(code, source_hash(source), True))
        return True
    except Exception:
        return False
`;

async function precompileFirst(pyodide, early) {
  let compile;
  try {
    const namespace = pyodide.globals.get("dict")();
    pyodide.runPython(PRECOMPILE_FIRST, { globals: namespace });
    compile = namespace.get("precompile_checked");
    namespace.destroy();
  } catch {
    return;
  }
  const home = pyodide.FS.cwd();
  let compiled = 0;
  for (const [url, path] of configPairs(await configText, CONFIG_URL)) {
    const download = early.get(url);
    // A package's __main__ is a command line, never imported by the page.
    if (!path.endsWith(".py") || path.endsWith("/__main__.py") || !download) continue;
    try {
      const response = await download;
      if (!response.ok) continue;
      // A copy: the response itself goes to PyScript (handOverAppFiles).
      const bytes = new Uint8Array(await response.clone().arrayBuffer());
      const full = `${home}/${path}`;
      pyodide.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
      pyodide.FS.writeFile(full, bytes);
      if (compile(full)) compiled += 1;
    } catch {
      continue; // its import compiles it
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  compile.destroy();
  report.precompiledFirst = compiled;
}

// The app's modules that the first table does not import (the solver above all, which
// the table's first look at the position imports) are compiled from source when first
// imported: for the solver, one task of about a third of a second, just as the player
// may make a first move. So once the table is playable each of them is compiled, one
// module per task, and its bytecode written to __pycache__, where the import finds it
// (checked against the source's time and size, as for any .pyc). A module that fails to
// compile here is simply compiled by its import, as before.
// report.precompiled: how many modules were compiled so (set when all are done).
const PRECOMPILE = `
import os
import sys
from importlib import _bootstrap_external as external


def pending():
    """The .py files in the working folder's packages (the app's) no module came from
    and none was compiled for before the start (precompileFirst)."""
    loaded = {getattr(m, "__file__", None) for m in list(sys.modules.values())}
    root = os.getcwd()
    for folder, folders, names in os.walk(root):
        folders[:] = sorted(f for f in folders if f != "__pycache__")
        for name in sorted(names):
            path = os.path.join(folder, name)
            if (name.endswith(".py") and path not in loaded and folder != root
                    and not os.path.exists(external.cache_from_source(path))):
                yield path


def precompile(path):
    """Write the bytecode of the source at path where its import looks for it."""
    try:
        st = os.stat(path)
        with open(path, "rb") as f:
            code = compile(f.read(), path, "exec", dont_inherit=True)
        cached = external.cache_from_source(path)
        os.makedirs(os.path.dirname(cached), exist_ok=True)
        with open(cached, "wb") as f:
            f.write(external._code_to_timestamp_pyc(code, st.st_mtime, st.st_size))
        return True
    except Exception:
        return False


paths = pending()


def step():
    """Compile the next file: True or False (it failed), None when none is left."""
    path = next(paths, None)
    return None if path is None else precompile(path)
`;

function precompileLater(pyodide) {
  let step;
  try {
    const namespace = pyodide.globals.get("dict")();
    pyodide.runPython(PRECOMPILE, { globals: namespace });
    step = namespace.get("step");
    namespace.destroy();
  } catch {
    return; // then every import compiles its module, as Python always can
  }
  let compiled = 0;
  const next = () => {
    const done = step();
    if (done === undefined) {
      step.destroy();
      report.precompiled = compiled;
      return;
    }
    if (done) compiled += 1;
    setTimeout(next, 0);
  };
  setTimeout(next, 0);
}

async function makeSnapshot(app, kind) {
  // Only once the app is served by its service worker (the second visit on): a passing
  // visitor, or a test page that never reloads, does not pay for a snapshot. Not if an
  // update has arrived meanwhile: the next start will be of another version.
  if (!globalThis.Worker || (await appVersion()) !== app) return;
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
  worker.postMessage({
    indexURL: INDEX_URL,
    stdLibURL: STDLIB_URLS[kind],
    cache: SNAPSHOT_CACHE,
    key: snapshotKey(app, kind),
    config: CONFIG_URL,
    modules: APP_MODULES,
  });
}
