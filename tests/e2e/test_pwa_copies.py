"""Two copies of the app on one origin (a GitHub Pages project site, /a/ and /b/) never
touch each other's caches: each service worker keeps its precache under a name scoped to
its own folder and deletes only its own scope's old caches (the Python snapshots earlier
versions kept too)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, BrowserLog, watch, watch_page
from tests.e2e.test_pwa_offline import ready, wait_controlled
from tools import precache
from tools.build_dist import build
from tools.serve import start_server

CACHE_NAMES = "caches.keys().then((names) => names.sort())"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> dict:
    """``make dist`` twice, the second with one CSS comment changed (so another version
    with another content hash), as the folders a/ and b/ of one site."""
    top = tmp_path_factory.mktemp("copies")
    root = top / "site"
    versions = {"a": build(root / "a")["version"]}
    source_b = top / "source-b"
    shutil.copytree(root / "a", source_b)
    css = source_b / "web" / "table" / "table.css"
    css.write_text("/* copy b */\n" + css.read_text())
    versions["b"] = build(root / "b", root=source_b)["version"]
    assert versions["a"] != versions["b"]
    (root / "blank.html").write_text(
        '<!doctype html><title>blank</title><link rel="icon" href="data:,">\n')
    return {"root": root, "versions": versions}


def launch(browser, profile: Path, url: str, log: BrowserLog):
    """Chromium on a profile kept on disk, so that a second launch is a browser restart."""
    context = browser.browser_type.launch_persistent_context(
        str(profile), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, base_url=url)
    watch(context, log, url, block=False)
    return context


def open_page(context, log: BrowserLog):
    page = context.pages[0] if context.pages else context.new_page()
    watch_page(page, log)
    return page


def install(page, path: str) -> None:
    """Visit and let the service worker take the page: its precache is complete."""
    page.goto(path)
    ready(page)
    wait_controlled(page)


def solver_up(page) -> None:
    """The solver's worker (Pyodide) started: its files came from this copy's cache."""
    page.wait_for_function(
        "() => performance.getEntriesByName('pp:solver-ready').length"
        " || performance.getEntriesByName('pp:solver-error').length", timeout=120_000)
    assert page.evaluate("performance.getEntriesByName('pp:solver-ready').length") == 1


def expected_caches(site: dict) -> list[str]:
    return sorted(precache.cache_name(site["versions"][folder], f"/{folder}/")
                  for folder in ("a", "b"))


def test_two_copies_on_one_origin_both_start_offline_after_a_browser_restart(
        browser, site, tmp_path):
    profile = tmp_path / "profile"
    log = BrowserLog()
    server, url = start_server(site["root"])
    try:
        context = launch(browser, profile, url, log)
        try:
            page = open_page(context, log)
            install(page, "/a/")
            install(page, "/b/")
        finally:
            context.close()
    finally:
        server.shutdown()
        server.server_close()

    # The server is gone and the browser is offline: only the service workers can answer.
    context = launch(browser, profile, url, log)
    try:
        context.set_offline(True)
        page = open_page(context, log)
        for folder in ("a", "b"):
            page.goto(f"/{folder}/")
            ready(page)
            # The page's own copy: b's CSS starts with its comment, a's does not.
            css = page.evaluate("fetch('web/table/table.css').then((r) => r.text())")
            assert css.startswith("/* copy b */") == (folder == "b")
            solver_up(page)
        assert page.evaluate(CACHE_NAMES) == expected_caches(site)
    finally:
        context.close()
    assert log.problems() == []


def seed_old_format_caches(page) -> None:
    """Caches as the app's earlier versions named them: with no scope in the name, a
    precache of /a/ and one of /b/, and the one snapshot cache shared by every copy (last
    written by /a/); with a scope, each copy's snapshot cache."""
    page.evaluate("""async ([a, b]) => {
        const put = async (name, path) =>
            (await caches.open(name)).put(new URL(path, location.href).href,
                                          new Response('old'));
        await put('pocket-patience-0123456789abcdef', '/a/index.html');
        await put('pocket-patience-fedcba9876543210', '/b/index.html');
        await put('pp-pyodide-snapshot',
                  '/a/vendor/pyodide/pyodide-snapshot-0.0.0-compiled-app-0123456789abcdef.bin');
        await put(a, '/a/vendor/pyodide/pyodide-snapshot-0.0.0-compiled-app-1.bin');
        await put(b, '/b/vendor/pyodide/pyodide-snapshot-0.0.0-compiled-app-2.bin');
    }""", [precache.snapshot_cache_name("/a/"), precache.snapshot_cache_name("/b/")])


def test_a_service_worker_deletes_old_caches_of_its_own_folder_only(browser, site, tmp_path):
    log = BrowserLog()
    server, url = start_server(site["root"])
    context = launch(browser, tmp_path / "profile", url, log)
    try:
        page = open_page(context, log)
        page.goto("/blank.html")  # same origin, outside both scopes
        seed_old_format_caches(page)
        page.goto("/b/")
        ready(page)
        wait_controlled(page)
        assert page.evaluate(CACHE_NAMES) == sorted([
            precache.cache_name(site["versions"]["b"], "/b/"),
            # /a/'s: not for /b/'s worker to delete.
            "pocket-patience-0123456789abcdef",
            "pp-pyodide-snapshot",
            precache.snapshot_cache_name("/a/"),
        ])
        page.goto("/a/")
        ready(page)
        wait_controlled(page)
        assert page.evaluate(CACHE_NAMES) == sorted([
            precache.cache_name(site["versions"]["a"], "/a/"),
            precache.cache_name(site["versions"]["b"], "/b/"),
        ])
    finally:
        context.close()
        server.shutdown()
        server.server_close()
    assert log.problems() == []
