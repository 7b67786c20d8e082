"""The installed app starts Python from a memory snapshot that already holds the app's
modules (web/start/pyodide-loader.mjs; budget, docs/architecture.md §8: reload with the network
off <= 1.0 s), and a new version of the app never starts from the snapshot of an older one."""

from __future__ import annotations

import shutil

import pytest

from tests.e2e.conftest import ROOT, watch, watch_page
from tests.e2e.test_pwa_offline import ready, wait_controlled
from tools import precache
from tools.serve import start_server

SNAPSHOT_TIMEOUT_MS = 120_000  # a second interpreter starts in a worker to make it
START = "window.__pyodideStart"


def install(page, path: str) -> None:
    """Visit, let the service worker take the page, reload once: the snapshot is made."""
    page.goto(path)
    ready(page)
    wait_controlled(page)
    page.reload()
    ready(page)
    page.wait_for_function("() => document.documentElement.dataset.snapshot",
                           timeout=SNAPSHOT_TIMEOUT_MS)
    assert page.evaluate("document.documentElement.dataset.snapshot") == "saved"


def test_the_installed_app_starts_from_a_snapshot_with_its_modules_imported(
        pwa_context, pwa_page):
    page = pwa_page
    install(page, "/?game=klondike&deal=7")
    title = page.inner_text("#game-title")

    pwa_context.set_offline(True)
    page.reload()
    ready(page)
    start = page.evaluate(START)
    assert start["snapshot"] == "restored" and start["modules"] is True
    assert start["app"] == precache.build_info(ROOT)["version"]
    assert page.inner_text("#game-title") == title


@pytest.fixture
def editable_app(tmp_path):
    """The app served from a folder of links to the repository, where web/labels.py (the
    game titles) is a real copy that a test may change like a new build would."""
    root = tmp_path / "site"
    root.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in (".git", "node_modules", "tests", "dist", "web"):
            (root / entry.name).symlink_to(entry)
    (root / "web").mkdir()
    for entry in (ROOT / "web").iterdir():
        if entry.name != "labels.py" and entry.name != "__pycache__":
            (root / "web" / entry.name).symlink_to(entry)
    shutil.copy(ROOT / "web" / "labels.py", root / "web" / "labels.py")
    server, url = start_server(root)
    yield root, url
    server.shutdown()
    server.server_close()


def test_a_new_version_never_starts_from_the_old_versions_snapshot(
        browser, browser_log, editable_app):
    root, url = editable_app
    context = browser.new_context(base_url=url, service_workers="allow")
    watch(context, browser_log, url, block=False)
    try:
        page = context.new_page()
        watch_page(page, browser_log)
        install(page, "/?game=klondike&deal=7")
        page.reload()
        ready(page)
        assert page.evaluate(START)["snapshot"] == "restored"
        assert page.inner_text("#game-title") == "Klondike"

        labels = root / "web" / "labels.py"
        labels.write_text(labels.read_text() + '\nTITLES["klondike"] = "Klondike (new)"\n')
        page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        page.locator('[data-notice="update"]').wait_for(timeout=60_000)
        with page.expect_navigation():
            page.click('[data-action="update-reload"]')
        ready(page)
        # The old snapshot holds the old labels module: it must not be used.
        assert page.evaluate(START)["snapshot"] != "restored"
        assert page.inner_text("#game-title") == "Klondike (new)"

        # The new version gets its own snapshot, which the next start uses.
        page.wait_for_function("() => document.documentElement.dataset.snapshot",
                               timeout=SNAPSHOT_TIMEOUT_MS)
        page.reload()
        ready(page)
        start = page.evaluate(START)
        assert start["snapshot"] == "restored" and start["modules"] is True
        assert start["app"] == precache.build_info(root)["version"]
        assert page.inner_text("#game-title") == "Klondike (new)"
        assert browser_log.problems() == []
    finally:
        context.close()
