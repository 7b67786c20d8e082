"""Beleaguered Castle (docs/rules/beleaguered-castle.md): aces out, eight open rows,
single cards only.

Piles: rows ``t0..t7`` and foundations ``f0..f3`` (``f<i>`` holds suit ``i``: spades,
hearts, diamonds, clubs, and starts with its Ace). The 48 other cards are shuffled
and dealt face up from the top of the deck (the end of the list) round the rows,
``t0`` to ``t7``, six times. Only a row's last card moves, one at a time, onto a row
ending one rank higher (any suit), into an empty row, or to its foundation; foundation
cards never come back. There is no stock, cell or redeal.
"""

from .cards import ACE, KING, RANK_MASK, make_card, standard_deck, suit_of
from .compat import pairwise
from .moves import Move
from .piles import (
    check_faces,
    check_suit_foundations,
    check_unique,
    move_cards,
    suit_foundation_takes,
)
from .rng import shuffled
from .state import Roles, Rules, State

ROWS = 8
ROW_LENGTH = 6
F0 = ROWS  # index of f0; f<i> is F0 + i


class CastleRules(Rules):
    """Beleaguered Castle: build down regardless of suit, any card to an empty row."""

    variant = "beleaguered-castle"
    roles = Roles(tableau=tuple(range(ROWS)), foundation=tuple(range(F0, F0 + 4)))
    pile_ids = roles.pile_ids()

    def deal(self, seed: int) -> State:
        """The four Aces to their foundations; the other 48 shuffled round the 8 rows."""
        deck = shuffled([c for c in standard_deck() if c & RANK_MASK != ACE], seed)
        rows: list[list[int]] = [[] for _ in range(ROWS)]
        for _ in range(ROW_LENGTH):
            for row in rows:
                row.append(deck.pop())
        aces = tuple((make_card(ACE, suit),) for suit in range(4))
        return State(tuple(tuple(r) for r in rows) + aces)

    def moves(self, state: State) -> list[Move]:
        """Each row's last card: to its foundation, onto a row one rank higher, to an empty row."""
        piles, ids = state.piles, self.pile_ids
        out: list[Move] = []
        for s in range(ROWS):
            if not piles[s]:
                continue
            card = piles[s][-1]
            f = F0 + suit_of(card)
            if suit_foundation_takes(piles[f], card):
                out.append(Move(ids[s], ids[f]))
            rank = card & RANK_MASK
            for d in range(ROWS):
                if d != s and (not piles[d] or piles[d][-1] & RANK_MASK == rank + 1):
                    out.append(Move(ids[s], ids[d]))
        return out

    def apply(self, state: State, move: Move) -> State:
        """Move one card."""
        piles = list(state.piles)
        move_cards(piles, self.index[move.src], self.index[move.dst], move.count)
        return State(tuple(piles))

    def is_won(self, state: State) -> bool:
        """Won when every foundation ends in its King."""
        return all(len(p) == KING for p in state.piles[F0:])

    def won_by_force(self, state: State) -> bool:
        """Every row runs down in rank from its bottom card (equal ranks allowed). Then the
        lowest rank r not yet home has a card on top of its row (any card above one of
        rank r is of rank r too), every lower card of its suit is home, so it goes home,
        and the rows still run down: every card goes home with no choice to make."""
        return all(below & RANK_MASK >= above & RANK_MASK
                   for row in state.piles[:ROWS] for below, above in pairwise(row))

    def info(self, state: State) -> dict[str, object]:
        """How many cards are on the foundations (the optional progress record)."""
        return {"foundation_cards": sum(len(p) for p in state.piles[F0:])}

    def check(self, state: State) -> None:
        """ValueError unless the position could arise in Beleaguered Castle."""
        check_unique(state)
        if state.passes:
            raise ValueError("Beleaguered Castle has no redeal: passes must be 0")
        check_faces(state.piles, False, "Beleaguered Castle")
        check_suit_foundations(state.piles[F0:])
