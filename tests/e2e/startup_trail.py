"""What a page did on its way to a table that never came, for the failure message.

A start-up that hangs leaves a bare timeout, and a page whose main thread is stuck cannot
be asked anything afterwards. So every page a test opens keeps, on the Python side, its
last console lines (the start's stages among them) and the requests still under way;
``wait_until_ready`` puts both in the failure when the app does not become ready.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

# (Asked from the first moment of a page, when it may have no <html> element yet.)
READY_JS = "() => ['ready', 'error'].includes(document.documentElement?.dataset.app)"
KEPT_LINES = 40
# Runs before the page's scripts: each stage of the start (web/start/micropython-loader.mjs)
# goes to the console, and so into the trail.
STAGES_JS = """addEventListener("pp:progress",
  (event) => console.debug(`pp:progress ${event.detail}`));"""


@dataclass
class Trail:
    """A page's last console lines (failed requests told among them) and its requests
    not yet answered."""

    lines: deque[str] = field(default_factory=lambda: deque(maxlen=KEPT_LINES))
    pending: dict[int, str] = field(default_factory=dict)

    def failed(self, request) -> None:
        """A request that ended without a response: no longer under way, and told."""
        self.pending.pop(id(request), None)
        self.lines.append(f"request failed: {request.url} ({request.failure})")

    def story(self) -> str:
        lines = "\n".join(f"  {line}" for line in self.lines) or "  (none)"
        pending = "\n".join(f"  {url}" for url in self.pending.values()) or "  (none)"
        return f"last console lines:\n{lines}\nrequests still under way:\n{pending}"


_TRAILS: dict[int, Trail] = {}


def trail_of(page) -> Trail:
    """The page's trail, recording from the first call on."""
    trail = _TRAILS.get(id(page))
    if trail is None:
        trail = _TRAILS[id(page)] = Trail()
        page.add_init_script(STAGES_JS)
        page.on("console", lambda msg: trail.lines.append(f"{msg.type}: {msg.text}"))
        page.on("pageerror", lambda error: trail.lines.append(f"exception: {error}"))
        page.on("request", lambda request: trail.pending.__setitem__(id(request), request.url))
        page.on("requestfinished", lambda request: trail.pending.pop(id(request), None))
        page.on("requestfailed", trail.failed)
        page.on("close", lambda _: _TRAILS.pop(id(page), None))
    return trail


def wait_until_ready(page, timeout_ms: float) -> str:
    """Wait for ``data-app`` to say ready or error, and return which; on a timeout, fail
    with the page's trail (nothing is asked of a page that may be stuck)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    trail = trail_of(page)
    try:
        page.wait_for_function(READY_JS, timeout=timeout_ms)
    except PlaywrightTimeout:
        raise AssertionError(
            f"the app was neither ready nor in error after {timeout_ms / 1000:.0f} s "
            f"({page.url})\n{trail.story()}") from None
    return page.evaluate("document.documentElement.dataset.app")


def wait_for_table(page, timeout_ms: float) -> None:
    """Wait for the table to be ready; fail with the trail when the start hangs, and with
    the loading screen's words when it failed."""
    state = wait_until_ready(page, timeout_ms)
    if state != "ready":
        raise AssertionError(f"the app did not start: {page.inner_text('#loading')}")
