"""The Settings dialog's choices through the table's controller (web/controller.py
do_settings, web/storage.py settings): every one saved, restored and checked; and the
auto-move of safe cards, played after a move of the player's and taken back with it."""

from __future__ import annotations

import json
import random

import engine
from tests.web.fakes import HandClock
from web.controller import Table
from web.storage import DEFAULT_SETTINGS, MemoryBackend, Storage

ROOT = "pp:v1:/"
CHANGED = {"four_colour": True, "large_print": True, "dark": True, "left_handed": True,
           "speed": "fast", "tap": "select", "autofinish": False, "auto_move": True}


def table(backend: MemoryBackend | None = None) -> Table:
    return Table(Storage(backend or MemoryBackend()), now=HandClock(), rng=random.Random(5))


def test_the_defaults_of_the_shared_contract():
    settings = table().start("")["settings"]
    assert {k: settings[k] for k in CHANGED} == {
        "four_colour": False, "large_print": False, "dark": False, "left_handed": False,
        "speed": "normal", "tap": "auto", "autofinish": True, "auto_move": False}


def test_every_setting_is_saved_and_restored():
    backend = MemoryBackend()
    t = table(backend)
    t.start("")
    answer = t.handle("settings", CHANGED)
    assert answer["event"] == "settings"
    assert {k: answer["settings"][k] for k in CHANGED} == CHANGED
    again = table(backend).start("")["settings"]
    assert {k: again[k] for k in CHANGED} == CHANGED


def test_a_setting_of_the_wrong_kind_is_ignored_when_changed():
    t = table()
    t.start("")
    t.handle("settings", {"speed": "warp", "dark": "yes", "tap": 1, "left_handed": None})
    assert t.settings["speed"] == "normal" and t.settings["dark"] is False
    assert t.settings["tap"] == "auto" and t.settings["left_handed"] is False


def test_a_stored_setting_that_cannot_be_read_is_named_kept_aside_and_defaulted():
    backend = MemoryBackend()
    raw = json.dumps({"schema": 1, "speed": "warp", "dark": 1, "large_print": True,
                      "auto_move": "on"})
    backend.items[ROOT + "settings"] = raw
    store = Storage(backend)
    settings = store.settings(engine.VARIANTS)
    assert settings["speed"] == "normal" and settings["dark"] is False
    assert settings["auto_move"] is False
    assert settings["large_print"] is True  # what could be read is kept
    [notice] = store.take_notices()
    assert notice["title"] == "Saved data could not be read"
    assert "could not be read: speed, dark, auto_move" in notice["text"]
    assert raw in backend.items.values()  # the copy kept aside
    assert DEFAULT_SETTINGS["auto_move"] is False


def test_auto_move_plays_the_safe_cards_after_a_move_and_one_undo_takes_all_back():
    t = table()
    t.start("")
    t.handle("settings", {"auto_move": True, "autofinish": False})
    game = engine.from_position("klondike", {
        "t0": ["3S"], "t1": ["2S"], "t2": ["AS"], "t3": ["9H"], "t4": ["8S"],
        "f1": ["AH", "2H"], "f2": ["AD", "2D"]})
    t.adopt(game)
    before = t.game.state
    payload = t.handle("play", {"src": "t4", "dst": "t3"})  # 8S onto 9H: a move of one's own
    piles = payload["piles"]
    assert piles["f0"] == ["AS", "2S", "3S"] and piles["t3"] == ["9H", "8S"]
    assert payload["move_count"] == 4 and payload["event"] == "move"
    assert "Eight of spades to column 4." in payload["announce"]
    assert "Home by themselves: Ace of spades, Two of spades, Three of spades." \
        in payload["announce"]
    undone = t.handle("undo")
    assert t.game.state == before and undone["announce"] == "Move undone."
    redone = t.handle("redo")
    assert redone["piles"]["f0"] == ["AS", "2S", "3S"] and redone["move_count"] == 4


def auto_move_table(backend: MemoryBackend | None = None) -> Table:
    """Auto-move on, and a Klondike table where JS onto QH sends AS, 2S and AH home."""
    t = table(backend)
    t.start("")
    t.handle("settings", {"auto_move": True})
    t.adopt(engine.from_position("klondike", {
        "t0": ["AS"], "t1": ["QH"], "t2": ["JS"], "t3": ["AH"], "t4": ["KC"], "t5": ["TH"],
        "t6": ["2S"]}))
    return t


def test_two_moves_with_auto_moves_undo_one_span_at_a_time():
    t = auto_move_table()
    t.handle("play", {"src": "t2", "dst": "t1"})  # JS onto QH: AS, 2S, AH go home
    after_first = t.game.state
    t.handle("play", {"src": "t5", "dst": "t2"})  # TH to the empty column? not a King
    assert t.game.state == after_first  # refused: nothing changes
    t.handle("play", {"src": "t1", "dst": "t4", "count": 2})  # QH+JS onto KC
    assert t.game.move_count == 5
    t.handle("undo")
    assert t.game.state == after_first
    t.handle("undo")
    assert t.game.move_count == 0


def test_auto_move_is_off_by_default_and_never_in_spider():
    t = table()
    t.start("")
    t.adopt(engine.from_position("klondike", {"t0": ["AS"], "t1": ["9H"], "t2": ["8S"]}))
    payload = t.handle("play", {"src": "t2", "dst": "t1"})
    assert payload["piles"]["t0"] == ["AS"] and payload["move_count"] == 1
    t.handle("settings", {"auto_move": True})
    t.handle("new", {"variant": "spider-1", "seed": 7})
    t.handle("stock")
    assert t.game.move_count == 1


def test_a_tap_and_a_stock_turn_set_off_the_auto_moves_too():
    t = table()
    t.start("")
    t.handle("settings", {"auto_move": True})
    t.adopt(engine.from_position("klondike", {"t0": ["9H"], "t1": ["8S"], "stock": ["as"]}))
    payload = t.handle("stock")  # the ace turns up on the waste and goes home
    assert payload["piles"]["f0"] == ["AS"] and payload["piles"]["waste"] == []
    assert "Ace of spades goes home by itself." in payload["announce"]
    t.handle("undo")
    assert t.game.move_count == 0 and t.game.position()["piles"]["stock"] == ["as"]


def test_a_reload_keeps_which_moves_undo_together():
    """The spans are saved with the game: after a reload one undo still takes a move and
    the safe cards that followed it back; a spans field that makes no sense is dropped
    (each move then undoes alone) and the game itself still resumes."""
    backend = MemoryBackend()
    t = auto_move_table(backend)
    t.handle("play", {"src": "t2", "dst": "t1"})  # JS onto QH: AS, 2S, AH go home
    first, count = t.game.state, t.game.move_count
    assert count == 4
    t.handle("play", {"src": "t1", "dst": "t4", "count": 2})
    head = json.loads(backend.getItem(ROOT + "game"))
    assert head["spans"] == [[0, 4, "Move"]]

    again = table(backend)
    again.start("")
    assert again.game.move_count == 5
    again.handle("undo")
    assert again.game.state == first
    again.handle("undo")
    assert again.game.move_count == 0

    head["spans"] = [[3, 2, "Move"]]  # ends before it starts
    backend.setItem(ROOT + "game", json.dumps(head))
    third = table(backend)
    third.start("")
    assert third.game.move_count == 5 and not third.notices
    third.handle("undo")
    third.handle("undo")
    assert third.game.move_count == 3
