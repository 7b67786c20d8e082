"""The loading screen shows real progress: the bytes of the runtime received so far
(web/start/early.js counts the early downloads, web/start/loading.js draws them), on a
throttled first visit. Counts values seen, no timing bound."""

from __future__ import annotations

import re

from tests.e2e.conftest import READY_TIMEOUT_MS, ROOT
from tests.e2e.startup_trail import wait_for_table

# Runs before the page's scripts: every value the bar and the stage text take until ready.
RECORD_JS = """(() => {
  window.__bar = []; window.__stage = [];
  new MutationObserver(() => {
    const bar = document.getElementById("loading-bar");
    const stage = document.getElementById("loading-stage");
    // (The first mutations come before the <html> element, or the stage's line, is there.)
    if (!bar || !stage || document.documentElement?.dataset.app === "ready") return;
    if (window.__bar.at(-1) !== bar.value) window.__bar.push(bar.value);
    if (window.__stage.at(-1) !== stage.textContent) window.__stage.push(stage.textContent);
  }).observe(document, { subtree: true, childList: true, attributes: true,
                         characterData: true });
})();"""


def test_the_bar_moves_with_the_bytes_received_before_ready(context, page):
    context.add_init_script(RECORD_JS)
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    # 0.8 Mbit/s: slow enough that the runtime's wasm (MicroPython's, 170 kB on the wire)
    # arrives in many chunks, one by one, over many frames. (At 2.4 Mbit/s a busy machine
    # drew no frame of the page before the whole wasm was in: one value, 446 kB.)
    session.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": 20, "downloadThroughput": 100_000,
        "uploadThroughput": 100_000})
    # Not until "load" (a 30 s clock, which a throttled page on a busy machine can pass):
    # the wait below is for the table itself.
    page.goto("/", wait_until="commit")
    wait_for_table(page, READY_TIMEOUT_MS)
    bars = page.evaluate("window.__bar")
    stages = page.evaluate("window.__stage")
    received = page.evaluate("window.ppBytes")
    # The bar only grows, and takes many values on the way (one per drawn frame of bytes).
    assert bars == sorted(bars)
    amounts = [int(m.group(1)) for text in stages
               if (m := re.search(r"\((\d+) (?:of \d+ )?kB\)", text))]
    assert len(set(amounts)) >= 5, stages
    assert amounts == sorted(amounts)
    assert len({value for value in bars if 10 < value < 70}) >= 5, bars
    # Every byte of the early download was counted (MicroPython's wasm, 446 kB decoded).
    wasm = (ROOT / "vendor" / "micropython" / "micropython.wasm").stat().st_size
    assert received["pending"] == 0 and received["received"] == wasm
