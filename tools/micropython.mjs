// Runs a Python program under MicroPython in Node, with the engine's rules and the page's
// Python (web/*.py) importable.
//
//     node tools/micropython.mjs [--async] [--tree DIR] PROGRAM.py
//
// MicroPython is the WebAssembly build PyScript loads (npm
// @micropython/micropython-webassembly-pyscript, pinned in package.json at the version
// vendor/pyscript expects). engine/__init__.py, engine/rules/*.py and web/*.py are copied,
// as they are in this repository, into MicroPython's in-memory file system, whose root is
// first on its sys.path; the solver is not (it runs in CPython only), so the web/ modules
// that import it fail to import here. With --tree DIR the engine/ and web/ files are
// taken from DIR instead, every file there as it is (tools/mpy_build.py writes such a
// tree of precompiled .mpy files). The program's output goes to
// stdout; a Python exception prints its traceback to stderr and exits with status 1.
// tests/engine/test_micropython.py plays games through it and compares them with CPython's;
// tests/web/test_micropython_web.py does the same with the page's modules.

import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

// With --async the program runs as PyScript runs a script, top-level await allowed.
const args = process.argv.slice(2);
const useAsync = args[0] === "--async";
if (useAsync) args.shift();
const tree = args[0] === "--tree" ? args.splice(0, 2)[1] : null;
const program = args[0];
if (!program || args.length !== 1) {
  console.error("usage: node tools/micropython.mjs [--async] [--tree DIR] PROGRAM.py");
  process.exit(2);
}
const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = `${root}node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs`;
let loadMicroPython;
try {
  ({ loadMicroPython } = await import(pkg));
} catch (error) {
  console.error(`micropython: cannot load ${pkg} (run npm ci; make test does): ${error.message}`);
  process.exit(3);
}
const out = [];
const mp = await loadMicroPython({
  heapsize: 64 * 1024 * 1024,
  stdout: (line) => out.push(line),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
// Every file under `from`/`folder`, as it is, into MicroPython's `folder` (one level deep
// for web/; engine/rules/ is a sub-folder): only .py files when `pyOnly`.
function copyInto(from, folder, pyOnly) {
  mp.FS.mkdir(`/${folder}`);
  for (const entry of readdirSync(`${from}/${folder}`, { withFileTypes: true })) {
    const rel = `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (rel === "engine/rules" || (!pyOnly && entry.name !== "__pycache__")) {
        copyInto(from, rel, pyOnly);
      }
    } else if (!pyOnly || entry.name.endsWith(".py")) {
      mp.FS.writeFile(`/${rel}`, readFileSync(`${from}/${rel}`));
    }
  }
}
const from = tree ?? root.replace(/\/$/, "");
copyInto(from, "engine", tree === null);
copyInto(from, "web", tree === null);
let status = 0;
try {
  if (useAsync) {
    await mp.runPythonAsync(readFileSync(program, "utf8"));
  } else {
    mp.runPython(readFileSync(program, "utf8"));
  }
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  status = 1;
}
// exitCode, not exit(): a pipe takes the output asynchronously, and exit() would cut it
process.stdout.write(out.map((line) => `${line}\n`).join(""));
process.exitCode = status;
