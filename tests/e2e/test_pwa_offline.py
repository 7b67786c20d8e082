"""Offline and installable (docs/architecture.md §4): the service worker precaches the app, a
reload with the network off gives the table as it was, Chromium reports no installability
errors."""

from __future__ import annotations

import json
import shutil

import pytest

import engine
from tests.e2e.conftest import READY_TIMEOUT_MS, ROOT
from tests.e2e.startup_trail import wait_for_table
from tests.e2e.table_helpers import PILES_JS
from tools import precache
from tools.serve import start_server


def ready(page) -> None:
    wait_for_table(page, READY_TIMEOUT_MS)


def dom_view(game: engine.Game) -> dict[str, list[str]]:
    return {p: ["down" if c.islower() else c for c in cs]
            for p, cs in game.position()["piles"].items()}


def play_in_both(page, game: engine.Game, n: int) -> None:
    """Play the first legal move ``n`` times in the page and in the CPython game."""
    for _ in range(n):
        move = game.legal_moves()[0]
        game.play(move)
        page.evaluate("(m) => window.ppTable.act('play', m)",
                      {"src": move.src, "dst": move.dst, "count": move.count})


def wait_controlled(page) -> None:
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=30_000)


def test_offline_reload_gives_the_table_as_it_was(pwa_context, pwa_page):
    page = pwa_page
    page.goto("/?game=klondike&deal=20250")
    ready(page)
    wait_controlled(page)
    game = engine.new_game("klondike", 20250)
    play_in_both(page, game, 3)
    page.evaluate("window.ppTable.act('undo')")
    game.undo()
    assert page.evaluate(PILES_JS) == dom_view(game)

    pwa_context.set_offline(True)
    left: list[str] = []
    pwa_context.route("**/*", lambda route: (left.append(route.request.url), route.abort()))
    page.reload()
    ready(page)
    assert page.evaluate(PILES_JS) == dom_view(game)
    page.evaluate("window.ppTable.act('redo')")
    game.redo()
    assert page.evaluate(PILES_JS) == dom_view(game)
    # The solver's worker starts offline too (Pyodide and the solver's files come from the
    # precache) and gives the position in play its verdict.
    page.wait_for_function(
        "() => performance.getEntriesByName('pp:solver-ready').length"
        " || performance.getEntriesByName('pp:solver-error').length", timeout=120_000)
    assert page.evaluate("window.ppSolverReport.stdlib") == "compiled"
    page.wait_for_function("() => ['won', 'lost', 'unknown'].includes("
                           "document.documentElement.dataset.verdict)", timeout=120_000)
    assert left == [], f"requests left the page while offline: {left}"
    cached = page.evaluate("""async () => {
        const names = await caches.keys();
        return names.filter((n) => n.startsWith('pocket-patience-'));
    }""")
    # One versioned cache, named by the app's folder and the content hash.
    assert cached == [precache.cache_name(precache.build_info()["version"], "/")]


def test_the_first_complete_precache_says_ready_to_play_offline_once(pwa_page):
    page = pwa_page
    page.goto("/")
    ready(page)
    notice = page.locator('[data-notice="offline-ready"]')
    notice.wait_for(state="attached", timeout=60_000)
    assert notice.inner_text() == "Ready to play offline"
    # It stands above the status bar, which stays readable.
    box, status = notice.bounding_box(), page.locator(".status").bounding_box()
    assert box["y"] + box["height"] <= status["y"], (box, status)
    wait_controlled(page)
    # Every listed file is in the cache by then.
    assert page.evaluate("""async (n) => {
        const names = (await caches.keys()).filter((k) => k.startsWith('pocket-patience-'));
        return names.length === 1 && (await (await caches.open(names[0])).keys()).length >= n;
    }""", len(precache.build_info()["files"]))
    # A later start, served by the worker, does not say it again.
    page.reload()
    ready(page)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    assert page.locator('[data-notice="offline-ready"]').count() == 0


def test_service_worker_precaches_with_a_content_hash_cache_name(pwa_page, base_url):
    page = pwa_page
    page.goto("/")
    ready(page)
    wait_controlled(page)
    info = precache.build_info()
    cached = page.evaluate("""async () => {
        const names = (await caches.keys()).filter((n) => n.startsWith('pocket-patience-'));
        const keys = await (await caches.open(names[0])).keys();
        return {names, urls: keys.map((r) => r.url)};
    }""")
    assert cached["names"] == [precache.cache_name(info["version"], "/")]
    assert sorted(cached["urls"]) == sorted(base_url + url[1:] for url in info["files"])


def test_chromium_reports_no_installability_errors(browser, base_url, tmp_path):
    # A persistent profile: Playwright's ordinary contexts are incognito, where Chromium
    # never offers to install anything.
    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS

    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
        base_url=base_url)
    try:
        page = context.new_page()
        page.goto("/")
        ready(page)
        wait_controlled(page)
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == []
        data = json.loads(manifest["data"])
        assert data["display"] == "standalone" and data["short_name"]
        assert page.get_attribute('link[rel="apple-touch-icon"]', "href")
    finally:
        context.close()


@pytest.fixture
def app_copy(tmp_path):
    """The app served from a folder of links to the repository, where one precached file
    (the manifest) is a real copy that a test may change like a new build would."""
    root = tmp_path / "site"
    root.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in (".git", "node_modules", "tests", "dist", "manifest.webmanifest"):
            (root / entry.name).symlink_to(entry)
    shutil.copy(ROOT / "manifest.webmanifest", root / "manifest.webmanifest")
    server, url = start_server(root)
    yield root, url
    server.shutdown()
    server.server_close()


def test_a_new_version_waits_for_the_player_to_reload(browser, app_copy):
    """Updates: the new worker installs in the background; the page shows "Update ready",
    never reloads by itself, and the game in progress is still there after the reload."""
    root, url = app_copy
    context = browser.new_context(base_url=url, service_workers="allow")
    try:
        page = context.new_page()
        page.goto("/?game=spider-2&deal=31337")
        ready(page)
        wait_controlled(page)
        game = engine.new_game("spider-2", 31337)
        play_in_both(page, game, 2)
        manifest = root / "manifest.webmanifest"
        manifest.write_text(manifest.read_text() + "\n")  # a new build
        page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        notice = page.locator('[data-notice="update"]')
        notice.wait_for(timeout=60_000)
        assert "Update ready" in notice.inner_text()
        assert page.evaluate(PILES_JS) == dom_view(game)  # nothing reloaded by itself
        with page.expect_navigation():
            page.click('[data-action="update-reload"]')
        ready(page)
        assert page.evaluate(PILES_JS) == dom_view(game)
        names = page.evaluate("caches.keys()")
        assert [n for n in names if n.startswith("pocket-patience-")] == [
            precache.cache_name(precache.build_info(root)["version"], "/")]  # the old one is gone
    finally:
        context.close()
