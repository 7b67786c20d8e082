"""Klondike's dives from the root (engine/solver/klondike_dives.py; docs/solver.md §7.25).

Dives are short depth-first searches in jittered orders of their own beside the search: they
may only find wins (real lines, replayed here under the rules, docs/rules/klondike.md), never
answer "lost", and never change the positions the search expands, so a loss costs what it
did and nothing changes below DIVE_AFTER positions.
"""

from __future__ import annotations

import pytest

import engine
from engine.rules.moves import Move
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
        dives = Dives(space, root, auto, klondike.DIVE_LIMIT, klondike.DIVE_JITTERS,
                      klondike.DIVE_COMPLETE)
        line = None
        while line is None and dives.spent < most:
            line = dives.go(8)
        assert line is not None, seed
        assert replays_to_win(game, line)


def test_a_deal_is_won_through_the_dives_and_not_without_them() -> None:
    """Deal 952, which the search alone leaves undecided after 100,000 positions
    (docs/solver.md §7.15), is won after 5,028 with the dives (from the 5,000th position, two
    dive positions to each of the search's), whole or in slices, with the same line; without
    them it is undecided then."""
    whole = searched(952, True, quota=8_000)
    assert (whole.result, whole.nodes) == ("won", 5_028)
    game = engine.new_game("klondike", 952)
    assert replays_to_win(game, whole.moves)
    sliced = searched(952, True, quota=8_000, slice_ms=3.0)
    assert (sliced.result, sliced.nodes, sliced.moves) == ("won", 5_028, whole.moves)
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


def dive_from_root(seed: int, complete: int, most: int, fade: int = 0,
                   ) -> tuple[list[Move] | None, int]:
    """Deal ``seed``'s dives from its root, one in ``complete`` taking all the steps (0: none),
    the jitter fading to none at ``fade`` (0: never), until a win or ``most`` positions: the
    win's moves, and the positions spent."""
    game = engine.new_game("klondike", seed)
    space = KlondikeSpace(game.rules)
    space.relax = space.dives = False
    auto, root = space.settle(game.state)
    dives = Dives(space, root, auto, klondike.DIVE_LIMIT, klondike.DIVE_JITTERS, complete,
                  fade)
    line = None
    while line is None and dives.spent < most:
        line = dives.go(8)
    return line, dives.spent


@pytest.mark.parametrize(("seed", "pruned", "complete"), [(789, 400, 3_000),
                                                           (932, 100, 3_000)])
def test_dives_of_the_pruned_steps_win_what_complete_dives_do_not(
        seed: int, pruned: int, complete: int) -> None:
    """Deals 789 and 932, which the search wins only after 11,364 and 29,092 positions
    (docs/solver.md §7.28), are won from the root by dives taking the pruned pass's steps
    within a few hundred positions, the line replaying to a win; dives taking all the steps
    find none within 3,000."""
    line, _ = dive_from_root(seed, 0, pruned)
    assert line is not None
    assert replays_to_win(engine.new_game("klondike", seed), line)
    assert dive_from_root(seed, 1, complete)[0] is None


def test_one_dive_in_dive_complete_takes_all_the_steps() -> None:
    """The first dive takes all the steps, as every dive did: deal 628's first complete dive
    wins after 44 positions, which the pruned dives take 929 for; dive ``complete * i``
    takes the random numbers of complete dive i, so the others keep their own."""
    assert klondike.DIVE_COMPLETE > 1
    line, spent = dive_from_root(628, klondike.DIVE_COMPLETE, 1_000)
    assert line is not None and spent == dive_from_root(628, 1, 1_000)[1] == 44
    assert replays_to_win(engine.new_game("klondike", 628), line)
    assert dive_from_root(628, 0, 1_000)[1] == 929


def test_a_deal_is_won_sooner_with_the_pruned_dives(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 932 is won after 5,060 positions with the dives of DIVE_COMPLETE and DIVE_FADE,
    whole or in slices of 3 ms (the same line), the line replaying; with the dives as they
    were before both (every dive taking all the steps, the jitter the same at every depth) it
    is undecided then."""
    with_pruned = searched(932, True, quota=8_000)
    assert (with_pruned.result, with_pruned.nodes) == ("won", 5_060)
    assert replays_to_win(engine.new_game("klondike", 932), with_pruned.moves)
    sliced = searched(932, True, quota=8_000, slice_ms=3.0)
    assert (sliced.result, sliced.nodes, sliced.moves) == ("won", 5_060, with_pruned.moves)
    monkeypatch.setattr(klondike, "DIVE_COMPLETE", 1)
    monkeypatch.setattr(klondike, "DIVE_FADE", 0)
    assert searched(932, True, quota=8_000).result == "unknown"


@pytest.mark.parametrize(("seed", "faded", "unfaded"), [(288, 144, 1_725), (388, 582, 2_369),
                                                        (481, 669, 1_389)])
def test_a_jitter_fading_with_the_depth_wins_sooner(seed: int, faded: int, unfaded: int,
                                                    ) -> None:
    """Deals 288, 388 and 481, which the dives win near the second's end with a jitter the
    same at every depth, are won from the root after a half to a tenth of the positions with
    the jitter fading to none at DIVE_FADE steps (docs/solver.md §7.31); the line replays."""
    assert klondike.DIVE_FADE == 80
    line, spent = dive_from_root(seed, klondike.DIVE_COMPLETE, 3_000, klondike.DIVE_FADE)
    assert line is not None and spent == faded
    assert replays_to_win(engine.new_game("klondike", seed), line)
    assert dive_from_root(seed, klondike.DIVE_COMPLETE, 3_000)[1] == unfaded
