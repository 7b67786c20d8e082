// The page's first script, a classic one that runs where the head names it (before the
// module scripts): it starts the two biggest downloads of a start before anything else.
//
// Pyodide's wasm (9.6 MB) is compiled while PyScript loads; web/start/pyodide-loader.mjs hands
// the module to Pyodide (which otherwise starts this later).
if (WebAssembly.compileStreaming) {
  window.ppPyodideWasm = WebAssembly.compileStreaming(fetch("./vendor/pyodide/pyodide.asm.wasm"));
  window.ppPyodideWasm.catch(() => {}); // then Pyodide fetches it itself
}
// Python's precompiled standard library, also for web/start/pyodide-loader.mjs (a plain fetch:
// the loader's fetch of a <link rel=preload> of it sometimes failed).
window.ppStdlib = fetch("./vendor/pyodide/python_stdlib_compiled.zip");
window.ppStdlib.catch(() => {}); // then the loader tries again
