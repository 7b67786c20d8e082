"""A quick heuristic hint: the most useful legal move, or the stock when nothing helps.

It prefers moves that turn over a face-down card, clear or advance a foundation,
join cards of the same suit or empty a column, and it never suggests a move that
only shuffles cards back and forth. The solver (a later module) gives proven hints.
"""

from __future__ import annotations

from .cards import DOWN, RANK_MASK, SUIT_MASK
from .game import Game
from .moves import Move
from .state import State


def _hidden(state: State) -> int:
    return sum(1 for pile in state.piles for c in pile if c & DOWN)


def _on_foundations(state: State, found: list[int]) -> int:
    return sum(len(state.piles[i]) for i in found)


def score(game: Game, move: Move) -> int:
    """How useful ``move`` looks; 0 or less means it does not help by itself."""
    rules, state = game.rules, game.state
    if move.src in ("stock", "waste") and move.dst == "stock":
        return 0  # recycling is a stock action
    if move.src == "stock":
        return 0
    idx = rules.index
    found = [i for pid, i in idx.items() if pid.startswith("f")]
    after = rules.apply(state, move)
    value = 0
    value += 100 * (_hidden(state) - _hidden(after))
    value += 40 * (_on_foundations(after, found) - _on_foundations(state, found))
    src = state.piles[idx[move.src]]
    moved = src[-move.count]
    under = src[-move.count - 1] if len(src) > move.count else None
    if move.dst in idx and move.dst.startswith(("t", "r")):
        dst = state.piles[idx[move.dst]]
        if dst:
            if dst[-1] & SUIT_MASK == moved & SUIT_MASK:
                value += 20  # joins the same suit
            else:
                value += 1
        elif under is None:
            return -100  # a whole pile into an empty one changes nothing
        if under is not None and not under & DOWN and (under & RANK_MASK) == (moved & RANK_MASK) + 1:
            # it already sits on a card one higher: only worth it to join its own suit
            if under & SUIT_MASK == moved & SUIT_MASK or not (dst and dst[-1] & SUIT_MASK == moved & SUIT_MASK):
                value -= 60
        if under is None and move.src.startswith("t"):
            value += 15  # empties a column
    if move.src.startswith("f"):
        value -= 45  # taking a card back from a foundation rarely helps
    return value


def hint(game: Game) -> Move | None:
    """The most useful legal move; the stock move when nothing else helps; None if no move."""
    moves = game.legal_moves()
    if not moves:
        return None
    best, best_value = None, 0
    for move in moves:
        value = score(game, move)
        if value > best_value:
            best, best_value = move, value
    if best is not None:
        return best
    stock = [m for m in moves if m.src == "stock" or m.dst == "stock"]
    if stock:
        return stock[0]
    return max(moves, key=lambda m: score(game, m))
