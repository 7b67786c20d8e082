// Writes Pyodide's standard library compiled to .pyc, by Pyodide's own Python, in Node:
//
//     node tools/stdlib_pyc.mjs PYODIDE_DIR OUT_ZIP [SPEC_JSON OUT_MODULES_JSON]
//
// PYODIDE_DIR holds a Pyodide distribution (pyodide.mjs, the wasm, python_stdlib.zip, ...);
// its interpreter starts, and tools/pyc_zip.py (compiled_zip) turns the python_stdlib.zip
// it mounted into OUT_ZIP. tools/vendor.py runs this; see tools/pyc_zip.py for the format.
//
// With SPEC_JSON ({"files": {path in Python's file system: path here}, "code": Python}),
// first, in the fresh interpreter, the files are written under /app, /app goes first on
// sys.path, the code runs, and the names in sys.modules are written to OUT_MODULES_JSON:
// the start-up import closure that tools/stdlib_cut.py cuts the library by.

import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dir, out, specPath, modulesOut] = process.argv.slice(2);
if (!dir || !out) {
  console.error("usage: node tools/stdlib_pyc.mjs PYODIDE_DIR OUT_ZIP");
  process.exit(2);
}
const indexURL = resolve(dir) + "/";
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL });
if (specPath) {
  const spec = JSON.parse(await readFile(specPath, "utf8"));
  for (const [path, source] of Object.entries(spec.files)) {
    const file = "/app/" + path;
    pyodide.FS.mkdirTree(file.slice(0, file.lastIndexOf("/")));
    pyodide.FS.writeFile(file, await readFile(source));
  }
  pyodide.runPython("import sys\nsys.path.insert(0, '/app')");
  pyodide.runPython(spec.code);
  const names = pyodide.runPython("import sys\n'\\n'.join(sorted(sys.modules))");
  await writeFile(modulesOut, JSON.stringify(names.split("\n")));
  console.log(`stdlib_pyc: ${names.split("\n").length} modules imported at start`);
}
const helper = new URL("./pyc_zip.py", import.meta.url);
pyodide.FS.mkdirTree("/tools");
pyodide.FS.writeFile("/tools/pyc_zip.py", await readFile(helper));
const result = pyodide.runPython(`
import sys
sys.path.insert(0, "/tools")
from pyc_zip import compiled_zip
archive = next(p for p in sys.path if p.endswith(".zip"))
with open(archive, "rb") as f:
    data = compiled_zip(f.read(), archive)
with open("/tools/out.zip", "wb") as f:
    f.write(data)
archive
`);
await writeFile(out, pyodide.FS.readFile("/tools/out.zip"));
console.log(`stdlib_pyc: ${result} compiled -> ${out}`);
