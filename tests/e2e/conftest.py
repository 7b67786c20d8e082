"""Fixtures for end-to-end tests: the app served on 127.0.0.1, Debian's Chromium, pages.

Every test under tests/e2e is marked `e2e` (run only them with `pytest -m e2e`).

- `base_url`: the repository served by tools/serve.py in a thread on a free port.
- `browser`: headless /usr/bin/chromium (Playwright never downloads a browser here).
- `context`, `page`: a fresh context and page whose requests to anything but the test
  server are aborted and recorded; the page's console errors and uncaught exceptions are
  recorded too. At teardown the test fails if any of the three lists is not empty, so a
  test that expects an error must assert on it and then clear the list.
  Note: Playwright disables the HTTP cache in a context that routes requests; a test
  about caching makes its own `browser.new_context()` and calls `watch(context, log,
  block=False)` (Chromium's --host-resolver-rules below still keeps it off the network).
- `app`: opens the app in `page` and waits for `<html data-app="ready">`.
- `pwa_context`, `pwa_page`: like `context` and `page` but the service worker may install
  (the default `context` blocks it); for the offline and installability tests.

Every context the `browser` fixture's browser makes, whichever fixture or helper makes it,
reports Content-Security-Policy violations (the page's `securitypolicyviolation` events,
also kept in `window.__cspViolations`, and any console message about the policy), and
every end-to-end test fails if one was reported while it ran (`csp_reports`; a test that
provokes one on purpose takes it with `csp_reports.take()`).
"""

from __future__ import annotations

import json
import os
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.e2e.startup_trail import trail_of, wait_for_table
from tools.chromium import CHROMIUM as BROWSER
from tools.chromium import CHROMIUM_ARGS as BROWSER_ARGS

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(BROWSER)
CHROMIUM_ARGS = [
    *BROWSER_ARGS,
    # Belt and braces: no host but the test server resolves, even without routing.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
READY_TIMEOUT_MS = 60_000


# Runs in every document before its own scripts: records each violation of the page's
# Content-Security-Policy and reports it to the test through a binding.
CSP_WATCH_JS = """(() => {
  window.__cspViolations = [];
  document.addEventListener("securitypolicyviolation", (event) => {
    const seen = { directive: event.effectiveDirective, blocked: event.blockedURI,
                   source: event.sourceFile, line: event.lineNumber, sample: event.sample };
    window.__cspViolations.push(seen);
    window.__ppCspViolation?.(JSON.stringify(seen));
  });
})();"""


@dataclass
class CspReports:
    """Every CSP violation any watched context reported this session, oldest first;
    those from ``mark`` on were reported while the current test ran."""

    seen: list[str] = field(default_factory=list)
    mark: int = 0

    def take(self) -> list[str]:
        """The current test's reports, which it expected: they no longer fail it."""
        taken = self.seen[self.mark:]
        del self.seen[self.mark:]
        return taken


CSP_REPORTS = CspReports()


def watch_csp(context, reports: CspReports = CSP_REPORTS) -> None:
    """Report the CSP violations of every page of ``context`` to ``reports``."""

    def violation(source, text: str) -> None:
        reports.seen.append(f"CSP violation on {source['page'].url}: {json.loads(text)}")

    def console(message) -> None:
        if "Content Security Policy" in message.text:
            reports.seen.append(f"console {message.type}: {message.text}")

    context.add_init_script(CSP_WATCH_JS)
    context.expose_binding("__ppCspViolation", violation)
    context.on("console", console)


def _csp_watched(make):
    """``make`` (a Playwright call that opens a context or a page) watched for CSP."""

    def made(*args, **kwargs):
        opened = make(*args, **kwargs)
        watch_csp(getattr(opened, "context", opened))
        return opened

    return made


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)


@dataclass
class BrowserLog:
    """What a page did that a test should know about."""

    external_requests: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        return (
            [f"request left 127.0.0.1: {url}" for url in self.external_requests]
            + [f"console error: {text}" for text in self.console_errors]
            + [f"uncaught exception: {text}" for text in self.page_errors]
        )


def is_local(url: str, base_url: str) -> bool:
    """Whether `url` goes to the test server (or never reaches a network at all)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    return f"{parts.scheme}://{parts.netloc}" == base_url


def watch(context, log: BrowserLog, base_url: str, block: bool = True) -> None:
    """Record (and with `block`, abort) every request from `context` not to the server."""

    def on_request(request):
        if not is_local(request.url, base_url):
            log.external_requests.append(request.url)

    context.on("request", on_request)
    if block:
        context.route(lambda url: not is_local(url, base_url), lambda route: route.abort())


def browser_asked_a_favicon(msg) -> bool:
    """The browser's own request of /favicon.ico on a page that is not the app's (a test's
    /pyscript.toml): the app's pages name their icon, so only such a page asks, and its 404
    may arrive at any time after that page loaded."""
    url = (msg.location or {}).get("url", "")
    return urllib.parse.urlsplit(url).path == "/favicon.ico"


def watch_page(page, log: BrowserLog) -> None:
    page.on("console", lambda msg: msg.type == "error" and not browser_asked_a_favicon(msg)
            and log.console_errors.append(msg.text))
    page.on("pageerror", lambda error: log.page_errors.append(str(error)))
    trail_of(page)


@pytest.fixture(scope="session")
def base_url():
    if not (ROOT / "vendor" / "VERSIONS").exists():
        pytest.fail("vendor/ is missing: run `make vendor` (or `make test`)")
    from tools.mpy_build import OUT, ensure
    from tools.serve import start_server

    ensure(ROOT / OUT)  # the page's bytecode, as `make mpy` makes it
    server, url = start_server(ROOT)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing (make test installs Debian's chromium)")
        pytest.skip(f"{CHROMIUM} is missing: `make chromium` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        # Every context made from here is watched for CSP violations (see the docstring).
        browser.new_context = _csp_watched(browser.new_context)
        browser.new_page = _csp_watched(browser.new_page)
        kind = browser.browser_type
        kind.launch_persistent_context = _csp_watched(kind.launch_persistent_context)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def csp_reports():
    """Fails the test if any page reported a Content-Security-Policy violation meanwhile."""
    CSP_REPORTS.mark = len(CSP_REPORTS.seen)
    yield CSP_REPORTS
    reported = CSP_REPORTS.seen[CSP_REPORTS.mark:]
    assert not reported, "\n".join(reported)


@pytest.fixture
def browser_log():
    return BrowserLog()


@pytest.fixture
def context(browser, base_url, browser_log):
    # No service worker: each test starts from the server, and no test pays for the
    # 14 MB precache. The offline tests use `pwa_context` below.
    context = browser.new_context(base_url=base_url, service_workers="block")
    watch(context, browser_log, base_url)
    yield context
    context.close()


@pytest.fixture
def pwa_context(browser, base_url, browser_log):
    """A context where the service worker may install (no routing, which would bypass it;
    Chromium's --host-resolver-rules still keeps every request on 127.0.0.1)."""
    context = browser.new_context(base_url=base_url, service_workers="allow")
    watch(context, browser_log, base_url, block=False)
    yield context
    context.close()


def watched_page(context, log: BrowserLog):
    """A new page of ``context`` for one test, which fails on anything ``log`` recorded."""
    page = context.new_page()
    watch_page(page, log)
    yield page
    problems = log.problems()
    assert not problems, "\n".join(problems)


@pytest.fixture
def pwa_page(pwa_context, browser_log):
    yield from watched_page(pwa_context, browser_log)


@pytest.fixture
def page(context, browser_log):
    yield from watched_page(context, browser_log)


class App:
    """Opens the app and waits until it is ready (`<html data-app="ready">`)."""

    def __init__(self, page):
        self.page = page

    def open(self, query: str = "") -> None:
        self.page.goto("/" + query)
        self.wait_ready()

    def reload(self) -> None:
        self.page.reload()
        self.wait_ready()

    def wait_ready(self, timeout_ms: float = READY_TIMEOUT_MS) -> None:
        wait_for_table(self.page, timeout_ms)

    def piles(self) -> dict[str, list[str]]:
        """Every `data-pile` element's `data-card` values, bottom to top."""
        return self.page.evaluate(
            """() => Object.fromEntries(
                [...document.querySelectorAll('[data-pile]')].map((pile) => [
                    pile.dataset.pile,
                    [...pile.querySelectorAll('[data-card]')].map((card) => card.dataset.card),
                ]))"""
        )


@pytest.fixture
def app(page):
    return App(page)


def fail_first(failed: list[str]):
    """A route handler that aborts the first request it sees (its URL goes to ``failed``)
    and lets every later one through: a download that fails once, as under load."""
    def handle(route) -> None:
        if failed:
            route.continue_()
        else:
            failed.append(route.request.url)
            route.abort()
    return handle
