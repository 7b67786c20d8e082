"""Klondike's dives from the root (engine/solver/klondike_dives.py; docs/solver.md §7.25).

Dives are short depth-first searches in jittered orders of their own beside the search: they
may only find wins (real lines, replayed here under the rules, docs/rules/klondike.md), never
answer "lost", and never change the positions the search expands, so a loss costs what it
did and nothing changes below DIVE_AFTER positions.
"""

from __future__ import annotations

import pytest

import engine
from engine.solver import klondike
from engine.solver.klondike import KlondikeSpace
from engine.solver.klondike_dives import Dives
from engine.solver.search import Solver
from tests.engine.helpers import replays_to_win


def searched(seed: int, dives: bool, relax: bool = True, quota: int = 30_000,
             slice_ms: float = 600_000.0) -> Solver:
    """Deal ``seed`` searched to an answer or ``quota`` positions, dives on or off."""
    game = engine.new_game("klondike", seed)
    space = KlondikeSpace(game.rules)
    space.dives, space.relax = dives, relax
    solver = Solver(game, quota, space=space)
    while solver.step(slice_ms) is None:
        pass
    return solver


def test_dives_win_deals_the_search_leaves_and_their_lines_replay() -> None:
    """From the roots of deals the search wins only after 15,000 to 29,000 positions (760,
    168, 628, 640) or not within 100,000 (952), dives find wins within a few hundred
    positions of their own; each line plays under the rules to a win."""
    for seed, most in ((760, 500), (168, 100), (628, 100), (640, 100), (952, 100)):
        game = engine.new_game("klondike", seed)
        space = KlondikeSpace(game.rules)
        space.relax = space.dives = False
        auto, root = space.settle(game.state)
        dives = Dives(space, root, auto, klondike.DIVE_LIMIT, klondike.DIVE_JITTERS)
        line = None
        while line is None and dives.spent < most:
            line = dives.go(8)
        assert line is not None, seed
        assert replays_to_win(game, line)


def test_a_deal_is_won_through_the_dives_and_not_without_them() -> None:
    """Deal 952, which the search alone leaves undecided after 100,000 positions
    (docs/solver.md §7.15), is won after 5,060 with the dives (from the 5,000th position, one
    dive position to each of the search's), whole or in slices, with the same line; without
    them it is undecided then."""
    whole = searched(952, True, quota=8_000)
    assert (whole.result, whole.nodes) == ("won", 5_060)
    game = engine.new_game("klondike", 952)
    assert replays_to_win(game, whole.moves)
    sliced = searched(952, True, quota=8_000, slice_ms=3.0)
    assert (sliced.result, sliced.nodes, sliced.moves) == ("won", 5_060, whole.moves)
    assert searched(952, False, quota=8_000).result == "unknown"


@pytest.mark.parametrize("seed", [30, 192])
def test_a_loss_costs_the_same_positions_with_the_dives(seed: int) -> None:
    """Dives never answer "lost" nor change the search's positions: deal 30 (lost after
    6,188 positions by the search alone, the dives running from the 5,000th) and deal 192
    (902, before they start) cost the same positions with them and without."""
    alone = searched(seed, False, relax=False)
    both = searched(seed, True, relax=False)
    assert alone.result == both.result == "lost"
    assert both.nodes == alone.nodes


def test_nothing_changes_below_dive_after() -> None:
    """Until DIVE_AFTER positions the search is as it was: a deal it wins sooner is won
    after the same positions with the same moves (the dailies and rated counts below it)."""
    assert klondike.DIVE_AFTER == 5_000
    for seed in (31, 90):
        on, off = searched(seed, True), searched(seed, False)
        assert on.result == off.result == "won" and on.nodes < 5_000
        assert (on.nodes, on.moves) == (off.nodes, off.moves)


def test_the_dailies_space_has_no_dives() -> None:
    game = engine.new_game("klondike", 1)
    assert not klondike.daily_space(game.rules).dives
