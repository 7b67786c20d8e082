"""Properties of every variant in engine.VARIANTS, over random legal play (hypothesis).

Generic on purpose: they use only the public Game API (and Rules.apply/is_won/is_lost),
so every game registered later is covered without a change here. Play is driven by
tests.engine.helpers.pick (mostly the hint, so runs build, foundations fill and games get
won; otherwise any legal move). ENGINE_PROPERTY_PROFILE=engine-thorough runs many more
examples.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine import IllegalMove, Move
from engine.rules.variants import DEAL_MAX, DEAL_MIN
from tests.engine.helpers import PROPERTY, identities, pick, play_random, playouts, snapshot

VARIANTS = engine.VARIANTS
SEEDS = st.integers(DEAL_MIN, DEAL_MAX)
STEPS = 150


@pytest.mark.parametrize("variant", VARIANTS)
@PROPERTY
@given(seed=SEEDS, choices=playouts(STEPS))
def test_cards_are_conserved(variant: str, seed: int, choices: list[int]) -> None:
    """No move creates, loses or changes a card: the multiset of card identities (face
    ignored) stays that of the deal."""
    game = engine.new_game(variant, seed)
    dealt = identities(game)
    for choice in choices:
        if game.status != "playing":
            break
        game.play(pick(game, choice))
        assert identities(game) == dealt


@pytest.mark.parametrize("variant", VARIANTS)
@PROPERTY
@given(seed=SEEDS, choices=playouts(STEPS))
def test_undo_after_play_restores_the_exact_position(
        variant: str, seed: int, choices: list[int]) -> None:
    """play then undo gives back the same state and position; redo gives the played one."""
    game = engine.new_game(variant, seed)
    for choice in choices:
        if game.status != "playing":
            break
        state, position, legal = game.state, game.position(), game.legal_moves()
        move = pick(game, choice)
        game.play(move)
        after = game.state, game.position()
        assert game.undo()
        assert (game.state, game.position(), game.legal_moves()) == (state, position, legal)
        assert game.redo()
        assert (game.state, game.position()) == after


@pytest.mark.parametrize("variant", VARIANTS)
@PROPERTY
@given(seed=SEEDS, choices=playouts(STEPS))
def test_undo_all_the_way_restores_the_deal(variant: str, seed: int, choices: list[int]) -> None:
    game = engine.new_game(variant, seed)
    played = play_random(game, choices)
    end = game.state, game.position()
    undos = 0
    while game.undo():
        undos += 1
    assert undos == len(played) and game.move_count == 0 and not game.can_undo
    fresh = engine.new_game(variant, seed)
    assert (game.state, game.position()) == (fresh.state, fresh.position())
    while game.redo():
        pass
    assert (game.state, game.position()) == end and game.moves == played


def act(game: engine.Game, choice: int) -> None:
    """One step of a session: mostly a move, sometimes undo or redo."""
    if choice % 11 == 0:
        game.undo()
    elif choice % 11 == 1:
        game.redo()
    elif game.status == "playing":
        game.play(pick(game, choice // 11))


@pytest.mark.parametrize("variant", VARIANTS)
@PROPERTY
@given(seed=SEEDS, choices=playouts(STEPS), later=playouts(40))
def test_replay_of_the_record_is_the_same_game(
        variant: str, seed: int, choices: list[int], later: list[int]) -> None:
    """replay(record()) -- directly and through JSON -- has the same position, moves,
    cursor and counters, and then behaves the same under the same undo/redo/play."""
    game = engine.new_game(variant, seed)
    for choice in choices:
        act(game, choice)
    record = game.record()
    copies = [engine.replay(record), engine.replay(json.loads(json.dumps(record)))]
    for again in copies:
        assert snapshot(again) == snapshot(game)
        assert again.record() == record
    for choice in later:
        for g in (game, *copies):
            act(g, choice)
        for again in copies:
            assert snapshot(again) == snapshot(game)


@pytest.mark.parametrize("variant", VARIANTS)
@PROPERTY
@given(seed=SEEDS)
def test_the_same_deal_number_gives_the_same_deal(variant: str, seed: int) -> None:
    first, second = engine.new_game(variant, seed), engine.new_game(variant, seed)
    assert first.state == second.state and first.position() == second.position()
    assert hash(first.state) == hash(second.state)
    assert first.rules.deal(seed) == first.state
    other = engine.new_game(variant, seed % DEAL_MAX + 1)
    assert other.state != first.state, "neighbouring deal numbers deal differently"


@pytest.mark.parametrize("variant", VARIANTS)
@PROPERTY
@given(seed=SEEDS, choices=playouts(STEPS))
def test_status_agrees_with_the_legal_moves(variant: str, seed: int, choices: list[int]) -> None:
    """won => the rules say won; "lost" <=> the rules say lost (by default: no legal move);
    "playing" => there is a legal move; and once over, the game refuses every move."""
    game = engine.new_game(variant, seed)
    for choice in [*choices, None]:
        status, legal, rules, state = game.status, game.legal_moves(), game.rules, game.state
        assert status in ("playing", "won", "lost")
        assert (status == "won") == rules.is_won(state)
        assert (status == "lost") == (not rules.is_won(state) and rules.is_lost(state, legal))
        assert game.position()["status"] == status
        if not legal:
            assert status != "playing"
        if status != "playing":
            before = snapshot(game)
            for move in legal:
                with pytest.raises(IllegalMove):
                    game.play(move)
            assert snapshot(game) == before
            break
        assert legal
        if choice is not None:
            game.play(pick(game, choice))


@pytest.mark.parametrize("variant", VARIANTS)
@PROPERTY
@given(seed=SEEDS, choices=playouts(STEPS))
def test_every_legal_move_text_reads_back(variant: str, seed: int, choices: list[int]) -> None:
    """parse_move(game, str(m)) == m for every legal move of every position reached; the
    list has no duplicates and every listed move can be applied."""
    game = engine.new_game(variant, seed)
    for choice in [*choices, None]:
        legal = game.legal_moves()
        assert len(set(legal)) == len(legal)
        for move in legal:
            assert engine.parse_move(game, str(move)) == move
            assert isinstance(move.count, int) and move.count >= 1
        if choice is None or game.status != "playing":
            break
        game.play(pick(game, choice))


def _illegal_moves(game: engine.Game) -> list[Move]:
    ids = game.rules.pile_ids
    legal = set(game.legal_moves())
    out = []
    for src in ids + ("tableau",):
        for dst in ids[:3] + ("tableau", "nowhere"):
            for count in (0, 1, 2, 5, 10, 13):
                move = Move(src, dst, count)
                if move not in legal:
                    out.append(move)
    return out


@pytest.mark.parametrize("variant", VARIANTS)
@PROPERTY
@given(seed=SEEDS, choices=playouts(60), which=st.lists(st.integers(0, 10**6), min_size=1,
                                                         max_size=5))
def test_an_illegal_move_changes_nothing(
        variant: str, seed: int, choices: list[int], which: list[int]) -> None:
    """IllegalMove, and position, record, history and status all unchanged."""
    game = engine.new_game(variant, seed)
    play_random(game, choices)
    game.undo()  # keep a redo line that an illegal move must not drop
    candidates = _illegal_moves(game)
    before = snapshot(game)
    for i in which:
        move = candidates[i % len(candidates)]
        with pytest.raises(IllegalMove):
            game.play(move)
        with pytest.raises(ValueError):
            engine.parse_move(game, str(move))
        assert snapshot(game) == before


@pytest.mark.parametrize("variant", VARIANTS)
@PROPERTY
@given(seed=SEEDS, choices=playouts(STEPS))
def test_home_moves_are_the_legal_moves_of_a_card_home(
        variant: str, seed: int, choices: list[int]) -> None:
    """Rules.home_moves (what a finish asks at every step) lists exactly the legal moves
    from a pile that is no foundation to one, in the order of the legal moves."""
    game = engine.new_game(variant, seed)
    rules = game.rules
    role = {pile: rules.role(pile) for pile in rules.pile_ids}.get  # a deal's dst is no pile
    for choice in choices:
        if game.status != "playing":
            break
        home = [m for m in game.legal_moves()
                if role(m.dst) == "foundation" and role(m.src) != "foundation"]
        assert rules.home_moves(game.state) == home
        game.play(pick(game, choice))
