"""Safe moves home (engine/rules/safe.py): the cards the "auto-move safe cards" setting may
play for the player, per game, and the reason each is safe: no card still out could ever
want to be built on a card sent home."""

from __future__ import annotations

import doctest
import random

import pytest

import engine
from engine.rules import safe
from engine.rules.cards import RANKS, SUITS

RED = "HD"


def klondike(**piles: list[str]) -> engine.Game:
    return engine.from_position("klondike", piles)


def home(suit: str, height: int) -> list[str]:
    """A suit foundation built up to ``height`` (0: empty)."""
    return [r + suit for r in RANKS[:height]]


def texts(moves: list[engine.Move]) -> list[str]:
    return [str(m) for m in moves]


def test_the_module_example_holds():
    assert doctest.testmod(safe).failed == 0


def test_klondike_aces_and_twos_always_go_home():
    game = klondike(t0=["AH"], t1=["2H"], waste=["AD"])
    assert texts(engine.safe_moves(game)) == ["t0-f1", "t1-f1", "waste-f2"]


@pytest.mark.parametrize(("spades", "clubs", "safe_home"), [
    (2, 2, True),  # both black foundations hold the 2: no black 2 could want the red 3
    (2, 1, False),  # the 2 of clubs is still out and may want to go on the red 3
    (1, 2, False),
    (5, 2, True),
])
def test_klondike_a_card_waits_for_both_foundations_of_the_other_colour(spades, clubs, safe_home):
    game = klondike(f0=home("S", spades), f1=home("H", 2), f3=home("C", clubs), t0=["3H"])
    assert texts(engine.safe_moves(game)) == (["t0-f1"] if safe_home else [])


def test_klondike_the_same_colour_does_not_matter_and_a_card_never_comes_back():
    # Diamonds are empty, yet the 3 of hearts is safe: only black cards build on it.
    game = klondike(f0=home("S", 2), f1=home("H", 2), f3=home("C", 2), t0=["3H"])
    moves = engine.safe_moves(game)
    assert texts(moves) == ["t0-f1"]
    assert all(m.src not in ("f0", "f1", "f2", "f3") for m in moves)


def test_klondike_safe_moves_chain_and_reveal_cards():
    # The ace goes home, which turns up the two below it; then the two goes home too,
    # while the 3 under that waits for the twos of hearts and diamonds.
    game = klondike(t0=["3s", "2s", "AS"], t1=["KH"])
    moves = engine.safe_moves(game)
    assert texts(moves) == ["t0-f0", "t0-f0"]
    for move in moves:
        game.play(move)
    assert game.position()["piles"]["t0"] == ["3S"]


def test_castle_a_card_waits_for_every_other_foundation():
    piles = {"f0": home("S", 3), "f1": home("H", 2), "f2": home("D", 2), "f3": home("C", 2),
             "t0": ["4S"], "t1": ["3H"], "t2": ["9C"]}
    game = engine.from_position("beleaguered-castle", piles)
    # 4S waits for the 3s of the others; 3H is safe (every other holds 2): then 4S still
    # waits for the 3 of diamonds and of clubs.
    assert texts(engine.safe_moves(game)) == ["t1-f1"]


def test_castle_twos_go_home_at_once_from_the_deal():
    game = engine.new_game("beleaguered-castle", 11)
    moves = engine.safe_moves(game)
    tops = {pid: cards[-1] for pid, cards in game.position()["piles"].items() if cards}
    twos = [pid for pid, top in tops.items() if pid.startswith("t") and top[0] == "2"]
    assert {m.src for m in moves} >= set(twos)


def test_doublets_has_none_even_for_the_card_the_foundation_needs():
    game = engine.from_position("doublets", {
        "f0": ["AS"], "r0": ["2H"], "r1": ["4C"], "r2": ["9D"], "r3": ["9S"], "r4": ["TD"],
        "r5": ["JD"], "r6": ["5S"], "stock": ["qh", "8h"]})
    assert "r0-f0" in texts(game.legal_moves()) and engine.safe_moves(game) == []


def test_spider_and_a_finished_game_have_none():
    assert engine.safe_moves(engine.new_game("spider-1", 3)) == []
    game = klondike(**{f"f{i}": home(s, 13) for i, s in enumerate(SUITS)})
    assert game.status == "won" and engine.safe_moves(game) == []


def out_of_home(game: engine.Game) -> list[str]:
    """The face-up and face-down cards (as upper-case texts) not on a foundation."""
    return [c.upper() for pid, cards in game.position()["piles"].items()
            if not pid.startswith("f") for c in cards]


@pytest.mark.parametrize("variant", ["klondike", "beleaguered-castle"])
def test_no_card_still_out_could_ever_want_a_card_sent_home(variant):
    """Random play on real deals; at every fifth step the safe moves are played and each
    card they sent home is checked: no card that could be built on it is still out
    (Klondike: rank below, other colour; Castle: rank below, any suit; Aces aside)."""
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        game = engine.new_game(variant, seed + 1)
        for step in range(200):
            legal = [m for m in game.legal_moves() if not m.src.startswith("f")]
            if game.status != "playing" or not legal:
                break
            game.play(rng.choice(legal))
            if step % 5:
                continue
            for move in engine.safe_moves(game):
                card = game.position()["piles"][move.src][-1]
                game.play(move)
                checked += 1
                rank = RANKS.index(card[0]) + 1
                for other in out_of_home(game):
                    # (an Ace never needs a 2 to stand on: it can always go home)
                    below = RANKS.index(other[0]) + 1 == rank - 1 > 1
                    differ = (other[1] in RED) != (card[1] in RED)
                    builds = below and (variant != "klondike" or differ)
                    assert not builds, f"{card} went home while {other} is out"
    assert checked >= 10
