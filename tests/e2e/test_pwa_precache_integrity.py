"""The service worker precaches each file only with the SHA-256 its version lists: a
download with other bytes (a deploy during the install, a stale copy on the way) is asked
for once more past every HTTP cache, and if it is still wrong the install fails, leaving no
cache of the new version and the old version in charge."""

from __future__ import annotations

import hashlib
import http
import io
import shutil
import threading
import urllib.parse
from pathlib import Path

import pytest

from tests.e2e.conftest import watch, watch_page
from tests.e2e.test_pwa_offline import ready, wait_controlled
from tools import precache
from tools.build_dist import build
from tools.serve import Handler, Server, start_server

# Waits for the outcome of the next install the registration starts: "installed" (the new
# version waits for the player), or "redundant" (the install failed).
UPDATE_JS = """async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    const found = new Promise((resolve) =>
        reg.addEventListener('updatefound', () => resolve(reg.installing), {once: true}));
    reg.update().catch(() => {});
    const worker = await found;
    const done = () => ['installed', 'activated', 'redundant'].includes(worker.state);
    if (!done()) {
        await new Promise((resolve) => worker.addEventListener('statechange',
            () => done() && resolve()));
    }
    return worker.state;
}"""
CACHE_NAMES = "caches.keys().then((names) => names.sort())"


def new_version(site: Path, work: Path) -> tuple[Path, str]:
    """``make dist`` of another version of the app in ``site`` (one CSS comment changed):
    the folder and its version."""
    source = work / "source"
    shutil.copytree(site, source)
    css = source / "web" / "table" / "table.css"
    css.write_text("/* next version */\n" + css.read_text())
    return work / "dist", build(work / "dist", root=source)["version"]


def open_controlled(browser, browser_log, url: str):
    """A context and a page of the app at ``url``, ready and served by its service worker."""
    context = browser.new_context(base_url=url, service_workers="allow")
    watch(context, browser_log, url, block=False)
    page = context.new_page()
    watch_page(page, browser_log)
    page.goto("/")
    ready(page)
    wait_controlled(page)
    return context, page


def test_a_file_that_differs_from_its_listed_hash_fails_the_update(
        browser, browser_log, tmp_path):
    site = tmp_path / "site"
    first = build(site)["version"]
    shutil.copy(site / "web" / "table" / "table.css", tmp_path / "first.css")
    server, url = start_server(site)
    context, page = open_controlled(browser, browser_log, url)
    try:
        # A deploy of the next version, where the one file that changed is not what the
        # list says (the files that did not change are copied from the old cache).
        nxt, second = new_version(site, tmp_path / "next")
        css = nxt / "web" / "table" / "table.css"
        css.write_text(css.read_text() + "\n/* from yet another build */\n")
        shutil.copytree(nxt, site, dirs_exist_ok=True)

        assert page.evaluate(UPDATE_JS) == "redundant"
        assert page.evaluate(CACHE_NAMES) == [precache.cache_name(first, "/")]
        assert precache.cache_name(second, "/") != precache.cache_name(first, "/")
        # The old version is still in charge: the page comes from it.
        page.reload()
        ready(page)
        served = page.evaluate("fetch('web/table/table.css').then((r) => r.text())")
        assert "next version" not in served and "yet another build" not in served
        assert served == (tmp_path / "first.css").read_text()
    finally:
        context.close()
        server.shutdown()
        server.server_close()


@pytest.fixture
def stale_once(tmp_path):
    """A built app whose server answers web/table/table.css with another version's bytes unless
    the request bypasses every cache (`cache: "reload"` sends `Pragma: no-cache`), as a
    proxy or CDN that still holds the old file would; it counts those requests."""
    site = tmp_path / "site"
    version = build(site)["version"]
    target = "/web/table/table.css"
    right = (site / "web" / "table" / "table.css").read_bytes()
    reloads: list[str] = []

    class StaleOnce(Handler):
        quiet = True

        def send_head(self):
            path = urllib.parse.urlsplit(self.path).path
            if path != target:
                return super().send_head()
            if "no-cache" in (self.headers.get("Pragma") or ""):
                reloads.append(path)
                return super().send_head()
            body = b"/* an older version */\n" + right
            self.send_response(http.HTTPStatus.OK)
            self.send_header("Content-Type", "text/css; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)

    directory = str(site.resolve())
    server = Server(("127.0.0.1", 0),
                    lambda *args, **kw: StaleOnce(*args, directory=directory, **kw))
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                     daemon=True).start()
    yield version, f"http://127.0.0.1:{server.server_address[1]}", reloads, right
    server.shutdown()
    server.server_close()


def test_a_stale_download_is_fetched_again_past_the_caches(browser, browser_log, stale_once):
    version, url, reloads, right = stale_once
    context, page = open_controlled(browser, browser_log, url)
    try:
        assert reloads == ["/web/table/table.css"]  # asked once more, and only for that file
        cached = page.evaluate("""async (name) => {
            const response = await (await caches.open(name)).match('./web/table/table.css');
            return Array.from(new Uint8Array(await response.arrayBuffer()));
        }""", precache.cache_name(version, "/"))
        assert hashlib.sha256(bytes(cached)).hexdigest() == hashlib.sha256(right).hexdigest()
    finally:
        context.close()
