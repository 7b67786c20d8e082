"""Solver hooks for Beleaguered Castle (beleaguered-castle.txt).

Keys: the rows sorted (any card may enter an empty row and building ignores suits, so
rows are interchangeable) and nothing else (the foundations hold exactly the cards
missing from the rows).

Safe moves to the foundations, taken at once as part of a step: a card whose
foundation takes it and whose rank is at most 2 above the lowest foundation. Proof
sketch: only a card one rank lower could ever be placed on it; every such card can then
go to its own foundation instead (its foundation holds at least rank - 2), and nothing
is ever placed on it, since all cards two ranks lower are on the foundations already
and foundation cards never come back. So a winning line stays winning with the card
sent up first.
"""

from __future__ import annotations

from .castle import F0, ROWS, CastleRules
from .moves import Move
from .solve_space import Space
from .state import State

# A position, inside the search: the rows (as bytes, in pile order) and how many cards
# each foundation holds. Compact, quick to hash and to sort; moves still name real piles.
Node = tuple[tuple[bytes, ...], tuple[int, ...]]
_SEP = b"\xff"
_BYTE = [bytes((i,)) for i in range(128)]
_WON = (13, 13, 13, 13)
# score weights: empty row, card, card above a lower one, loose card, depth of the cards
# the foundations take next
WEIGHTS = (4, 2, 3, 1, 1)


class CastleSpace(Space):
    """Beleaguered Castle's search space, over :data:`Node` positions."""

    rules: CastleRules
    best_first = True

    def __init__(self, rules: CastleRules, weights: tuple[int, ...] = WEIGHTS) -> None:
        super().__init__(rules)
        self._weights = weights
        self._row_scores: dict[bytes, int] = {}
        ids = rules.pile_ids
        self._to_foundation = {(s, f): Move(ids[s], ids[F0 + f]) for s in range(ROWS)
                               for f in range(4)}
        self._row_moves = {(s, d): Move(ids[s], ids[d]) for s in range(ROWS) for d in range(ROWS)}

    def settle(self, state: State) -> tuple[tuple[Move, ...], Node]:  # type: ignore[override]
        """The search's root: ``state`` as a :data:`Node`, after every safe foundation move."""
        rows = [bytes(p) for p in state.piles[:ROWS]]
        heights = [len(p) for p in state.piles[F0:F0 + 4]]
        moves = _settle(rows, heights, self._to_foundation)
        return tuple(moves), (tuple(rows), tuple(heights))

    def key(self, node: Node) -> bytes:  # type: ignore[override]
        """The rows, sorted."""
        return _SEP.join(sorted(node[0]))

    def is_won(self, node: Node) -> bool:  # type: ignore[override]
        """Every foundation up to its King."""
        return node[1] == _WON

    def score(self, node: Node) -> int:  # type: ignore[override]
        """Cards still in rows, cards above a lower card of their row, cards above the card a
        foundation takes next; empty rows help."""
        rows, heights = node
        memo = self._row_scores
        total = 0
        for row in rows:
            value = memo.get(row)
            if value is None:
                value = memo[row] = _row_score(row, self._weights)
            total += value
        need = self._weights[4]
        if need:  # how deep the cards the foundations take next lie
            for suit, height in enumerate(heights):
                if height < 13:
                    card = suit << 4 | (height + 1)
                    for row in rows:
                        i = row.find(card)
                        if i >= 0:
                            total += need * (len(row) - 1 - i)
                            break
        return total

    def children(self, node: Node) -> list[tuple[tuple[Move, ...], Node]]:  # type: ignore[override]
        """Foundation moves, then moves onto a card one rank higher, then into one empty row;
        none to a position where no foundation move or empty row can ever come again."""
        rows, heights = node
        tops = [row[-1] & 15 if row else 0 for row in rows]
        low = min(heights)
        empty = next((d for d in range(ROWS) if not rows[d]), None)
        scored: list[tuple[int, int, int]] = []  # (-score, src, dst); dst >= ROWS: foundation
        for s in range(ROWS):
            row = rows[s]
            if not row:
                continue
            card = row[-1]
            rank = card & 15
            suit = (card >> 4) & 3
            left = len(row) - 1
            # what the move uncovers: a card its foundation takes next is worth most
            if left:
                under = row[-2]
                uncover = 30 if heights[(under >> 4) & 3] == (under & 15) - 1 else 0
            else:
                uncover = 20
            if heights[suit] == rank - 1:
                scored.append((-100 - uncover, s, ROWS + suit))
            for d in range(ROWS):
                if d != s and tops[d] == rank + 1:
                    scored.append((-(10 + uncover - 5 * (rank == 13)), s, d))
            if empty is not None and left:
                scored.append((-(uncover - 15), s, empty))
        scored.sort()
        out: list[tuple[tuple[Move, ...], Node]] = []
        to_foundation, row_moves = self._to_foundation, self._row_moves
        for _, s, d in scored:
            new = list(rows)
            card = rows[s][-1]
            row = new[s] = rows[s][:-1]
            if d >= ROWS:
                grown = list(heights)
                grown[d - ROWS] += 1
                first = to_foundation[(s, d - ROWS)]
                auto = _settle(new, grown, to_foundation)
                after = tuple(grown)
            else:
                new[d] = rows[d] + _BYTE[card]
                first = row_moves[(s, d)]
                after = heights
                # only the uncovered card can have become safe
                under = row[-1] if row else 0
                rank = under & 15
                auto = []
                if under and rank <= low + 2 and heights[(under >> 4) & 3] == rank - 1:
                    grown = list(heights)
                    auto = _settle(new, grown, to_foundation)
                    after = tuple(grown)
            if stuck(new, after):
                continue  # no foundation move and no empty row can ever come again
            out.append(((first, *auto) if auto else (first,), (tuple(new), after)))
        return out


def _row_score(row: bytes, weights: tuple[int, ...]) -> int:
    """A row's share of the score: per card, more for a card above a lower one of its row,
    a little for a card not one rank below the card under it; an empty row takes off."""
    empty, card_weight, block, loose = weights[:4]
    if not row:
        return -empty
    total = 0
    low = 99
    prev = 99
    for card in row:
        rank = card & 15
        total += card_weight
        if rank > low:
            total += block
        elif rank != prev - 1:
            total += loose
        low = min(low, rank)
        prev = rank
    return total


def stuck(rows: list[bytes] | tuple[bytes, ...], heights: tuple[int, ...]) -> bool:
    """True when no foundation move and no empty row can ever come again (so: lost).

    An over-estimate of the cards that can ever be exposed, grown to a fixed point: the
    row ends, and a card under one that can leave. A card can leave only onto a card one
    rank higher that can be exposed and does not lie under it in its own row (with no
    empty row and no foundation move, there is nowhere else to go).
    """
    if not all(rows):
        return False
    takes = [h + 1 for h in heights]
    depth = [len(row) - 1 for row in rows]  # lowest position known exposable, per row
    # for each rank, the (row, position) of exposable cards
    exposed: list[list[tuple[int, int]]] = [[] for _ in range(15)]
    for i, row in enumerate(rows):
        card = row[-1]
        if takes[(card >> 4) & 3] == card & 15:
            return False
        exposed[card & 15].append((i, depth[i]))
    grown = True
    while grown:
        grown = False
        for i, row in enumerate(rows):
            p = depth[i]
            if p < 0:
                continue
            rank = row[p] & 15
            if not any(j != i or q > p for j, q in exposed[rank + 1]):
                continue
            if p == 0:
                return False  # the row could be emptied
            p = depth[i] = p - 1
            card = row[p]
            if takes[(card >> 4) & 3] == card & 15:
                return False
            exposed[card & 15].append((i, p))
            grown = True
    return True


def _settle(rows: list[bytes], heights: list[int],
            to_foundation: dict[tuple[int, int], Move]) -> list[Move]:
    """Send up safe cards in place (rank <= lowest foundation + 2); the moves made."""
    moves: list[Move] = []
    found = True
    while found:
        found = False
        low = min(heights)
        for s in range(ROWS):
            row = rows[s]
            if row:
                card = row[-1]
                rank = card & 15
                suit = (card >> 4) & 3
                if rank <= low + 2 and heights[suit] == rank - 1:
                    heights[suit] += 1
                    rows[s] = row[:-1]
                    moves.append(to_foundation[(s, suit)])
                    found = True
                    break
    return moves


def space(rules: CastleRules) -> CastleSpace:
    """The search space of Beleaguered Castle."""
    return CastleSpace(rules)
