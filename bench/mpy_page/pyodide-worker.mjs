// bench/mpy_page: Pyodide started in a worker after MicroPython's table is ready (page.js,
// ?worker=1), where the solver would run. It only starts Python and says so: "ready",
// or "error" with the reason on the console.
import { loadPyodide } from "../../vendor/pyodide/pyodide.mjs";

const indexURL = new URL("../../vendor/pyodide/", import.meta.url).href;
try {
  const pyodide = await loadPyodide({
    indexURL,
    stdLibURL: new URL("./python_stdlib_compiled.zip", indexURL).href,
  });
  pyodide.runPython("import json");
  postMessage("ready");
} catch (error) {
  console.error("pyodide worker:", error);
  postMessage("error");
}
