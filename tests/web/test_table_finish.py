"""Finishing a game won by force, through the table's controller (web/controller.py): a
Finish when the rules say the rest needs no choice, taken back by one undo; the settings
that go with it (auto-finish on by default; two-colour suits by default); and the table
in words for a player who cannot see it (the T key, and what turned up after a move)."""

from __future__ import annotations

import random

import engine
from tests.web.fakes import HandClock
from web.controller import Table
from web.storage import MemoryBackend, Storage

RANKS = "A23456789TJQK"


def table(backend: MemoryBackend | None = None) -> Table:
    return Table(Storage(backend or MemoryBackend()), now=HandClock(), rng=random.Random(3))


def all_face_up() -> engine.Game:
    """Klondike with the spades to go: the ace on a column, the rest in the stock."""
    home = {f"f{i}": [r + s for r in RANKS] for i, s in enumerate("SHDC") if i}
    stock = [r.lower() + "s" for r in reversed(RANKS[1:])]
    return engine.from_position("klondike", dict(home, t0=["AS"], stock=stock))


def test_finish_plays_every_card_home_and_one_undo_takes_it_back():
    t = table()
    t.start("")
    t.adopt(all_face_up())
    before = t.game.state
    assert t.render("none")["can_finish"] is True
    payload = t.handle("finish")
    assert payload["event"] == "finish" and payload["status"] == "won"
    assert t.stats.stats.of("klondike").won == 1
    assert payload["result"]["streak"] == 1 and payload["result"]["won"] == 1
    shared = t.handle("share", {"page": "https://h.example/pp/", "result": True})
    assert shared["text"].startswith("Pocket Patience · Klondike, deal 1 · won in 0:00, ")
    undone = t.handle("undo")
    assert t.game.state == before and undone["can_finish"] and undone["status"] == "playing"
    redone = t.handle("redo")
    assert redone["status"] == "won" and t.stats.stats.of("klondike").won == 1
    t.handle("undo")
    t.handle("play", {"src": "t0", "dst": "f0"})  # a move of one's own: the finish is gone
    t.handle("undo")
    assert t.game.state == before


def test_no_finish_while_a_card_is_face_down():
    t = table()
    payload = t.start("?game=klondike&deal=7")
    assert payload["can_finish"] is False
    answer = t.handle("finish")
    assert answer["event"] == "illegal" and answer["move_count"] == 0


def test_auto_finish_is_on_and_suits_are_two_colour_by_default_and_both_are_kept():
    backend = MemoryBackend()
    t = table(backend)
    settings = t.start("")["settings"]
    assert settings["autofinish"] is True and settings["four_colour"] is False
    t.handle("settings", {"autofinish": False, "four_colour": True})
    again = table(backend).start("")["settings"]
    assert again["autofinish"] is False and again["four_colour"] is True


def test_the_table_read_in_words_and_a_card_turned_up_is_named():
    t = table()
    t.start("?game=klondike&deal=7")
    read = t.handle("read")["announce"]
    game = t.game.position()["piles"]
    assert read.startswith("Column 1: ") and "Column 7: 6 face down, then " in read
    assert f"Stock {len(game['stock'])} cards" in read and "Hearts foundation empty" in read
    t.adopt(engine.from_position("klondike", {"t0": ["qh", "5S"], "t1": ["6H"]}))
    words = t.handle("play", {"src": "t0", "dst": "t1"})["announce"]
    assert words.startswith("Five of spades to column 2. Queen of hearts turned up.")


def test_a_castle_whose_rows_run_down_offers_the_finish_and_undoes_it_whole():
    t = table()
    t.start("")
    rows = {"t0": ["KS", "QH", "JS"], "t1": ["KH", "QS", "JH"], "t2": ["KD", "QC", "JD"],
            "t3": ["KC", "QD", "JC"]}
    home = {f"f{i}": [r + s for r in RANKS[:10]] for i, s in enumerate("SHDC")}
    t.adopt(engine.from_position("beleaguered-castle", dict(home, **rows)))
    before = t.game.state
    assert t.render("none")["can_finish"] is True
    payload = t.handle("finish")
    assert payload["status"] == "won" and payload["move_count"] == 12
    t.handle("undo")
    assert t.game.state == before
