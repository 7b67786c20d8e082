"""Spider (docs/rules/spider.md) and relaxed Spider (docs/rules/spider-relaxed.md).

Ten columns ``t0..t9``, eight foundations ``f0..f7`` for cleared King-to-Ace
sequences, and the ``stock``. The two games differ only in which groups move.
"""

from .cards import DOWN, KING, RANK_MASK, SUIT_MASK, standard_deck
from .compat import pairwise
from .moves import Move
from .piles import check_faces, flip_top, move_cards, top_run
from .rng import shuffled
from .state import Pile, Roles, Rules, State

COLUMNS = 10
FOUNDATIONS = 8
STOCK = COLUMNS + FOUNDATIONS  # index of the stock pile
OPENING_ROWS = (6, 6, 6, 6, 5, 5, 5, 5, 5, 5)
DEAL = Move("stock", "tableau", COLUMNS)
_SUITS = {1: (0,), 2: (0, 1), 4: (0, 1, 2, 3)}


def movable_run(pile: Pile, same_suit: bool) -> int:
    """How many cards from the top of ``pile`` form a group that may move together."""
    return top_run(pile, _in_suit if same_suit else _one_lower)


def _one_lower(below: int, above: int) -> bool:
    return (below & RANK_MASK) == (above & RANK_MASK) + 1


def _in_suit(below: int, above: int) -> bool:
    return (below & RANK_MASK) == (above & RANK_MASK) + 1 and (
        below & SUIT_MASK) == (above & SUIT_MASK)


def _complete_run(pile: Pile) -> bool:
    """True when the top 13 cards are a face-up King..Ace run of one suit."""
    if len(pile) < KING:
        return False
    suit = pile[-1] & SUIT_MASK
    for depth in range(1, KING + 1):
        card = pile[-depth]
        if card & DOWN or card & RANK_MASK != depth or card & SUIT_MASK != suit:
            return False
    return True


class SpiderRules(Rules):
    """Spider with 1, 2 or 4 suits; ``relaxed`` lets any descending run move as a group."""

    roles = Roles(tableau=tuple(range(COLUMNS)),
                  foundation=tuple(range(COLUMNS, COLUMNS + FOUNDATIONS)), stock=(STOCK,))
    pile_ids = roles.pile_ids()

    def __init__(self, suits: int, relaxed: bool = False) -> None:
        super().__init__()
        self.suits = suits
        self.relaxed = relaxed
        self.variant = f"spider-relaxed-{suits}" if relaxed else f"spider-{suits}"
        self.deck = standard_deck(_SUITS[suits], copies=8 // suits)

    def deal(self, seed: int) -> State:
        """Deal rows from the top of the shuffled deck; the last card of each column faces up."""
        deck = shuffled(self.deck, seed)
        columns: list[list[int]] = [[] for _ in range(COLUMNS)]
        for row in range(max(OPENING_ROWS)):
            for col, height in enumerate(OPENING_ROWS):
                if row < height:
                    columns[col].append(deck.pop() | DOWN)
        for col in columns:
            col[-1] &= ~DOWN
        stock = tuple(c | DOWN for c in deck)
        return State(tuple(tuple(c) for c in columns) + ((),) * FOUNDATIONS + (stock,))

    def moves(self, state: State) -> list[Move]:
        """Tableau moves (single cards, allowed groups, anything to an empty column), the deal."""
        piles = state.piles
        same_suit = not self.relaxed
        # a face-down top keeps its DOWN bit, so it never equals rank + 1
        # (docs/rules/spider.md §9 row 1)
        tops = [p[-1] & (RANK_MASK | DOWN) if p else 0 for p in piles[:COLUMNS]]
        out: list[Move] = []
        ids = self.pile_ids
        for s in range(COLUMNS):
            pile = piles[s]
            run = movable_run(pile, same_suit)
            for k in range(1, run + 1):
                rank = pile[-k] & RANK_MASK
                for d in range(COLUMNS):
                    if d != s and (tops[d] == 0 or tops[d] == rank + 1):
                        out.append(Move(ids[s], ids[d], k))
        if len(piles[STOCK]) >= COLUMNS and all(tops):
            out.append(DEAL)
        return out

    def apply(self, state: State, move: Move) -> State:
        """Move or deal, then flip newly exposed cards and clear completed runs."""
        piles = list(state.piles)
        if move.src == "stock":
            stock = piles[STOCK]
            for i in range(COLUMNS):
                piles[i] = piles[i] + (stock[-1 - i] & ~DOWN,)
            piles[STOCK] = stock[:-COLUMNS]
            for i in range(COLUMNS):
                self._clear(piles, i)
        else:
            d = self.index[move.dst]
            move_cards(piles, self.index[move.src], d, move.count)
            self._clear(piles, d)
        return State(tuple(piles))

    def _clear(self, piles: list[Pile], col: int) -> None:
        """Send a completed King..Ace run on ``col`` to the next empty foundation."""
        if _complete_run(piles[col]):
            f = next(i for i in range(COLUMNS, COLUMNS + FOUNDATIONS) if not piles[i])
            piles[f] = piles[col][-KING:]
            piles[col] = flip_top(piles[col][:-KING])

    def check(self, state: State) -> None:
        """ValueError for a position no Spider game could reach in that shape.

        Card counts are not checked, so tests may set up small positions freely.
        """
        if sum(map(len, state.piles)) > len(self.deck):
            raise ValueError(f"{self.variant} has {len(self.deck)} cards")
        check_faces([state.piles[STOCK]], True, "stock")
        for pile in state.piles[:COLUMNS]:
            if any(a & DOWN < b & DOWN for a, b in pairwise(pile)):
                raise ValueError("a face-down card cannot lie on a face-up one")
        founds = state.piles[COLUMNS:STOCK]
        for i, pile in enumerate(founds):
            if pile and not _complete_run(pile) or len(pile) not in (0, KING):
                raise ValueError(f"f{i} must be empty or hold one King..Ace run of one suit")
            if pile and i and not founds[i - 1]:
                raise ValueError("cleared runs fill the foundations from f0 on")

    def is_won(self, state: State) -> bool:
        """Won when all eight sequences are cleared."""
        return bool(state.piles[STOCK - 1])

    def info(self, state: State) -> dict[str, object]:
        """Cleared sequences and deals left in the stock."""
        cleared = sum(1 for p in state.piles[COLUMNS:STOCK] if p)
        return {"cleared": cleared, "deals_left": len(state.piles[STOCK]) // COLUMNS}
