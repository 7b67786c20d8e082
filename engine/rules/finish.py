"""Finishing a game the rules say is won by force: the moves that play every card home.

>>> import engine
>>> home = {f"f{i}": [r + s for r in "A23456789TJQK"] for i, s in enumerate("SHDC") if i}
>>> spades = [r.lower() + "s" for r in "KQJT98765432"]  # face down, the two on top
>>> game = engine.from_position("klondike", dict(home, t0=["AS"], stock=spades))
>>> len(finish_moves(game))  # the ace home, then a turn and a play for each spade
25
"""

from __future__ import annotations

from .game import Game
from .moves import Move

# A finish plays at most 52 cards, and before each play at most one pass of the stock.
STEP_LIMIT = 52 * 60


def finish_moves(game: Game) -> list[Move] | None:
    """The moves that win ``game`` from here when its rules say it is won by force (a card
    home whenever one can go, first in the rules' order, else the stock turned or turned
    back over); None when it is not won by force."""
    rules = game.rules
    if game.status != "playing" or not rules.won_by_force(game.state):
        return None
    state, moves = game.state, []
    for _ in range(STEP_LIMIT):
        if rules.is_won(state):
            return moves
        legal = rules.moves(state)
        move = next((m for m in legal if rules.role(m.dst) == "foundation"
                     and rules.role(m.src) != "foundation"), None)
        move = move or next((m for m in legal if "stock" in (m.src, m.dst)), None)
        if move is None:
            return None
        state = rules.apply(state, move)
        moves.append(move)
    return None


__all__ = ["finish_moves"]
