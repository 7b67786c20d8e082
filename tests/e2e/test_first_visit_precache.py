"""The service worker's precache on a first visit: it starts only once the table is
playable (web/start/offline.js registers the worker then), and an install that was cut
short (the page closed half-way) resumes where it stopped: the files already in the new
version's cache are not downloaded again (service-worker.js precache)."""

from __future__ import annotations

from tests.e2e.conftest import READY_TIMEOUT_MS
from tests.e2e.startup_trail import wait_for_table
from tools import precache

# Puts ``files`` (path -> body) into ``cache`` with a header that a download would not have.
SEED_JS = """async ([name, files]) => {
  const cache = await caches.open(name);
  for (const [path, body] of Object.entries(files)) {
    await cache.put(new URL(path, location.origin + "/").href, new Response(body, {
      headers: { "x-seeded": "yes", "content-type": "text/plain" } }));
  }
}"""
WATCH_READY_JS = """new MutationObserver((_, observer) => {
  if (document.documentElement?.dataset.app === "ready") {
    observer.disconnect();
    window.__ppSaw("ready");
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-app"] });"""
SEEDED_JS = """async ([name, paths]) => {
  const cache = await caches.open(name);
  const seen = [];
  for (const path of paths) {
    const hit = await cache.match(new URL(path, location.origin + "/").href);
    seen.push(hit ? hit.headers.get("x-seeded") : null);
  }
  return seen;
}"""


def test_a_half_filled_precache_resumes_and_the_install_waits_for_the_table(
        pwa_context, pwa_page):
    page = pwa_page
    info = precache.build_info()
    name = precache.cache_name(info["version"], "/")
    # Two files, as a first visit that stopped half-way left them (right content).
    seeded = {p: (precache.ROOT / p.removeprefix("./")).read_text()
              for p in ("./web/start/loading.js", "./web/table/table.css")}
    page.goto("/pyscript.toml")  # the origin, without the app registering its worker
    page.evaluate(SEED_JS, [name, seeded])

    # In the order they happened: the table became playable, the worker downloaded.
    events: list[str] = []
    page.expose_function("__ppSaw", lambda event: events.append(event))
    page.add_init_script(WATCH_READY_JS)
    pwa_context.on("request", lambda request: events.append("worker download")
                   if request.service_worker else None)
    page.goto("/")
    wait_for_table(page, READY_TIMEOUT_MS)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=60_000)

    assert "worker download" in events
    assert events.index("ready") < events.index("worker download"), events
    # The seeded entries were kept, not fetched again; every other file was cached.
    assert page.evaluate(SEEDED_JS, [name, list(seeded)]) == ["yes", "yes"]
    count = page.evaluate("async (n) => (await (await caches.open(n)).keys()).length", name)
    assert count == len(info["files"])
