"""Finishing a game that is won by force (engine/rules/finish.py; docs/rules/klondike.md:
draw one and unlimited recycles, so with no face-down card left every card can go home)."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

import engine

RANKS = "A23456789TJQK"
SUITS = "SHDC"


def all_face_up_klondike(rng: random.Random) -> engine.Game:
    """Foundations filled to random heights, one column of a run down from a King when
    its cards are free, the rest shuffled between the stock (face down) and the waste."""
    heights = dict(zip(SUITS, (rng.randint(0, 13) for _ in SUITS), strict=False))
    piles = {f"f{i}": [r + s for r in RANKS[:heights[s]]] for i, s in enumerate(SUITS)}
    rest = [r + s for s in SUITS for r in RANKS[heights[s]:]]
    run, colour = [], rng.randrange(2)
    for rank in reversed(RANKS):  # K, Q, J... alternating colours, while still free
        suit = rng.choice("HD" if colour else "SC")
        card = rank + suit
        if card not in rest or rng.random() < 0.2:
            break
        run.append(card)
        rest.remove(card)
        colour ^= 1
    rng.shuffle(rest)
    cut = rng.randint(0, len(rest))
    stock = [c[0].lower() + c[1].lower() for c in rest[:cut]]
    return engine.from_position("klondike", dict(piles, t0=run, stock=stock, waste=rest[cut:]))


@pytest.mark.parametrize("seed", range(60))
def test_klondike_with_no_face_down_card_is_finished_by_force(seed):
    game = all_face_up_klondike(random.Random(seed))
    if game.status == "won":
        return
    assert game.rules.won_by_force(game.state)
    moves = engine.finish_moves(game)
    for move in moves:
        game.play(move)  # each is legal, or this raises
    assert game.status == "won"


def test_a_face_down_card_means_no_finish_and_other_games_never_claim_one():
    game = engine.new_game("klondike", 7)
    assert not game.rules.won_by_force(game.state) and engine.finish_moves(game) is None
    for variant in ("spider-1", "beleaguered-castle", "doublets"):  # not at the deal
        game = engine.new_game(variant, 3)
        assert engine.finish_moves(game) is None


@pytest.mark.parametrize("seed", range(20))
def test_play_finish_plays_the_finish_moves_listing_every_move_only_to_turn_the_stock(
        seed, monkeypatch):
    """play_finish wins with the very moves finish_moves gives, on the game itself; it
    asks the rules for every legal move only at the steps where no card can go home (and
    once before it starts, for the game's status)."""
    game = all_face_up_klondike(random.Random(seed))
    if game.status == "won":
        return
    expected = engine.finish_moves(game)
    stock_steps = sum(1 for m in expected if "stock" in (m.src, m.dst))
    listed = 0
    rules_moves = game.rules.moves

    def counted(state):
        nonlocal listed
        listed += 1
        return rules_moves(state)

    monkeypatch.setattr(game.rules, "moves", counted)
    start = game.move_count
    assert engine.play_finish(game) == len(expected)
    assert game.status == "won" and game.moves[start:] == expected
    assert listed <= stock_steps + 2


def test_a_finish_of_every_card_from_the_columns_never_lists_every_move(monkeypatch):
    ranks = "KQJT98765432A"
    pairs = {"t0": "SH", "t1": "HS", "t2": "DC", "t3": "CD"}
    game = engine.from_position("klondike", {
        pile: [rank + suits[i % 2] for i, rank in enumerate(ranks)]
        for pile, suits in pairs.items()})
    listed = []
    rules_moves = game.rules.moves
    monkeypatch.setattr(game.rules, "moves", lambda state: listed.append(1) or rules_moves(state))
    assert engine.play_finish(game) == 52 and game.status == "won"
    assert len(listed) <= 2  # the status before the finish and after it, no step's


def test_play_finish_leaves_a_game_not_won_by_force_as_it_was():
    game = engine.new_game("klondike", 7)
    before = game.record()
    assert engine.play_finish(game) == 0 and game.record() == before


def castle_rows_running_down(rng: random.Random) -> engine.Game:
    """Beleaguered Castle with foundations to random heights and the other cards dealt to
    rows that each run down in rank from the bottom (ties in any order)."""
    heights = [rng.randint(1, 13) for _ in SUITS]
    piles = {f"f{i}": [r + s for r in RANKS[:heights[i]]] for i, s in enumerate(SUITS)}
    rest = [r + s for i, s in enumerate(SUITS) for r in RANKS[heights[i]:]]
    rows: list[list[str]] = [[] for _ in range(8)]
    for card in rest:
        rng.choice(rows).append(card)
    for i, row in enumerate(rows):
        rng.shuffle(row)
        row.sort(key=lambda c: -RANKS.index(c[0]))
        piles[f"t{i}"] = row
    return engine.from_position("beleaguered-castle", piles)


@pytest.mark.parametrize("seed", range(40))
def test_castle_rows_running_down_are_finished_by_force(seed):
    game = castle_rows_running_down(random.Random(seed))
    if game.status == "won":
        return
    assert game.rules.won_by_force(game.state)
    assert engine.play_finish(game) > 0 and game.status == "won"


def test_castle_claims_a_finish_only_where_every_card_then_goes_home():
    """Along the solver's wins of real deals: the rules claim won by force exactly where
    no row has a higher card on a lower one, and wherever they claim it the finish wins."""
    claimed = 0
    for seed in (1, 3, 4, 5, 6):
        game = engine.new_game("beleaguered-castle", seed)
        answer = engine.solve(game, budget_ms=60_000, max_nodes=20_000)
        assert answer.result == "won"
        for move in answer.moves:
            game.play(move)
            if game.status != "playing":
                break
            rows = [game.position()["piles"][f"t{i}"] for i in range(8)]
            rises = any(RANKS.index(a[0]) < RANKS.index(b[0])
                        for row in rows for a, b in pairwise(row))
            forced = game.rules.won_by_force(game.state)
            assert forced is (not rises)
            if forced:
                claimed += 1
                copy = engine.replay(game.record())
                assert engine.play_finish(copy) > 0 and copy.status == "won"
    assert claimed > 0
