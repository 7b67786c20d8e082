"""The table controller (web/controller.py) in CPython: intents in, render payloads out.

Rules referred to: docs/rules/play-controls.md §3 (a tap sends a card to its best legal
destination), §4 (stock), §5 (undo/redo), §7 (hint), §8 (autosave), §10 (New Game
menu), §11 (elapsed time).
"""

from __future__ import annotations

import json
import random

import pytest

import engine
from tests.web.fakes import HandClock
from web.controller import Clock, Table
from web.saves import GameSaves
from web.storage import MemoryBackend, Storage


def make_table(backend: MemoryBackend | None = None, now=None) -> Table:
    return Table(Storage(backend or MemoryBackend()), now=now or HandClock(),
                 rng=random.Random(7))


def dom_view(game: engine.Game) -> dict[str, list[str]]:
    return {p: ["down" if c.islower() else c for c in cs]
            for p, cs in game.position()["piles"].items()}


def test_link_opens_that_deal_and_payload_masks_hidden_cards():
    table = make_table()
    payload = table.start("?game=spider-2&deal=123")
    game = engine.new_game("spider-2", 123)
    assert (payload["variant"], payload["seed"]) == ("spider-2", 123)
    assert payload["piles"] == dom_view(game)
    text = json.dumps(payload["piles"])
    assert not any(c.islower() for pile in game.position()["piles"].values() for c in pile
                   if f'"{c}"' in text)
    assert sorted(map(tuple, payload["moves"])) == sorted(
        (m.src, m.dst, m.count) for m in game.legal_moves())


@pytest.mark.parametrize("query", ["?game=nope&deal=5", "?game=klondike&deal=0",
                                   "?game=klondike&deal=abc", "?game=klondike&deal=4294967296",
                                   "?game=klondike"])
def test_bad_link_keeps_the_saved_game_and_says_why(query):
    backend = MemoryBackend()
    first = make_table(backend)
    first.start("?game=spider-1&deal=9")
    first.handle("stock")
    again = make_table(backend)
    payload = again.start(query)
    assert (payload["variant"], payload["seed"], payload["move_count"]) == ("spider-1", 9, 1)
    [notice] = payload["notices"]
    assert "still here" in notice["text"] and notice["title"] == "Link not opened"
    assert "<" not in notice["text"]


def test_autosave_resumes_the_game_with_its_moves_and_time():
    backend, clock = MemoryBackend(), HandClock()
    table = make_table(backend, clock)
    table.start("?game=klondike&deal=3")
    table.handle("stock")
    clock.t += 42
    table.handle("stock")
    again = make_table(backend, clock)
    payload = again.start("")
    game = engine.new_game("klondike", 3)
    game.play(engine.Move("stock", "waste"))
    game.play(engine.Move("stock", "waste"))
    assert payload["piles"] == dom_view(game)
    assert payload["move_count"] == 2
    assert payload["elapsed_ms"] == 42_000
    assert GameSaves(Storage(backend)).load().game.record() == game.record()


def test_won_game_is_not_resumed():
    backend = MemoryBackend()
    table = make_table(backend)
    near = engine.from_position("beleaguered-castle", {
        "f0": [r + "S" for r in "A23456789TJQK"], "f1": [r + "H" for r in "A23456789TJQK"],
        "f2": [r + "D" for r in "A23456789TJQK"], "f3": [r + "C" for r in "A23456789TJQ"],
        "t0": ["KC"]})
    GameSaves(Storage(backend)).save(near, "near", 5, False)
    table.start("")
    assert table.game.variant == "beleaguered-castle"
    payload = table.handle("tap", {"pile": "t0", "count": 1})
    assert payload["status"] == "won"
    again = make_table(backend).start("")
    assert again["move_count"] == 0 and again["variant"] == "beleaguered-castle"


def test_a_won_doublets_game_says_its_foundation_needs_nothing():
    """The Doublets foundation's next rank is told while playing, not over the won table."""
    backend = MemoryBackend()
    chain = ["A24836QJ95T7"[i % 12] + "SHDC"[i // 12] for i in range(48)]
    near = engine.from_position("doublets", {
        "f0": chain[:-1], "r0": chain[-1:], "r1": ["KS"], "r2": ["KH"], "r3": ["KD"],
        "r4": ["KC"]})
    GameSaves(Storage(backend)).save(near, "near", 5, False)
    table = make_table(backend)
    assert table.start("")["info"]["needs"] == "7"
    payload = table.handle("tap", {"pile": "r0", "count": 1})
    assert payload["status"] == "won"
    assert "needs" not in payload["info"]


def test_last_variant_is_remembered():
    backend = MemoryBackend()
    make_table(backend).start("").get("variant")
    table = make_table(backend)
    table.start("")
    table.handle("new", {"variant": "doublets"})
    assert Storage(backend).settings(engine.VARIANTS)["variant"] == "doublets"
    saves = GameSaves(Storage(backend))
    saves.load()
    saves.forget()
    assert make_table(backend).start("")["variant"] == "doublets"


def test_tap_prefers_a_foundation_over_a_build():
    """docs/rules/play-controls.md §3.1: a tap sends the card to its best legal destination,
    foundations first."""
    game = engine.from_position("klondike", {
        "t0": ["2H"], "t1": ["3S"], "f1": ["AH"], "stock": ["kd"], "waste": []})
    table = make_table()
    table.adopt(game)
    assert {m for m in game.legal_moves() if m.src == "t0"} >= {
        engine.Move("t0", "f1"), engine.Move("t0", "t1")}
    table.handle("tap", {"pile": "t0", "count": 1})
    assert table.game.position()["piles"]["f1"] == ["AH", "2H"]


def test_tap_prefers_the_same_suit_in_spider():
    game = engine.from_position("spider-2", {
        "t0": ["5H"], "t1": ["6S"], "t2": ["6H"],
        **{f"t{i}": ["KS"] for i in range(3, 10)}})
    table = make_table()
    table.adopt(game)
    table.handle("tap", {"pile": "t0", "count": 1})
    assert table.game.position()["piles"]["t2"] == ["6H", "5H"]


def test_tap_on_a_card_that_cannot_move_changes_nothing():
    table = make_table()
    table.start("?game=spider-1&deal=5")
    before = table.game.position()
    payload = table.handle("tap", {"pile": "t0", "count": 6})
    assert payload["event"] == "illegal" and table.game.position() == before


def test_foundation_intent_only_goes_to_a_foundation():
    game = engine.from_position("klondike", {"t0": ["2H"], "t1": ["3S"], "f1": ["AH"],
                                             "stock": ["kd"]})
    table = make_table()
    table.adopt(game)
    assert table.handle("foundation", {"pile": "t1", "count": 1})["event"] == "illegal"
    assert table.handle("foundation", {"pile": "t0", "count": 1})["event"] == "move"
    assert table.game.position()["piles"]["f1"] == ["AH", "2H"]


def test_stock_deals_and_says_why_it_cannot():
    """docs/rules/spider.md §6: a row can be dealt only when every column has a card."""
    table = make_table()
    table.start("?game=spider-1&deal=5")
    assert table.handle("stock")["event"] == "move"
    assert len(table.game.position()["piles"]["stock"]) == 40
    game = engine.from_position("spider-1", {"t0": ["KS"], "stock": ["as"] * 10})
    table.adopt(game)
    payload = table.handle("stock")
    assert payload["event"] == "illegal" and "column" in payload["announce"]


def test_undo_redo_and_hint():
    table = make_table()
    table.start("?game=spider-2&deal=5")
    payload = table.handle("hint")
    while payload["event"] == "thinking":  # the solver searches in slices (test_table_solver)
        payload = table.handle("hint_step")
    hint = engine.Move(*payload["hint"])
    assert hint in table.game.legal_moves()
    table.handle("play", dict(zip(("src", "dst", "count"), payload["hint"], strict=True)))
    assert table.handle("undo")["move_count"] == 0
    assert table.handle("redo")["move_count"] == 1
    assert table.handle("redo")["event"] == "none"


def test_illegal_play_changes_nothing():
    table = make_table()
    table.start("?game=spider-2&deal=5")
    before = table.game.position()
    assert table.handle("play", {"src": "t0", "dst": "t0", "count": 1})["event"] == "illegal"
    assert table.handle("play", {"src": "t0", "dst": "zz", "count": "x"})["event"] == "illegal"
    assert table.game.position() == before


def test_restart_goes_back_to_the_same_deal():
    table = make_table()
    table.start("?game=klondike&deal=11")
    table.handle("stock")
    payload = table.handle("restart")
    assert payload["move_count"] == 0 and payload["seed"] == 11
    assert payload["piles"] == dom_view(engine.new_game("klondike", 11))


def test_clock_starts_with_the_first_move_and_pauses_while_hidden():
    """docs/rules/play-controls.md §11: elapsed time, paused while the page is hidden."""
    now = HandClock()
    table = make_table(now=now)
    table.start("?game=klondike&deal=11")
    now.t += 30
    assert table.handle("state")["elapsed_ms"] == 0
    table.handle("stock")
    now.t += 10
    table.handle("visibility", {"hidden": True})
    now.t += 100
    payload = table.handle("visibility", {"hidden": False})
    assert payload["elapsed_ms"] == 10_000 and payload["clock_running"]
    now.t += 5
    assert table.handle("state")["elapsed_ms"] == 15_000


def test_clock_stops_when_the_game_ends():
    now = HandClock()
    clock = Clock(now)
    clock.update(started=True)
    now.t += 2
    clock.update(finished=True)
    now.t += 50
    assert clock.ms() == 2000 and not clock.running


def test_unavailable_storage_still_plays():
    class Broken:
        def getItem(self, key):  # noqa: N802
            raise RuntimeError("denied")

        setItem = removeItem = getItem  # noqa: N815

    table = Table(Storage(Broken()), now=HandClock())
    payload = table.start("")
    assert payload["status"] == "playing"
    assert table.handle("stock")["move_count"] in (0, 1)


def test_settings_change_comes_back_in_the_payload_and_is_saved():
    backend = MemoryBackend()
    table = make_table(backend)
    table.start("")
    payload = table.handle("settings", {"tap": "select", "four_colour": False})
    assert payload["settings"]["tap"] == "select" and payload["settings"]["four_colour"] is False
    saved = Storage(backend).settings(engine.VARIANTS)
    assert (saved["tap"], saved["four_colour"]) == ("select", False)
    assert table.handle("settings", {"tap": "bogus"})["settings"]["tap"] == "select"
