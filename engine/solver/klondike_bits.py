"""Klondike's cards as bits, shared by the search's tests of use (klondike.py) and its dead
test (klondike_dead.py).

A card is its number, suit * 16 + rank (spades 0, hearts 1, diamonds 2, clubs 3, so the two
suits of a colour are a suit's bits flipped), and a set of cards is one integer with a bit
per number: a rule asked of every card at once is then a few integer operations.
"""

from __future__ import annotations

from ..rules.cards import DOWN, KING, RANK_MASK

UP = ~DOWN & 0xFF  # a card's byte with its face-down flag cleared
OTHER_COLOUR = ((1, 2), (0, 3), (0, 3), (1, 2))  # suits of the other colour, by suit


def pair(card: int, step: int) -> tuple[int, ...]:
    """The two cards of rank ``rank + step`` in the other colour (none off the ends)."""
    rank = (card & RANK_MASK) + step
    if not 1 <= rank <= KING:
        return ()
    return tuple(s << 4 | rank for s in OTHER_COLOUR[(card >> 4) & 3])


ONTO2 = [pair(c, 1) or (0, 0) for c in range(64)]  # the cards a card may be built on
# (0 is no card and never exposed)
TAKES = [pair(c, -1) for c in range(64)]  # the cards that may be built on a card
TAKES_BITS = [sum(1 << c for c in cards) for cards in TAKES]
TWINS_BITS = [sum(1 << c for c in pair(card, 0)) for card in range(64)]  # same rank,
# other colour
ACES = sum(1 << (s << 4 | 1) for s in range(4))
HOME = [(1 << (height + 1)) - 2 for height in range(KING + 1)]  # a foundation's cards, as
# a rank mask
KING_BITS = sum(1 << (s << 4 | KING) for s in range(4))
LOW_BITS = sum(1 << (s << 4 | r) for s in range(4) for r in (1, 2))  # Aces and Twos
ALL = sum(1 << (s << 4 | r) for s in range(4) for r in range(1, KING + 1))
RED_LANES = 1 << 16 | 1 << 32  # a rank mask times this: that mask in hearts and diamonds
BLACK_LANES = 1 | 1 << 48  # ... in spades and clubs
