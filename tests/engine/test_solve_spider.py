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

import pytest

import engine
from engine.rules.cards import KING, card_text, make_card, parse_card
from engine.rules.game import Game
from engine.rules.moves import Move
from engine.rules.spider import COLUMNS, DEAL, STOCK
from engine.rules.state import State
from engine.rules.variants import rules_for
from engine.solver.space import Space
from engine.solver.spider import PORTFOLIOS, WEIGHTS, SpiderSpace, Weights, daily_space
from tests.engine.helpers import check_against_brute_force, replays_to_win


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
            assert sorted(m for (m, *more) in steps if not more) == sorted(
                game.rules.moves(game.state))
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
    assert replays_to_win(game, answer.moves)
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


def test_the_level_cost_once_the_stock_is_out_has_a_quota_of_its_own() -> None:
    """Weights.last_quota: positions with the stock out cost a point every ``last_quota``
    positions expanded there, those with cards left in it every ``quota``."""
    game = engine.new_game("spider-4", 1)
    space = SpiderSpace(game.rules, Weights(6, 3, 3, 6, 0, quota=2, last_quota=3))
    _, root = space.settle(game.state)
    out = (root[0], 0, 0)  # the same columns, the stock out
    before_root, before_out = space.score(root), space.score(out)
    for _ in range(6):
        space.children(out)
    for _ in range(4):
        space.children(root)
    assert space.score(out) == before_out + 2
    assert space.score(root) == before_root + 2


def test_deals_win_and_replay() -> None:
    """Whole deals: a won answer replays with Game.play to a win in each game."""
    for variant, seed in (("spider-1", 3), ("spider-2", 13), ("spider-relaxed-4", 5)):
        game = engine.new_game(variant, seed)
        answer = engine.solve(game, budget_ms=60_000, max_nodes=10_000)
        assert answer.result == "won", variant
        assert replays_to_win(game, answer.moves)


def test_the_macros_win_a_four_suit_deal_in_fewer_positions(monkeypatch) -> None:
    """docs/solver.md §8.6-§8.9: with the macro steps (off in four-suit Spider: see §8.9)
    deal 5 is won within 6,000 positions, its line replaying under the rules; without them
    the same search has no answer there."""
    monkeypatch.setitem(WEIGHTS, (4, False), WEIGHTS[4, False]._replace(through=True))
    game = engine.new_game("spider-4", 5)
    answer = engine.solve(game, budget_ms=60_000, max_nodes=6_000)
    assert answer.result == "won"
    assert replays_to_win(game, answer.moves)
    monkeypatch.setitem(WEIGHTS, (4, False), WEIGHTS[4, False]._replace(through=False))
    assert engine.solve(game, budget_ms=60_000, max_nodes=6_000).result == "unknown"


def test_a_run_of_several_suits_moves_as_one_step_through_a_free_place(monkeypatch) -> None:
    """docs/solver.md §8.6: in four-suit Spider a descending run of two suits moves as one
    step (its upper piece waits on a card one rank higher, then follows); the step's moves
    replay under the engine's rules, and without a place to wait there is no such step."""
    monkeypatch.setitem(WEIGHTS, (4, False), WEIGHTS[4, False]._replace(through=True))
    piles = seven_cleared()
    piles["t0"] = [text(KING, 2, down=True), text(8, 0), text(7, 1)]  # 8S 7H on a face-down KD
    piles["t1"] = [text(9, 0)]  # 9S: the run joins its suit
    piles["t2"] = [text(8, 3)]  # 8C: where 7H can wait
    game = engine.from_position("spider-4", piles)
    children = check_children(game, pruned=False)
    macro = (Move("t0", "t2", 1), Move("t0", "t1", 1), Move("t2", "t1", 1))
    steps = dict(children)
    assert macro in steps
    cols = steps[macro][0]
    assert cols[1] == piles_bytes("9S", "8S", "7H") and cols[2] == piles_bytes("8C")
    assert cols[0] == bytes([make_card(KING, 2)])  # turned over
    piles["t2"] = [text(5, 3)]  # no place for 7H to wait: no 8, no empty column
    piles.update({f"t{i}": [text(2, 3)] for i in range(3, COLUMNS)})
    crowded = engine.from_position("spider-4", piles)
    assert all(len(moves) == 1 for moves, _ in check_children(crowded, pruned=False))


def piles_bytes(*cards: str) -> bytes:
    """A column of face-up cards as the search packs it."""
    return bytes(parse_card(c) for c in cards)


def mixed_endgame(rng: random.Random) -> Game:
    """A four-suit endgame: six runs cleared, the two others (of two suits) cut into pieces
    joined in descending runs of mixed suits where they fit, over a few columns, some
    cards face down."""
    piles: dict[str, list[str]] = {f"f{i}": run(KING, 1, 0) for i in range(6)}
    pieces = []
    for suit in (1, 2):
        cuts = sorted(rng.sample(range(1, KING), rng.randint(2, 3)))
        ranks = list(range(KING, 0, -1))
        pieces += [[text(r, suit) for r in ranks[a:b]]
                   for a, b in zip([0, *cuts], [*cuts, KING], strict=True)]
    rng.shuffle(pieces)
    for piece in pieces:
        piles.setdefault(f"t{rng.randrange(5)}", []).extend(piece)
    for name in [c for c in piles if c.startswith("t")]:
        down = rng.randrange(len(piles[name]))
        piles[name][:down] = [t.lower() for t in piles[name][:down]]
    return engine.from_position("spider-4", piles)


def test_answers_with_runs_of_several_suits_agree_with_a_brute_force_search(monkeypatch) -> None:
    """With the macro steps of §8.6 on, on random four-suit endgames whose runs are of
    mixed suits the solver agrees with a search of every legal move over exact states
    (positions too big for it are skipped), wins replayed. (Such endgames, with columns
    free, are all won; a macro only adds steps, so it cannot make a loss: the losses are
    checked by test_solver.py's brute-force test.)"""
    monkeypatch.setitem(WEIGHTS, (4, False), WEIGHTS[4, False]._replace(through=True))
    rng = random.Random("spider-mixed")
    outcomes = []
    while len(outcomes) < 6:
        expected = check_against_brute_force(mixed_endgame(rng), limit=10_000)
        if expected is not None:
            outcomes.append(expected)
    assert all(outcomes)


MACROS = [0]  # children reached by a step of several moves, met by same_expansion


def same_expansion(game: Game, pruned: bool, depth: int = 2, width: int = 4) -> int:
    """SpiderSpace.expand (the fast one) and Space.expand over SpiderSpace.steps give the
    same children, keys, parent links, scores and answer from ``game``'s position and
    from the first ``width`` children met, ``depth`` levels down; the positions compared."""
    fast, slow = SpiderSpace(game.rules), SpiderSpace(game.rules)
    fast.links_macros = True  # (as Space.expand links: with the moves)
    _, root = fast.settle(game.state)
    slow.settle(game.state)
    key = fast.key(root)
    fast_parent: dict = {key: None}
    slow_parent: dict = {key: None}
    level = [(key, root)]
    compared = 0
    for _ in range(depth):
        after = []
        for key, node in level:
            fast_fresh: list = []
            slow_fresh: list = []
            answer = fast.expand(node, key, fast_parent, fast_fresh, 0, pruned)
            assert answer == Space.expand(slow, node, key, slow_parent, slow_fresh, 0, pruned)
            assert fast_fresh == slow_fresh and fast_parent == slow_parent
            compared += 1
            MACROS[0] += sum(len(fast_parent[ckey][1]) > 1 for _, ckey, _ in fast_fresh)
            after += [(ckey, child) for _, ckey, child in fast_fresh[:width]]
        level = after
    return compared


@pytest.mark.parametrize("options", [{}, {"ahead": 2}, {"through": True},
                                     {"through": True, "run": 40},
                                     {"through": True, "quota": 1, "last_quota": 3}])
def test_the_fast_expansion_is_the_steps_expansion(monkeypatch: pytest.MonkeyPatch,
                                                   options: dict) -> None:
    """SpiderSpace.expand works each column out once and sorts moves as numbers, for
    speed; it must give exactly what the plain expansion over ``steps`` gives (the same
    search, so the same answers, dailies and ratings), in every game and both passes, on
    played positions with deals made and columns emptied; with the look-ahead at the
    next deal's cards (Weights.ahead) and with the macros of runs of several suits
    (Weights.through, §8.6) in every game too, also with a bonus per run cleared
    (Weights.run, §8.11: a move or deal that clears one scores it), and with a level cost
    of its own once the stock is out (Weights.last_quota, §8.14)."""
    lines = []
    for variant, seed in (("spider-1", 3), ("spider-2", 4), ("spider-relaxed-4", 5)):
        answer = engine.solve(engine.new_game(variant, seed), budget_ms=60_000, max_nodes=10_000)
        assert answer.result == "won"
        lines.append((variant, seed, answer.moves))
    for game_key, weights in list(WEIGHTS.items()):
        monkeypatch.setitem(WEIGHTS, game_key, weights._replace(**options))
    MACROS[0] = 0
    compared = 0
    for variant in ("spider-4", "spider-relaxed-4", "spider-2", "spider-relaxed-2",
                    "spider-1", "spider-relaxed-1"):
        for game in played_games(variant, 8, f"{variant}-expand"):
            for pruned in (False, True):
                compared += same_expansion(game, pruned)
    empty = cleared = 0
    for variant, seed, moves in lines:
        game = engine.new_game(variant, seed)
        for n, move in enumerate(moves[:-1]):
            game.play(move)
            if n % 3 == 0 or not all(game.state.piles[:COLUMNS]):
                piles = game.state.piles
                empty += not all(piles[:COLUMNS])
                cleared += any(piles[COLUMNS:STOCK]) and not piles[STOCK]
                for pruned in (False, True):
                    compared += same_expansion(game, pruned, depth=2, width=2)
    assert compared > 1000 and empty > 20 and cleared > 20
    assert (MACROS[0] > 20) == bool(options.get("through"))


def test_the_expansion_keeps_one_copy_of_each_column_it_makes() -> None:
    """docs/solver.md §8.13: equal columns made by moves and deals, from any position, are
    one object (less memory for the search, and keys that compare by identity); a child's
    key is the child itself while cards are left in the stock, its sorted columns after."""
    shared = 0
    for game in played_games("spider-4", 4, "spider-4-copies"):
        space = SpiderSpace(game.rules)
        _, root = space.settle(game.state)
        key = space.key(root)
        parent: dict = {key: None}
        level = [(key, root)]
        first: dict[bytes, bytes] = {}
        for _ in range(3):
            after = []
            for key, node in level:
                fresh: list = []
                space.expand(node, key, parent, fresh, 0, False)
                for _, ckey, child in fresh:
                    assert ckey == space.key(child)
                    assert (ckey is child) == (child[1] > 0)
                    for col in child[0]:
                        if any(col is each for each in root[0]):
                            continue  # the root's own columns, not made by a step
                        shared += col in first
                        assert first.setdefault(col, col) is col
                after += [(ckey, child) for _, ckey, child in fresh[:6]]
            level = after
    assert shared > 1000


def test_the_fast_expansion_clears_a_run_a_deal_completes() -> None:
    """A deal that puts the Ace on a King..2 run clears it and turns the card under it
    (the fast expansion's score works that column out again); both expansions agree."""
    piles = {f"f{i}": run(KING, 1, 0) for i in range(5)}
    piles["t0"] = [text(5, 2, down=True), *run(KING, 2, 1)]
    for i in range(1, COLUMNS):
        piles[f"t{i}"] = [text(KING, 3)]
    deal = [text(1, 1), *(text(r, 2) for r in range(4, 13))]  # AH onto t0, 4D..QD on t1..t9
    piles["stock"] = [c.lower() for c in reversed(deal)]
    game = engine.from_position("spider-4", piles)
    assert same_expansion(game, pruned=False, depth=1) == 1
    space = SpiderSpace(game.rules)
    _, root = space.settle(game.state)
    fresh: list = []
    space.expand(root, space.key(root), {}, fresh, 0, False)
    dealt = fresh[0][2]
    assert dealt[0][0] == bytes([make_card(5, 2)]) and dealt[2] == 6


def test_the_fast_pruned_expansion_takes_one_empty_column_of_two() -> None:
    """docs/solver.md §8.5: the pruned pass moves a card into the first empty column only,
    and says it left a move out (so the complete pass expands the position again); with
    one empty column nothing is left out. Both expansions agree."""
    tops = [(5, 1), (9, 3), (3, 0), (11, 2), (7, 1), (KING, 3), (2, 2), (10, 0)]
    piles = {f"t{i}": [text(KING, 1, down=True), text(rank, suit)]
             for i, (rank, suit) in enumerate(tops)}
    for empty, skipped in ((2, True), (1, False)):
        if empty == 1:
            piles["t8"] = [text(KING, 1, down=True), text(4, 3)]
        game = engine.from_position("spider-4", piles)
        space = SpiderSpace(game.rules)
        _, root = space.settle(game.state)
        fresh: list = []
        assert space.expand(root, space.key(root), {}, fresh, 0, True) == (None, skipped)
        filled = [[i for i in range(COLUMNS) if not root[0][i] and child[0][i]]
                  for _, _, child in fresh]
        assert filled.count([10 - empty]) == 10 - empty  # each top card once
        assert all(f in ([], [10 - empty]) for f in filled)  # only into the first empty
        assert same_expansion(game, pruned=True, depth=1) == 1


# --- the portfolio of four-suit Spider (docs/solver.md §8.10) ------------------------------

def alone(game: Game, weights: Weights, max_nodes: int) -> engine.Solution:
    """One search of ``weights`` alone (no portfolio)."""
    solver = engine.Solver(game, max_nodes, SpiderSpace(game.rules, weights))
    solver.step(float("inf"))
    return solver.solution()


def wins_alone_only_with(deal: int, weights: Weights, without: Weights, max_nodes: int,
                         nodes: int) -> None:
    """Four-suit deal ``deal``: ``weights`` alone win it after ``nodes`` positions, the line
    replaying to a win; ``without`` (one weight changed back) has no answer within
    ``max_nodes``."""
    game = engine.new_game("spider-4", deal)
    answer = alone(game, weights, max_nodes)
    assert (answer.result, answer.nodes) == ("won", nodes)
    assert replays_to_win(game, answer.moves)
    assert alone(game, without, max_nodes).result == "unknown"


def test_the_portfolio_searches_alone_first_as_the_search_without_macros() -> None:
    """Four-suit Spider's first PORTFOLIOS positions are the search of WEIGHTS alone, so
    what it found within them (the shipped winnable list, the ratings, the worker's watch
    of 20,000 positions) stays: deal 16 is won after the same 19,025 positions with the
    same moves, and no second search was started. The daily's space has no portfolio."""
    after, _, (second, *_) = PORTFOLIOS[4, False]
    assert not WEIGHTS[4, False].through and second.through
    game = engine.new_game("spider-4", 16)
    solver = engine.Solver(game, after)
    solver.step(float("inf"))
    plain = alone(game, WEIGHTS[4, False], after)
    assert solver.result == plain.result == "won"
    assert (solver.nodes, solver.moves) == (plain.nodes, plain.moves)
    assert plain.nodes == 19_025
    assert solver._second is None  # type: ignore[attr-defined]
    assert daily_space(game.rules).second_after is None
    assert engine.Solver(game).space.second_after == after


PORTFOLIO_NODES = 29_000


def test_the_portfolio_wins_a_deal_the_search_without_macros_does_not_win_so_soon() -> None:
    """docs/solver.md §8.10: deal 23 is won by the portfolio within 29,000 positions in
    all (26,532: its third search, with the macro steps, finds the win after 1,924, where
    the second, alone, needs 3,256), the line replaying to a win under the rules; the
    search without the macros, alone, has no answer within as many positions (nor within
    45,000). Sliced finely, the portfolio expands the same positions: its turns go by
    counts, never by the clock."""
    game = engine.new_game("spider-4", 23)
    answer = engine.solve(game, budget_ms=float("inf"), max_nodes=PORTFOLIO_NODES)
    assert answer.result == "won"
    assert replays_to_win(game, answer.moves)
    assert alone(game, WEIGHTS[4, False], PORTFOLIO_NODES).result == "unknown"
    solver = engine.Solver(game, PORTFOLIO_NODES)
    while solver.step(2.0) is None:
        pass
    assert (solver.result, solver.nodes, solver.moves) == ("won", answer.nodes, answer.moves)


def test_the_second_search_takes_a_bonus_per_run_cleared_and_wins_deal_28_sooner() -> None:
    """docs/solver.md §8.11: the portfolio's second search takes 40 points off per run
    cleared, so a move that clears one comes first. With a card on an other-suit
    successor charged 3, it wins deal 28 alone after 5,254 positions (the line replaying
    to a win); the same search without the bonus has no answer within 6,000 positions
    (nor within 24,000). The first search has no bonus."""
    _, _, (second, third, _) = PORTFOLIOS[4, False]
    assert second.run == 40 and WEIGHTS[4, False].run == 0
    weights = second._replace(other_suit=3, last_quota=0,
                              recost=False)  # (as measured then, §8.14 and §8.16 since)
    wins_alone_only_with(28, weights, weights._replace(run=0), 6_000, 5_254)


def test_the_second_search_charges_a_card_on_an_other_suit_successor_more() -> None:
    """docs/solver.md §8.12: the second search charges 4 for a card on a successor of
    another suit (a loose card 3), so it keeps such runs, which its macros move, less
    often. Alone it wins deal 52 after 2,725 positions; charging 3, it has no answer
    within 4,000 (nor within 24,000). The first search charges 3."""
    _, _, (second, third, _) = PORTFOLIOS[4, False]
    assert (second.other_suit, second.loose, WEIGHTS[4, False].other_suit) == (4, 3, 3)
    second = second._replace(recost=False)  # (as measured then, §8.16 since)
    wins_alone_only_with(52, second, second._replace(other_suit=3), 4_000, 2_725)


def test_the_second_search_charges_a_level_cost_less_often_once_the_stock_is_out() -> None:
    """docs/solver.md §8.14: once the stock is out, the second search adds a point of
    level cost every 120 positions rather than every 30, so it plays an end out longer
    before it goes back to an earlier level. Alone it wins deal 13 after 5,216 positions;
    with every 30 there too it has no answer within 8,000 (nor within 16,000). The first
    search has one quota for every level."""
    _, _, (second, third, _) = PORTFOLIOS[4, False]
    assert (second.quota, second.last_quota, WEIGHTS[4, False].last_quota) == (30, 120, 0)
    second = second._replace(recost=False)  # (as measured then, §8.16 since)
    wins_alone_only_with(13, second, second._replace(last_quota=0), 8_000, 5_216)


def test_the_third_search_brings_a_waiting_positions_level_cost_up_to_date() -> None:
    """docs/solver.md §8.16: with ``Weights.recost`` a position that comes first in the
    frontier is scored again (``Space.rescore``), with the level cost its stock level has
    now while cards are left in the stock: as :meth:`SpiderSpace.score` gives it, one
    point more every ``quota`` positions expanded at its level since it was met, none for
    positions expanded at other levels; once the stock is out, as it was met. Without it
    the space has no rescore (scores are final when met): the first and second searches."""
    game = engine.new_game("spider-4", 1)
    space = SpiderSpace(game.rules, Weights(6, 3, 3, 6, 0, quota=2, recost=True))
    _, root = space.settle(game.state)
    children = [child for _, child in space.children(root)]
    dealt = next(child for (move,), child in space.children(root) if move == DEAL)
    child = next(child for child in children if child[1] == root[1])
    out = (root[0], 0, 0)  # the same columns, the stock out
    met, met_dealt, met_out = space.score(child), space.score(dealt), space.score(out)
    for _ in range(4):
        space.children(root)  # six expansions in all with 5 deals left: 2 points more
    assert space.rescore(child, met) == space.score(child) == met + 2
    assert space.rescore(dealt, met_dealt) == space.score(dealt) == met_dealt
    for _ in range(4):
        space.children(dealt)
        space.children(out)
    assert space.rescore(dealt, met_dealt) == met_dealt + 2
    assert space.rescore(out, met_out) == met_out < space.score(out)
    _, _, (second, third, _) = PORTFOLIOS[4, False]
    assert third == second._replace(recost=True)
    assert not WEIGHTS[4, False].recost and not second.recost
    assert SpiderSpace(game.rules).rescore is None


def test_the_third_search_with_level_costs_up_to_date_wins_deal_221_sooner() -> None:
    """docs/solver.md §8.16: the third search, its waiting positions' level costs brought
    up to date, wins deal 221 alone after 1,856 positions (the line replaying to a win);
    the second, the same search keeping the level cost a position was met with, has no
    answer within 4,000 (nor within 12,000). So does the portfolio, within 27,000
    positions in all (26,464), where the first search alone has no answer (nor within
    45,000)."""
    _, _, (second, third, _) = PORTFOLIOS[4, False]
    wins_alone_only_with(221, third, second, 4_000, 1_856)
    game = engine.new_game("spider-4", 221)
    answer = engine.solve(game, budget_ms=float("inf"), max_nodes=27_000)
    assert answer.result == "won" and replays_to_win(game, answer.moves)
    assert alone(game, WEIGHTS[4, False], 27_000).result == "unknown"


def test_a_fourth_search_searches_the_most_promising_moves_last_and_wins_deal_126() -> None:
    """docs/solver.md §8.19: the portfolio's fourth search is the third but for the order
    among equal scores (the most promising move searched last, as the one-suit games do):
    alone it wins deal 126 after 1,512 positions (the line replaying to a win), where the
    third has no answer within 4,000 (nor within 14,000, nor the second). So does the
    portfolio, within 26,000 positions in all, where the first search alone has no answer
    (nor within 32,000). Past its first positions the first search has one share of a
    round to each later search's three."""
    after, shares, (second, third, fourth) = PORTFOLIOS[4, False]
    assert (after, shares) == (20_000, (1, 3, 3, 3))
    assert fourth == third._replace(promising_first=False) and third.promising_first
    wins_alone_only_with(126, fourth, third, 4_000, 1_512)
    game = engine.new_game("spider-4", 126)
    answer = engine.solve(game, budget_ms=float("inf"), max_nodes=26_000)
    assert answer.result == "won" and replays_to_win(game, answer.moves)
    assert alone(game, WEIGHTS[4, False], 26_000).result == "unknown"
    solver = engine.Solver(game, 26_000)
    while solver.step(5.0) is None:
        pass
    assert (solver.result, solver.nodes, solver.moves) == ("won", answer.nodes, answer.moves)
    assert len(solver._searches()) == 4  # type: ignore[attr-defined]
