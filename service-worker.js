// Pocket Patience service worker: precaches everything the app needs to start and play and
// serves it cache-first, so that after the first visit the app works with the network off.
//
// This file is a template. tools/precache.py fills in the BUILD line (the dev server on
// every request of /service-worker.js, `make dist` once): the precache list, each file
// with the SHA-256 of its content, and a cache name derived from all of them. Any change
// to a precached file therefore changes this script's bytes, the browser installs the new
// version in the background, and web/pwa.js offers "Update ready — reload". Served as it
// is (cache null), the worker does nothing and the app simply uses the network.
const BUILD = {"cache": null, "files": {}}; // @build

const PREFIX = "pocket-patience-";
const SCOPE = self.registration.scope;
const INDEX = new URL("./index.html", SCOPE).href;

self.addEventListener("install", (event) => {
  // No skipWaiting() here: a new version waits until the player chooses to reload, so a
  // game in progress is never switched to other files under its feet.
  if (BUILD.cache) event.waitUntil(precache());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names
      .filter((name) => name.startsWith(PREFIX) && name !== BUILD.cache)
      .map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (!BUILD.cache || request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  event.respondWith(respond(request, url));
});

let opened = null;
function ourCache() {
  opened ??= caches.open(BUILD.cache);
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

async function precache() {
  const cache = await caches.open(BUILD.cache);
  const older = (await caches.keys()).filter((n) => n.startsWith(PREFIX) && n !== BUILD.cache);
  await Promise.all(Object.entries(BUILD.files).map(async ([path, sha256]) => {
    const url = new URL(path, SCOPE).href;
    if (await cache.match(url)) return; // an install that is being retried
    const response = (await reusable(older, url, sha256)) || (await download(url));
    await cache.put(url, response);
  }));
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

async function download(url) {
  // Revalidate with the server rather than trusting the HTTP cache, which may hold an
  // older copy of a file that has changed.
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`precache: ${url} answered ${response.status}`);
  return response;
}

async function digest(buffer) {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
