"""The table's solver features in CPython (web/desk.py through Table.handle).

docs/solver.md §12, at the table: Hint first asks the solver (in slices) and shows the first move of
a winning line, else falls back to the heuristic hint; a line being followed answers
the next hints at once and any other move drops it; "Winnable deals only" per variant
draws new deals from engine.winnable_deals; "This game can no longer be won" only where
the solver proved the position lost.
"""

from __future__ import annotations

import gc
import importlib
import json
import random
import sys

import pytest

import engine
from engine.solver import search
from tests.web.fakes import TickingClock
from web import desk, labels, solving
from web.controller import Table
from web.saves import GameSaves
from web.storage import SETTINGS, MemoryBackend, Storage

# Beleaguered Castle deal 21: the solver wins it in a few hundred positions, and the
# move t1-t7 from the deal leaves a position it proves lost at once (both checked below).
CASTLE_DEAL, LOSING_MOVE = 21, engine.Move("t1", "t7")

# A Beleaguered Castle position with moves left that cannot be won (found by a random
# search of small positions; the tests check the solver's "lost" on it).
LOST_ROWS = {"t0": ["9H", "JC"], "t1": ["7D", "JS", "KD"], "t2": ["TD", "JD"],
             "t3": ["QH", "KH"], "t4": ["8D"], "t5": ["QD", "TC", "QC", "JH", "TH"],
             "t6": ["9D", "QS", "KS"], "t7": ["KC", "TS"]}
LOST_FOUNDATIONS = {"f0": 9, "f1": 8, "f2": 6, "f3": 9}  # cards already on each (S H D C)


FAMILIES = sorted({labels.family(v) for v in engine.VARIANTS})


def lost_position() -> engine.Game:
    """The small Beleaguered Castle position above (status "playing", proved lost)."""
    piles = dict(LOST_ROWS)
    for pid, height in LOST_FOUNDATIONS.items():
        suit = "SHDC"[int(pid[1])]
        piles[pid] = [rank + suit for rank in "A23456789TJQK"[:height]]
    return engine.from_position("beleaguered-castle", piles)


def make_table(backend: MemoryBackend | None = None) -> Table:
    table = Table(Storage(backend or MemoryBackend()), now=lambda: 1000.0,
                  rng=random.Random(7))
    for family in FAMILIES:  # as after the watch's first slices (tested below)
        importlib.import_module(f"engine.solver.{family}")
    # Generous budgets: these tests are about what a search finds, and a busy machine
    # must not cut one short (the watch is bounded by positions too).
    table.desk.hint_budget_ms = table.desk.watch_budget_ms = 60_000.0
    return table


def hint(table: Table) -> dict:
    """Press Hint and run the search's slices as the page does, until the answer."""
    payload = table.handle("hint")
    steps = 0
    while payload["event"] == "thinking":
        steps += 1
        assert steps < 10_000
        payload = table.handle("hint_step")
    return payload


def watch(table: Table) -> dict:
    """Run the background watch's slices until it is done (as the page's idle callbacks)."""
    answer = table.handle("watch", {"ms": 8})
    for _ in range(10_000):
        if answer["done"]:
            return answer
        answer = table.handle("watch", {"ms": 8})
    raise AssertionError("the watch never finished")


class CountingSolver(engine.Solver):
    """engine.Solver, counting how many searches were started."""

    started = 0

    def __init__(self, *args, **kwargs) -> None:
        CountingSolver.started += 1
        super().__init__(*args, **kwargs)


@pytest.fixture
def counting(monkeypatch):
    CountingSolver.started = 0
    monkeypatch.setattr(solving.engine, "Solver", CountingSolver)
    return CountingSolver


# -- hints ---------------------------------------------------------------------------------


def test_hint_shows_the_first_move_of_the_solvers_winning_line():
    table = make_table()
    table.start(f"?game=beleaguered-castle&deal={CASTLE_DEAL}")
    answer = engine.solve(engine.new_game("beleaguered-castle", CASTLE_DEAL), budget_ms=5000)
    assert answer.result == "won"
    payload = hint(table)
    assert payload["event"] == "hint" and payload["hint_proven"] is True
    assert engine.Move(*payload["hint"]) == answer.moves[0]
    assert payload["announce"].startswith("Hint: ")


def test_hint_falls_back_to_the_heuristic_when_the_solver_does_not_answer_in_time():
    table = make_table()
    table.start("?game=spider-4&deal=1")
    table.desk.hint_budget_ms = 0.0  # no time at all: the solver cannot answer
    payload = hint(table)
    assert payload["event"] == "hint" and payload["hint_proven"] is False
    assert engine.Move(*payload["hint"]) == engine.hint(table.game)
    assert payload["unwinnable"] is False  # "unknown" is never a loss


def test_hint_search_runs_in_slices_within_its_budget(monkeypatch):
    """A hard deal: "thinking" answers until the budget is spent, then the heuristic.
    Time is counted in reads of a clock that ticks a millisecond a read."""
    monkeypatch.setattr(search, "time", TickingClock())
    table = make_table()
    table.start("?game=spider-4&deal=1")
    table.desk.hint_budget_ms, table.desk.hint_slice_ms = 60.0, 10.0
    assert engine.solve(table.game, budget_ms=60).result == "unknown"
    payload = table.handle("hint")
    slices = 1
    while payload["event"] == "thinking":
        payload = table.handle("hint_step")
        slices += 1
    assert slices >= 3  # 60 ms of solver time in slices of about 10 ms
    assert engine.Move(*payload["hint"]) == engine.hint(table.game)
    assert payload["hint_proven"] is False


def test_hint_on_a_proven_loss_falls_back_and_says_the_game_is_lost():
    table = make_table()
    table.start("")
    game = lost_position()
    assert engine.solve(game, budget_ms=5000).result == "lost" and game.status == "playing"
    table.adopt(game)
    payload = hint(table)
    assert engine.Move(*payload["hint"]) == engine.hint(game)
    assert payload["hint_proven"] is False
    assert payload["unwinnable"] is True


def test_a_followed_line_answers_the_next_hints_without_searching(counting):
    table = make_table()
    table.start(f"?game=beleaguered-castle&deal={CASTLE_DEAL}")
    first = hint(table)
    assert counting.started == 1
    line = engine.solve(engine.new_game("beleaguered-castle", CASTLE_DEAL), 5000).moves
    for n in range(1, 6):  # play the hinted move, ask again: the line's next move at once
        table.handle("play", dict(zip(("src", "dst", "count"), first["hint"], strict=True)))
        first = table.handle("hint")
        assert first["event"] == "hint" and first["hint_proven"] is True
        assert engine.Move(*first["hint"]) == line[n]
    assert counting.started == 1


def test_any_other_move_drops_the_line(counting):
    table = make_table()
    table.start(f"?game=beleaguered-castle&deal={CASTLE_DEAL}")
    shown = engine.Move(*hint(table)["hint"])
    other = next(m for m in table.game.legal_moves() if m != shown)
    table.handle("play", {"src": other.src, "dst": other.dst, "count": other.count})
    assert table.desk.line is None  # the new position is on no winning line
    payload = hint(table)  # a new search from the new position
    assert counting.started == 2
    assert engine.Move(*payload["hint"]) in table.game.legal_moves()


def test_a_move_during_the_search_cancels_it():
    table = make_table()
    table.start("?game=spider-4&deal=1")
    assert table.handle("hint")["event"] == "thinking"
    table.handle("stock")
    assert table.handle("hint_step") == {"event": "hint_cancelled"}
    assert table.desk.search is None


def test_hint_joins_a_watch_search_of_the_same_position(counting):
    table = make_table()
    table.start(f"?game=beleaguered-castle&deal={CASTLE_DEAL}")
    table.desk.watch_slice_ms = 0.5
    table.handle("watch", {"ms": 0.5})
    assert counting.started == 1
    payload = hint(table)
    assert payload["hint_proven"] is True and counting.started == 1


# -- the lost-position watch -----------------------------------------------------------------


def test_the_watch_imports_the_solver_one_module_a_slice_first(counting, monkeypatch):
    """A module's import can take tens of ms in the browser: one per slice, then search."""
    for name in ("colorsys", "sched"):  # stand-ins, not imported yet
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setattr(desk, "SOLVER_MODULES", ("colorsys", "sched"))
    table = make_table()
    table.start(f"?game=beleaguered-castle&deal={CASTLE_DEAL}")
    for name in ("colorsys", "sched"):
        assert table.handle("watch", {"ms": 1})["done"] is False
        assert name in sys.modules and counting.started == 0
    table.handle("watch", {"ms": 1})
    assert counting.started == 1



def test_the_watch_says_unwinnable_only_on_a_proven_loss():
    backend = MemoryBackend()
    game = engine.new_game("beleaguered-castle", CASTLE_DEAL)
    assert engine.solve(game, budget_ms=5000).result == "won"
    game.play(LOSING_MOVE)
    assert engine.solve(game, budget_ms=5000).result == "lost" and game.status == "playing"
    GameSaves(Storage(backend)).save(game, "castle", 0, False)  # the page's autosave
    table = make_table(backend)
    assert table.start("")["unwinnable"] is False  # not searched yet: nothing claimed
    answer = watch(table)
    assert answer == {"event": "watch", "done": True, "verdict": "lost", "unwinnable": True,
                      "rewind": {"looking": False, "back": 1}}  # the deal itself is won
    assert table.handle("state")["unwinnable"] is True
    hinted = table.handle("hint")  # no move to offer: it says so, and points at Undo
    assert hinted["hint"] is None and "can no longer be won" in hinted["announce"]
    assert "Undo" in hinted["announce"] and hinted["can_undo"]
    undone = table.handle("undo")  # the deal itself can be won: the notice goes
    assert undone["unwinnable"] is False
    assert watch(table)["verdict"] == "won" and table.handle("state")["unwinnable"] is False
    assert table.handle("redo")["unwinnable"] is True  # the proof is remembered


def test_the_watch_never_claims_a_loss_it_did_not_prove():
    table = make_table()
    table.start("?game=spider-4&deal=1")
    table.desk.watch_budget_ms = 40.0
    answer = watch(table)
    assert answer["verdict"] == "unknown" and answer["unwinnable"] is False
    assert table.handle("state")["unwinnable"] is False


def test_the_watch_restarts_when_the_position_changes(counting):
    table = make_table()
    table.start("?game=spider-4&deal=1")
    table.handle("watch", {"ms": 1})
    first = table.desk.search
    assert first is not None and first.result is None
    table.handle("stock")
    assert table.desk.search is None
    table.handle("watch", {"ms": 1})
    assert table.desk.search is not first and table.desk.search.state == table.game.state
    assert counting.started == 2


def test_a_lost_constructed_position_shows_the_notice_after_the_watch():
    table = make_table()
    table.start("")
    table.adopt(lost_position())
    assert table.handle("state")["unwinnable"] is False
    assert watch(table)["unwinnable"] is True
    assert table.handle("state")["unwinnable"] is True
    table.handle("new", {"variant": "klondike", "seed": 5})
    assert table.handle("state")["unwinnable"] is False


def test_no_notice_once_the_game_is_over():
    table = make_table()
    table.start("")
    rows = [["TS", "KH"], ["TH", "KS"], ["TD", "KC"], ["TC", "KD"],
            ["QS", "JH"], ["QH", "JS"], ["QD", "JC"], ["QC", "JD"]]  # kings and jacks stuck
    piles = {f"t{i}": row for i, row in enumerate(rows)}
    piles.update({f"f{i}": [r + s for r in "A23456789"] for i, s in enumerate("SHDC")})
    table.adopt(engine.from_position("beleaguered-castle", piles))
    assert table.game.status == "lost"  # no legal move: the end dialog says so instead
    assert watch(table) == {"event": "watch", "done": True, "verdict": None,
                            "unwinnable": False, "rewind": None}
    assert table.handle("state")["unwinnable"] is False


# -- winnable deals only ---------------------------------------------------------------------


@pytest.fixture
def shipped(monkeypatch):
    """Stand-in lists: klondike has one, the other variants none."""
    lists = {"klondike": (3, 4, 11)}
    monkeypatch.setattr(engine, "winnable_deals", lambda variant: lists.get(variant, ()))
    return lists


def test_winnable_only_draws_new_deals_from_the_list(shipped):
    backend = MemoryBackend()
    table = make_table(backend)
    table.start("?game=klondike&deal=99")
    payload = table.handle("settings", {"winnable": {"klondike": True}})
    assert payload["settings"]["winnable"] == ["klondike"]
    assert payload["winnable_counts"]["klondike"] == 3
    seeds = {table.handle("new", {"variant": "klondike"})["seed"] for _ in range(30)}
    assert seeds <= set(shipped["klondike"]) and len(seeds) > 1
    assert table.handle("new", {"variant": "klondike", "seed": 77})["seed"] == 77  # typed
    assert Storage(backend).settings(engine.VARIANTS)["winnable"] == ["klondike"]
    again = make_table(backend)  # a new page starts with a winnable deal too
    backend.items.pop("pp:v1:/game")
    assert again.start("")["seed"] in shipped["klondike"]


def test_the_first_table_comes_without_the_winnable_counts(shipped):
    """The counts need the solver's package and lists; the menu asks for them (settings)."""
    table = make_table()
    assert "winnable_counts" not in table.start("?game=klondike&deal=99")
    assert table.handle("settings", {})["winnable_counts"]["klondike"] == 3


def test_winnable_only_is_per_variant_and_off_without_a_list(shipped):
    table = make_table()
    table.start("?game=klondike&deal=99")
    table.handle("settings", {"winnable": {"klondike": True, "doublets": True}})
    assert table.settings["winnable"] == ["klondike", "doublets"]
    assert "winnable_counts" not in table.handle("new", {"variant": "doublets"})
    assert table.handle("settings", {})["winnable_counts"]["doublets"] == 0
    seeds = {table.handle("new", {"variant": "doublets"})["seed"] for _ in range(5)}
    assert not seeds <= set(shipped["klondike"])  # random deals: no list for doublets
    table.handle("settings", {"winnable": {"klondike": False}})
    seeds = {table.handle("new", {"variant": "klondike"})["seed"] for _ in range(5)}
    assert not seeds & set(shipped["klondike"])


def test_winnable_setting_ignores_bad_values(shipped):
    table = make_table()
    table.start("")
    payload = table.handle("settings", {"winnable": {"nope": True, "klondike": "yes"}})
    assert payload["settings"]["winnable"] == []
    table.handle("settings", {"winnable": ["klondike"]})
    assert table.settings["winnable"] == []


@pytest.mark.parametrize("stored", [
    {"schema": 1, "variant": "klondike", "tap": "auto", "four_colour": True},
    {"variant": "klondike"},
    {"schema": 1, "variant": "klondike", "winnable": "klondike"},
])
def test_settings_without_the_field_read_as_no_variant(stored):
    """web/storage.py: a field added with a default needs no new schema version."""
    backend = MemoryBackend()
    backend.setItem("pp:v1:/" + SETTINGS, json.dumps(stored))
    storage = Storage(backend)
    settings = storage.settings(engine.VARIANTS)
    assert settings["winnable"] == [] and settings["variant"] == "klondike"
    wrong_type = not isinstance(stored.get("winnable", []), list)
    assert len(storage.take_notices()) == wrong_type  # a wrong field is reported


def test_stored_winnable_list_keeps_known_variants_only():
    backend = MemoryBackend()
    backend.setItem("pp:v1:/settings", json.dumps(
        {"schema": 1, "winnable": ["klondike", "gone-game", 3, "beleaguered-castle"]}))
    assert Storage(backend).settings(engine.VARIANTS)["winnable"] == [
        "klondike", "beleaguered-castle"]


def test_shipped_lists_give_winnable_deals():
    """With the real lists (engine/solver/data/winnable-*.txt): every drawn deal is one of them."""
    variants = [v for v in engine.VARIANTS if engine.winnable_deals(v)]
    assert variants, "no winnable-deal lists are shipped (engine/solver/data/winnable-*.txt)"
    table = make_table()
    table.start("")
    table.handle("settings", {"winnable": dict.fromkeys(variants, True)})
    for variant in variants:
        seed = table.handle("new", {"variant": variant})["seed"]
        assert seed in engine.winnable_deals(variant)


# -- freeing what searches leave, a little at a time -----------------------------------------


def test_trash_empties_big_containers_in_slices():
    big = [list(range(5000)), set(range(5000)), {i: i for i in range(5000)}]
    trash = solving.Trash()
    trash.add(big + [[1, 2, 3]])  # a small one is not worth holding
    assert len(trash.bins) == 3
    assert trash.empty(0) is False  # one chunk at least, then the clock says stop
    assert sum(len(b) for b in big) < 15000
    while not trash.empty(0):
        pass
    assert not trash and all(len(b) == 0 for b in big)


def test_a_search_keeps_the_tables_the_solver_lets_go_for_the_trash():
    game = engine.new_game("beleaguered-castle", 12)  # won after a thousand positions or so
    search = solving.Search(game, 5000)
    while search.step(10) is None:
        pass
    assert search.result == "won" and search.solver.nodes > 300
    assert search.trash  # the tables it dropped on winning wait here, to be emptied in slices
    while not search.trash.empty(1):
        pass


def test_emptying_the_trash_between_slices_changes_no_answer():
    for variant, seed in (("beleaguered-castle", 1), ("klondike", 1), ("spider-1", 3)):
        game = engine.new_game(variant, seed)
        expected = engine.solve(game, budget_ms=5000)
        search = solving.Search(game, 5000)
        while search.step(1) is None:
            search.trash.empty(1)
        assert (search.result, search.moves) == (expected.result, expected.moves)
        check = game.copy()
        for move in search.moves:
            check.play(move)
        assert check.status == "won"


def test_only_the_solvers_own_containers_are_ever_emptied():
    game = engine.new_game("beleaguered-castle", 4)
    # Ended by positions, not time: a big enough search to leave containers behind.
    search = solving.Search(game, 10**9, max_nodes=3000)
    while search.step(10) is None:
        pass
    search.discard()
    assert search.trash  # the tables it gave up, on answering or when dropped
    shared = {id(value) for value in vars(game.rules).values()}  # the rules' own tables
    assert not any(id(table) in shared for table in search.trash.bins)
    while not search.trash.empty(1):
        pass
    assert game.legal_moves() and engine.solve(game, 20).result  # the engine still works


def test_the_watch_frees_a_dropped_search_before_searching_again():
    table = make_table()
    table.start("?game=spider-4&deal=1")
    for _ in range(20):
        table.handle("watch", {"ms": 4})
    assert table.desk.search is not None and table.desk.search.solver.nodes > 100
    table.handle("stock")  # the position changes: the search is dropped, not freed here
    assert table.desk.search is None and table.desk.trash
    answer = table.handle("watch", {"ms": 4})
    assert answer["done"] is False and table.desk.search is None  # this slice went to the trash
    while table.desk.trash:
        table.handle("watch", {"ms": 4})
    table.handle("watch", {"ms": 4})
    assert table.desk.search is not None and table.desk.search.state == table.game.state


@pytest.fixture
def gc_restored():
    was = gc.isenabled()
    yield
    if was:
        gc.enable()


def test_the_collector_pauses_while_a_search_lives_when_the_page_asks(gc_restored):
    gc.enable()
    table = make_table()
    table.desk.hold_gc = True
    table.start("?game=spider-4&deal=1")
    table.handle("watch", {"ms": 2})
    assert table.desk.search is not None and not gc.isenabled()
    table.desk.watch_budget_ms = 20.0
    watch(table)  # the search ends (unknown), its tables are freed: collection resumes
    assert table.desk.search is None and not table.desk.trash and gc.isenabled()


def test_the_collector_is_left_alone_by_default(gc_restored):
    gc.enable()
    table = make_table()
    table.start("?game=spider-4&deal=1")
    table.handle("watch", {"ms": 2})
    assert table.desk.search is not None and gc.isenabled()


def test_no_watch_search_on_the_winning_line_being_followed(counting):
    table = make_table()
    table.start(f"?game=beleaguered-castle&deal={CASTLE_DEAL}")
    move = hint(table)["hint"]
    table.handle("play", dict(zip(("src", "dst", "count"), move, strict=True)))
    assert watch(table) == {"event": "watch", "done": True, "verdict": "won",
                            "unwinnable": False, "rewind": None}
    assert counting.started == 1  # the hint's search only


def test_a_random_new_deal_passes_over_one_proved_lost_from_the_start() -> None:
    """New game with no deal number: a deal a short search proves lost is not dealt."""
    table = make_table()
    table.desk.opening_check_ms = 60_000.0  # bounded by positions, as the page's is
    seeds = iter([25, 2, 3])  # Castle: 25 has no move at all, 2 is lost in 15 positions
    table.random_seed = lambda: next(seeds)
    for seed in (25, 2):
        assert engine.solve(engine.new_game("beleaguered-castle", seed), 60_000.0,
                            2_000).result == "lost"
    payload = table.handle("new", {"variant": "beleaguered-castle"})
    assert payload["seed"] == table.game.seed == 3
    assert engine.solve(table.game, 60_000.0, 2_000).result == "won"


def test_a_chosen_deal_is_dealt_even_when_it_is_lost() -> None:
    """A deal asked for by number (a link, the menu) is the player's choice: dealt as is."""
    table = make_table()
    payload = table.handle("new", {"variant": "beleaguered-castle", "seed": 25})
    assert payload["seed"] == table.game.seed == 25
