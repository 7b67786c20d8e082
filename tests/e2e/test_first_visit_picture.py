"""A reload shows the last table at once, from the picture saved with the autosave
(web/start/picture.js), held (no input acts on it) until Python is up; never for a game
other than the saved one. Python's start is held back by holding MicroPython's wasm
download (web/start/early.js's, which the loader waits for), so what is seen before ready
is seen for sure (no timing)."""

from __future__ import annotations

import engine
from tests.e2e.table_helpers import Log, TablePage, first_move

RUNTIME = "**/vendor/micropython/micropython.wasm"  # what Python's start waits for
SAVED_JS = """() => {
  const head = JSON.parse(localStorage.getItem("pp:v1:/game") || "null");
  const pic = JSON.parse(localStorage.getItem("pp:v1:/picture") || "null");
  return !!head && !!pic && pic.id === head.id && pic.cursor === head.cursor
    && pic.count === head.count;
}"""


def played(page) -> tuple[TablePage, engine.Game]:
    table = TablePage(page, Log())
    game = table.open("klondike", 11)
    move = first_move(game)
    table.drag(move.src, table.count(move.src) - move.count, move.dst)
    game.play(move)
    table.check(game)
    page.wait_for_function(SAVED_JS)
    return table, game


def hold_python(page) -> list:
    held: list = []
    page.route(RUNTIME, lambda route: held.append(route))
    return held


def release(page, held: list) -> None:
    """Let the held download go (and any later one)."""
    page.route(RUNTIME, lambda route: route.continue_())
    page.wait_for_function("() => true")  # the held request has reached the handler
    for route in held:
        route.continue_()


def cards(page, root: str) -> list[str]:
    return page.evaluate(
        "(root) => [...document.querySelectorAll(root + ' [data-card]')].map("
        "(el) => el.dataset.card)", root)


def test_a_reload_paints_the_last_table_before_python_and_holds_input(page):
    table, game = played(page)
    shown = cards(page, "#app")
    held = hold_python(page)
    page.reload(wait_until="commit")
    page.wait_for_selector("#picture [data-card]")
    assert page.evaluate("document.documentElement.dataset.app") == "loading"
    assert cards(page, "#picture") == shown
    assert page.evaluate("document.getElementById('picture').inert") is True
    # A tap on the picture does nothing: Python has not even started.
    page.mouse.click(200, 300)
    assert page.evaluate("document.documentElement.dataset.app") == "loading"
    release(page, held)
    table.wait_ready()
    assert page.locator("#picture").count() == 0
    table.check(game)


def test_a_picture_of_another_move_or_deal_is_never_shown(page):
    played(page)
    page.goto("/pyscript.toml")  # leave the app (it saves the picture as it goes)
    page.evaluate("""() => {
      const pic = JSON.parse(localStorage.getItem("pp:v1:/picture"));
      pic.cursor += 1;
      localStorage.setItem("pp:v1:/picture", JSON.stringify(pic));
    }""")
    held = hold_python(page)
    page.goto("/", wait_until="commit")
    page.wait_for_function("() => !!window.ppPicture && !!document.getElementById('loading')")
    assert page.locator("#picture").count() == 0
    release(page, held)
    TablePage(page, Log()).wait_ready()


def test_a_link_to_another_deal_shows_no_picture(page):
    played(page)
    held = hold_python(page)
    page.goto("/?game=klondike&deal=12", wait_until="commit")
    page.wait_for_function("() => !!window.ppPicture")
    assert page.locator("#picture").count() == 0
    release(page, held)
