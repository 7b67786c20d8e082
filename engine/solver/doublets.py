"""Solver space for Doublets (doublets.txt): one step a card brought to the foundation.

The foundation takes the ranks in a fixed order (A 2 4 8 3 6 Q J 9 5 T 7, round again),
so between two plays only turns and redeals happen: a step is "turn (and perhaps redeal)
until the talon is split here, then play the card of the needed rank from the waste or
from the reserve". Every line of the real rules is a series of such steps, so searching
them all is complete (docs/solver.md §10).

A position is compact: the foundation's size and the rank it needs, the reserve's ranks
slot by slot, the talon's ranks in turning order (waste bottom to top, then stock top to
bottom: a redeal keeps that order), where the waste ends in it, and the redeals used.
Suits play no part, so ranks are all a position holds. A position is left out when the
same cards were met with an earlier split or fewer redeals used (turns, and a redeal,
reach everything it can reach). Two orderings take turns: best first on the turns made
less a few for each card home, and deepest first (the greedy line and its variants).
With no redeal left, a position whose waste cannot give up the needed cards in time has no
steps (:func:`last_pass_dead`).
"""

from __future__ import annotations

from collections.abc import Hashable

from ..rules.cards import RANK_MASK
from ..rules.doublets import (
    FOUNDATION,
    REDEALS,
    RESERVE,
    STOCK,
    TURN,
    WASTE,
    WON,
    DoubletsRules,
    doubled,
)
from ..rules.moves import Move
from ..rules.state import State
from .space import Macro, Space, Table

# (foundation size, rank needed, reserve ranks by slot (0: empty), talon ranks, waste size,
# redeals used, turns made from the root)
Node = tuple[int, int, bytes, bytes, int, int, int]
EMPTY = 0
_FROM_WASTE = Move("waste", "f0")
_BYTE = [bytes((i,)) for i in range(256)]
# from each rank, the ranks the foundation takes next, in order (enough for a whole game)
def _order(rank: int) -> tuple[int, ...]:
    ranks = [rank]
    while len(ranks) < WON:
        ranks.append(doubled(ranks[-1]))
    return tuple(ranks)


_ORDER = {rank: _order(rank) for rank in range(1, 13)}
# in the score, a redeal counts as this many turns
REDEAL_TURNS = 20
# in the score, a card brought to the foundation is worth this many turns
CARD_TURNS = 6
# the same, for the second ordering: deepest first, the fewest turns among equals
DEEP_CARD_TURNS = 1000


class DoubletsSpace(Space[Node]):
    """Doublets searched best first, one foundation card a step."""

    best_first = True
    queues = 2

    def __init__(self, rules: DoubletsRules) -> None:
        super().__init__(rules)
        self._plays = tuple(Move(rules.pile_ids[r], "f0") for r in range(RESERVE))
        # the fewest redeals with which each position (its key without them) was met: with
        # as many or more, it has no future the first one lacks
        self._least: dict[Hashable, tuple[int, int]] = {}

    def settle(self, state: State) -> tuple[Macro, Node]:
        """No automatic moves: the position in compact form."""
        piles = state.piles
        foundation = piles[FOUNDATION]
        reserve = bytes(p[0] & RANK_MASK if p else EMPTY for p in piles[:RESERVE])
        waste = bytes(c & RANK_MASK for c in piles[WASTE])
        stock = bytes(c & RANK_MASK for c in reversed(piles[STOCK]))
        need = doubled(foundation[-1] & RANK_MASK)
        return (), (len(foundation), need, reserve, waste + stock, len(waste), state.passes, 0)

    def key(self, node: Node) -> Hashable:
        """The reserve as a sorted set of ranks (every reserve card is playable and a slot
        refills the same whichever it is); the rest as it is."""
        size, _, reserve, talon, split, passes, _ = node
        return size, bytes(sorted(reserve)), talon, split, passes

    def score(self, node: Node, queue: int = 0) -> int:
        """The turns made so far (a redeal counts as :data:`REDEAL_TURNS`) less
        :data:`CARD_TURNS` a card on the foundation (the passes are what runs out); for the
        second ordering less :data:`DEEP_CARD_TURNS` a card: deepest first."""
        if queue == 1:
            return node[6] - DEEP_CARD_TURNS * node[0]
        return node[6] - CARD_TURNS * node[0]

    def is_won(self, node: Node) -> bool:
        return node[0] == WON

    def children(self, node: Node) -> list[tuple[Macro, Node]]:
        """Every way to bring the needed rank to the foundation next: for each split of the
        talon reachable by turning (and one redeal at most), the play from the waste and
        the play from the reserve, fewest turns first. A split reached again after a redeal
        is left out (the same position with a redeal more: no future the first lacks)."""
        size, need, reserve, talon, split, passes, spent = node
        length = len(talon)
        slot = reserve.find(need)
        then = doubled(need)
        least = self._least
        # (turns, split, redeals used, slot or -1 for the waste), fewest turns first
        plays: list[tuple[int, int, int, int]] = []
        ends = [(s - split, s, passes) for s in range(split, length + 1)]
        if passes < REDEALS and length:
            ends += [(length - split + REDEAL_TURNS + s, s, passes + 1) for s in range(split)]
        for turns, s, used in ends:
            if s and talon[s - 1] == need:  # the waste's top card (from the reserve: the same)
                plays.append((turns, s, used, -1))
            elif slot >= 0:  # a reserve card; its slot refills from the waste, else the stock
                plays.append((turns, s, used, slot))
        out: list[tuple[Macro, Node]] = []
        after = size + 1
        for turns, s, used, at in plays:
            moved = spent + turns
            if at < 0:
                child = (after, then, reserve, talon[:s - 1] + talon[s:], s - 1, used, moved)
            else:
                if s:
                    fill, rest, cut = talon[s - 1], talon[:s - 1] + talon[s:], s - 1
                elif length:
                    fill, rest, cut = talon[0], talon[1:], 0
                else:
                    fill, rest, cut = EMPTY, talon, 0
                child = (after, then, reserve[:at] + _BYTE[fill] + reserve[at + 1:], rest, cut,
                         used, moved)
            if not self._new(child, least):
                continue
            if used == passes:
                macro = (TURN,) * (s - split)
            else:
                macro = ((TURN,) * (length - split) + (Move("waste", "stock", length),)
                         + (TURN,) * s)
            out.append(((*macro, _FROM_WASTE if at < 0 else self._plays[at]), child))
        return out

    def steps(self, node: Node, pruned: bool) -> tuple[list[tuple[Macro, Node]], bool]:
        """:meth:`children`, none where the last pass cannot be won (:func:`last_pass_dead`)."""
        size, need, reserve, talon, split, passes, _ = node
        if passes == REDEALS and split and last_pass_dead(need, reserve, talon, split,
                                                          WON - size):
            return [], False
        return self.children(node), False

    @staticmethod
    def _new(child: Node, least: dict[Hashable, tuple[int, int]]) -> bool:
        """Note ``child`` unless the same cards were met before with a talon split as early
        or earlier (turns alone reach every later split) or with fewer redeals used (a
        redeal and turns reach every split): then it has no future that one lacks."""
        size, _, reserve, talon, split, passes, _ = child
        key = (size, bytes(sorted(reserve)), talon)
        seen = least.get(key)
        if seen is not None and seen <= (passes, split):
            return False
        least[key] = (passes, split)
        return True

    def release(self) -> list[Table]:
        least, self._least = self._least, {}
        return [least]


def last_pass_dead(need: int, reserve: bytes, talon: bytes, split: int, plays: int) -> bool:
    """True when, with no redeal left, the talon cannot give up in time the cards the
    ``plays`` plays still to make need (docs/solver.md §10.5).

    Every play takes exactly one card out of the talon (the card played from the waste, or
    the one refilling the reserve), and in the last pass the waste gives up its cards from
    the top only. By each play, the copies of each rank the foundation has needed beyond
    those in the reserve must have left the talon; where a rank has too few in the stock,
    its shallowest waste copies, and every waste card above them, must have left too.
    Those cards, and the copies still needed from outside that top of the waste, are more
    cards than plays made: dead.
    """
    have = [0] * 16
    for rank in reserve:
        have[rank] += 1
    in_stock = [-1] * 16  # per rank, its copies in the stock (counted when first needed)
    short = [0] * 16  # per rank, the copies that must have left the talon by this play
    within = [0] * 16  # per rank, its copies in the top of the waste that must have left
    shorts: list[int] = []  # the ranks with some
    top = 0  # the waste cards, from its top, that must have left by this play
    extra = 0  # the copies still needed from outside that top: the sum of short - within
    play = 0
    for rank in _ORDER[need][:plays]:
        play += 1
        if have[rank]:
            have[rank] -= 1
            continue
        card = _BYTE[rank]
        count = short[rank] = short[rank] + 1
        if count == 1:
            shorts.append(rank)
            within[rank] = talon.count(card, split - top, split)
            in_stock[rank] = talon.count(card, split)
        deep = count - in_stock[rank]  # copies from the waste, the shallowest ones
        if deep > 0 and deep > within[rank]:
            at = split
            for _ in range(deep):
                at = talon.rfind(card, 0, at)
                if at < 0:
                    return True
            top = split - at
            extra = 0
            for each in shorts:
                inside = within[each] = talon.count(_BYTE[each], at, split)
                if short[each] > inside:
                    extra += short[each] - inside
        elif count > within[rank]:
            extra += 1
        if top + extra > play:
            return True
    return False


def space(rules: DoubletsRules) -> DoubletsSpace:
    """The search space of Doublets."""
    return DoubletsSpace(rules)

