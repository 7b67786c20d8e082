// Makes a Pyodide memory snapshot (see web/start/pyodide-loader.mjs) away from the page: starts
// a fresh interpreter with _makeSnapshot, writes the app's files into its file system as
// PyScript does (the [files] table of pyscript.toml), imports the modules it is given,
// copies the interpreter's memory, stores it in Cache Storage under the key it is given,
// and answers "saved" (or "error: ..."). Any older snapshot in that cache (the cache of
// this copy of the app alone: its name carries the app's folder) is deleted first, so one
// snapshot at most is kept. The files come through the page's service worker, so they are
// those of the version the key names.

import { loadPyodide } from "../../vendor/pyodide/pyodide.mjs";

addEventListener("message", async ({ data }) => {
  try {
    const pyodide = await loadPyodide({
      indexURL: data.indexURL,
      stdLibURL: data.stdLibURL, // the standard library the page started with
      _makeSnapshot: true,
    });
    if (data.modules.length) {
      await writeFiles(pyodide, await appFiles(data.config));
      pyodide.runPython(data.modules.map((name) => `import ${name}`).join("\n"));
    }
    const snapshot = pyodide.makeMemorySnapshot();
    await caches.delete(data.cache);
    const cache = await caches.open(data.cache);
    await cache.put(data.key, new Response(snapshot, {
      headers: { "Content-Type": "application/octet-stream" },
    }));
    postMessage("saved");
  } catch (error) {
    postMessage(`error: ${error}`);
  }
});

// The [files] table of pyscript.toml as [url, path] pairs; tools/check_pyscript_files.py
// writes it as one `"./<file>" = "<path>"` line per file.
async function appFiles(configURL) {
  const response = await fetch(configURL);
  if (!response.ok) throw new Error(`${configURL}: HTTP ${response.status}`);
  const [, table = ""] = (await response.text()).split(/^\[files\][ \t]*$/m);
  const [files] = table.split(/^\[/m);
  return [...files.matchAll(/^"([^"]+)"\s*=\s*"([^"]+)"/gm)]
    .map(([, url, path]) => [new URL(url, configURL).href, path]);
}

// Each file at its path under the current directory, where PyScript puts it in the page.
async function writeFiles(pyodide, files) {
  const { FS } = pyodide;
  const home = FS.cwd();
  await Promise.all(files.map(async ([url, path]) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    const full = `${home}/${path}`;
    FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
    FS.writeFile(full, new Uint8Array(await response.arrayBuffer()));
  }));
}
