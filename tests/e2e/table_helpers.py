"""Shared pieces of the card-table end-to-end tests (tests/e2e/test_table_*.py).

- ``TablePage`` drives the page: open a deal, drag, click, tap, read the DOM piles.
- ``expected_piles(game)`` is the DOM contract's view of a CPython ``engine.Game``, so a
  test replays on the CPython engine what it did in the page and compares.
- Fixtures (import them into a test module): ``desk`` / ``table`` share one desktop page
  per test module (booting Pyodide once); ``phone`` is a 360x640 touch page. Every test
  fails if the page logged a console error, threw, or asked for anything off the server.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass, field

import pytest

import engine
from tests.e2e.startup_trail import trail_of, wait_for_table
from web.saves import GameSaves
from web.storage import MemoryBackend, Storage

READY_MS = 90_000
PILES_JS = """() => Object.fromEntries(
    [...document.querySelectorAll('[data-pile]')].map((pile) => [
        pile.dataset.pile,
        [...pile.querySelectorAll('[data-card]')].map((card) => card.dataset.card),
    ]))"""

# Cards that are not where their pile puts them: a stacked pile's cards lie exactly on the
# pile, a column's cards lie in its column below its top, a row's cards in its row.
MISPLACED_JS = """() => {
    const bad = [];
    for (const pile of document.querySelectorAll('[data-pile]')) {
        const p = pile.getBoundingClientRect();
        const fan = pile.dataset.fan;
        for (const card of pile.querySelectorAll('[data-card]')) {
            const c = card.getBoundingClientRect();
            const near = (a, b) => Math.abs(a - b) < 1.5;
            const ok = fan === 'stack' ? near(c.x, p.x) && near(c.y, p.y)
                : fan === 'down' ? near(c.x, p.x) && c.y >= p.y - 1
                : near(c.y, p.y);
            if (!ok) bad.push(`${pile.dataset.pile}:${card.dataset.card}@${c.x},${c.y}`);
        }
    }
    return bad;
}"""
# No card of the table is flying: a move's own animation has landed (motion may be on).
CARDS_LANDED_JS = """() => !document.getAnimations().some((a) => !(a instanceof CSSAnimation)
    && a.playState === 'running' && a.effect?.target?.closest?.('#table'))"""
# The solver's worker (web/start/solver.js) said its first word: "ready" or an error.
SOLVER_SPOKE_JS = """() => performance.getEntriesByName('pp:solver-ready').length
    + performance.getEntriesByName('pp:solver-error').length > 0"""
SOLVER_READY_JS = "() => performance.getEntriesByName('pp:solver-ready').length"
# The solver worker's answers to the page, as they arrive: an init script, so that it
# wraps the Worker before the page's scripts make theirs.
WORKER_ANSWERS_JS = """(() => {
    window.__workerAnswers = [];
    const Plain = window.Worker;
    window.Worker = class extends Plain {
        constructor(...args) {
            super(...args);
            this.addEventListener("message", ({ data }) => {
                try { window.__workerAnswers.push(JSON.parse(data)); } catch { /* not JSON */ }
            });
        }
    };
})()"""
WORKER_READY_JS = "() => window.__workerAnswers.some((a) => a.kind === 'ready')"
# What the page itself fetched (a worker's fetches are the worker's own entries).
PAGE_FILES_JS = "() => performance.getEntriesByType('resource').map((e) => e.name)"
APP_SHOWN_JS = "() => !!window.ppTable && !!document.querySelector('[data-pile]')"
SET_STORAGE_JS = """(items) => {
    localStorage.clear();
    for (const [key, value] of Object.entries(items)) localStorage.setItem(key, value);
}"""
CLOSE_DIALOGS_JS = "() => document.querySelectorAll('dialog[open]').forEach((d) => d.close())"
# Every state of the table and its verdict the page shows from now on (a MutationObserver
# looks after each task that changed the piles, the status bar or the lost notice; a state
# is kept when it differs from the one before): ``piles`` names the position (as
# ``piles_key`` does), ``words`` and ``verdict`` are the status bar's verdict (its words,
# its data-verdict), ``lost`` the lost notice and ``rewind`` its Back to winnable button,
# offered (shown and enabled). A state shown for a moment is kept as well as one the test
# reads at leisure, so what the page showed does not depend on when the test looks.
SHOWN_JS = """() => {
    window.__shownObserver?.disconnect();
    const shown = window.__shown = [];
    const look = () => {
        const verdict = document.getElementById('st-verdict');
        const lost = document.getElementById('lost');
        const rewind = document.getElementById('lost-rewind');
        const now = {
            piles: [...document.querySelectorAll('[data-pile]')].map((pile) => pile.dataset.pile
                + ':' + [...pile.querySelectorAll('[data-card]')].map((c) => c.dataset.card))
                .sort().join(' '),
            moves: document.getElementById('st-moves').textContent,
            words: verdict.dataset.text || '',
            verdict: verdict.dataset.verdict || '',
            lost: !lost.hidden,
            rewind: !lost.hidden && !rewind.hidden && !rewind.disabled,
        };
        const last = shown[shown.length - 1];
        if (!last || Object.keys(now).some((k) => now[k] !== last[k])) shown.push(now);
    };
    look();
    const observer = window.__shownObserver = new MutationObserver(look);
    observer.observe(document.getElementById('table'), {childList: true, subtree: true,
        attributes: true, attributeFilter: ['data-card']});
    observer.observe(document.querySelector('.status'), {childList: true, subtree: true,
        characterData: true, attributes: true});
    observer.observe(document.getElementById('lost'), {childList: true, subtree: true,
        characterData: true, attributes: true, attributeFilter: ['hidden', 'disabled']});
}"""
# The solver's settled answer on the position in play, once the page shows it: the
# table's own "watch" intent (a look at what the desk knows, which changes nothing) says
# "done" (the worker answered for this very position: its verdict and, on a lost one, its
# whole walk back) and the status bar and lost notice show that answer. Null until then.
VERDICT_SHOWN_JS = """() => {
    const answer = window.ppTable.act('watch');
    if (!answer || !answer.done) return null;
    const verdict = document.getElementById('st-verdict');
    const lost = document.getElementById('lost');
    const rewind = document.getElementById('lost-rewind');
    const back = answer.unwinnable ? answer.rewind || {} : {};
    const shown = (verdict.dataset.verdict || '') === (answer.verdict || '')
        && lost.hidden === !answer.unwinnable
        && (!answer.unwinnable || (rewind.hidden === (!back.back && !back.looking)
                                   && rewind.disabled === !back.back));
    return shown ? answer : null;
}"""
# An intent sent through the table's API and the status bar as that intent's own render
# left it, read in the same task (before any later task of the page's could change it).
ACT_AND_READ_JS = """([kind, data]) => {
    const answer = window.ppTable.act(kind, data);
    const verdict = document.getElementById('st-verdict');
    return {event: answer?.event, move_count: answer?.move_count,
            words: verdict.dataset.text || '', verdict: verdict.dataset.verdict || '',
            lost: !document.getElementById('lost').hidden};
}"""
# The lost notice is shown with its Back to winnable button offered (shown and enabled).
REWIND_OFFERED_JS = """() => {
    const b = document.getElementById('lost-rewind');
    return !document.getElementById('lost').hidden && !b.hidden && !b.disabled;
}"""
VERDICT_WORDS = {"won": "Winnable", "lost": "Can't be won from here", "unknown": "Not sure yet"}
THINKING = "Thinking…"
# Two animation frames drawn (true), or false when none came within 5 s.
FRAMES_JS = """() => new Promise((done) => {
    requestAnimationFrame(() => requestAnimationFrame(() => done(true)));
    setTimeout(() => done(false), 5000);
})"""


def expected_piles(game: engine.Game) -> dict[str, list[str]]:
    """The DOM contract's view of ``game``: face-down cards are only "down"."""
    return {pile: ["down" if card.islower() else card for card in cards]
            for pile, cards in game.position()["piles"].items()}


def piles_key(game: engine.Game) -> str:
    """The position of ``game`` as SHOWN_JS names a position on the page."""
    return " ".join(sorted(f"{pile}:{','.join(cards)}"
                           for pile, cards in expected_piles(game).items()))


def first_move(game: engine.Game, pred=lambda m: True) -> engine.Move | None:
    """The first legal non-stock move of ``game`` that ``pred`` accepts."""
    for move in game.legal_moves():
        if move.src != "stock" and move.dst not in ("stock", "tableau") and pred(move):
            return move
    return None


@dataclass
class Log:
    problems: list[str] = field(default_factory=list)


class TablePage:
    """The app in one Playwright page, with the helpers the table tests need."""

    def __init__(self, page, log: Log) -> None:
        self.page = page
        self.context = page.context
        self.log = log
        trail_of(page)

    # -- opening ---------------------------------------------------------------------

    def goto(self, query: str = "", fresh: bool = False) -> None:
        """Load the page (``fresh``: with no saved game or settings first)."""
        if fresh and self.page.url.startswith("http"):
            # Leave the app first: it saves its game when hidden, which would refill
            # the storage just cleared (and a link then asks before leaving that game).
            self.page.goto("/pyscript.toml")
            self.page.evaluate("() => localStorage.clear()")
        self.page.goto("/" + query)
        self.wait_ready()

    def wait_ready(self) -> None:
        wait_for_table(self.page, READY_MS)

    def wait_solver(self) -> None:
        """Wait until the solver's worker is up (it starts once the table is playable;
        until then the table answers without it: the rules' hint, no verdict)."""
        self.page.wait_for_function(SOLVER_SPOKE_JS, timeout=READY_MS)
        assert self.page.evaluate(SOLVER_READY_JS) == 1, "the solver's worker did not start"

    def open(self, variant: str, seed: int) -> engine.Game:
        """Open deal ``seed`` of ``variant`` by its link; the CPython twin of the game."""
        self.goto(f"?game={variant}&deal={seed}", fresh=True)
        return engine.new_game(variant, seed)

    def new(self, variant: str, seed: int) -> engine.Game:
        """Start deal ``seed`` of ``variant`` in the open page (no reload)."""
        if not self.page.evaluate(APP_SHOWN_JS):
            self.goto()
        self.act("new", variant=variant, seed=seed)
        return engine.new_game(variant, seed)

    def load(self, game: engine.Game) -> None:
        """Put ``game`` in the autosave slot (as web/saves.py writes it) and reload: the
        page resumes it, as after any reload."""
        backend = MemoryBackend()
        GameSaves(Storage(backend)).save(game, "loaded-by-a-test", 0, False)
        # Leave the app first (it saves its own game as it goes), onto any page of its origin.
        self.page.goto("/pyscript.toml")
        self.page.evaluate(SET_STORAGE_JS, backend.items)
        self.goto()

    def act(self, kind: str, **data) -> None:
        """Send an intent through the table's own API (for setting up, not under test)."""
        self.page.evaluate("([k, d]) => window.ppTable.act(k, d)", [kind, data])

    def close_dialogs(self) -> None:
        self.page.evaluate(CLOSE_DIALOGS_JS)

    # -- reading ---------------------------------------------------------------------

    def piles(self) -> dict[str, list[str]]:
        return self.page.evaluate(PILES_JS)

    def check(self, game: engine.Game) -> None:
        """The DOM shows exactly the position of the CPython ``game``."""
        dom, want = self.piles(), expected_piles(game)
        wrong = {p: (dom.get(p), want.get(p)) for p in set(dom) | set(want)
                 if dom.get(p) != want.get(p)}
        assert not wrong, f"DOM != engine (pile: (dom, engine)): {wrong}"
        self.page.wait_for_function(CARDS_LANDED_JS)  # where a card lands, not mid-flight
        misplaced = self.page.evaluate(MISPLACED_JS)
        assert not misplaced, f"cards drawn away from their piles: {misplaced}"

    def record_shown(self) -> None:
        """Keep every state the page shows from now on (SHOWN_JS; see :meth:`shown`)."""
        self.page.evaluate(SHOWN_JS)

    def shown(self, game: engine.Game | None = None) -> list[dict]:
        """The states the page showed since :meth:`record_shown`, oldest first; only those
        of ``game``'s position when given."""
        states = self.page.evaluate("() => window.__shown")
        if game is None:
            return states
        key = piles_key(game)
        return [state for state in states if state["piles"] == key]

    def settled_verdict(self, timeout: int = READY_MS) -> dict:
        """Wait until the solver settled the position in play and the page shows it (see
        VERDICT_SHOWN_JS); its answer ("verdict", "unwinnable", "rewind")."""
        handle = self.page.wait_for_function(VERDICT_SHOWN_JS, timeout=timeout, polling=50)
        return handle.json_value()

    def act_and_read(self, kind: str, **data) -> dict:
        """Send an intent and read the verdict its own render shows (ACT_AND_READ_JS)."""
        return self.page.evaluate(ACT_AND_READ_JS, [kind, data])

    def text(self, selector: str) -> str:
        return self.page.inner_text(selector)

    def announced(self) -> str:
        return self.page.inner_text("#announce")

    # -- geometry --------------------------------------------------------------------

    def settle(self) -> None:
        """Wait until two frames are drawn, so a resize's or a class's layout is on the
        page. Headless Chromium on a loaded machine once drew no frame for five minutes
        after a viewport change; a screenshot makes it draw one."""
        for _ in range(3):
            if self.page.evaluate(FRAMES_JS):
                return
            self.page.screenshot()
        raise AssertionError("the page drew no frame in 15 s, though its scripts ran")

    def card(self, pile: str, index: int):
        return self.page.locator(f'[data-pile="{pile}"] > [data-card]').nth(index)

    def box(self, pile: str, index: int | None = None) -> dict:
        if index is None:
            return self.page.locator(f'[data-pile="{pile}"]').bounding_box()
        return self.card(pile, index).bounding_box()

    def grab_point(self, pile: str, index: int) -> tuple[float, float]:
        """A point on the visible part of a card (its top strip when covered)."""
        b = self.box(pile, index)
        count = self.page.locator(f'[data-pile="{pile}"] > [data-card]').count()
        if index < count - 1:
            nxt = self.box(pile, index + 1)
            if abs(nxt["x"] - b["x"]) > 2:  # fanned sideways: the uncovered edge
                edge = b["x"] + b["width"] - 6 if nxt["x"] < b["x"] else b["x"] + 6
                return edge, b["y"] + b["height"] / 2
            return b["x"] + b["width"] / 2, b["y"] + max(3, min(10, (nxt["y"] - b["y"]) / 2))
        return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2

    def drop_point(self, pile: str) -> tuple[float, float]:
        """The middle of a pile's top card, or of its empty slot."""
        count = self.page.locator(f'[data-pile="{pile}"] > [data-card]').count()
        b = self.box(pile, count - 1) if count else self.box(pile)
        return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2

    # -- acting ----------------------------------------------------------------------

    def drag(self, src: str, index: int, dst: str, steps: int = 8) -> None:
        """A mouse drag of the card at ``index`` of ``src`` (and what lies on it) to ``dst``."""
        x0, y0 = self.grab_point(src, index)
        x1, y1 = self.drop_point(dst)
        mouse = self.page.mouse
        mouse.move(x0, y0)
        mouse.down()
        mouse.move(x1, y1, steps=steps)
        mouse.up()

    def click_card(self, pile: str, index: int, clicks: int = 1) -> None:
        x, y = self.grab_point(pile, index)
        if clicks == 2:
            self.page.mouse.dblclick(x, y)
        else:
            self.page.mouse.click(x, y)

    def click_pile(self, pile: str) -> None:
        x, y = self.drop_point(pile)
        self.page.mouse.click(x, y)

    def count(self, pile: str) -> int:
        return self.page.locator(f'[data-pile="{pile}"] > [data-card]').count()


def watch(context, page, base_url: str, log: Log) -> None:
    """Abort and record requests off the server; record console errors and exceptions."""
    origin = urllib.parse.urlsplit(base_url)

    def local(url: str) -> bool:
        parts = urllib.parse.urlsplit(url)
        return parts.scheme in ("data", "blob", "about") or parts.netloc == origin.netloc

    def on_request(request):
        if not local(request.url):
            log.problems.append(f"request left the server: {request.url}")

    context.on("request", on_request)
    context.route(lambda url: not local(url), lambda route: route.abort())
    page.on("console", lambda m: m.type == "error" and log.problems.append(f"console: {m.text}"))
    page.on("pageerror", lambda e: log.problems.append(f"exception: {e}"))
    trail_of(page)


def make_session(browser, base_url: str, **options):
    log = Log()
    options.setdefault("viewport", {"width": 1280, "height": 800})
    context = browser.new_context(base_url=base_url, reduced_motion="reduce", **options)
    # The plain-text page load() passes through has no icon link: Chromium asks for one.
    context.route("**/favicon.ico", lambda route: route.fulfill(status=204, body=""))
    page = context.new_page()
    watch(context, page, base_url, log)
    return context, TablePage(page, log)


@pytest.fixture(scope="module", name="desk")
def _desk(browser, base_url):
    """One desktop page per test module (Pyodide boots once per module)."""
    context, table = make_session(browser, base_url)
    yield table
    context.close()


def checked(session: TablePage):
    """Lend a module's page to one test (dialogs closed first); the test fails on any
    console error or stray request the page made meanwhile."""
    session.close_dialogs()
    yield session
    problems, session.log.problems[:] = list(session.log.problems), []
    assert not problems, "\n".join(problems)


@pytest.fixture(name="table")
def _table(desk):
    """The module's desktop page."""
    yield from checked(desk)


@pytest.fixture(scope="module", name="phone_session")
def _phone_session(browser, base_url):
    context, table = make_session(
        browser, base_url, viewport={"width": 360, "height": 640}, has_touch=True,
        is_mobile=True, device_scale_factor=2)
    yield table
    context.close()


@pytest.fixture(name="phone")
def _phone(phone_session):
    """A 360x640 touch phone page (one per module)."""
    yield from checked(phone_session)
