"""The solver (engine/solver/search.py and one space per game in engine/solver/; docs/solver.md).

What is checked: a won answer's moves replay with Game.play to a win under the engine's
own rules; a lost answer is right on small constructed positions, both hand-made ones
whose answer is plain and random ones checked against a brute-force search over the
real rules (every legal move, no keys, no pruning) -- which is what makes the
solver's shortcuts (symmetric keys, the Klondike talon, safe foundation moves, moves
that must have a use, dead-position checks) trustworthy; the time and node budgets are
respected, also slice by slice; the CLI's JSON answer has its documented shape; and
deals shipped as winnable (engine/solver/data/winnable-*.txt) are winnable.
"""

from __future__ import annotations

import gc
import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

import engine
from engine.rules.cards import KING, RANKS, SUITS, card_text, make_card
from engine.rules.game import Game
from engine.rules.variants import DEAL_MAX, DEAL_MIN
from engine.solver import passes, search
from engine.solver.castle import CastleSpace
from engine.solver.search import Solver
from engine.solver.winnable import find_winnable, winnable_deals, winnable_path
from tests.engine.helpers import (
    brute_force,
    check_against_brute_force,
    doublets_position,
    klondike_from,
    replays_to_win,
)
from tests.web.fakes import TickingClock

ROOT = Path(__file__).resolve().parents[2]


def text(rank: int, suit: int, down: bool = False) -> str:
    card = card_text(make_card(rank, suit))
    return card.lower() if down else card


# --- won answers replay --------------------------------------------------------------


@pytest.mark.parametrize("variant", engine.VARIANTS)
def test_a_won_answer_replays_to_a_win_under_the_rules(variant: str) -> None:
    """docs/solver.md §1: 'won' comes with the list of moves, which replays to a win; every
    variant."""
    hard = variant.endswith("-4")  # four-suit Spider: fewer deals are solved quickly
    for seed in range(1, 60):
        game = engine.new_game(variant, seed)
        answer = engine.solve(game, budget_ms=3000 if hard else 500)
        if answer.result == "won":
            assert answer.moves and replays_to_win(game, answer.moves)
            assert game.move_count == 0, "solving must not play on the game itself"
            return
    pytest.fail(f"no {variant} deal among 1..59 solved")


def test_a_won_answer_from_the_middle_of_a_game_replays_from_there() -> None:
    """The search starts from the current position, not from the deal."""
    game = engine.new_game("klondike", 1)
    first = engine.solve(game, budget_ms=2000)
    assert first.result == "won"
    for move in first.moves[:30]:
        game.play(move)
    answer = engine.solve(game, budget_ms=2000)
    assert answer.result == "won" and replays_to_win(game, answer.moves)


def test_a_won_position_answers_won_with_no_moves() -> None:
    done = engine.from_position("beleaguered-castle", {
        f"f{s}": [text(r, s) for r in range(1, KING + 1)] for s in range(4)})
    answer = engine.solve(done)
    assert answer.result == "won" and answer.moves == []


# --- lost answers ----------------------------------------------------------------------


def test_castle_lost_when_the_twos_lie_under_kings_and_no_row_can_empty() -> None:
    """docs/rules/beleaguered-castle.md §3, §5.2: Kings move only to an empty row, and no
    row can empty here (the 3s and 6s only shuttle between the 7s), so no 2 ever reaches a
    foundation."""
    game = engine.from_position("beleaguered-castle", {
        "f0": ["AS"], "f1": ["AH"], "f2": ["AD"], "f3": ["AC"],
        "t0": ["2S", "KH"], "t1": ["2H", "KS"], "t2": ["2D", "KC"], "t3": ["2C", "KD"],
        "t4": ["3S", "6H"], "t5": ["3H", "6S"], "t6": ["3D", "7C"], "t7": ["3C", "7D"],
    })
    assert game.legal_moves(), "the position still has moves: the search is not trivial"
    answer = engine.solve(game, budget_ms=5000)
    assert answer.result == "lost" and answer.moves == []
    assert brute_force(game) is False


def test_klondike_lost_when_no_card_can_ever_move_but_the_stock() -> None:
    """docs/rules/klondike.md §2.1-§2.2: build down in alternating colours, only a King
    enters an empty column.
    Only spades are in play and every column is full: no spade fits on a spade, the red
    Kings on the foundations could come back only to an empty column, and the 2 of spades
    lies under the King of spades, so turning the stock round and round is all there is."""
    full = {f"f{s}": [text(r, s) for r in range(1, KING + 1)] for s in (1, 2, 3)}
    game = engine.from_position("klondike", {
        **full, "f0": ["AS"], "t0": ["2s", "KS"], "t1": ["3S"], "t2": ["4S"], "t3": ["5S"],
        "t4": ["6S"], "t5": ["7S"], "t6": ["8S"], "stock": ["9s", "ts"], "waste": ["JS", "QS"],
    })
    assert game.legal_moves()
    assert engine.solve(game, budget_ms=5000).result == "lost"
    assert brute_force(game) is False


def test_doublets_lost_when_no_card_of_the_needed_rank_is_left() -> None:
    """docs/rules/doublets.md §3.2: the foundation takes only the double of its top card; here
    it needs a 2, the reserve holds none (and dead Kings), and there is no stock or waste."""
    found = ["2S", "4S", "8S", "3S", "6S", "QS", "JS", "9S", "5S", "TS", "7S", "AS"]
    reserve = ["KH", "KD", "KC", "KS", "4H", "8H", "3H"]
    game = engine.from_position("doublets", {
        **{f"r{i}": [card] for i, card in enumerate(reserve)}, "f0": found})
    assert engine.solve(game).result == "lost"


def test_klondike_win_that_needs_a_card_dug_out_of_a_foundation() -> None:
    """docs/rules/klondike.md §9 row 3: cards may come back from the foundations. Here a win
    needs cards brought back from under others on their foundation to hold cards still in play; a
    too eager pruning of returns once answered this position "lost" (found by the
    brute-force comparison below)."""
    game = engine.from_position("klondike", {
        "t0": ["ks", "qc", "th", "qh", "kc", "kh", "9D"],
        "t1": ["jh", "qs", "7c", "7d", "tc", "6D"], "t2": ["jd", "td", "9c", "8c", "5d", "QD"],
        "t3": ["4d", "8d", "kd", "ts", "9s", "JC"],
        "f0": [text(r, 0) for r in range(1, 9)], "f1": [text(r, 1) for r in range(1, 9)],
        "f2": [text(r, 2) for r in range(1, 4)], "f3": [text(r, 3) for r in range(1, 7)],
        "stock": ["js"], "waste": ["9H"]})
    assert brute_force(game) is True
    answer = engine.solve(game, budget_ms=20_000)
    assert answer.result == "won" and replays_to_win(game, answer.moves)


def random_klondike(rng: random.Random) -> Game:
    """A small Klondike endgame: foundations high, a few cards in the talon and in the
    columns (face down under the top card)."""
    heights = [rng.randint(3, 8) for _ in range(4)]
    rest = [make_card(r, s) for s in range(4) for r in range(heights[s] + 1, KING + 1)]
    rng.shuffle(rest)
    piles: dict[str, list[str]] = {
        f"f{s}": [text(r, s) for r in range(1, heights[s] + 1)] for s in range(4)}
    talon = rng.randint(0, min(6, len(rest) // 2))
    cut = rng.randint(0, talon)
    return klondike_from(piles, rest, talon, cut, rng.randint(4, 7))


def random_castle(rng: random.Random) -> Game:
    """A small Beleaguered Castle endgame: foundations high, a few cards in every row."""
    heights = [rng.randint(1, 6) for _ in range(4)]
    rest = [make_card(r, s) for s in range(4) for r in range(heights[s] + 1, KING + 1)]
    rng.shuffle(rest)
    piles: dict[str, list[str]] = {
        f"f{s}": [text(r, s) for r in range(1, heights[s] + 1)] for s in range(4)}
    rows = 8
    for i, card in enumerate(rest):
        piles.setdefault(f"t{i % rows}", []).append(card_text(card))
    return engine.from_position("beleaguered-castle", piles)


def random_doublets(rng: random.Random) -> Game:
    """A Doublets endgame: a long foundation, the other cards in reserve, stock, waste."""
    return doublets_position(rng, 34, 42)


def random_spider(rng: random.Random) -> Game:
    """A Spider endgame: seven runs cleared, the eighth cut into a few pieces spread over
    the columns, some cards face down."""
    suit = rng.choice((0, 1))
    ranks = list(range(KING, 0, -1))
    cuts = sorted(rng.sample(range(1, KING), rng.randint(2, 4)))
    pieces = [ranks[a:b] for a, b in zip([0, *cuts], [*cuts, KING], strict=True)]
    rng.shuffle(pieces)
    piles: dict[str, list[str]] = {
        f"f{i}": [text(r, 0) for r in range(KING, 0, -1)] for i in range(7)}
    for piece in pieces:
        column = piles.setdefault(f"t{rng.randrange(10)}", [])
        column.extend(text(r, suit) for r in piece)
    for column in [c for c in piles if c.startswith("t")]:
        down = rng.randrange(len(piles[column]))
        piles[column][:down] = [t.lower() for t in piles[column][:down]]
    variant = rng.choice(["spider-2", "spider-relaxed-2"])
    return engine.from_position(variant, piles)


@pytest.mark.parametrize("maker, count, losses", [
    (random_klondike, 30, True), (random_castle, 30, True), (random_doublets, 40, True),
    (random_spider, 20, False)])
def test_answers_agree_with_a_brute_force_search_of_the_real_rules(maker, count, losses) -> None:
    """A lost answer only after a complete search: on random small endgames the solver's
    answer (its keys, talon, safe moves, pruning and dead-position checks) agrees with a
    search of every legal move over exact states (positions too big for it are skipped)."""
    rng = random.Random(f"solver-{maker.__name__}")
    outcomes = []
    while len(outcomes) < count:
        expected = check_against_brute_force(maker(rng))
        if expected is not None:
            outcomes.append(expected)
    assert any(outcomes) and (all(outcomes) or losses), "wins and losses are both checked"
    assert not losses or not all(outcomes)


# --- budgets and slices ------------------------------------------------------------------


def hard_deal() -> Game:
    """A deal the solver cannot decide in a few milliseconds."""
    for seed in range(1, 100):
        game = engine.new_game("spider-4", seed)
        if engine.solve(game, budget_ms=30).result == "unknown":
            return game
    raise AssertionError("no undecided spider-4 deal")


def test_the_time_budget_is_respected(monkeypatch) -> None:
    """Time, counted by the reads of a clock that ticks a millisecond a read: the search
    stops as soon as its budget is spent (a busy machine cannot make this fail)."""
    clock = TickingClock()
    monkeypatch.setattr(search, "time", clock)  # the Solver's clock
    monkeypatch.setattr(passes, "time", clock)  # and its searches' deadlines
    answer = engine.solve(hard_deal(), budget_ms=150)
    assert answer.result == "unknown" and answer.moves == []
    assert 150 <= answer.ms <= 150 + 3 and clock.reads < 2 * 150


def test_the_node_budget_is_respected() -> None:
    game = hard_deal()
    answer = engine.solve(game, budget_ms=60_000, max_nodes=300)
    assert answer.result == "unknown" and answer.nodes == 300


def test_the_solver_works_in_short_slices_and_finds_the_same_answer() -> None:
    """For the browser: step(ms) returns within about ms (the page must not freeze over
    50 ms); resuming slice by slice reaches the same answer as one long call."""
    for seed in range(1, 100):
        game = engine.new_game("beleaguered-castle", seed)
        whole = engine.solve(game, budget_ms=3000)
        if whole.result != "unknown" and whole.nodes > 1000:
            break
    else:
        pytest.fail("no castle deal decided after 1,000 positions and within 3 s")
    solver = Solver(game)
    slices = 0
    gc.disable()  # as the page does while a search's tables live (web/solving.py)
    try:
        while True:
            began = time.process_time()  # CPU time: a busy machine's waits are not the slice's
            result = solver.step(ms=20)
            assert (time.process_time() - began) * 1000 < 50
            slices += 1
            if result is not None:
                break
    finally:
        gc.enable()
    assert slices > 1, "the deal should take more than one slice"
    assert solver.result == whole.result and solver.moves == whole.moves
    assert solver.solution().nodes == whole.nodes


def test_the_frontier_gives_the_lowest_score_first_and_the_newest_among_equals() -> None:
    """Best-first takes the state of lowest score, and of those the one met last: the
    frontier (a stack per score) gives states in exactly the order a heap on (score,
    -order met) gives them, with pushes and pops interleaved."""
    import heapq

    from engine.solver.passes import frontier, join

    rng = random.Random("frontier")
    for _ in range(50):
        start = [(rng.randint(-3, 6), f"k{n}", n) for n in range(rng.randint(0, 5))]
        buckets, scores = frontier(start)
        heap = [(score, -n, key, state) for n, (score, key, state) in enumerate(start)]
        heapq.heapify(heap)
        order = len(start)
        for _ in range(60):
            if heap and rng.random() < 0.45:
                expected = heapq.heappop(heap)
                low = scores[0]
                bucket = buckets[low]
                got = bucket.pop()
                if not bucket:
                    del buckets[low]
                    heapq.heappop(scores)
                assert (got[0], got[1]) == (expected[0], expected[2])
            else:
                item = (rng.randint(-3, 6), f"k{order}", order)
                heapq.heappush(heap, (item[0], -order, item[1], item[2]))
                join(buckets, scores, item)
                order += 1
            assert sorted(scores) == sorted({entry[0] for entry in heap})
            assert all(buckets[score] for score in scores)


def test_the_cycle_collector_is_off_while_searching_and_left_as_it_was() -> None:
    """The search switches Python's cycle collector off while it runs (walking its big
    tables cost up to a quarter of the time) and leaves it as it found it."""
    seen: list[bool] = []

    class Watch(CastleSpace):
        def expand(self, *args):  # type: ignore[no-untyped-def]
            seen.append(gc.isenabled())
            return super().expand(*args)

    game = engine.new_game("beleaguered-castle", 3)
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            solver = Solver(game)
            solver.space = Watch(game.rules)
            solver._search = type(solver._search)(solver.space, game.state)
            assert solver.step(1000) == "won"
            assert gc.isenabled() == enabled
        finally:
            gc.enable()
    assert seen and not any(seen)


@pytest.mark.parametrize("variant", engine.VARIANTS)
def test_a_search_leaves_no_garbage_in_cycles_that_grows_with_its_positions(variant) -> None:
    """With the collector held off for a whole search (as the page and the bench hold
    it), what the search threw away must go by reference counting alone: garbage in
    cycles would pile up per position and be walked in one long pause when the
    collector comes back (a step generator calling itself left some 96,000 objects
    after 3,000 Klondike positions). A few hundred made once per solver are fine."""
    deal = {"klondike": 5, "beleaguered-castle": 9, "doublets": 11}.get(variant, 1)
    game = engine.new_game(variant, deal)  # not decided within 3,000 positions
    gc.collect()
    gc.disable()
    try:
        solver = Solver(game, 3000)
        while solver.step(20.0) is None:
            pass
        assert solver.nodes == 3000
        solver.release()
        del solver
        assert gc.collect() < 1000
    finally:
        gc.enable()


def test_slices_generator_yields_until_the_answer() -> None:
    game = engine.new_game("doublets", 1)
    steps = list(Solver(game).slices(ms=5))
    assert steps[-1] in ("won", "lost") and all(s is None for s in steps[:-1])


def test_a_solver_hands_back_the_tables_it_lets_go_and_emptying_them_changes_nothing() -> None:
    """released() gives the tables the solver no longer uses (a new pass, the answer): the
    caller may empty them whenever it likes, and the answer is the one of a single call."""
    for variant, seed in (("beleaguered-castle", 12), ("klondike", 1), ("doublets", 1)):
        game = engine.new_game(variant, seed)
        whole = engine.solve(game, budget_ms=5000)
        solver = Solver(game)
        given = 0
        while solver.step(ms=2) is None:
            for table in solver.released():
                given += len(table)
                table.clear()
        for table in solver.released():
            given += len(table)
            table.clear()
        assert given > 100 and solver.released() == []  # each table is handed back once
        assert solver.solution()[:3] == whole[:3]
        assert not any(solver._search.tables())  # it holds none once it has answered


def test_release_gives_up_every_table_and_the_search_stops() -> None:
    solver = Solver(hard_deal())
    assert solver.step(ms=5) is None
    given = solver.release()
    assert sum(len(table) for table in given) > solver.nodes  # its states, met and linked
    assert solver.result == "unknown" and solver.step(ms=5) == "unknown"
    assert solver.release() == [] and not any(solver._search.tables())


# --- the command line ----------------------------------------------------------------------


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_cli_solve_json_prints_exactly_one_object_of_the_documented_shape() -> None:
    """docs/solver.md §1: {"result": "won"|"lost"|"unknown", "moves": [move texts], "nodes", "ms"};
    the move texts are those parse_move reads."""
    done = cli("solve", "klondike", "1", "--budget-ms", "3000", "--json")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.count("\n") == 1
    answer = json.loads(done.stdout)
    assert set(answer) == {"result", "moves", "nodes", "ms"}
    assert answer["result"] == "won"
    assert isinstance(answer["nodes"], int) and isinstance(answer["ms"], (int, float))
    game = engine.new_game("klondike", 1)
    for move in answer["moves"]:
        game.play(engine.parse_move(game, move))
    assert game.status == "won"


def test_cli_solve_answers_lost_and_unknown_in_the_same_shape() -> None:
    lost = json.loads(cli("solve", "beleaguered-castle", "2", "--json").stdout)
    assert lost["result"] == "lost" and lost["moves"] == []
    unknown = json.loads(cli("solve", "spider-4", "1", "--budget-ms", "50", "--json").stdout)
    assert unknown["result"] == "unknown" and unknown["moves"] == []


def test_cli_solve_from_the_position_after_moves_and_bad_input() -> None:
    done = cli("solve", "doublets", "1", "stock-waste", "--json")
    assert json.loads(done.stdout)["result"] in ("won", "lost")
    bad = cli("solve", "doublets", "1", "t0-t1")
    assert bad.returncode == 2 and bad.stderr.startswith("error:")
    assert cli("solve", "klondike", "1", "--budget-ms", "0").returncode == 2


def test_cli_winnable_prints_deals_that_replay_to_wins() -> None:
    done = cli("winnable", "doublets", "--count", "3", "--start", "5")
    assert done.returncode == 0, done.stderr
    deals = [int(line) for line in done.stdout.split()]
    assert len(deals) == 3 and deals == sorted(deals) and deals[0] >= 5
    for seed in deals:
        game = engine.new_game("doublets", seed)
        answer = engine.solve(game, budget_ms=3000)
        assert answer.result == "won" and replays_to_win(game, answer.moves)


def test_cli_winnable_resume_goes_on_from_the_file_of_the_same_command(tmp_path: Path) -> None:
    """An interrupted generation run (hours for 4-suit Spider) resumes where it stopped."""
    out = tmp_path / "list.txt"
    whole = cli("winnable", "doublets", "--count", "4", "--start", "5")
    expected = [int(line) for line in whole.stdout.split()]
    first = cli("winnable", "doublets", "--count", "2", "--start", "5", "--output", str(out))
    assert first.returncode == 0, first.stderr
    lines = out.read_text().splitlines()
    out.write_text("\n".join([lines[0], lines[1].replace("--count 2", "--count 4"), *lines[2:]]))
    again = cli("winnable", "doublets", "--count", "4", "--start", "5", "--output", str(out),
                "--resume")
    assert again.returncode == 0, again.stderr
    text = out.read_text().splitlines()
    assert [int(line) for line in text[3:]] == expected
    assert text[2] == f"# Tried deals 5..{expected[-1]}: 4 won."
    other = cli("winnable", "doublets", "--count", "5", "--start", "5", "--output", str(out),
                "--resume")
    assert other.returncode == 2 and "same command" in other.stderr
    assert out.read_text().splitlines() == text


def test_cli_winnable_on_two_processes_writes_the_file_of_one(tmp_path: Path) -> None:
    """--jobs N solves deals in parallel but hands them on in order: with --max-nodes the
    file is the same as with one process, header and all, and it resumes the same way."""
    args = ("winnable", "doublets", "--count", "6", "--start", "3", "--max-nodes", "20000")
    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    done = cli(*args, "--jobs", "1", "--output", str(one))
    assert done.returncode == 0, done.stderr
    done = cli(*args, "--jobs", "2", "--output", str(two))
    assert done.returncode == 0, done.stderr
    assert two.read_text() == one.read_text()
    assert len(one.read_text().splitlines()) == 3 + 6
    lines = two.read_text().splitlines()
    two.write_text("\n".join(lines[:5]) + "\n")  # as if stopped after two wins
    done = cli(*args, "--jobs", "2", "--output", str(two), "--resume")
    assert done.returncode == 0, done.stderr
    assert two.read_text() == one.read_text()


def test_find_winnable_in_parallel_yields_every_deal_in_order() -> None:
    one = [(seed, answer.result) for seed, answer
           in find_winnable("doublets", 4, 3, 60_000.0, 20_000)]
    two = [(seed, answer.result) for seed, answer
           in find_winnable("doublets", 4, 3, 60_000.0, 20_000, jobs=2)]
    assert two == one and [seed for seed, _ in one] == list(range(3, 3 + len(one)))


# --- shipped winnable deals -------------------------------------------------------------


SHIPPED = [v for v in engine.VARIANTS if winnable_path(v).exists()]


def test_winnable_lists_are_shipped_for_every_variant() -> None:
    """docs/solver.md §11: proven-winnable deal numbers a variant, as data, made by the CLI."""
    for variant in engine.VARIANTS:
        deals = winnable_deals(variant)
        assert len(deals) >= 1000, variant
        assert list(deals) == sorted(set(deals)) and all(DEAL_MIN <= d <= DEAL_MAX for d in deals)
        header = winnable_path(variant).read_text().splitlines()[1]
        assert header.startswith(f"# python -m engine winnable {variant} "), header


@pytest.mark.parametrize("variant", SHIPPED)
def test_a_random_sample_of_shipped_winnable_deals_is_won_again(variant: str) -> None:
    """Re-solve two shipped deal numbers drawn at random (the draw is in the message),
    within a number of positions, not a time (a loaded machine would run out of time): the
    rated lists' limit, as a few listed deals take the solver of today far longer than the
    one that listed them (Castle's 1458 some 606,000 positions, Klondike's 1245 337,000)."""
    draw = random.randrange(2**32)
    sample = random.Random(draw).sample(winnable_deals(variant), 2)
    for seed in sample:
        game = engine.new_game(variant, seed)
        answer = engine.solve(game, budget_ms=float("inf"), max_nodes=2_000_000)
        assert answer.result == "won", (variant, seed, draw)
        assert replays_to_win(game, answer.moves)


def test_rank_and_suit_texts_used_here_match_the_engine() -> None:
    assert RANKS[KING - 1] == "K" and SUITS == "SHDC"
