"""The order of a first visit's downloads: the runtime's big files start as the page
begins (web/start/early.js, the first script), every file is fetched once,
compressed when it is text or wasm, and nothing the first table does not need comes before
the table is playable.

Order and counts come from the page's CDP Network events, in the order Chromium sent them
(never their times)."""

from __future__ import annotations

import tomllib
import urllib.parse

import pytest

from tests.e2e.conftest import ROOT, watch, watch_page
from tests.e2e.test_first_visit_solver_later import MARK_READY_JS, READY

pytestmark = pytest.mark.e2e

WASM = "/vendor/pyodide/pyodide.asm.wasm"
STDLIB = "/vendor/pyodide/python_stdlib_compiled.zip"
# What a start needs only after the first table, or never on a first visit.
AFTER_TABLE = ("/vendor/pyodide/python_stdlib_rest.zip", "/vendor/pyodide/python_stdlib.zip",
               "/web/start/snapshot-worker.mjs", "/service-worker.js")
# Compressed on the wire (tools/serve.py, as a host serves the precompressed siblings).
COMPRESSIBLE = (".js", ".mjs", ".py", ".css", ".toml", ".json", ".wasm", ".zip", ".txt",
                ".webmanifest", "/")


def later_files() -> list[str]:
    table = tomllib.loads((ROOT / "pyscript.toml").read_text())["files_after_start"]
    return ["/" + url.removeprefix("./") for url in table]


@pytest.fixture
def page(browser, base_url, browser_log):
    """A fresh page with the HTTP cache on: no routing (Playwright turns the cache off for
    a routed context; Chromium's --host-resolver-rules keep every request local) and no
    service worker."""
    context = browser.new_context(base_url=base_url, service_workers="block")
    watch(context, browser_log, base_url, block=False)
    page = context.new_page()
    watch_page(page, browser_log)
    yield page
    context.close()
    assert not browser_log.problems(), "\n".join(browser_log.problems())


@pytest.fixture
def visit(page):
    """Opens a deal link on a fresh page and returns its events in order: ("sent", path),
    ("finished", path, encoding, bytes) of each request that went to the server, and READY
    when the page became playable; and the console's warnings."""
    events: list = []
    warnings: list[str] = []
    paths: dict[str, str] = {}
    cached: set[str] = set()  # requests the HTTP cache answered
    sent_events: dict[str, tuple] = {}
    encodings: dict[str, str] = {}
    session = page.context.new_cdp_session(page)

    def sent(event: dict) -> None:
        path = urllib.parse.urlsplit(event["request"]["url"]).path
        if event["request"]["url"].startswith(("data:", "blob:")):
            return
        paths[event["requestId"]] = path
        sent_events[event["requestId"]] = ("sent", path)
        events.append(sent_events[event["requestId"]])

    def received(event: dict) -> None:
        headers = {k.lower(): v for k, v in event["response"]["headers"].items()}
        encodings[event["requestId"]] = headers.get("content-encoding", "")
        if event["response"].get("fromDiskCache"):
            cached.add(event["requestId"])

    def from_cache(event: dict) -> None:
        cached.add(event["requestId"])

    def finished(event: dict) -> None:
        if event["requestId"] not in paths:
            return
        if event["requestId"] in cached:
            # No request went out: drop this very event (an equal one may come before).
            gone = sent_events[event["requestId"]]
            del events[next(i for i, e in enumerate(events) if e is gone)]
        else:
            events.append(("finished", paths[event["requestId"]],
                           encodings.get(event["requestId"], ""),
                           int(event["encodedDataLength"])))

    session.on("Network.requestWillBeSent", sent)
    session.on("Network.responseReceived", received)
    session.on("Network.requestServedFromCache", from_cache)
    session.on("Network.loadingFinished", finished)
    session.send("Network.enable")
    page.on("console", lambda msg: msg.type == "warning" and warnings.append(msg.text))
    page.expose_function("ppReadyMark", lambda: events.append(READY))
    page.add_init_script(MARK_READY_JS)
    page.goto("/?game=klondike&deal=7")
    page.wait_for_function("() => document.documentElement.dataset.app === 'ready'",
                           timeout=120_000)
    page.wait_for_timeout(300)  # a warning about an unused preload comes after the load
    return events, warnings


def index(events: list, kind: str, path: str) -> int:
    return next(i for i, event in enumerate(events)
                if event != READY and event[:2] == (kind, path))


def test_the_runtime_downloads_do_not_wait_for_pyscript(visit):
    events, warnings = visit
    # The first request PyScript's start makes: the app's files, which the loader fetches
    # once PyScript has run and read its config.
    first_module_request = index(events, "sent", "/engine/__init__.py")
    for path in (WASM, STDLIB):
        assert index(events, "sent", path) < first_module_request, path
    # Pyodide's loader chain and PyScript's config are fetched side by side, not each
    # once the one before it has arrived.
    loader = index(events, "finished", "/web/start/pyodide-loader.mjs")
    for path in ("/vendor/pyodide/pyodide.mjs", "/vendor/pyodide/pyodide.asm.mjs",
                 "/pyscript.toml", "/web/main.py"):
        assert index(events, "sent", path) < loader, path
    # One request each: Pyodide's own download of the wasm is answered by the early one.
    sent = [event[1] for event in events if event != READY and event[0] == "sent"]
    assert sent.count(WASM) == 1 and sent.count(STDLIB) == 1
    # A preload the page could not use (another mode or credentials) is warned about. The
    # warning that one was not used "within a few seconds" of the load event is a clock
    # Chromium keeps: a loaded machine starts PyScript late, and the file is still taken
    # from the preload (test_before_the_table_only_its_files_each_once_and_compressed).
    unused = [text for text in warnings
              if "preload" in text and "not used within a few seconds" not in text]
    assert not unused, warnings


def test_before_the_table_only_its_files_each_once_and_compressed(visit):
    events, _ = visit
    before = events[:events.index(READY)]
    sent = [event[1] for event in before if event[0] == "sent"]
    assert WASM in sent and "/engine/rules/klondike.py" in sent
    assert not [path for path in sent if path in AFTER_TABLE or path in later_files()]
    twice = sorted({path for path in sent if sent.count(path) > 1})
    assert twice == [], [e for e in events if e != READY and e[1] in twice]
    plain = [(path, size) for kind, path, *rest in (e for e in before if e[0] == "finished")
             for encoding, size in [rest]
             if path.endswith(COMPRESSIBLE) and size > 1024 and encoding not in ("br", "gzip")]
    assert plain == [], plain


def test_when_the_early_compile_fails_pyodide_fetches_the_wasm_itself(page):
    page.add_init_script(
        "WebAssembly.compileStreaming = () => Promise.reject(new Error('no early compile'));")
    wasm: list[str] = []
    page.on("request", lambda request: request.url.endswith(WASM) and wasm.append(request.url))
    page.goto("/?game=klondike&deal=7")
    page.wait_for_function(
        "() => ['ready', 'error'].includes(document.documentElement.dataset.app)",
        timeout=120_000)
    assert page.evaluate("document.documentElement.dataset.app") == "ready"
    assert page.evaluate("() => document.querySelectorAll('[data-card]').length") == 52
    assert len(wasm) == 2  # early.js's, then Pyodide's own download


def test_an_import_of_the_solver_before_its_files_came_is_one_download(page):
    """The files of [files_after_start] that a synchronous import needs come in one
    request (tools/later_bundle.py), not one request after another."""
    held: list = []
    asked: list[str] = []

    def hold_background(route):
        held.append(route)  # the background download (fetch) never ends

    page.route("**/engine/solver/**", hold_background)
    page.on("request", lambda request: asked.append(urllib.parse.urlsplit(request.url).path))
    page.goto("/?game=beleaguered-castle&deal=202")
    page.wait_for_function("() => document.documentElement.dataset.app === 'ready'",
                           timeout=120_000)
    solved = page.evaluate("""() => window.__pyodideStart.interpreter.runPython(
        "from engine.solver.winnable import winnable_deals\\n" +
        "len(winnable_deals('beleaguered-castle'))")""")
    assert solved > 0
    start = page.evaluate("window.__pyodideStart")
    assert (start["later"], start["laterBundled"]) == ("sync", True)
    assert asked.count("/files_after_start.json") == 1
    # Only the background download's requests (held, never answered) went per file.
    assert len([path for path in asked if "/engine/solver/" in path]) == len(held)
    for route in held:
        route.continue_()
