"""Nothing a player has is lost: two tabs on one storage, copies of the app on one origin,
damaged or hostile saved data, a storage that fails to read, and saving that costs the
same at move 5,000 as at move 5 (web/controller.py, web/saves.py, web/stats.py,
web/storage.py). Two tabs are two Tables over one backend, as two pages share
localStorage."""

from __future__ import annotations

import json
import random

import engine
from tests.web.fakes import HandClock
from web.controller import Table
from web.saves import CHUNK, GameSaves
from web.stats import KEY, MAX_MS, Result, StatsBook
from web.storage import PREFIX, MemoryBackend, Storage

ROOT = PREFIX + "/"
RANKS = "A23456789TJQK"


def tab(backend: MemoryBackend, scope: str = "/", seed: int = 1) -> Table:
    return Table(Storage(backend, scope), now=HandClock(), rng=random.Random(seed))


def nearly_won_castle() -> engine.Game:
    piles = {f"f{i}": [r + s for r in RANKS] for i, s in enumerate("SHDC")}
    piles["f3"] = piles["f3"][:-1]
    return engine.from_position("beleaguered-castle", dict(piles, t0=["KC"]))


def play_any(t: Table, n: int) -> None:
    for _ in range(n):
        move = t.game.legal_moves()[0]
        t.handle("play", {"src": move.src, "dst": move.dst, "count": move.count})


def castle(t: Table):
    return t.stats.stats.of("beleaguered-castle")


def test_a_win_in_one_tab_survives_a_new_game_in_another():
    """Stats 3 played / 1 won with a game in progress; tab A leaves it and wins a deal;
    tab B, still showing the old game, makes a move and starts a new game."""
    backend = MemoryBackend()
    first = tab(backend)
    first.start("?game=beleaguered-castle&deal=21")
    for n, won in enumerate((True, False, False)):
        first.stats.record("beleaguered-castle", Result(won, 1000, 10), f"old{n}")
    play_any(first, 2)  # the game in progress
    a, b = tab(backend, seed=2), tab(backend, seed=3)
    a.start("")
    b.start("")
    assert a.game_id == b.game_id
    a.handle("new", {"variant": "beleaguered-castle", "seed": 22})  # leaves it: a loss
    a.adopt(nearly_won_castle())
    a.save()
    a.handle("tap", {"pile": "t0"})
    assert a.game.status == "won" and (castle(a).played, castle(a).won) == (5, 2)
    answer = b.handle("tap", {"pile": "t0"})  # B's view is stale: it follows, plays nothing
    assert answer["event"] == "sync" and "another tab" in answer["announce"]
    assert b.scores.in_progress is False  # the old game is counted already
    b.handle("new", {"variant": "beleaguered-castle", "seed": 23})
    stored = StatsBook(Storage(backend), engine.VARIANTS).stats.of("beleaguered-castle")
    assert (stored.played, stored.won, stored.lost) == (5, 2, 3)


def test_a_tab_closed_untouched_never_overwrites_the_moves_of_another():
    backend = MemoryBackend()
    tab(backend).start("?game=klondike&deal=7")
    a, b = tab(backend, seed=2), tab(backend, seed=3)
    a.start("")
    b.start("")
    play_any(a, 6)
    a.handle("visibility", {"hidden": True})  # A closes
    b.handle("visibility", {"hidden": True})  # B closes without a move
    again = tab(backend, seed=4)
    assert again.start("")["move_count"] == 6


def test_a_tab_follows_the_other_tab_when_it_comes_back():
    backend = MemoryBackend()
    a, b = tab(backend, seed=2), tab(backend, seed=3)
    a.start("?game=klondike&deal=7")
    b.start("")
    play_any(a, 3)
    payload = b.handle("visibility", {"hidden": False})
    assert payload["event"] == "sync" and payload["move_count"] == 3
    assert payload["pile_names"]  # a full render: the page may need to set the table up
    play_any(b, 1)  # now B plays on, and A follows B
    assert a.handle("state")["move_count"] == 4


def test_a_game_left_in_two_tabs_is_counted_once():
    backend = MemoryBackend()
    a, b = tab(backend, seed=2), tab(backend, seed=3)
    a.start("?game=doublets&deal=5")
    play_any(a, 1)
    b.start("")
    # Both tabs let it go at once: B's save shows A's game, A has not seen B at all.
    b.scores.abandon()
    a.scores.abandon()
    stored = StatsBook(Storage(backend), engine.VARIANTS).stats.of("doublets")
    assert (stored.played, stored.lost) == (1, 1)


def test_a_result_lost_to_another_tabs_write_is_put_back():
    backend = MemoryBackend()
    a = tab(backend)
    a.start("")
    stale = backend.items.get(ROOT + KEY)
    a.adopt(nearly_won_castle())
    a.handle("tap", {"pile": "t0"})
    assert castle(a).won == 1
    # Another tab read the statistics a moment earlier and writes them back.
    if stale is None:
        del backend.items[ROOT + KEY]
    else:
        backend.items[ROOT + KEY] = stale
    a.handle("sync")
    assert StatsBook(Storage(backend), engine.VARIANTS).stats.of("beleaguered-castle").won == 1


def test_a_reset_in_one_tab_is_not_undone_by_another():
    backend = MemoryBackend()
    a, b = tab(backend, seed=2), tab(backend, seed=3)
    a.start("")
    a.adopt(nearly_won_castle())
    a.handle("tap", {"pile": "t0"})
    b.start("")
    b.handle("stats_reset", {"everything": True})
    a.handle("sync")
    assert castle(a).played == 0


def test_copies_of_the_app_on_one_origin_keep_their_own_games():
    backend = MemoryBackend()
    a = tab(backend, "/a/")
    a.start("?game=spider-2&deal=4")
    play_any(a, 2)
    b = tab(backend, "/b/")
    payload = b.start("")
    assert (payload["variant"], payload["move_count"]) != ("spider-2", 2)
    b.handle("new", {"variant": "klondike", "seed": 3})
    assert tab(backend, "/a/").start("")["move_count"] == 2
    assert StatsBook(Storage(backend, "/a/"), engine.VARIANTS).stats.variants == {}


def damaged(backend: MemoryBackend) -> list[str]:
    return [v for k, v in backend.items.items() if k.startswith(ROOT + "unreadable:")]


def test_a_save_that_cannot_be_replayed_is_kept_aside_not_deleted():
    for record in ({"variant": "spider-1", "seed": 1, "moves": ["t0-t0"], "cursor": 1},
                   {"variant": "no-such-game", "seed": 1, "moves": [], "cursor": 0},
                   "x"):
        backend = MemoryBackend()
        raw = json.dumps({"schema": 1, "record": record, "elapsed_ms": 5})
        backend.items[ROOT + "game"] = raw
        payload = tab(backend).start("")
        [notice] = payload["notices"]
        assert notice["title"] == "Saved data could not be read" and notice["damaged"]
        assert damaged(backend) == [raw]


def test_a_damaged_part_of_a_save_keeps_the_whole_save_aside():
    backend = MemoryBackend()
    t = tab(backend)
    t.start("?game=klondike&deal=3")
    for _ in range(CHUNK + 5):
        t.handle("stock")
    head, first = backend.items[ROOT + "game"], backend.items[ROOT + "game.0"]
    backend.items[ROOT + "game.1"] = '{"schema":1,"id":"someone else","moves":"t0-t1"}'
    payload = tab(backend).start("")
    assert "another game" in payload["notices"][0]["text"]
    [kept] = damaged(backend)
    assert json.loads(kept)["head"] == head and json.loads(kept)["chunks"][0] == first
    assert not any(k.startswith(ROOT + "game.") for k in backend.items if "unreadable" not in k
                   and k != ROOT + "game.0")


def test_one_bad_statistics_entry_is_kept_aside_and_the_others_kept():
    backend = MemoryBackend()
    good = {"played": 2, "won": 1, "lost": 1, "streak": 0, "best_streak": 1,
            "best_time_ms": 5000, "fewest_moves": 80, "win_time_total_ms": 5000, "undos": 0}
    bad = dict(good, played=-5)
    raw = json.dumps({"schema": 1, "variants": {"klondike": good, "spider-1": bad}})
    backend.items[ROOT + KEY] = raw
    t = tab(backend)
    payload = t.start("")
    assert payload["notices"][0]["title"] == "Saved data could not be read"
    assert "spider-1" in payload["notices"][0]["text"]
    assert json.loads(damaged(backend)[0])["variants"]["spider-1"] == bad
    t.adopt(nearly_won_castle())
    t.handle("tap", {"pile": "t0"})
    stored = json.loads(backend.items[ROOT + KEY])["variants"]
    assert stored["klondike"] == dict(good, recent=[]) and "beleaguered-castle" in stored


DEEP = {"settings": "[" * 10_000 + "]" * 10_000, "game": '{"a":' * 6000 + "1" + "}" * 6000,
        "stats": "[" * 10_000 + "]" * 10_000}


def test_deeply_nested_values_in_every_key_are_kept_aside_and_the_app_starts():
    backend = MemoryBackend()
    for name, text in DEEP.items():
        backend.items[ROOT + name] = text
    t = tab(backend)
    payload = t.start("")
    assert payload["status"] == "playing" and len(payload["notices"]) == 3
    assert sorted(damaged(backend)) == sorted(DEEP.values())
    answer = t.handle("stats_import", {"text": '{"a":' * 6000 + "1" + "}" * 6000})
    assert not answer["ok"] and "nested too deeply" in answer["message"]


class ReadFails(MemoryBackend):
    """getItem throws (a browser setting, a broken profile) while setItem works."""

    def getItem(self, key):  # noqa: N802
        raise RuntimeError("SecurityError")


def test_a_failing_read_is_never_taken_for_nothing_stored():
    backend = ReadFails()
    backend.items = {ROOT + "game": "the real save", ROOT + KEY: "the real stats"}
    t = tab(backend)
    payload = t.start("")
    assert payload["status"] == "playing"
    assert payload["notices"][0]["title"] == "Progress is not being saved"
    play_any(t, 3)
    t.adopt(nearly_won_castle())
    t.handle("tap", {"pile": "t0"})
    t.handle("new", {})
    assert backend.items == {ROOT + "game": "the real save", ROOT + KEY: "the real stats"}


def test_an_unbelievable_elapsed_time_is_bounded_and_the_win_stays_readable():
    backend = MemoryBackend()
    saves = GameSaves(Storage(backend))
    near = nearly_won_castle()
    saves.save(near, "g1", 0, False)
    head = json.loads(backend.items[ROOT + "game"])
    backend.items[ROOT + "game"] = json.dumps(dict(head, elapsed_ms=10**12))
    t = tab(backend)
    assert t.start("")["elapsed_ms"] == MAX_MS
    t.handle("tap", {"pile": "t0"})
    again = tab(backend)
    payload = again.start("")
    assert "notices" not in payload and again.stats.stats.of("beleaguered-castle").won == 1


class Counting(MemoryBackend):
    def __init__(self) -> None:
        super().__init__()
        self.written = 0

    def setItem(self, key, value):  # noqa: N802
        self.written += len(value)
        super().setItem(key, value)


def bytes_for(backend: Counting, action) -> int:
    before = backend.written
    action()
    return backend.written - before


def test_saving_costs_the_same_at_move_5000_as_at_move_5():
    backend = Counting()
    saves = GameSaves(Storage(backend))
    game = engine.new_game("klondike", 11)
    turn = engine.Move("stock", "waste")

    def step() -> None:
        move = turn if game.position()["piles"]["stock"] else next(
            m for m in game.legal_moves() if m.dst == "stock")
        game.play(move)

    for _ in range(5):
        step()
    saves.save(game, "long", 0, False)
    early = bytes_for(backend, lambda: (step(), saves.save(game, "long", 1, False)))
    while game.move_count < 5000:
        step()
    saves.save(game, "long", 2, False)
    late = bytes_for(backend, lambda: (step(), saves.save(game, "long", 3, False)))
    undo = bytes_for(backend, lambda: (game.undo(), saves.save(game, "long", 4, False)))
    assert early < 2500 and late < 2500 and undo < 400
    assert len(json.dumps(game.record())) > 30_000  # what a whole record would have cost
    restored = GameSaves(Storage(backend)).load()
    assert restored.game.record() == game.record() and restored.elapsed_ms == 4
