"""Solver hooks for Klondike (klondike.txt): draw one, unlimited recycles, foundation returns.

The talon. With one card turned at a time and unlimited recycles, every stock and
waste card can be brought to the top of the waste by turning and recycling, which
changes nothing else; the cards keep their cyclic order. So a step may play *any* talon
card; the macro spells out the turns (and the recycle) that bring it up. The key keeps
the talon in turning order (waste bottom to top, then the stock top to bottom) but not
where the waste ends, since every split of it reaches every other.

Keys: the columns sorted (only a King may enter an empty column, from anywhere, so the
columns are interchangeable) and the talon; the foundations hold whatever is missing.

Safe moves to the foundations, taken at once: a card whose foundation takes it, when
both foundations of the other colour hold at least its rank - 1 and the other
foundation of its colour at least its rank - 2. Proof sketch (cards may come back from
the foundations here): the cards that could ever be built on it, or on a run above
it, are the lower cards of alternating colours, and every one of them is on a
foundation already; a winning line that brings such cards down onto it can leave
them all on the foundations instead, and no card still in play can ever be built on
them, so every other move of the line stays legal.

The first, pruned pass moves part of a run only when that uncovers a card for a
foundation; the complete pass (the only one that may prove a loss) moves any part.
"""

from __future__ import annotations

from .cards import DOWN, KING, RANK_MASK
from .klondike import COLUMNS, F0, STOCK, TURN, WASTE, KlondikeRules
from .moves import Move
from .solve_space import Child, Macro, Space
from .state import Pile, State

_SEP = b"\xff"
_UP = ~DOWN & 0xFF
_OTHER_COLOUR = ((1, 2), (0, 3), (0, 3), (1, 2))  # suits of the other colour, by suit
_SAME_COLOUR = (3, 2, 1, 0)  # the other suit of the same colour


def _fits(card: int, column: Pile) -> bool:
    """``card`` may go on ``column`` (one lower, other colour; a King on an empty column)."""
    if not column:
        return card & RANK_MASK == KING
    top = column[-1]
    return (not top & DOWN and (top & RANK_MASK) == (card & RANK_MASK) + 1
            and ((top >> 4) in (1, 2)) != ((card >> 4) in (1, 2)))


def talon(piles: tuple[Pile, ...] | list[Pile]) -> tuple[int, ...]:
    """The stock and waste cards in turning order, face up: waste bottom..top, stock top..bottom."""
    return piles[WASTE] + tuple(c & _UP for c in reversed(piles[STOCK]))


def talon_macro(piles: tuple[Pile, ...] | list[Pile], j: int) -> list[Move]:
    """The turns (and recycle) that bring talon card ``j`` to the top of the waste."""
    waste, stock = len(piles[WASTE]), len(piles[STOCK])
    if j == waste - 1:
        return []
    if j >= waste:
        return [TURN] * (j - waste + 1)
    return [TURN] * stock + [Move("waste", "stock", waste + stock)] + [TURN] * (j + 1)


def take_from_talon(piles: list[Pile], cards: tuple[int, ...], j: int) -> int:
    """Leave the talon as after playing card ``j`` from the waste; return that card."""
    piles[WASTE] = cards[:j]
    piles[STOCK] = tuple(c | DOWN for c in reversed(cards[j + 1:]))
    return cards[j]


class KlondikeSpace(Space):
    """Klondike's search space."""

    rules: KlondikeRules
    best_first = True
    can_prune = True

    def __init__(self, rules: KlondikeRules) -> None:
        super().__init__(rules)
        self._ids = rules.pile_ids
        self._scores: dict[Pile, int] = {}

    def key(self, state: State) -> bytes:
        """Sorted columns, then the talon in turning order."""
        piles = state.piles
        columns = sorted(bytes(p) for p in piles[:COLUMNS])
        columns.append(bytes(talon(piles)))
        return _SEP.join(columns)

    def is_won(self, state: State) -> bool:
        """All 52 cards on the foundations."""
        return all(len(p) == KING for p in state.piles[F0:STOCK])

    def score(self, state: State) -> int:
        """Cards not on the foundations, face-down cards (and what they hide) weigh most."""
        memo = self._scores
        total = 0
        for column in state.piles[:COLUMNS]:
            value = memo.get(column)
            if value is None:
                value = memo[column] = _column_score(column)
            total += value
        return total + W_TALON * (len(state.piles[STOCK]) + len(state.piles[WASTE]))

    def settle(self, state: State) -> Child:
        """Play every safe card to its foundation (from the columns or the talon)."""
        piles = list(state.piles)
        moves = self._settle(piles)
        return (tuple(moves), State(tuple(piles))) if moves else ((), state)

    def _settle(self, piles: list[Pile]) -> list[Move]:
        moves: list[Move] = []
        ids = self._ids
        found = True
        while found:
            found = False
            heights = [len(piles[F0 + s]) for s in range(4)]
            for s in range(COLUMNS):
                column = piles[s]
                if column and _safe(column[-1], heights):
                    f = F0 + ((column[-1] >> 4) & 3)
                    piles[f] = piles[f] + (column[-1],)
                    column = column[:-1]
                    if column and column[-1] & DOWN:
                        column = column[:-1] + (column[-1] & _UP,)
                    piles[s] = column
                    moves.append(Move(ids[s], ids[f]))
                    found = True
                    break
            if found:
                continue
            cards = talon(piles)
            for j, card in enumerate(cards):
                if _safe(card, heights):
                    moves.extend(talon_macro(piles, j))
                    take_from_talon(piles, cards, j)
                    f = F0 + ((card >> 4) & 3)
                    piles[f] = piles[f] + (card,)
                    moves.append(Move("waste", ids[f]))
                    found = True
                    break
        return moves

    def children(self, state: State) -> list[Child]:
        """Column, talon and foundation plays, most promising first."""
        piles = state.piles
        ids = self._ids
        columns = piles[:COLUMNS]
        pruned = self.pruned
        empty = next((d for d in range(COLUMNS) if not columns[d]), None)
        found = [len(piles[F0 + s]) for s in range(4)]
        out: list[tuple[int, int, Macro, list[Pile]]] = []
        order = 0

        def add(priority: int, macro: Macro, new: list[Pile]) -> None:
            nonlocal order
            order += 1
            out.append((-priority, order, macro, new))

        for s in range(COLUMNS):
            column = columns[s]
            if not column or column[-1] & DOWN:
                continue
            top = column[-1]
            suit = (top >> 4) & 3
            n = len(column)
            if found[suit] == (top & RANK_MASK) - 1:
                new = list(piles)
                _move(new, s, F0 + suit, 1)
                add(60 + _reveals(column, 1), (Move(ids[s], ids[F0 + suit]),), new)
            k = 1
            while k <= n and not column[-k] & DOWN:
                card = column[-k]
                if k > 1:
                    above = column[-k + 1]
                    if not _fits(above, (card,)):
                        break
                whole = k == n or column[-k - 1] & DOWN
                if not whole and pruned:
                    under = column[-k - 1]
                    if found[(under >> 4) & 3] != (under & RANK_MASK) - 1:
                        k += 1
                        continue
                for d in range(COLUMNS):
                    if d == s:
                        continue
                    target = columns[d]
                    if not target and (d != empty or k == n):
                        continue  # one empty column stands for all; a whole column
                        # moving to an empty one only renames it
                    if not _fits(card, target):
                        continue
                    new = list(piles)
                    _move(new, s, d, k)
                    gain = 40 + 10 * _reveals(column, k) if whole else 5
                    add(gain, (Move(ids[s], ids[d], k),), new)
                k += 1
        cards = talon(piles)
        for j, card in enumerate(cards):
            suit = (card >> 4) & 3
            to_found = found[suit] == (card & RANK_MASK) - 1
            targets = [d for d in range(COLUMNS)
                       if (columns[d] or d == empty) and _fits(card, columns[d])]
            if not to_found and not targets:
                continue
            lead = tuple(talon_macro(piles, j))
            if to_found:
                new = list(piles)
                take_from_talon(new, cards, j)
                new[F0 + suit] = new[F0 + suit] + (card,)
                add(30, (*lead, Move("waste", ids[F0 + suit])), new)
            for d in targets:
                new = list(piles)
                take_from_talon(new, cards, j)
                new[d] = new[d] + (card,)
                add(20 if columns[d] else 10, (*lead, Move("waste", ids[d])), new)
        for suit in range(4):
            if not found[suit]:
                continue
            card = piles[F0 + suit][-1]
            for d in range(COLUMNS):
                if (columns[d] or d == empty) and _fits(card, columns[d]):
                    new = list(piles)
                    _move(new, F0 + suit, d, 1)
                    add(-10, (Move(ids[F0 + suit], ids[d]),), new)
        out.sort(key=lambda item: item[:2])
        result: list[Child] = []
        for _, _, macro, new in out:
            auto = self._settle(new)
            result.append(((*macro, *auto) if auto else macro, State(tuple(new))))
        return result


def _move(piles: list[Pile], src: int, dst: int, count: int) -> None:
    """Move ``count`` cards; an exposed face-down card flips (as the rules do)."""
    group = piles[src][-count:]
    rest = piles[src][:-count]
    if rest and rest[-1] & DOWN:
        rest = rest[:-1] + (rest[-1] & _UP,)
    piles[src] = rest
    piles[dst] = piles[dst] + group


def _reveals(column: Pile, k: int) -> int:
    """1 when moving the top ``k`` cards turns a card over."""
    return 1 if len(column) > k and column[-k - 1] & DOWN else 0


def _safe(card: int, heights: list[int]) -> bool:
    """``card`` goes to its foundation now and is safe there (see the module docstring)."""
    suit = (card >> 4) & 3
    rank = card & RANK_MASK
    if heights[suit] != rank - 1:
        return False
    a, b = _OTHER_COLOUR[suit]
    return (heights[a] >= rank - 1 and heights[b] >= rank - 1
            and heights[_SAME_COLOUR[suit]] >= rank - 2)


def _column_score(column: Pile) -> int:
    """5 per card, 10 more per face-down card; an empty column is worth a little."""
    if not column:
        return -W_EMPTY
    return sum(W_DOWN if card & DOWN else W_UP for card in column)


W_DOWN, W_UP, W_TALON, W_EMPTY = 15, 5, 5, 2


def space(rules: KlondikeRules) -> KlondikeSpace:
    """The search space of Klondike."""
    return KlondikeSpace(rules)
