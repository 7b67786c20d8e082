"""Spider's search space (engine/solver/spider.py, docs/solver.md §8; rules:
docs/rules/spider.md and docs/rules/spider-relaxed.md).

What is checked: the compact nodes the space searches follow the engine's own rules
(every step's moves replay with SpiderRules.apply to the node's position, and the
complete pass offers exactly the engine's legal moves, so a "lost" answer rests on every
legal move), keys, the per-level cost of the score, and answers on small constructed
positions and whole deals (replayed with Game.play).
"""

from __future__ import annotations

import random

import engine
from engine.rules.cards import KING, card_text, make_card
from engine.rules.game import Game
from engine.rules.spider import COLUMNS, DEAL, STOCK
from engine.rules.state import State
from engine.rules.variants import rules_for
from engine.solver.spider import SpiderSpace, Weights


def text(rank: int, suit: int, down: bool = False) -> str:
    """A card's text; lower case when face down."""
    t = card_text(make_card(rank, suit))
    return t.lower() if down else t


def run(high: int, low: int, suit: int) -> list[str]:
    """Face-up cards ``high`` down to ``low`` of one suit."""
    return [text(r, suit) for r in range(high, low - 1, -1)]


def seven_cleared() -> dict[str, list[str]]:
    """Foundations f0..f6 each holding a cleared spade run."""
    return {f"f{i}": run(KING, 1, 0) for i in range(7)}


def node_of(state: State) -> tuple:
    """A State in the node's terms."""
    piles = state.piles
    return (tuple(bytes(p) for p in piles[:COLUMNS]), len(piles[STOCK]),
            sum(1 for p in piles[COLUMNS:STOCK] if p))


def check_children(game: Game, pruned: bool) -> list:
    """Every child's moves replay with the engine's rules to the child's node; returns the
    children."""
    rules = game.rules
    space = SpiderSpace(rules)
    _, root = space.settle(game.state)
    assert root == node_of(game.state)
    children, _ = space.steps(root, pruned)
    for macro, child in children:
        state = game.state
        for move in macro:
            assert move in rules.moves(state), (move, game.position())
            state = rules.apply(state, move)
        assert node_of(state) == child
    return children


def played_games(variant: str, count: int, seed: str) -> list[Game]:
    """Positions met in random play from a few deals (moves favouring the tableau)."""
    rng = random.Random(seed)
    out = []
    for deal in range(1, count + 1):
        game = engine.new_game(variant, deal)
        for _ in range(rng.randrange(20, 120)):
            moves = game.rules.moves(game.state)
            if not moves:
                break
            tableau = [m for m in moves if m != DEAL]
            game.play(rng.choice(tableau) if tableau and rng.random() < 0.9 else rng.choice(moves))
            if game.status != "playing":
                break
        out.append(game)
    return out


def test_complete_pass_offers_exactly_the_engine_moves_and_children_replay() -> None:
    """docs/rules/spider.md §4, §6 and spider-relaxed.md §4, §6 (moves and deals): in the
    complete pass the steps are exactly the engine's legal moves, each
    replaying to its node; the pruned pass offers some of them."""
    for variant in ("spider-4", "spider-relaxed-4", "spider-2", "spider-1"):
        for game in played_games(variant, 6, variant):
            children = check_children(game, pruned=False)
            steps = [macro for macro, _ in children]
            assert all(len(macro) == 1 for macro in steps)
            assert sorted(m for (m,) in steps) == sorted(game.rules.moves(game.state))
            pruned = check_children(game, pruned=True)
            assert {macro for macro, _ in pruned} <= set(steps)


def test_small_positions_won_and_lost() -> None:
    """docs/rules/spider.md §7-§8: a run completed clears and eight clear a win;
    the solver's line replays to that win. A position with no move and no stock is lost."""
    piles = seven_cleared()
    piles["t0"] = run(KING, 9, 1)
    piles["t1"] = [text(8, 1, down=True), *run(7, 1, 1)]  # 8H under: 7H..AH must move away
    game = engine.from_position("spider-4", piles)
    answer = engine.solve(game, budget_ms=5000)
    assert answer.result == "won"
    check = game.copy()
    for move in answer.moves:
        check.play(move)
    assert check.status == "won"
    stuck = seven_cleared()
    for i in range(COLUMNS):
        stuck[f"t{i}"] = [text(1 + i % 3, 1)]  # aces, twos, threes, nothing fits
    lost = engine.from_position("spider-4", stuck)
    assert engine.solve(lost, budget_ms=5000).result == "lost"


def test_keys_sort_columns_only_when_the_stock_is_empty() -> None:
    """docs/rules/spider.md §6 and §11.3: a deal puts one card on each column in order, so
    columns are interchangeable only once the stock is out."""
    rules = rules_for("spider-4")
    space = SpiderSpace(rules)
    cols = tuple(bytes((make_card(1 + i, 0),)) for i in range(COLUMNS))
    swapped = (cols[1], cols[0], *cols[2:])
    assert space.key((cols, 0, 0)) == space.key((swapped, 0, 0))
    assert space.key((cols, 10, 0)) != space.key((swapped, 10, 0))
    assert space.key((cols, 10, 0)) != space.key((cols, 20, 0))


def test_score_rises_with_the_positions_expanded_at_a_stock_level() -> None:
    """The score's level cost (module docstring): every ``quota`` positions expanded with
    the same number of deals left add one point to positions at that level, not others."""
    game = engine.new_game("spider-4", 1)
    space = SpiderSpace(game.rules, Weights(6, 3, 3, 6, 0, quota=2))
    _, root = space.settle(game.state)
    dealt = next(child for (move,), child in space.children(root) if move == DEAL)
    before_root, before_dealt = space.score(root), space.score(dealt)
    for _ in range(3):
        space.children(root)  # four expansions at 5 deals left in all
    assert space.score(root) == before_root + 2
    assert space.score(dealt) == before_dealt
    plain = SpiderSpace(game.rules, Weights(6, 3, 3, 6, 0, quota=0))
    _, root = plain.settle(game.state)
    for _ in range(4):
        plain.children(root)
    assert plain.score(root) == before_root


def test_deals_win_and_replay() -> None:
    """Whole deals: a won answer replays with Game.play to a win in each game."""
    for variant, seed in (("spider-1", 3), ("spider-2", 13), ("spider-relaxed-4", 5)):
        game = engine.new_game(variant, seed)
        answer = engine.solve(game, budget_ms=60_000, max_nodes=10_000)
        assert answer.result == "won", variant
        check = game.copy()
        for move in answer.moves:
            check.play(move)
        assert check.status == "won"
