"""The order of a first visit's downloads: the runtime's wasm (MicroPython's) starts as the
page begins (web/start/early.js, the first script), every file is fetched once,
compressed when it is text or wasm, and nothing the first table does not need comes before
the table is playable: nothing of Pyodide or the solver, which its worker fetches after.

Order and counts come from the page's CDP Network events, in the order Chromium sent them
(never their times)."""

from __future__ import annotations

import tomllib
import urllib.parse

import pytest

from tests.e2e.conftest import ROOT, fail_first, watch, watch_page
from tests.e2e.startup_trail import wait_for_table, wait_until_ready
from tests.e2e.test_first_visit_solver_later import MARK_READY_JS, READY

pytestmark = pytest.mark.e2e

WASM = "/vendor/micropython/micropython.wasm"
PACK = "/build/mpy/first-table.pack"  # the first table's bytecode, one file
WORKER = "/web/start/solver-worker.mjs"
# Compressed on the wire (tools/serve.py, as a host serves the precompressed siblings).
COMPRESSIBLE = (".js", ".mjs", ".py", ".mpy", ".pack", ".css", ".toml", ".json", ".wasm", ".zip",
                ".txt", ".webmanifest", "/")


def after_table(path: str) -> bool:
    """What only the solver's worker needs, after the first table: Pyodide, the worker,
    the Python sources it reads (the page reads bytecode), the service worker."""
    sources = tomllib.loads((ROOT / "pyscript.toml").read_text())
    listed = {"/" + url.removeprefix("./")
              for table in ("files", "files_after_start") for url in sources[table]}
    return (path.startswith("/vendor/pyodide/") or path in listed
            or path in (WORKER, "/service-worker.js"))


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
    ("finished", path, encoding, bytes) of each request that went to the server (a
    request answered 304 is ("revalidated", path) alone: no body came), and READY
    when the page became playable; and the console's warnings."""
    events: list = []
    warnings: list[str] = []
    paths: dict[str, str] = {}
    cached: set[str] = set()  # requests the HTTP cache answered
    sent_events: dict[str, tuple] = {}
    encodings: dict[str, str] = {}
    statuses: dict[str, int] = {}
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

    def received_raw(event: dict) -> None:
        # The network's own status: the page is told 200 of a file the cache revalidated.
        statuses[event["requestId"]] = event["statusCode"]

    def from_cache(event: dict) -> None:
        cached.add(event["requestId"])

    def finished(event: dict) -> None:
        if event["requestId"] not in paths:
            return
        if event["requestId"] in cached:
            # No request went out: drop this very event (an equal one may come before).
            gone = sent_events[event["requestId"]]
            del events[next(i for i, e in enumerate(events) if e is gone)]
        elif statuses.get(event["requestId"]) == 304:
            # A revalidation: the file's body did not come again. The request is told
            # apart, and the body's first download has to come before it (see below).
            asked = sent_events[event["requestId"]]
            events[next(i for i, e in enumerate(events) if e is asked)] = (
                "revalidated", asked[1])
        else:
            events.append(("finished", paths[event["requestId"]],
                           encodings.get(event["requestId"], ""),
                           int(event["encodedDataLength"])))

    session.on("Network.requestWillBeSent", sent)
    session.on("Network.responseReceived", received)
    session.on("Network.responseReceivedExtraInfo", received_raw)
    session.on("Network.requestServedFromCache", from_cache)
    session.on("Network.loadingFinished", finished)
    session.send("Network.enable")
    page.on("console", lambda msg: msg.type == "warning" and warnings.append(msg.text))
    # READY comes through the same CDP session as the network events, so it keeps its
    # place among them (a binding of Playwright's own may be heard after the solver's
    # worker, which the page asks for at once, was sent).
    session.on("Runtime.bindingCalled",
               lambda event: event["name"] == "ppReadyMark" and events.append(READY))
    session.send("Runtime.enable")
    session.send("Runtime.addBinding", {"name": "ppReadyMark"})
    # The page's own clock keeps the order of the ready mark and the worker's start (the
    # observer above is the page's first, so it runs before web/start/solver.js's).
    page.add_init_script(MARK_READY_JS.replace(
        "window.ppReadyMark()", "performance.mark('pp:seen-ready'); window.ppReadyMark('ready')"))
    page.goto("/?game=klondike&deal=7")
    wait_for_table(page, 120_000)
    page.wait_for_timeout(300)  # a warning about an unused preload comes after the load
    page.marks = page.evaluate("""() => Object.fromEntries(['pp:seen-ready', 'pp:solver-start']
        .map((name) => [name, performance.getEntriesByName(name).map((e) => e.startTime)]))""")
    return events, warnings


def assert_revalidations_follow_their_download(events: list) -> None:
    """A file the app revalidated (answered 304) had its body downloaded earlier in the
    visit: the request cost a round trip, not the file again. (The browser's own asks for
    the page's icons are not the app's.)"""
    for i, event in enumerate(events):
        if event != READY and event[0] == "revalidated" and \
                not event[1].startswith("/web/icons/"):
            assert any(e != READY and e[:2] == ("finished", event[1]) for e in events[:i]), event


def index(events: list, kind: str, path: str) -> int:
    return next(i for i, event in enumerate(events)
                if event != READY and event[:2] == (kind, path))


def test_the_runtime_downloads_first_and_the_loader_chain_side_by_side(visit):
    events, warnings = visit
    # The wasm is asked for from the head, before MicroPython's loader and the bytecode;
    # nothing of PyScript is fetched (the page starts MicroPython itself).
    assert index(events, "sent", WASM) < index(events, "sent", "/web/start/micropython-loader.mjs")
    assert index(events, "sent", WASM) < index(events, "sent", PACK)
    assert not [e for e in events if e != READY and e[1].startswith("/vendor/pyscript/")]
    # MicroPython's loader chain, the bytecode and the entry script are fetched side by
    # side, not each once the one before it has arrived.
    loader = index(events, "finished", "/web/start/micropython-loader.mjs")
    for path in ("/vendor/micropython/micropython.mjs", PACK, "/web/main.py"):
        assert index(events, "sent", path) < loader, path
    # One download: early.js's fetch takes the preload over, and MicroPython is handed
    # that download. (On a busy machine early.js may run only once the preload has
    # ended: its fetch then revalidates the cached file, and the body does not come again.)
    sent = [event[1] for event in events if event != READY and event[0] == "sent"]
    assert sent.count(WASM) == 1
    assert_revalidations_follow_their_download(events)
    # A preload the page could not use (another mode or credentials) is warned about. The
    # warning that one was not used "within a few seconds" of the load event is a clock
    # Chromium keeps: a loaded machine starts MicroPython late, and the file is still taken
    # from the preload (test_before_the_table_only_its_files_each_once_and_compressed).
    unused = [text for text in warnings
              if "preload" in text and "not used within a few seconds" not in text]
    assert not unused, warnings


def test_before_the_table_only_its_files_each_once_and_compressed(visit):
    events, _ = visit
    before = events[:events.index(READY)]
    sent = [event[1] for event in before if event[0] == "sent"]
    assert WASM in sent and PACK in sent
    # The bytecode comes as one file, not one a module.
    assert not [path for path in sent if path.endswith(".mpy")]
    # The worker's script is fetched by the browser, not the page: Chromium may tell of
    # its request before the binding's call that came first. So that one request may be
    # heard last before READY, and the page's marks say which came first.
    if sent and sent[-1] == WORKER:
        sent.pop()
    assert not [path for path in sent if after_table(path)]
    # (The browser's own asks for the page's icon, for the tab and the manifest, and its
    # revalidations, are not the app's fetches.)
    twice = sorted({path for path in sent if sent.count(path) > 1
                    and not path.startswith("/web/icons/")})
    assert twice == [], [e for e in events if e != READY and e[1] in twice]
    assert_revalidations_follow_their_download(before)
    plain = [(path, size) for kind, path, *rest in (e for e in before if e[0] == "finished")
             for encoding, size in [rest]
             if path.endswith(COMPRESSIBLE) and size > 1024 and encoding not in ("br", "gzip")]
    assert plain == [], plain


def test_the_solver_worker_starts_once_and_only_after_the_table_is_playable(page, visit):
    events, _ = visit
    sent = [event[1] for event in events if event != READY and event[0] == "sent"]
    assert sent.count(WORKER) == 1
    (ready,) = page.marks["pp:seen-ready"]
    (start,) = page.marks["pp:solver-start"]
    assert ready <= start


def test_when_the_early_download_fails_micropython_fetches_the_wasm_itself(page, browser_log):
    failed: list[str] = []
    page.route(f"**{WASM}", fail_first(failed))
    page.goto("/?game=klondike&deal=7")
    wait_for_table(page, 120_000)
    assert page.evaluate("() => document.querySelectorAll('[data-card]').length") == 52
    assert len(failed) == 1
    # The browser logs the aborted download; nothing else.
    assert all("net::ERR_FAILED" in text for text in browser_log.console_errors), (
        browser_log.console_errors)
    browser_log.console_errors.clear()


def test_a_file_of_the_first_table_that_is_not_served_is_said_on_the_loading_screen(
        page, browser_log):
    """MicroPython's loader fails without its files: the loading screen says so (it would
    otherwise sit at its last stage for ever)."""
    page.route(f"**{PACK}",
               lambda route: route.fulfill(status=404, body="gone"))
    page.goto("/?game=klondike&deal=7")
    assert wait_until_ready(page, 120_000) == "error"
    stage = page.text_content("#loading-stage")
    assert "could not start" in stage, stage
    assert "did not arrive: build/mpy/first-table.pack (HTTP 404)" in stage, stage
    assert page.evaluate("() => document.querySelectorAll('[data-card]').length") == 0
    # The failed start is an uncaught error too (a page's error reports see it).
    assert [e for e in browser_log.page_errors if "first-table.pack: HTTP 404" in e]
    browser_log.page_errors.clear()
    browser_log.console_errors.clear()  # the 404, as the browser logs it
