"""A quick heuristic hint (docs/rules/play-controls.md §7) for every variant.

``hint(game)`` looks one move ahead and prefers, in this order:

1. the legal move that helps most (value > 0); what it may gain:
   turns over a face-down card (+100 a card), advances a foundation (+40 a card, so a
   Spider clear is worth its 13; a card taken back costs 40), joins cards of the same
   suit (a face-up card on the next higher card of its suit: +20 a pair), plays a waste
   card to the tableau (+10), uncovers a card that can go to a foundation at once
   (+30), empties a tableau column that a card from elsewhere can then use (+15);
2. the stock: a Spider deal, a stock turn, a recycle or a redeal;
3. a move that helps nothing but cannot be moved straight back;
4. nothing (None).

It never suggests a move that merely shuffles back and forth: the one that undoes
the previous move, or one that gains nothing and could be put straight back by a
legal move (a whole pile into an empty pile, a card off a card it already legally
sits on). Ties go to the first move in the rules' order. The solver gives proven hints.
"""

from .cards import DOWN
from .compat import pairwise
from .game import Game
from .moves import Move
from .state import Pile, Rules, State

FLIP, FOUNDATION, JOIN, FROM_WASTE, UNCOVER, EMPTY = 100, 40, 20, 10, 30, 15


def is_stock_move(move: Move) -> bool:
    """A deal, a stock turn, a recycle or a redeal."""
    return move.src == "stock" or move.dst == "stock"


def _joined(pile: Pile) -> int:
    """Face-up pairs in ``pile`` where a card lies on the next higher card of its suit.

    Equal suit bits and ranks one apart are exactly a difference of 1 between the ints.
    """
    return sum(1 for hi, lo in pairwise(pile) if hi - lo == 1 and not hi & DOWN)


def _features(state: State, tableau: list[int], foundations: list[int]) -> int:
    """The position's worth: hidden tableau cards, foundation cards, same-suit joins."""
    piles = state.piles
    hidden = sum(1 for i in tableau for c in piles[i] if c & DOWN)
    built = sum(len(piles[i]) for i in foundations)
    joins = sum(_joined(piles[i]) for i in tableau)
    return -FLIP * hidden + FOUNDATION * built + JOIN * joins


class _Judge:
    """Values the moves of one position of one variant."""

    def __init__(self, rules: Rules, state: State) -> None:
        self.rules, self.state = rules, state
        self.tableau = list(rules.roles.tableau)
        self.foundations = list(rules.roles.foundation)
        self.worth = _features(state, self.tableau, self.foundations)
        self.gaps = self._gaps(state)

    def value(self, move: Move) -> tuple[int, bool]:
        """What ``move`` gains, and whether a legal move could put it straight back."""
        rules, idx = self.rules, self.rules.index
        after = rules.apply(self.state, move)
        replies = rules.moves(after)
        gain = _features(after, self.tableau, self.foundations) - self.worth
        src = idx[move.src]
        if move.src == "waste" and idx.get(move.dst) in self.tableau:
            gain += FROM_WASTE
        if src not in self.foundations and after.piles[src]:
            if any(r.src == move.src and idx[r.dst] in self.foundations for r in replies):
                gain += UNCOVER
        elif (src in self.tableau and self._gaps(after) > self.gaps
              and any(self._fills(after, r, move.src) for r in replies)):
            gain += EMPTY
        return gain, Move(move.dst, move.src, move.count) in replies

    def _gaps(self, state: State) -> int:
        """Empty tableau piles (a whole pile moved into a gap makes no new one)."""
        return sum(1 for i in self.tableau if not state.piles[i])

    def _fills(self, after: State, reply: Move, empty: str) -> bool:
        """True when ``reply`` brings a card from elsewhere into the ``empty`` pile (not a
        card from a foundation, nor a whole tableau pile that would leave another gap)."""
        if reply.dst != empty or is_stock_move(reply):
            return False
        src = self.rules.index[reply.src]
        if src in self.foundations:
            return False
        return not (src in self.tableau and reply.count == len(after.piles[src]))


def hint(game: Game) -> Move | None:
    """The most useful legal move (see the module doc); None when the game is over or
    only back-and-forth moves remain."""
    if game.status != "playing":
        return None
    moves = game.legal_moves()
    last = game.moves[-1] if game.move_count else None
    undo_last = Move(last.dst, last.src, last.count) if last and not is_stock_move(last) else None
    judge = _Judge(game.rules, game.state)
    best: Move | None = None
    best_value = 0
    fallback: Move | None = None
    fallback_value = 0
    for move in moves:
        if is_stock_move(move) or move == undo_last:
            continue
        value, reversible = judge.value(move)
        if value > best_value:
            best, best_value = move, value
        elif value <= 0 and not reversible and (fallback is None or value > fallback_value):
            fallback, fallback_value = move, value
    if best is not None:
        return best
    stock = next((m for m in moves if is_stock_move(m)), None)
    return stock or fallback
