"""Doublets (docs/rules/doublets.md): one foundation built by doubling, Kings dead, two redeals.

Piles: reserve ``r0..r6`` (one card each), the single foundation ``f0``, ``stock`` and
``waste``. The deal takes cards from the top of the shuffled deck (the end of the
list) for ``r0..r6`` and then ``f0``; a King that would be dealt there goes to the
bottom of the stock and the next card is dealt instead. The other 44 cards are the
stock, top card last.

The foundation takes the double of its top card's rank, less 13 when the double is
over 12: A 2 4 8 3 6 Q J 9 5 T 7 A ... A reserve card or the top waste card goes there
(``r3-f0``, ``waste-f0``); a reserve space refills at once from the waste, or from the
stock when the waste is empty. A turn is ``stock-waste``; a redeal, legal when the
stock is empty and State.passes (redeals used) is below 2, is
``waste-stock:<cards in the waste>`` and brings the cards out again in the same order.
"""

from .cards import DOWN, KING, RANK_MASK, RANKS, standard_deck
from .compat import pairwise
from .moves import Move
from .piles import check_faces, check_unique, move_cards, recycle, turn_stock
from .rng import shuffled
from .state import Roles, Rules, State

RESERVE = 7
FOUNDATION = RESERVE  # index of f0
STOCK = FOUNDATION + 1
WASTE = STOCK + 1
REDEALS = 2
WON = 4 * (KING - 1)  # all 48 non-Kings on the foundation
TURN = Move("stock", "waste", 1)


def doubled(rank: int) -> int:
    """The rank the foundation takes on ``rank``: its double, less 13 when over 12.

    >>> [RANKS[doubled(r) - 1] for r in (1, 2, 4, 8, 3, 6, 12, 11, 9, 5, 10, 7)]
    ['2', '4', '8', '3', '6', 'Q', 'J', '9', '5', 'T', '7', 'A']
    """
    double = 2 * rank
    return double - 13 if double > 12 else double


class DoubletsRules(Rules):
    """Doublets with a seven-card self-filling reserve and two redeals."""

    variant = "doublets"
    roles = Roles(reserve=tuple(range(RESERVE)), foundation=(FOUNDATION,), stock=(STOCK,),
                  waste=(WASTE,))
    pile_ids = roles.pile_ids()

    def deal(self, seed: int) -> State:
        """Seven cards to the reserve and one to the foundation, Kings sent under the stock."""
        deck = shuffled(standard_deck(), seed)

        def next_card() -> int:
            while deck[-1] & RANK_MASK == KING:
                deck.insert(0, deck.pop())
            return deck.pop()

        reserve = tuple((next_card(),) for _ in range(RESERVE))
        foundation = (next_card(),)
        return State(reserve + (foundation, tuple(c | DOWN for c in deck), ()))

    def needs(self, state: State) -> int:
        """The rank the foundation takes next."""
        return doubled(state.piles[FOUNDATION][-1] & RANK_MASK)

    def moves(self, state: State) -> list[Move]:
        """Reserve and top waste cards of the rank needed, then the turn or the redeal."""
        piles, ids = state.piles, self.pile_ids
        need = self.needs(state)
        out = [Move(ids[r], "f0") for r in range(RESERVE)
               if piles[r] and piles[r][-1] & RANK_MASK == need]
        waste = piles[WASTE]
        if waste and waste[-1] & RANK_MASK == need:
            out.append(Move("waste", "f0"))
        if piles[STOCK]:
            out.append(TURN)
        elif waste and state.passes < REDEALS:
            out.append(Move("waste", "stock", len(waste)))
        return out

    def apply(self, state: State, move: Move) -> State:
        """Turn, redeal, or play to the foundation; then refill empty reserve spaces."""
        piles = list(state.piles)
        passes = state.passes
        if move.src == "stock":
            turn_stock(piles, STOCK, WASTE)
        elif move.dst == "stock":
            recycle(piles, STOCK, WASTE)
            passes += 1
        else:
            move_cards(piles, self.index[move.src], FOUNDATION, 1)
            for r in range(RESERVE):
                if not piles[r]:
                    src = WASTE if piles[WASTE] else STOCK if piles[STOCK] else None
                    if src is not None:
                        piles[r] = (piles[src][-1] & ~DOWN,)
                        piles[src] = piles[src][:-1]
        return State(tuple(piles), passes)

    def is_won(self, state: State) -> bool:
        """Won when all 48 cards other than the Kings are on the foundation."""
        return len(state.piles[FOUNDATION]) == WON

    def info(self, state: State) -> dict[str, object]:
        """The rank the foundation needs next (``"A23456789TJQ"``) and the redeals left."""
        return {"needs": RANKS[self.needs(state) - 1], "redeals_left": REDEALS - state.passes}

    def check(self, state: State) -> None:
        """ValueError unless the position could arise in Doublets."""
        check_unique(state)
        piles = state.piles
        if not 0 <= state.passes <= REDEALS:
            raise ValueError(f"passes counts the redeals used: 0..{REDEALS}")
        check_faces(piles[:STOCK] + (piles[WASTE],), False, "reserve, foundation and waste")
        check_faces((piles[STOCK],), True, "stock")
        if any(len(p) > 1 for p in piles[:RESERVE]):
            raise ValueError("a reserve space holds one card")
        if (piles[STOCK] or piles[WASTE]) and not all(piles[:RESERVE]):
            raise ValueError("an empty reserve space is refilled at once from the waste or stock")
        foundation = piles[FOUNDATION]
        if not foundation:
            raise ValueError("the foundation starts with a card")
        ranks = [c & RANK_MASK for c in foundation]
        if KING in ranks or any(doubled(a) != b for a, b in pairwise(ranks)):
            raise ValueError("the foundation is built by doubling, without Kings")
