// The interpreter module mpy.toml names: MicroPython's own loadMicroPython, handed the wasm
// that web/start/early.js started downloading as the page began to load (and counted for
// the loading screen), once a reload's picture of the last table is on screen. PyScript asks for the wasm beside this module's URL, where there
// is none: the download of early.js as a blob, else the vendored file, is used instead.

import { loadMicroPython as load } from "../../vendor/micropython/micropython.mjs";

const WASM_URL = new URL("../../vendor/micropython/micropython.wasm", import.meta.url).href;

async function earlyWasm() {
  try {
    const blob = await window.ppMicroPythonWasm;
    if (!blob) return WASM_URL; // not served: MicroPython asks for it itself
    return URL.createObjectURL(blob);
  } catch {
    return WASM_URL; // a failed early download: MicroPython fetches the file itself
  }
}

// One frame, then a task: whatever is on screen by now gets painted first.
function painted() {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

export async function loadMicroPython(options = {}) {
  const url = await earlyWasm();
  // The picture of the last table (web/start/picture.js) is painted before MicroPython's
  // start takes the main thread.
  if (document.documentElement.dataset.picture) await painted();
  try {
    return await load({ ...options, url });
  } finally {
    if (url.startsWith("blob:")) URL.revokeObjectURL(url);
  }
}
