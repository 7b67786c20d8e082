"""The Doublets search space (engine/solver/doublets.py, docs/solver.md §10): one step a card
brought to the foundation, and positions left out when an earlier talon split or fewer
redeals met the same cards. Both are checked against a search of every legal move of the
real rules on positions small enough for it, mid-game ones with a long talon included."""

from __future__ import annotations

import random

import engine
from engine.rules.doublets import TURN, WON
from engine.solver.doublets import DoubletsSpace, last_pass_dead
from tests.engine.helpers import (
    brute_force,
    check_against_brute_force,
    doublets_position,
    replays_to_win,
)


def test_answers_agree_with_brute_force_on_positions_with_a_long_talon() -> None:
    """Talons of up to 15 cards, every split and redeal count: wins and proved losses."""
    rng = random.Random("doublets-long-talon")
    outcomes = []
    tried = 0
    while len(outcomes) < 40 and tried < 400:
        tried += 1
        expected = check_against_brute_force(doublets_position(rng, 30, 38), limit=200_000)
        if expected is not None:
            outcomes.append(expected)
    assert len(outcomes) == 40
    assert 5 <= sum(outcomes) <= 35, "both wins and losses are checked"


def test_every_first_play_of_the_real_rules_is_a_step_or_left_out_for_a_better_one() -> None:
    """From a position, each card the real rules can bring to the foundation next (after
    some turns and redeals) is a step of the space, or the same cards are reached with an
    earlier split or fewer redeals by another step: the steps cover every line."""
    rng = random.Random("doublets-steps")
    for _ in range(30):
        game = doublets_position(rng, 20, 36)
        rules = game.rules
        space = DoubletsSpace(rules)
        _, root = space.settle(game.state)
        steps = space.children(root)
        reached = {}
        for _, child in steps:
            size, _, reserve, talon, split, passes, _ = child
            reached[(bytes(sorted(reserve)), talon)] = (passes, split)
        # every state the real rules reach by turns and redeals, then one play
        seen = set()
        todo = [game.state]
        while todo:
            state = todo.pop()
            for move in rules.moves(state):
                after = rules.apply(state, move)
                if move.dst == "f0":
                    _, child = space.settle(after)
                    size, _, reserve, talon, split, passes, _ = child
                    best = reached.get((bytes(sorted(reserve)), talon))
                    assert best is not None and best <= (passes, split), game.doublets_position()
                elif (after.piles, after.passes) not in seen:
                    seen.add((after.piles, after.passes))
                    todo.append(after)
        for macro, _ in steps:  # and every step is a legal line of the real rules
            check = game.copy()
            for move in macro:
                check.play(move)
            assert macro[-1] != TURN


def test_a_won_deal_replays_and_a_lost_position_is_proved() -> None:
    game = engine.new_game("doublets", 2)
    answer = engine.solve(game, budget_ms=60_000, max_nodes=50_000)
    assert answer.result == "won" and replays_to_win(game, answer.moves)
    rng = random.Random("doublets-lost")
    while True:
        game = doublets_position(rng, 34, 40)
        if brute_force(game) is False:
            break
    assert engine.solve(game, budget_ms=60_000).result == "lost"


def last_pass(game: engine.Game) -> engine.Game:
    """The same cards with no redeal left."""
    return engine.from_position("doublets", game.position()["piles"], passes=2)


def test_the_last_pass_bound_never_calls_a_winnable_position_dead() -> None:
    """docs/solver.md §10.5: with no redeal left, a position the bound calls dead (a rank the
    foundation needs cannot have left the waste in time) has no win under the real rules;
    the bound does call some positions dead, and the whole solver still agrees with brute
    force on last-pass positions."""
    rng = random.Random("doublets-last-pass")
    claimed = 0
    outcomes = []
    for _ in range(300):
        game = last_pass(doublets_position(rng, 26, 38))
        space = DoubletsSpace(game.rules)
        _, (size, need, reserve, talon, split, _, _) = space.settle(game.state)
        if last_pass_dead(need, reserve, talon, split, WON - size):
            claimed += 1
            assert brute_force(game, 200_000) is not True, game.position()
        elif len(outcomes) < 40:
            expected = check_against_brute_force(game, 200_000)
            if expected is not None:
                outcomes.append(expected)
    assert claimed >= 20
    assert len(outcomes) == 40 and 5 <= sum(outcomes) <= 35


def counted_plainly(need: int, reserve: bytes, talon: bytes, split: int, plays: int) -> bool:
    """docs/solver.md §10.5's count, worked out afresh at every play: the bound's meaning,
    against which its incremental form is checked."""
    ranks: list[int] = []
    rank = need
    while len(ranks) < plays:
        ranks.append(rank)
        rank = engine.rules.doublets.doubled(rank)
    waste = talon[:split][::-1]  # top first
    for play in range(1, plays + 1):
        short = {}
        for r in ranks[:play]:
            short[r] = short.get(r, 0) + 1
        for r in set(reserve):
            if r in short:
                short[r] = max(0, short[r] - reserve.count(r))
        top = 0
        for r, count in short.items():
            deep = count - talon[split:].count(r)
            if deep > 0:
                depths = [i + 1 for i, card in enumerate(waste) if card == r]
                if deep > len(depths):
                    return True
                top = max(top, depths[deep - 1])
        cards = top + sum(max(0, count - waste[:top].count(r)) for r, count in short.items())
        if cards > play:
            return True
    return False


def test_the_last_pass_bound_counts_as_its_plain_statement_does() -> None:
    """The bound is the solver's hot loop, so it keeps its counts as it goes; on positions
    met in play and on random talons it answers as the count worked out afresh at every
    play, calling some dead and some not."""
    rng = random.Random("doublets-count")
    cases = []
    for _ in range(200):
        game = last_pass(doublets_position(rng, 1, 40))
        _, (size, need, reserve, talon, split, _, _) = DoubletsSpace(game.rules).settle(
            game.state)
        cases.append((need, reserve, talon, split, WON - size))
    for _ in range(3000):  # ranks of a pack, four of each, dealt at random
        ranks = [rank for rank in range(1, 14) for _ in range(4)]
        rng.shuffle(ranks)
        length = rng.randint(0, 44)
        talon, reserve = bytes(ranks[:length]), bytes(ranks[length:length + 7])
        cases.append((rng.randint(1, 12), reserve, talon, rng.randint(0, length),
                      rng.randint(0, 30)))
    answers = [last_pass_dead(*case) for case in cases]
    assert answers == [counted_plainly(*case) for case in cases]
    assert 100 <= sum(answers) <= len(cases) - 100
