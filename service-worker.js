// Pocket Patience service worker: precaches everything the app needs to start and play and
// serves it cache-first, so that after the first visit the app works with the network off.
//
// This file is a template. tools/precache.py fills in the BUILD line (the dev server on
// every request of /service-worker.js, `make dist` once): the precache list, each file
// with the SHA-256 of its content, and a version derived from all of them. Any change
// to a precached file therefore changes this script's bytes, the browser installs the new
// version in the background, and web/start/offline.js offers "Update ready — reload". Served as it
// is (version null), the worker does nothing and the app simply uses the network.
//
// Several copies of the app may share one origin (a/ and b/ of one site): a cache name
// carries the key of this worker's scope (the app's folder) before the version, and a
// worker only ever deletes caches of its own scope, so no copy touches another's.
const BUILD = {"version": null, "files": {}}; // @build

const PREFIX = "pocket-patience-";
const SCOPE = self.registration.scope;
const INDEX = new URL("./index.html", SCOPE).href;
const OURS = `${PREFIX}${scopeKey(new URL(SCOPE).pathname)}-`;
const CACHE = BUILD.version && OURS + BUILD.version;
// The names the app's earlier versions used, with no scope in them; one of these is ours
// when it holds our page (a precache) or a snapshot of our Pyodide (the snapshot cache).
// Earlier versions also kept a snapshot of Python's memory in a cache of their scope; the
// app no longer makes one, so that cache is only deleted.
const UNSCOPED_PRECACHE = /^pocket-patience-[0-9a-f]{16}$/;
const UNSCOPED_SNAPSHOT = "pp-pyodide-snapshot";
const OUR_SNAPSHOT = `${UNSCOPED_SNAPSHOT}-${scopeKey(new URL(SCOPE).pathname)}`;
const PYODIDE = new URL("./vendor/pyodide/", SCOPE).href;

// The scope's key in cache names: FNV-1a (32 bits, hex) of the scope's path's UTF-8
// bytes. tools/precache.py computes the same.
function scopeKey(path) {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(path)) {
    hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}


self.addEventListener("install", (event) => {
  // No skipWaiting() here: a new version waits until the player chooses to reload, so a
  // game in progress is never switched to other files under its feet.
  if (CACHE) event.waitUntil(precache());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.map(async (name) => {
      if (name.startsWith(OURS) ? name !== CACHE
        : name === OUR_SNAPSHOT || await unscopedOfOurs(name)) {
        await caches.delete(name);
      }
    }));
    await self.clients.claim();
  })());
});

async function unscopedOfOurs(name) {
  if (UNSCOPED_PRECACHE.test(name)) return !!(await (await caches.open(name)).match(INDEX));
  if (name !== UNSCOPED_SNAPSHOT) return false;
  const keys = await (await caches.open(name)).keys();
  return keys.some((request) => request.url.startsWith(PYODIDE));
}

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (!CACHE || request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  event.respondWith(respond(request, url));
});

let opened = null;
function ourCache() {
  opened ??= caches.open(CACHE);
  return opened;
}

// The app's page for any navigation to the app's folder or its index.html, whatever the
// query (share links are ?game=..&deal=..); every other file by its exact URL.
function cacheKey(request, url) {
  if (request.mode !== "navigate") return request;
  const path = url.origin + url.pathname;
  return path === SCOPE || path === INDEX ? INDEX : request;
}

async function respond(request, url) {
  const cache = await ourCache();
  const hit = await cache.match(cacheKey(request, url), { ignoreVary: true });
  return hit || fetch(request);
}

// Every listed file with exactly the listed content, or no cache at all: an install that
// fails leaves the version in charge as it was, never a mix of two versions.
async function precache() {
  const cache = await caches.open(CACHE);
  const older = (await caches.keys()).filter((name) => name !== CACHE &&
    (name.startsWith(OURS) || UNSCOPED_PRECACHE.test(name)));
  const stop = new AbortController(); // one file failed: the others need not finish
  const results = await Promise.allSettled(Object.entries(BUILD.files).map(
    async ([path, sha256]) => {
      const url = new URL(path, SCOPE).href;
      try {
        if (await cache.match(url)) return; // an install that is being retried
        const response = (await reusable(older, url, sha256)) ||
          (await download(url, sha256, stop.signal));
        await cache.put(url, response);
      } catch (error) {
        stop.abort();
        throw error;
      }
    }));
  const failed = results.find((result) => result.status === "rejected");
  if (failed) {
    await caches.delete(CACHE);
    throw failed.reason;
  }
}

// A file an older version already holds with the same content: no need to download it
// again (the Pyodide runtime rarely changes when the app does).
async function reusable(names, url, sha256) {
  for (const name of names) {
    const hit = await (await caches.open(name)).match(url);
    if (hit && (await digest(await hit.clone().arrayBuffer())) === sha256) return hit;
  }
  return null;
}

// The file with the listed content. A mismatch means the server holds another version's
// file (a deploy during this install, or a stale copy on the way): asked once more past
// every HTTP cache, then given up. fetch() has already undone any Content-Encoding, so
// the body is the file's bytes.
async function download(url, sha256, signal) {
  // Revalidate with the server rather than trusting the HTTP cache, which may hold an
  // older copy of a file that has changed.
  for (const cache of ["no-cache", "reload"]) {
    const response = await fetch(url, { cache, signal });
    if (!response.ok) throw new Error(`precache: ${url} answered ${response.status}`);
    if ((await digest(await response.clone().arrayBuffer())) === sha256) return response;
    response.body?.cancel();
  }
  throw new Error(`precache: ${url} differs from the content this version lists`);
}

async function digest(buffer) {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
