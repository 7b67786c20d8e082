// bench/mpy_page: the solver's side, Pyodide in a worker, started by page.js once
// MicroPython's table is ready. It writes the app's Python files into Pyodide's file system
// (the list of the app's pyscript.toml, [files] and [files_after_start]), then runs
// web/deskworker.py's DeskWorker: the page's messages in (JSON text), its answers out,
// and its work one slice a task, so that a message arriving between two slices is read
// before the next (a move drops the search under way).
import { loadPyodide } from "../../vendor/pyodide/pyodide.mjs";

const ROOT = new URL("../../", import.meta.url);
const early = []; // messages that came while Python was starting
let desk = null;
let working = false;
const tick = new MessageChannel(); // a task without setTimeout's clamping

function work() {
  if (working) return;
  working = true;
  tick.port2.postMessage(0);
}
tick.port1.onmessage = () => {
  working = false;
  if (desk.step()) work();
};
onmessage = (event) => {
  if (!desk) {
    early.push(event.data);
    return;
  }
  desk.receive(event.data);
  work();
};

async function files() {
  const toml = await (await fetch(new URL("pyscript.toml", ROOT))).text();
  return [...toml.matchAll(/^"\.\/([^"]+)" = "\1"$/gm)].map((m) => m[1]);
}

try {
  const indexURL = new URL("vendor/pyodide/", ROOT).href;
  const [pyodide, paths] = await Promise.all([
    loadPyodide({ indexURL, stdLibURL: new URL("./python_stdlib_compiled.zip", indexURL).href }),
    files(),
  ]);
  // The compiled standard library holds only what the app's start imports; the rest
  // (2.96 MB, served uncompressed) is fetched when a module of it is first imported, with
  // a synchronous request (allowed in a worker), as the app's loader does on the main
  // thread. The solver's lists need it (their ascii codec); the first verdict does not.
  const REST = "/lib/python_stdlib_rest.zip";
  let mounted = false;
  pyodide.registerJsModule("_pp_rest", {
    mount: () => {
      if (!mounted) {
        const request = new XMLHttpRequest();
        request.open("GET", new URL("./python_stdlib_rest.zip", indexURL).href, false);
        request.responseType = "arraybuffer";
        request.send();
        if (request.status !== 200) return false;
        pyodide.FS.writeFile(REST, new Uint8Array(request.response));
        mounted = true;
      }
      return true;
    },
  });
  const texts = await Promise.all(paths.map(async (path) => {
    const response = await fetch(new URL(path, ROOT));
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }));
  const home = "/home/pyodide/";
  paths.forEach((path, i) => {
    pyodide.FS.mkdirTree(home + path.split("/").slice(0, -1).join("/"));
    pyodide.FS.writeFile(home + path, texts[i]);
  });
  const make = pyodide.runPython(
    // The rest of the library, for the modules no other finder has (a package's module
    // there, such as encodings.ascii, is looked up in that package's folder of the zip).
    "import sys\n" +
    "from importlib.machinery import PathFinder\n" +
    "class Rest:\n" +
    "    @classmethod\n" +
    "    def find_spec(cls, name, path=None, target=None):\n" +
    "        import _pp_rest\n" +
    "        if name.startswith(('engine', 'web', '_pp')) or not _pp_rest.mount():\n" +
    "            return None\n" +
    "        package = name.rpartition('.')[0].replace('.', '/')\n" +
    "        where = '" + REST + "' + ('/' + package if package else '')\n" +
    "        return PathFinder.find_spec(name, [where])\n" +
    "sys.meta_path.append(Rest)\n" +
    "from web.deskworker import DeskWorker\n" +
    "def make(post):\n" +
    "    desk = DeskWorker(post)\n" +
    "    desk.desk.hold_gc = True\n" +
    "    return desk\n" +
    "make");
  desk = make((text) => postMessage(text));
  desk.start();
  for (const text of early.splice(0)) desk.receive(text);
  work();
} catch (error) {
  console.error("pyodide worker:", error);
  postMessage(JSON.stringify({ kind: "error", error: String(error) }));
}
