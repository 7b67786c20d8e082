// The solver's side: Pyodide in a worker, started by web/start/solver.js once the table is
// playable. It writes the app's Python files into Pyodide's file system (both tables of
// pyscript.toml, the list tools/check_pyscript_files.py keeps), then runs
// web/deskworker.py's DeskWorker: the page's messages in (JSON text), its answers out,
// and its work one slice a task, so that a message arriving between two slices is read
// before the next (a move drops the search under way).
//
// The standard library comes precompiled (python_stdlib_compiled.zip: .pyc files made by
// this Pyodide's own Python, holding the modules the app imports: tools/vendor.py); the
// rest of it (python_stdlib_rest.zip, 2.8 MB) is fetched in the background once the
// solver first has nothing to do (so that it never delays the first verdict), and mounted
// when a module of it is first imported, with a synchronous request (allowed in a worker)
// if it has not come by then. When the compiled
// library is not served, Pyodide's plain python_stdlib.zip is used.

import { loadPyodide } from "../../vendor/pyodide/pyodide.mjs";

const ROOT = new URL("../../", import.meta.url);
const INDEX_URL = new URL("vendor/pyodide/", ROOT).href;
const COMPILED_URL = new URL("python_stdlib_compiled.zip", INDEX_URL).href;
const REST_URL = new URL("python_stdlib_rest.zip", INDEX_URL).href;
const REST_PATH = "/lib/python_stdlib_rest.zip";
const HOME = "/home/pyodide/";

const early = []; // messages that came while Python was starting
let desk = null;
let working = false;
const tick = new MessageChannel(); // a task without setTimeout's clamping

function work() {
  if (working) return;
  working = true;
  tick.port2.postMessage(0);
}
let idle = () => {}; // once the solver first has nothing to do (addRest)
tick.port1.onmessage = () => {
  working = false;
  if (desk.step()) work();
  else idle();
};
onmessage = ({ data }) => {
  if (!desk) {
    early.push(data);
    return;
  }
  desk.receive(data);
  work();
};

// The [url, path] pairs of pyscript.toml's tables of files (one `"./<file>" = "<path>"`
// line per file, as tools/check_pyscript_files.py writes them).
async function appFiles() {
  const response = await fetch(new URL("pyscript.toml", ROOT));
  if (!response.ok) throw new Error(`pyscript.toml: HTTP ${response.status}`);
  const text = await response.text();
  return [...text.matchAll(/^"(\.\/[^"]+)"\s*=\s*"([^"]+)"/gm)]
    .map(([, url, path]) => [new URL(url, ROOT).href, path]);
}

async function bytesOf(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

// What happened, for tests and benchmarks (a "report" message, which web/start/solver.js
// keeps as window.ppSolverReport): stdlib "compiled" or "plain", the library Python was
// given (stdlibProblem: why not the compiled one); rest: how the rest of the compiled
// library came when a module of it was first imported (restFirst), "background" (the
// download started when the solver was first idle) or "sync" (not there yet: waited
// for), null before.
const report = { stdlib: null, rest: null };
function tell() {
  postMessage(JSON.stringify({ kind: "report", ...report }));
}

// {url, compiled}: the compiled standard library as a blob: URL, else the plain one. A
// download that fails (seen under load: "Failed to fetch") is tried once more; one that
// is not served is not.
async function stdlib() {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const response = await fetch(COMPILED_URL);
      if (response.ok) {
        return { url: URL.createObjectURL(await response.blob()), compiled: true };
      }
      report.stdlibProblem = `HTTP ${response.status}`;
      break;
    } catch (error) {
      report.stdlibProblem = String(error);
    }
  }
  return { url: new URL("python_stdlib.zip", INDEX_URL).href, compiled: false };
}

function syncBytes(url) {
  const request = new XMLHttpRequest();
  request.open("GET", url, false);
  request.responseType = "arraybuffer";
  request.send();
  if (request.status !== 200) throw new Error(`${url}: HTTP ${request.status}`);
  return new Uint8Array(request.response);
}

// The finder of the rest of the library, asked only for modules no other finder has; it
// knows the rest's module names from an index in the compiled zip (tools/stdlib_cut.py).
const REST_FINDER = `
import sys
from importlib.machinery import PathFinder


class StdlibRestFinder:
    names = None

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        if cls.names is None:
            import zipimport
            core = next(p for p in sys.path if p.endswith(".zip"))
            index = zipimport.zipimporter(core).get_data("python_stdlib_rest.txt")
            cls.names = frozenset(index.decode().split())
        if fullname not in cls.names:
            return None
        import _pp_stdlib_rest
        if not _pp_stdlib_rest.mount(fullname):
            return None
        package = fullname.rpartition(".")[0].replace(".", "/")
        return PathFinder.find_spec(fullname, ["${REST_PATH}" + ("/" + package if package else "")])

    @classmethod
    def invalidate_caches(cls):
        pass


sys.meta_path.append(StdlibRestFinder)
`;

function addRest(pyodide) {
  let mounted = false;
  let fetched = null;
  idle = () => {
    idle = () => {};
    bytesOf(REST_URL).then((bytes) => (fetched = bytes), () => null);
  };
  pyodide.registerJsModule("_pp_stdlib_rest", {
    mount(name) {
      if (mounted) return true;
      try {
        const how = fetched ? "background" : "sync";
        report.restFirst = name;
        pyodide.FS.writeFile(REST_PATH, fetched ?? syncBytes(REST_URL));
        mounted = true;
        report.rest = how;
        tell();
      } catch (error) {
        console.warn("Pocket Patience: the rest of the standard library is not there:", error);
      }
      return mounted;
    },
  });
  pyodide.runPython(REST_FINDER);
}

try {
  const [lib, pairs] = await Promise.all([stdlib(), appFiles()]);
  const [pyodide, texts] = await Promise.all([
    loadPyodide({ indexURL: INDEX_URL, stdLibURL: lib.url }).finally(() => {
      if (lib.url.startsWith("blob:")) URL.revokeObjectURL(lib.url);
    }),
    Promise.all(pairs.map(([url]) => bytesOf(url))),
  ]);
  report.stdlib = lib.compiled ? "compiled" : "plain";
  if (lib.compiled) addRest(pyodide);
  pairs.forEach(([, path], i) => {
    pyodide.FS.mkdirTree(HOME + path.split("/").slice(0, -1).join("/"));
    pyodide.FS.writeFile(HOME + path, texts[i]);
  });
  const make = pyodide.runPython(
    "from web.deskworker import DeskWorker\n" +
    "def make(post):\n" +
    "    desk = DeskWorker(post)\n" +
    "    desk.desk.hold_gc = True  # no cyclic collection while solver tables live\n" +
    "    return desk\n" +
    "make");
  desk = make((text) => postMessage(text));
  tell(); // before the desk's "ready", so the page has the report once the solver is ready
  desk.start();
  for (const text of early.splice(0)) desk.receive(text);
  work();
} catch (error) {
  console.error("Pocket Patience: the solver's worker could not start:", error);
  postMessage(JSON.stringify({ kind: "error", error: String(error) }));
}
