"""Klondike (docs/rules/klondike.md): draw one, unlimited recycles, cards may come back from
foundations.

Piles: columns ``t0..t6``, foundations ``f0..f3``, ``stock``, ``waste``. Foundation
``f<i>`` holds suit ``i`` (spades, hearts, diamonds, clubs): a fixed suit per foundation
keeps equal positions equal states, and the UI may redirect a drop on any foundation.

The deal goes round the columns row by row from the top of the shuffled deck (the end
of the list): row ``r`` gives a card to columns ``t<r>..t6``, so ``t<i>`` gets ``i + 1``
cards and only its last is face up; the 24 cards left are the stock, top card last.
A turn is ``stock-waste``; a recycle, legal when the stock is empty, is
``waste-stock:<cards in the waste>`` and turns the waste back over so the cards come
out again in the same order. State.passes stays 0: recycles are unlimited, so counting
them would only make equal positions differ.
"""

from .cards import DOWN, KING, RANK_MASK, is_red, standard_deck, suit_of
from .moves import Move
from .piles import (
    check_faces,
    check_suit_foundations,
    check_unique,
    move_cards,
    recycle,
    suit_foundation_takes,
    top_run,
    turn_stock,
)
from .rng import shuffled
from .state import Pile, Roles, Rules, State

COLUMNS = 7
F0 = COLUMNS  # index of f0; f<i> is F0 + i
STOCK = F0 + 4
WASTE = STOCK + 1
TURN = Move("stock", "waste", 1)


def fits_column(card: int, column: Pile) -> bool:
    """True when face-up ``card`` may be placed on ``column``: one rank lower in the other
    colour on a face-up top card, or a King on an empty column."""
    if not column:
        return card & RANK_MASK == KING
    top = column[-1]
    return (not top & DOWN and (top & RANK_MASK) == (card & RANK_MASK) + 1
            and is_red(top) != is_red(card))


def _slot(rank: int, red: bool) -> int:
    """A key for the cards of ``rank`` in one colour."""
    return rank << 1 | red


def alternating_run(column: Pile) -> int:
    """How many top cards of ``column`` form a face-up run down in alternating colours."""
    return top_run(column, _builds_on)


def _builds_on(below: int, above: int) -> bool:
    return fits_column(above, (below,))


class KlondikeRules(Rules):
    """Klondike, turning one card at a time, with unlimited recycles."""

    variant = "klondike"
    roles = Roles(tableau=tuple(range(COLUMNS)), foundation=tuple(range(F0, F0 + 4)),
                  stock=(STOCK,), waste=(WASTE,))
    pile_ids = roles.pile_ids()

    def deal(self, seed: int) -> State:
        """Rows of the shuffled deck across t<row>..t6, top cards face up; 24 to the stock."""
        deck = shuffled(standard_deck(), seed)
        columns: list[list[int]] = [[] for _ in range(COLUMNS)]
        for row in range(COLUMNS):
            for col in range(row, COLUMNS):
                columns[col].append(deck.pop() | DOWN)
        for col in columns:
            col[-1] &= ~DOWN
        stock = tuple(c | DOWN for c in deck)
        return State(tuple(tuple(c) for c in columns) + ((),) * 4 + (stock, ()))

    def won_by_force(self, state: State) -> bool:
        """No face-down card left: won by force. Each column is then one run down, so a
        lowest card not yet home lies on top of its column or in the stock or waste, where
        turning brings it up (recycles are unlimited): it always has somewhere to go."""
        return not any(card & DOWN for pile in state.piles[:COLUMNS] for card in pile)

    def _foundation(self, piles: tuple[Pile, ...], card: int) -> str | None:
        """The foundation id that takes ``card`` now, if any."""
        suit = suit_of(card)
        return self.pile_ids[F0 + suit] if suit_foundation_takes(piles[F0 + suit], card) else None

    def moves(self, state: State) -> list[Move]:
        """Plays from each column, the waste and the foundations, then the turn or recycle."""
        piles, ids = state.piles, self.pile_ids
        out: list[Move] = []
        wanted: dict[int, list[int]] = {}  # _slot of a card that fits -> columns it fits
        for d in range(COLUMNS):
            column = piles[d]
            if not column:
                slots = [_slot(KING, False), _slot(KING, True)]
            elif column[-1] & DOWN:
                continue
            else:
                slots = [_slot((column[-1] & RANK_MASK) - 1, not is_red(column[-1]))]
            for slot in slots:
                wanted.setdefault(slot, []).append(d)

        def place(src: int, card: int, count: int) -> None:
            for d in wanted.get(_slot(card & RANK_MASK, is_red(card)), ()):
                if d != src:
                    out.append(Move(ids[src], ids[d], count))

        for s in range(COLUMNS):
            column = piles[s]
            run = alternating_run(column)
            if run and (f := self._foundation(piles, column[-1])):
                out.append(Move(ids[s], f))
            for k in range(1, run + 1):
                place(s, column[-k], k)
        waste = piles[WASTE]
        if waste:
            if f := self._foundation(piles, waste[-1]):
                out.append(Move("waste", f))
            place(WASTE, waste[-1], 1)
        for i in range(F0, F0 + 4):
            if piles[i]:
                place(i, piles[i][-1], 1)
        if piles[STOCK]:
            out.append(TURN)
        elif waste:
            out.append(Move("waste", "stock", len(waste)))
        return out

    def home_moves(self, state: State) -> list[Move]:
        """A face-up column top or the waste's top card to its foundation (as ``moves``
        lists them, without its every move between columns)."""
        piles, ids = state.piles, self.pile_ids
        out: list[Move] = []
        for s in range(COLUMNS):
            column = piles[s]
            if column and not column[-1] & DOWN and (f := self._foundation(piles, column[-1])):
                out.append(Move(ids[s], f))
        waste = piles[WASTE]
        if waste and (f := self._foundation(piles, waste[-1])):
            out.append(Move("waste", f))
        return out

    def apply(self, state: State, move: Move) -> State:
        """Turn, recycle, or move cards (an exposed face-down card flips)."""
        piles = list(state.piles)
        if move.src == "stock":
            turn_stock(piles, STOCK, WASTE)
        elif move.dst == "stock":
            recycle(piles, STOCK, WASTE)
        else:
            move_cards(piles, self.index[move.src], self.index[move.dst], move.count)
        return State(tuple(piles))

    def is_won(self, state: State) -> bool:
        """Won when all 52 cards are on the foundations."""
        return all(len(p) == KING for p in state.piles[F0:STOCK])

    def is_lost(self, state: State, moves: list[Move]) -> bool:
        """Blocked: nothing but turning and recycling is legal, and no card of the stock or
        waste fits a column or a foundation, so going round the stock changes nothing."""
        if any(m.src != "stock" and m.dst != "stock" for m in moves):
            return False
        piles = state.piles
        for card in piles[STOCK] + piles[WASTE]:
            card &= ~DOWN
            if self._foundation(piles, card) or any(fits_column(card, piles[d])
                                                    for d in range(COLUMNS)):
                return False
        return True

    def info(self, state: State) -> dict[str, object]:
        """How many cards are on the foundations."""
        return {"foundation_cards": sum(len(p) for p in state.piles[F0:STOCK])}

    def check(self, state: State) -> None:
        """ValueError unless the position could arise in Klondike."""
        check_unique(state)
        piles = state.piles
        if state.passes:
            raise ValueError("Klondike does not count passes: passes must be 0")
        check_suit_foundations(piles[F0:STOCK])
        check_faces((piles[STOCK],), True, "stock")
        check_faces((piles[WASTE],), False, "waste")
        for i, column in enumerate(piles[:COLUMNS]):
            up = len(column) - sum(1 for c in column if c & DOWN)
            check_faces((column[: len(column) - up],), True, f"t{i}'s lower")
            if column and (column[-1] & DOWN or alternating_run(column) != up):
                raise ValueError(f"t{i}: its top card lies face up, and its face-up cards are "
                                 "one run down in alternating colours")
