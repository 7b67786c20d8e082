// The page's first script, a classic one that runs where the head names it (before the
// module scripts): it starts the two biggest downloads of a start before anything else.
//
// Pyodide's wasm (9.6 MB) is compiled while PyScript loads; web/start/pyodide-loader.mjs hands
// the module to Pyodide (which otherwise starts this later).
//
// Both downloads are counted as their bytes arrive (window.ppBytes, and a "pp:bytes" event
// on window each time it grows), so that the loading screen (web/start/loading.js) shows
// real progress. ppBytes.total is the sum of the Content-Lengths, or null while one is not
// known: a compressed response's Content-Length is its compressed size, while the body
// read here is decoded, so such a download leaves the total unknown.
window.ppBytes = { received: 0, total: 0, pending: 2 };

function ppCounted(download) {
  return download.then((response) => {
    const bytes = window.ppBytes;
    const length = Number(response.headers.get("content-length"));
    const encoded = response.headers.has("content-encoding");
    bytes.total = bytes.total !== null && length > 0 && !encoded ? bytes.total + length : null;
    bytes.pending -= 1;
    if (!response.body || !response.ok) return response;
    const reader = response.body.getReader();
    const counted = new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        bytes.received += value.byteLength;
        dispatchEvent(new Event("pp:bytes"));
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    // Same status and headers (compileStreaming needs Content-Type: application/wasm).
    return new Response(counted, response);
  });
}

if (WebAssembly.compileStreaming) {
  window.ppPyodideWasm = WebAssembly.compileStreaming(
    ppCounted(fetch("./vendor/pyodide/pyodide.asm.wasm")));
  window.ppPyodideWasm.catch(() => {}); // then Pyodide fetches it itself
} else {
  window.ppBytes.pending -= 1;
}
// Python's precompiled standard library, also for web/start/pyodide-loader.mjs (a plain fetch:
// the loader's fetch of a <link rel=preload> of it sometimes failed).
window.ppStdlib = ppCounted(fetch("./vendor/pyodide/python_stdlib_compiled.zip"));
window.ppStdlib.catch(() => {}); // then the loader tries again
