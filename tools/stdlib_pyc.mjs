// Writes Pyodide's standard library compiled to .pyc, by Pyodide's own Python, in Node:
//
//     node tools/stdlib_pyc.mjs PYODIDE_DIR OUT_ZIP
//
// PYODIDE_DIR holds a Pyodide distribution (pyodide.mjs, the wasm, python_stdlib.zip, ...);
// its interpreter starts, and tools/pyc_zip.py (compiled_zip) turns the python_stdlib.zip
// it mounted into OUT_ZIP. tools/vendor.py runs this; see tools/pyc_zip.py for the format.

import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dir, out] = process.argv.slice(2);
if (!dir || !out) {
  console.error("usage: node tools/stdlib_pyc.mjs PYODIDE_DIR OUT_ZIP");
  process.exit(2);
}
const indexURL = resolve(dir) + "/";
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL });
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
