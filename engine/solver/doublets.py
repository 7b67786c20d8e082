"""Solver hooks for Doublets (doublets.txt).

Keys: suits play no part in Doublets, so a key holds ranks only: the reserve as a
sorted set (every reserve card is playable and a space refills the same way whichever it
is), the foundation's size and top rank (the rank it needs next follows from the top),
the stock, the waste and the redeals used.

Move order, depth first: plays to the foundation (reserve first: its space refills from
the waste, which keeps the waste short), then the turn, then the redeal.
"""

from __future__ import annotations

from ..rules.cards import RANK_MASK
from ..rules.doublets import FOUNDATION, RESERVE, STOCK, WASTE, DoubletsRules
from ..rules.state import State
from .space import Child, MoveSpace


class DoubletsSpace(MoveSpace):
    """Doublets' search space: the real moves, depth first."""

    rules: DoubletsRules

    def key(self, state: State) -> bytes:
        """Ranks only: the reserve (sorted), the foundation's size and top, stock, waste,
        redeals used."""
        piles = state.piles
        foundation = piles[FOUNDATION]
        reserve = sorted(p[0] & RANK_MASK if p else 0 for p in piles[:RESERVE])
        return bytes((*reserve, len(foundation), foundation[-1] & RANK_MASK, state.passes,
                      *(c & RANK_MASK for c in piles[STOCK]), 0xFF,
                      *(c & RANK_MASK for c in piles[WASTE])))

    def children(self, state: State) -> list[Child]:
        """Foundation plays from the reserve, then from the waste, then the turn or redeal."""
        rules = self.rules
        return [((move,), rules.apply(state, move)) for move in rules.moves(state)]


def space(rules: DoubletsRules) -> DoubletsSpace:
    """The search space of Doublets."""
    return DoubletsSpace(rules)
