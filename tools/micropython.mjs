// Runs a Python program under MicroPython in Node, with the engine's rules and the page's
// Python (web/*.py) importable.
//
//     node tools/micropython.mjs [--async] PROGRAM.py
//
// MicroPython is the WebAssembly build PyScript loads (npm
// @micropython/micropython-webassembly-pyscript, a dev dependency pinned at the version
// vendor/pyscript expects). engine/__init__.py, engine/rules/*.py and web/*.py are copied,
// as they are in this repository, into MicroPython's in-memory file system, whose root is
// first on its sys.path; the solver is not (it runs in CPython only), so the web/ modules
// that import it fail to import here. The program's output goes to
// stdout; a Python exception prints its traceback to stderr and exits with status 1.
// tests/engine/test_micropython.py plays games through it and compares them with CPython's;
// tests/web/test_micropython_web.py does the same with the page's modules.

import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

// With --async the program runs as PyScript runs a script, top-level await allowed.
const useAsync = process.argv[2] === "--async";
const program = process.argv[useAsync ? 3 : 2];
if (!program) {
  console.error("usage: node tools/micropython.mjs [--async] PROGRAM.py");
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
mp.FS.mkdir("/engine");
mp.FS.mkdir("/engine/rules");
mp.FS.writeFile("/engine/__init__.py", readFileSync(`${root}engine/__init__.py`));
for (const name of readdirSync(`${root}engine/rules`)) {
  if (name.endsWith(".py")) {
    mp.FS.writeFile(`/engine/rules/${name}`, readFileSync(`${root}engine/rules/${name}`));
  }
}
mp.FS.mkdir("/web");
for (const name of readdirSync(`${root}web`)) {
  if (name.endsWith(".py")) {
    mp.FS.writeFile(`/web/${name}`, readFileSync(`${root}web/${name}`));
  }
}
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
