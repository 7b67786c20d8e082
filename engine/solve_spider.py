"""Solver hooks for Spider and relaxed Spider (spider.txt, spider-relaxed-and-play-controls.txt).

Keys: the foundations are left out (the cards on them are whatever is missing from the
tableau and stock, and which foundation holds which run changes nothing), the stock is
known by its size (it only ever loses cards from the top), and once the stock is empty
the columns are interchangeable, so they are sorted.

Move order: a move that clears a run, turns a card over or empties a column first, then
moves that join cards of one suit, and last the moves that only break a run apart or
shuffle a run into an empty column; the deal comes after every tableau move.
"""

from __future__ import annotations

from .cards import DOWN, RANK_MASK, SUIT_MASK
from .moves import Move
from .solve_space import Child, Space
from .spider import COLUMNS, STOCK, SpiderRules
from .state import State

_UP = ~DOWN
W_DOWN, W_BREAK, W_SEQ, W_EMPTY = 6, 3, 3, 6
W_STOCK = {1: 3, 2: 2, 4: 2}  # by suits: with one suit, dealt cards join runs more often
_SEP = b"\xff"


class SpiderSpace(Space):
    """Spider's search space: real moves one at a time, with Spider's keys and order."""

    rules: SpiderRules
    best_first = True
    can_prune = True

    def __init__(self, rules: SpiderRules) -> None:
        super().__init__(rules)
        self._stock_weight = W_STOCK[rules.suits]
        self._column_scores: dict[tuple[int, ...], int] = {}

    def score(self, state: State) -> int:
        """Face-down cards, breaks between face-up cards, stock cards; empty columns help."""
        memo = self._column_scores
        total = self._stock_weight * len(state.piles[STOCK])
        for pile in state.piles[:COLUMNS]:
            value = memo.get(pile)
            if value is None:
                value = memo[pile] = _column_score(pile)
            total += value
        return total

    def key(self, state: State) -> bytes:
        """Tableau columns (sorted when the stock is empty) and the stock's size."""
        piles = state.piles
        columns = [bytes(p) for p in piles[:COLUMNS]]
        stock = len(piles[STOCK])
        if not stock:
            columns.sort()
        return bytes((stock,)) + _SEP.join(columns)

    def children(self, state: State) -> list[Child]:
        """Every legal move (in the pruned pass, fewer), most promising first; the deal last."""
        rules = self.rules
        piles = state.piles
        same_suit = not rules.relaxed
        index = rules.index
        pruned = self.pruned
        self.skipped = False
        first_empty = None
        scored: list[tuple[int, int, Move]] = []
        for n, move in enumerate(rules.moves(state)):
            if move.src == "stock":
                scored.append((-1000, n, move))
                continue
            d = index[move.dst]
            src = piles[index[move.src]]
            dst = piles[d]
            k = move.count
            moved = src[-k]
            score = 0
            if len(src) == k:
                if not dst:
                    if pruned:
                        self.skipped = True
                        continue  # a whole column into an empty one only renames it
                    score -= 200
                else:
                    score += 40
            else:
                under = src[-k - 1]
                if under & DOWN:
                    score += 50
                elif (under & RANK_MASK) == (moved & RANK_MASK) + 1:
                    if (under & SUIT_MASK) == (moved & SUIT_MASK):
                        if pruned:
                            self.skipped = True
                            continue  # breaks a same-suit run
                        score -= 60
                    else:
                        if pruned and dst and (dst[-1] & SUIT_MASK) != (moved & SUIT_MASK):
                            self.skipped = True
                            continue  # from one other-suit card to another
                        if not same_suit:
                            score -= 20  # breaks a movable (relaxed) run
            if dst:
                if (dst[-1] & SUIT_MASK) == (moved & SUIT_MASK):
                    score += 30 + k
                else:
                    score += 5
            else:
                if pruned:
                    if first_empty is None:
                        first_empty = d
                    elif d != first_empty:
                        self.skipped = True
                        continue  # one empty column stands for all
                score -= 30
            scored.append((-score, n, move))
        scored.sort()
        return [((move,), rules.apply(state, move)) for _, _, move in scored]


def _column_score(pile: tuple[int, ...]) -> int:
    """W_DOWN per face-down card; per face-up card: 0 on its same-suit successor, W_SEQ on a
    successor of another suit, W_BREAK otherwise; -W_EMPTY for an empty column."""
    if not pile:
        return -W_EMPTY
    total = 0
    below = None
    for card in pile:
        if card & DOWN:
            total += W_DOWN
        elif below is None or below & DOWN or (below & RANK_MASK) != (card & RANK_MASK) + 1:
            total += W_BREAK
        elif (below & SUIT_MASK) != (card & SUIT_MASK):
            total += W_SEQ
        below = card
    return total


def space(rules: SpiderRules) -> SpiderSpace:
    """The search space of a Spider variant."""
    return SpiderSpace(rules)
