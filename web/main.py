"""Entry script of the page: start the controller and hand the table to web/table/table.js.

MicroPython runs this on the main thread (web/start/micropython-loader.mjs starts it, with
top-level await) once the files of mpy.toml (the first table's modules, as bytecode) are
written into its file system. One Python function,
``dispatch(kind, data_json) -> payload_json``, is handed to JavaScript as a single proxy;
every player action is one call to it (see web/table/table.js). web/table/table.js sets
``<html data-app="ready">`` once the first table is drawn.

The table's solver desk is web/forward.py's ForwardingDesk: the solver itself runs with
Pyodide in a worker (web/start/solver.js, web/deskworker.py), and the desk talks to it
through ``window.ppSolver`` in JSON text (docs/architecture.md §8).

It keeps to what Pyodide and MicroPython both run, and to the part of PyScript's API that
the page's loader gives MicroPython (``pyscript.window``, ``pyscript.document``,
``pyscript.ffi.create_proxy``); tests/web/test_micropython_web.py runs it under both with a
stand-in ``pyscript``.
"""

import gc
import json

from pyscript import document, window

window.performance.mark("pp:main")  # start-up stages, read by bench/startup.py


def fail(error: BaseException) -> None:
    """Say on the loading screen that the app could not start (tests wait for this too),
    unless an earlier failure (a file that did not arrive: web/start/loading.js) said why."""
    if document.documentElement.dataset.app == "error":
        return
    document.documentElement.dataset.app = "error"
    document.getElementById("loading-stage").textContent = (
        f"Pocket Patience could not start.\n{type(error).__name__}: {error}"
    )


class StorageFailed(Exception):
    """The browser's storage refused a call (forbidden, full)."""


class LocalStorage:
    """window.localStorage as plain Python, through web/table/table.js's
    ``window.ppStorage``, which catches what the browser throws: under MicroPython a
    JavaScript exception would unwind through the interpreter, past any ``except``. A
    refusal raises :class:`StorageFailed` here; a missing key reads as None (not JS null)."""

    def __init__(self, js) -> None:
        self.js = js

    @staticmethod
    def value(answer):
        if not answer.ok:
            raise StorageFailed(str(answer.error))
        return answer.value

    def getItem(self, key: str) -> str | None:  # noqa: N802 - the Web Storage API's names
        value = self.value(self.js.get(key))
        return value if isinstance(value, str) else None

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        self.value(self.js.set(key, value))

    def removeItem(self, key: str) -> None:  # noqa: N802
        self.value(self.js.remove(key))

    def keys(self) -> list[str]:
        """Every key of the origin's storage (other apps' too: the caller filters)."""
        return [str(key) for key in json.loads(self.value(self.js.keys()))]


def table_script_ran():
    """An awaitable of web/table/table.js having run. The page's module scripts load side by
    side, and with the runtime warm Python can be up before the table's script is evaluated:
    starting then would fail the page for want of ``window.ppTable``."""
    import asyncio

    try:
        from pyodide.ffi import create_once_callable  # freed once called
    except ImportError:  # MicroPython: a proxy, kept (one, for the page's life)
        from pyscript.ffi import create_proxy as create_once_callable

    ran = asyncio.Event()
    window.addEventListener("pp:table", create_once_callable(lambda _event: ran.set()))
    return ran.wait()


def breathe():
    """An awaitable of the browser's next task: the start is cut into tasks (this script's
    compilation, the rules' import, the table's modules, the first table, its drawing), so
    that none holds the main thread long enough to keep a frame or the player's input
    waiting (budget: no task over 200 ms at 4x slower CPU, docs/architecture.md §8). On
    the page the loader has imported the modules already, a few to a task."""
    import asyncio

    return asyncio.sleep(0)


async def main() -> None:
    # Imported here, so that an engine that fails to import shows on the loading screen.
    from pyscript.ffi import create_proxy

    await breathe()
    import engine  # noqa: F401 - the rules first, then the table's own modules

    await breathe()
    from web.controller import Table
    from web.forward import ForwardingDesk
    from web.storage import Storage, scope_of

    window.performance.mark("pp:imported")
    await breathe()
    if not hasattr(window, "ppTable"):  # (its script also gives window.ppStorage)
        await table_script_ran()
    # Storage forbidden (some private modes): play without it.
    backend = LocalStorage(window.ppStorage) if window.ppStorage.available() else None
    # Keys are scoped to the app's folder: two copies on one origin never share data.
    table = Table(Storage(backend, scope_of(str(window.location.pathname))),
                  desk=ForwardingDesk)
    solver = window.ppSolver  # web/start/solver.js (its module script runs before Python's)
    table.desk.post = solver.post
    solver.listen(create_proxy(table.desk.receive))

    def dispatch(kind: str, data_json: str) -> str:
        try:
            payload = table.handle(kind, json.loads(data_json) if data_json else {})
            payload.setdefault("type", payload.get("event"))  # "render", "stats", "watch"...
        except Exception as error:  # never leave the page without an answer
            window.console.error(f"table: {kind} failed: {type(error).__name__}: {error}")
            payload = table.render("error", announce="Something went wrong.")
        return json.dumps(payload, separators=(",", ":"))

    bridge = create_proxy(dispatch)  # web/table/table.js holds it for the page's lifetime
    first = table.start(str(window.location.search))
    if window.location.search and "link" not in first:
        # The link has done its work: a reload resumes the autosave, not the link's deal.
        # A link still waiting for the player's answer stays, so a reload asks again.
        window.history.replaceState(None, "", window.location.pathname)
    first = json.dumps(first, separators=(",", ":"))
    await breathe()
    window.ppTable.start(bridge, first)
    # Everything alive now (the interpreter, the engine, this module) lives as long as the
    # page: take it out of the collector's sight, so that a full collection during play
    # scans only the game's own objects (measured in Pyodide: ~10 ms -> ~0.2 ms).
    if hasattr(gc, "freeze"):  # not in MicroPython
        gc.freeze()


try:
    await main()  # noqa: F704, PLE1142 - the loader runs this file with top-level await
except Exception as error:
    fail(error)
    raise
