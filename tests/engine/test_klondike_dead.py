"""The Klondike dead-position test's twins' rule (engine/solver/klondike_dead.py ``dead``;
docs/solver.md §7.24), checked against a brute-force search of the real rules.

Rules: docs/rules/klondike.md (§2: build down in alternating colours, only a King enters an
empty column, foundations built up by suit; §4: unlimited recycles; §9 row 3: a card may come
back from a foundation). ``dead`` may call a position lost only when no line of legal moves
wins it: on random endgames where the twins' rule fires (and the plain fixed point does not)
the brute force finds no win; a deliberately over-strong rule is caught by the same check; and
no position on a winning line found by the solver is called dead.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import engine
from engine.rules.cards import KING, card_text, make_card
from engine.rules.game import Game
from engine.rules.klondike import COLUMNS, F0
from engine.rules.moves import Move
from engine.rules.state import State
from engine.solver import klondike as klondike_space
from engine.solver import klondike_dead
from engine.solver.klondike_bits import HOME
from engine.solver.klondike_dead import column_bits, dead
from engine.solver.search import Solver
from tests.engine.helpers import klondike_from, reachable


def suit_run(suit: int, low: int, high: int) -> list[str]:
    return [card_text(make_card(r, suit)) for r in range(low, high + 1)]


def random_endgame(rng: random.Random) -> Game:
    """A Klondike endgame of 12 to 24 cards in play: each foundation built to 7..10, up to a
    third of the rest in the stock and waste, the others dealt over two to five columns,
    face down under each column's top card."""
    heights = [rng.randint(7, 10) for _ in range(4)]
    rest = [make_card(r, s) for s in range(4) for r in range(heights[s] + 1, KING + 1)]
    rng.shuffle(rest)
    piles: dict[str, list[str]] = {f"f{s}": suit_run(s, 1, heights[s]) for s in range(4)}
    talon = rng.randint(0, len(rest) // 3)
    return klondike_from(piles, rest, talon, rng.randint(0, talon), rng.randint(2, 5))


def twins_fire(seed: str, count: int) -> Iterator[Game]:
    """Random endgames where ``dead`` fires and the plain fixed point does not, ``count`` of
    them."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        game = random_endgame(rng)
        piles = game.state.piles
        if dead(piles) and not dead(piles, twins=False):
            found += 1
            yield game


def wins(game: Game) -> bool | None:
    """The brute force's answer; None past 60,000 positions."""
    return reachable(game, game.rules.is_won, 60_000)


def test_the_twins_rule_fires_only_where_the_brute_force_finds_no_win() -> None:
    """docs/solver.md §7.24: each random endgame the twins' rule calls dead (the plain fixed
    point does not) has no winning line of real moves."""
    answers = [wins(game) for game in twins_fire("klondike-twins", 30)]
    assert answers.count(False) >= 25
    assert not any(answers)


def test_an_over_strong_twins_rule_is_caught_by_the_brute_force(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above has teeth: a rule that leaves out its second question (can Y move while
    T stays where it is?) calls winnable endgames dead, and the brute force finds their
    wins."""
    plain = klondike_dead._closure

    def over_strong(start: tuple[int, int, int, dict[int, int], bool, int], hold: int,
                    goal_home: int, goal_left: int, goal_exposed: int = -1) -> int:
        if goal_left:
            return 0  # "Y never moves while T stays", unasked
        return plain(start, hold, goal_home, goal_left, goal_exposed)

    monkeypatch.setattr(klondike_dead, "_closure", over_strong)
    answers = [wins(game) for game in twins_fire("klondike-twins-strong", 12)]
    assert any(answers)


@pytest.mark.parametrize("seed", [122, 60, 31, 90])
def test_no_position_on_a_winning_line_is_dead(seed: int) -> None:
    """The solver wins these deals, and ``dead`` calls no position of the win dead, before or
    after a move (deal 122's root and a position of deal 60's win were called dead by a
    form that asked whether Y can move before walking down the columns freed: both fail
    here)."""
    game = engine.new_game("klondike", seed)
    solver = Solver(game, max_nodes=100_000)
    solver.step(600_000)
    assert solver.result == "won"
    columns: dict[object, object] = {}
    assert not dead(game.state.piles, columns)  # type: ignore[arg-type]
    for move in solver.moves:
        game.play(move)
        assert not dead(game.state.piles, columns)  # type: ignore[arg-type]
    assert game.status == "won"


def test_deal_333_is_lost_at_the_root_by_the_twins_rule() -> None:
    """Deal 333: the Ten of diamonds lies face down in a column over the Jack of spades and
    the Six of diamonds; the Ten of hearts lies face down over the Three of clubs. Until the
    Ten of diamonds moves, the Jack of spades never lies exposed and neither Ten (nor the Nine
    of diamonds) can go home; while the Ten of hearts stays, the Ten of diamonds never comes
    free. So the Ten of hearts must first go onto the Jack of clubs and stay there, and the
    Ten of diamonds never finds a place. The plain fixed point misses it (the position was
    undecided after 100,000 positions); the twins' rule calls the root dead."""
    game = engine.new_game("klondike", 333)
    piles = game.state.piles
    assert dead(piles) and not dead(piles, twins=False)
    solver = Solver(game, max_nodes=1_000)
    solver.step(60_000)
    assert solver.result == "lost" and solver.nodes == 1


def closure_start(piles: tuple[tuple[int, ...], ...]) -> tuple[int, int, int, dict[int, int],
                                                               bool, int]:
    """What ``_closure`` starts from, gathered as ``dead`` gathers it."""
    in_column = movable = uncovered = 0
    under: dict[int, int] = {}
    for column in piles[:COLUMNS]:
        if column:
            bits = column_bits(column)
            in_column |= bits[0]
            movable |= bits[1]
            uncovered |= bits[2]
            under.update(bits[3])
    home = 0
    for s in range(4):
        home |= HOME[len(piles[F0 + s])] << (16 * s)
    return in_column, movable, uncovered, under, len(
        [c for c in piles[:COLUMNS] if c]) < COLUMNS, home


def test_the_closure_with_nothing_held_is_the_plain_fixed_point() -> None:
    """``dead`` writes the plain fixed point out (it is asked of every position); the general
    ``_closure`` with nothing held and no goal answers the same on the states met searching
    deals 438, 333 and 3 and on random endgames."""
    states: list[tuple[tuple[int, ...], ...]] = []
    for seed in (438, 333, 3):
        solver = Solver(engine.new_game("klondike", seed), max_nodes=300)
        solver.space.twins = False  # type: ignore[attr-defined]
        original = solver.space.ordered_steps  # type: ignore[attr-defined]

        def steps(state: State, pruned: bool, macro: tuple = (), original=original,
                  ) -> tuple[list[object], list[int], bool]:
            states.append(state.piles)
            return original(state, pruned, macro)

        solver.space.ordered_steps = steps  # type: ignore[attr-defined]
        solver.step(60_000)
    rng = random.Random("klondike-closure")
    states += [random_endgame(rng).state.piles for _ in range(200)]
    plain = [dead(piles, twins=False) for piles in states]
    assert plain == [klondike_dead._closure(closure_start(piles), 0, 0, 0) >= 0 for piles in states]
    assert any(plain) and not all(plain)


def test_a_foundation_card_brought_back_leaves_no_position_dead(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The search spares the dead test of a position whose step brought a foundation card
    back onto a column card (klondike._alive): every such position of the searches and
    dives of deals 15, 421 and 83 (to 6,000 positions) is found not dead when tested all
    the same, and there are more than a thousand of them."""
    spared = klondike_space._alive
    checked = 0

    def alive(macro, piles):  # type: ignore[no-untyped-def]
        nonlocal checked
        if spared(macro, piles):
            checked += 1
            assert not dead(piles)
            return True
        return False

    monkeypatch.setattr(klondike_space, "_alive", alive)
    for seed in (15, 421, 83):
        solver = Solver(engine.new_game("klondike", seed), max_nodes=6_000)
        solver.step(60_000)
    assert checked > 1_000


def test_a_king_brought_back_into_an_empty_column_is_tested() -> None:
    """A King into an empty column takes its emptiness away: not spared."""
    _alive = klondike_space._alive
    king, queen = make_card(0, KING), make_card(1, KING - 1)
    piles = ((king,), (queen, make_card(0, KING - 2)), *([()] * 11))
    assert not _alive((Move("f0", "t0"),), piles)
    assert _alive((Move("f0", "t1"),), piles)
    assert not _alive((Move("t1", "f0"),), piles)
    assert not _alive((), piles)
