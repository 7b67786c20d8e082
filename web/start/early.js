// The page's first script, a classic one that runs where the head names it (before the
// module scripts): it starts the biggest download of a start before anything else.
//
// MicroPython's wasm (the interpreter of the main thread, 446 kB, 170 kB as brotli) is
// fetched while PyScript loads; web/start/micropython-loader.mjs hands it to MicroPython
// (which otherwise asks for it only once PyScript has read its config).
//
// The download is counted as its bytes arrive (window.ppBytes, and a "pp:bytes" event on
// window each time it grows), so that the loading screen (web/start/loading.js) shows real
// progress. ppBytes.total is the Content-Length, or null while it is not known: a
// compressed response's Content-Length is its compressed size, while the body read here
// is decoded, so such a download leaves the total unknown.
window.ppBytes = { received: 0, total: 0, pending: 1 };

// The wasm as a Blob (null when it is not served), read as its bytes arrive rather than
// when MicroPython asks for it, so that the count moves with the network.
async function ppDownload(url) {
  const response = await fetch(url);
  const bytes = window.ppBytes;
  const length = Number(response.headers.get("content-length"));
  const encoded = response.headers.has("content-encoding");
  bytes.total = length > 0 && !encoded ? length : null;
  bytes.pending -= 1;
  if (!response.ok || !response.body) return null;
  const chunks = [];
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes.received += value.byteLength;
    dispatchEvent(new Event("pp:bytes"));
  }
  return new Blob(chunks, { type: "application/wasm" });
}

window.ppMicroPythonWasm = ppDownload("./vendor/micropython/micropython.wasm");
window.ppMicroPythonWasm.catch(() => {}); // then the loader fetches it itself
