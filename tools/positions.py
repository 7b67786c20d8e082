"""Real mid-game positions for looking at the table and for the geometry tests.

A position is reached by playing the engine's own hints from a deal, so it is one a player
could reach; ``longest`` stops where the longest tableau pile of that play is longest (the
hard case for a layout). ``built_columns`` is a Klondike finish of every card (the
largest cascade of the motion). ``saved_items`` is the localStorage a page needs to
resume a position.
"""

from __future__ import annotations

import engine
from web.saves import GameSaves
from web.storage import MemoryBackend, Storage


def longest_pile(game: engine.Game) -> int:
    """The most cards in one tableau pile of ``game``."""
    piles = game.position()["piles"]
    return max((len(cards) for pile, cards in piles.items() if pile.startswith("t")), default=0)


def hinted(variant: str, seed: int, limit: int) -> list[engine.Move]:
    """The first ``limit`` moves of deal ``seed`` played by the engine's hint (fewer if
    it runs out of hints)."""
    game = engine.new_game(variant, seed)
    moves = []
    for _ in range(limit):
        move = engine.hint(game)
        if move is None:
            break
        game.play(move)
        moves.append(move)
    return moves


def longest(variant: str, seed: int, limit: int = 80) -> engine.Game:
    """Deal ``seed`` played by hints up to the move where its longest tableau pile is
    longest, within ``limit`` moves (half of them in a game with no tableau)."""
    moves = hinted(variant, seed, limit)
    game = engine.new_game(variant, seed)
    best, at = longest_pile(game), len(moves) // 2
    for i, move in enumerate(moves, 1):
        game.play(move)
        if longest_pile(game) > best:
            best, at = longest_pile(game), i
    game = engine.new_game(variant, seed)
    for move in moves[:at]:
        game.play(move)
    return game


def built_columns() -> engine.Game:
    """Klondike, every card face up in four columns built down from the kings in
    alternate colours, aces on top: won by force, 52 cards to go home, one column to each
    foundation."""
    ranks = "KQJT98765432A"
    pairs = {"t0": "SH", "t1": "HS", "t2": "DC", "t3": "CD"}
    return engine.from_position("klondike", {
        pile: [rank + suits[i % 2] for i, rank in enumerate(ranks)]
        for pile, suits in pairs.items()})


def saved_items(game: engine.Game) -> dict[str, str]:
    """localStorage items under which the page resumes ``game`` (as web/saves.py saves)."""
    backend = MemoryBackend()
    GameSaves(Storage(backend)).save(game, "a-saved-position", 0, False)
    return dict(backend.items)


__all__ = ["hinted", "longest", "longest_pile", "saved_items"]
