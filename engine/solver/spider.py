"""Solver hooks for Spider and relaxed Spider (docs/rules/spider.md, docs/rules/spider-relaxed.md;
the design and its proofs: docs/solver.md §8).

The search runs on a compact :data:`Node`: the ten columns as bytes (one card a byte,
the face-down bit kept), how many cards are left in the stock (the stock only ever
loses cards from its top, so its cards are the first ones of the root's stock) and how
many runs were cleared. The steps name the engine's own ``Move`` values
(``t<s>-t<d>:<k>`` and the deal), found and made by the same rules as
:class:`~engine.rules.spider.SpiderRules` (a test checks both agree on played positions).

Keys: the foundations are left out (the cards on them are whatever is missing from the
tableau and stock, and which foundation holds which run changes nothing), the stock is
known by its size, and once the stock is empty the columns are interchangeable, so they
are sorted. (While cards are left in the stock they are not: each deal puts a known
card on each column in order.)

Score (lower is better): face-down cards, face-up cards not on their same-suit
successor, the deals still to make, minus empty columns; plus one point for every
``quota`` positions already expanded at the same stock level (the same number of deals
made). That last term spreads the search over the deals: without it the best-first
search rushes through the deals and then grinds through tens of thousands of hopeless
positions after the last one, or, with deals weighted heavier, never deals at all.
With it, a level that was searched a lot looks worse, so the search goes back to
positions before earlier deals and tries other ways to reach the next one.

Move order (it breaks ties between equal scores: the child pushed last is searched
first): a move that clears a run, turns a card over or empties a column, then moves
that join cards of one suit, and last the moves that only break a run apart or shuffle
a run into an empty column; the deal before every tableau move. The one- and two-suit games
use the reverse order and no level cost (docs/solver.md §8 says why).

The search's expansion (:meth:`SpiderSpace.expand`) makes the same children as
:meth:`SpiderSpace.steps` in one go, from what each column offers worked out once.

A descending run of several suits may also move as one macro step
(:meth:`SpiderSpace.through`, ``Weights.through``): the moves that carry it piece by
piece, the upper pieces waiting on other columns. Four-suit Spider searches with them in
a second search of a portfolio (:data:`PORTFOLIOS`): the search without them expands its
first positions alone, then the two take turns, each with a table of its own, and with a
third search, the second's twin but for the level cost of its waiting positions, which it
brings up to date while the stock lasts (``Weights.recost``), and a fourth, the third's twin
but for the order among equal scores (the most promising move last).

The complete pass takes every legal move as well, so a "lost" answer is sound: the
macros, the score and the order only decide which positions come first. The pruned pass
(a guess, never used to prove a loss) leaves out moves that break a same-suit run, that
carry a card from one other-suit card to another, that move a whole column into an empty
one, and moves into an empty column other than the first one.
"""

from __future__ import annotations

from collections.abc import Hashable
from operator import itemgetter
from typing import Any, NamedTuple

from ..rules.cards import DOWN, KING, RANK_MASK, SUIT_MASK
from ..rules.moves import Move
from ..rules.spider import COLUMNS, DEAL, STOCK, SpiderRules
from ..rules.state import State
from .space import Fresh, Space, Table

# A position inside the search: the columns, cards left in the stock, runs cleared.
Node = tuple[tuple[bytes, ...], int, int]
# A cut of a run of several suits (_cuts): the cards moved, whether all the column's,
# the lowest card's rank and suit, whether it turns a card over or empties the column,
# its priority from the source, the sizes of the pieces moved (top first)
Cut = tuple[int, bool, int, int, bool, int, tuple[int, ...]]
_UP = ~DOWN & 0xFF
_BYTE = [bytes((i,)) for i in range(256)]
_LEVELS = 11  # stock levels: 0..10 deals left (a dealt game has at most 5)
_ENDS = tuple(tuple((9 - s) << 12 | (9 - d) for d in range(COLUMNS)) for s in range(COLUMNS))
_NO_TOP, _DOWN_TOP = 14, 15  # a column's top's rank index (_column) when empty, face down
_JOINS = itemgetter(10)  # of a column's info (SpiderSpace._column): cards put on it -> _join


class _MoveTable(dict):
    """(src, dst, count) -> Move, each made the first time a search wants it: making all
    9,360 at once was one long task (about 80 ms on a phone) before a first search."""

    def __missing__(self, key: tuple[int, int, int]) -> Move:
        s, d, k = key
        move = self[key] = Move(f"t{s}", f"t{d}", k)
        return move


_MOVES = _MoveTable()


class _StepTable(dict):
    """(src, dst, count) -> the one-move step ``(Move,)``, made once (see :class:`_MoveTable`)."""

    def __missing__(self, key: tuple[int, int, int]) -> tuple[Move, ...]:
        step = self[key] = (_MOVES[key],)
        return step


_STEPS = _StepTable()

# How a column's movable group may leave: the kind of card it leaves on top (ColumnInfo)
_ON_DOWN, _ON_LOOSE, _ON_SAME, _ON_OTHER, _WHOLE = range(5)


class Weights(NamedTuple):
    """The score's weights: per face-down card, per face-up card on a card that is not
    its successor, per face-up card on a successor of another suit, per empty column
    (taken off), per stock card, the positions per level that cost one point (0: no such
    cost), whether the most promising move of a position is searched first among
    equal scores (else last, as the one-suit games have always done), whether runs of
    several suits move as one step (:meth:`SpiderSpace.through`), and how many times
    the score also charges what the next deal's cards would cost where they land on the
    columns as they are (0: not at all; the solver knows those cards), the points
    each run cleared takes off (a move that clears one then comes first), the
    positions per point of level cost once the stock is out (0: ``quota`` there too),
    and whether a waiting position's level cost, while cards are left in the stock, is
    brought up to date when it comes first in the frontier (:meth:`SpiderSpace._rescore`;
    else it keeps the level cost of when it was met)."""

    down: int
    loose: int
    other_suit: int
    empty: int
    stock: int
    quota: int
    promising_first: bool = True
    through: bool = False
    ahead: int = 0
    run: int = 0
    last_quota: int = 0
    recost: bool = False


# by (suits, relaxed)
WEIGHTS = {
    (1, False): Weights(6, 3, 3, 6, 3, 0, promising_first=False),
    (1, True): Weights(6, 3, 3, 6, 3, 0, promising_first=False),
    (2, False): Weights(6, 3, 3, 6, 2, 0, promising_first=False),
    (2, True): Weights(6, 3, 3, 6, 2, 0, promising_first=False),
    (4, False): Weights(6, 3, 3, 6, 0, 150),  # through: see docs/solver.md §8.9
    (4, True): Weights(6, 3, 3, 6, 0, 50),
}
# The weights a game's dailies were defined with, where WEIGHTS has changed since (none
# now): a date no table covers is searched on the device, and its daily must not move with
# the solver's tuning (engine/solver/daily.py).
DAILY_WEIGHTS = {
    (4, False): Weights(6, 3, 3, 6, 0, 150),
}
# A portfolio (docs/solver.md §8.10): the positions the search of WEIGHTS expands alone
# (as many as the page's watch of a position may: what it settles stays as it was), then
# the shares of positions (its own, then each later search's) of the rounds in which a
# second search, best-first with the first weights here (the macro steps, a level cost
# every 30 positions, 40 points off per run cleared, a card on an other-suit successor
# charged 4: docs/solver.md §8.11, §8.12; a level cost only every 120 positions once the
# stock is out: §8.14) and a table of its own, and a third search, the same but with the
# level cost of a waiting position brought up to date while the stock lasts (§8.16),
# take turns with it, and a fourth, as the third but searching the most promising moves
# last among equal scores (§8.19); past its first positions the first search has a share
# of 1 to the others' 3 each
_SECOND = Weights(6, 3, 4, 6, 0, 30, through=True, run=40, last_quota=120)
PORTFOLIOS: dict[tuple[int, bool], tuple[int, tuple[int, ...], tuple[Weights, ...]]] = {
    (4, False): (20_000, (1, 3, 3, 3), (
        _SECOND, _SECOND._replace(recost=True),
        _SECOND._replace(recost=True, promising_first=False))),
}


class SpiderSpace(Space[Node]):
    """Spider's search space over :data:`Node` positions, with Spider's keys and order."""

    rules: SpiderRules
    best_first = True
    can_prune = True

    def __init__(self, rules: SpiderRules, weights: Weights | None = None,
                 portfolio: tuple[int, tuple[int, ...], tuple[Weights, ...]] | None = None
                 ) -> None:
        super().__init__(rules)
        w = weights or WEIGHTS[rules.suits, rules.relaxed]
        self._weights = w
        self._later: tuple[Weights, ...] = ()  # the weights of a portfolio's later searches
        if portfolio is not None:
            self.second_after, self.second_share, self._later = portfolio
        # A parent link is the parent's key alone (the won line's moves are found again
        # from the children): a table of keys only (tuples of bytes and numbers, which the
        # cycle collector stops tracking), where links holding moves cost it a sixth of
        # the search's time.
        self.links_macros = False
        self._column_scores: dict[bytes, int] = {}
        self._same: dict[bytes, bytes] = {}  # a column made by a move -> its first copy
        self._pieces: dict[bytes, tuple[Cut, ...]] = {}  # column -> _cuts(column)
        self._info = _Columns(self._column)
        self._lent: set[str] = set()  # the tables above that another space owns (_borrow)
        self._twin: SpiderSpace | None = None  # the portfolio's second search's space
        self._dealt: dict[int, bytes] = {}  # stock size -> the cards its deal puts on t0..t9
        self._dealt_bytes: dict[int, tuple[bytes, ...]] = {}  # the same, a bytes each
        self._aces: dict[int, tuple[int, ...]] = {}  # the same: the columns it gives an Ace
        self._level_nodes = [0] * _LEVELS  # positions expanded at each stock level
        # positions per point of level cost at each stock level (the last: stock out)
        self._quotas = (w.last_quota or w.quota,) + (w.quota,) * (_LEVELS - 1)
        self._stock: bytes = b""
        if w.recost and w.quota:
            self.rescore = self._rescore
        self._runs = {bytes(suit | rank for rank in range(KING, 0, -1))
                      for suit in range(0, 64, 16)}

    def release(self) -> list[Table]:
        scores, self._column_scores = self._column_scores, {}
        pieces, self._pieces = self._pieces, {}
        same, self._same = self._same, {}
        info, self._info = self._info, _Columns(self._column)
        lent, self._lent = self._lent, set()  # (their owner gives those back)
        return [table for name, table in (("scores", scores), ("pieces", pieces),
                                          ("info", info), ("same", same)) if name not in lent]

    def _borrow(self, owner: SpiderSpace) -> None:
        """Share ``owner``'s tables of columns rather than make them again: its first copy
        of each column, and, where the two score a column alike (the same weights but for
        the level cost and the run bonus, which :meth:`_column` does not use), what each
        column offers. A portfolio's searches meet many of the same columns; one copy of
        each is less memory to go through. The searches stay as they were: the tables
        only remember what follows from a column alone."""
        self._same = owner._same
        self._lent = {"same"}
        mine, theirs = self._weights, owner._weights
        if (mine.down, mine.loose, mine.other_suit, mine.empty, mine.through) == (
                theirs.down, theirs.loose, theirs.other_suit, theirs.empty, theirs.through):
            self._column_scores, self._pieces = owner._column_scores, owner._pieces
            self._info = owner._info
            self._lent |= {"scores", "pieces", "info"}

    def second(self) -> SpiderSpace | None:
        """The portfolio's second search: best-first with weights of its own."""
        if not self._later:
            return None
        twin = self._twin = SpiderSpace(self.rules, self._later[0])
        twin._borrow(self)
        return twin

    def further(self) -> list[SpiderSpace]:
        """The portfolio's third search and those after it, where it has them."""
        spaces = [SpiderSpace(self.rules, weights) for weights in self._later[1:]]
        for space in spaces:
            space._borrow(self._twin or self)
        return spaces

    def settle(self, state: State) -> tuple[tuple[Move, ...], Node]:
        """The search's root: ``state`` as a :data:`Node` (the stock's cards kept aside)."""
        piles = state.piles
        self._stock = deck = bytes(piles[STOCK])
        self._dealt = {size: bytes(deck[size - 1 - i] & _UP for i in range(COLUMNS))
                       for size in range(COLUMNS, len(deck) + 1)}
        self._dealt_bytes = {size: tuple(_BYTE[card] for card in cards)
                             for size, cards in self._dealt.items()}
        self._aces = {size: tuple(i for i in range(COLUMNS) if (cards[i] & RANK_MASK) == 1)
                      for size, cards in self._dealt.items()}
        cleared = sum(1 for pile in piles[COLUMNS:STOCK] if pile)
        return (), (tuple(bytes(p) for p in piles[:COLUMNS]), len(piles[STOCK]), cleared)

    def is_won(self, node: Node) -> bool:
        """All eight runs cleared."""
        return node[2] >= 8

    def score(self, node: Node, queue: int = 0) -> int:
        """Face-down cards, loose face-up cards, stock cards, minus empty columns; plus the
        positions already expanded at this stock level, one point per quota."""
        memo = self._column_scores
        w = self._weights
        total = 0
        for col in node[0]:
            value = memo.get(col)
            if value is None:
                value = memo[col] = _column_score(col, w)
            total += value
        stock = node[1]
        score = total + stock * w.stock
        if w.quota:
            level = stock // COLUMNS
            score += self._level_nodes[level] // self._quotas[level]
        if w.run:
            score -= w.run * node[2]
        if w.ahead:
            score += self._ahead(node, w.ahead)
        return score

    def _rescore(self, node: Node, score: int) -> int:
        """The score of a waiting position now (:attr:`Space.rescore`, ``Weights.recost``):
        its level's cost grew with every position expanded at its level since it was met,
        so a level searched a lot looks worse as a whole, the positions waiting there too,
        not only those it meets from now on (docs/solver.md §8.16)."""
        level = node[1] // COLUMNS
        if not level:
            return score  # (the stock out: its level cost is as when it was met)
        try:
            total = sum(map(self._column_scores.__getitem__, node[0]))
        except KeyError:
            return self.score(node)
        w = self._weights
        return (total + node[1] * w.stock + self._level_nodes[level] // self._quotas[level]
                - w.run * node[2] + (self._ahead(node, w.ahead) if w.ahead else 0))

    def _ahead(self, node: Node, weight: int) -> int:
        """The look-ahead part of the score: the next deal's cards charged where they land."""
        stock = node[1]
        if stock < COLUMNS:
            return 0
        dealt = self._dealt[stock]
        return weight * sum(self._land(node[0][i], dealt[i]) for i in range(COLUMNS))

    def _land(self, col: bytes, card: int) -> int:
        """What the score would charge for ``card`` dealt onto ``col``."""
        if not col:
            return self._weights.loose
        below = col[-1]
        if below & DOWN or (below & RANK_MASK) != (card & RANK_MASK) + 1:
            return self._weights.loose
        return self._weights.other_suit if (below & SUIT_MASK) != (card & SUIT_MASK) else 0

    def key(self, node: Node) -> Hashable:
        """The node itself while cards are left in the stock (the runs cleared follow
        from the cards left), else the columns sorted. (A tuple of the columns, kept once
        each by :meth:`expand`, costs less memory than a text of their cards.)"""
        return node if node[1] else tuple(sorted(node[0]))

    def children(self, node: Node) -> list[tuple[tuple[Move, ...], Node]]:
        return self.steps(node, False)[0]

    def steps(self, node: Node, pruned: bool) -> tuple[list[tuple[tuple[Move, ...], Node]], bool]:
        """Every legal move (in the pruned pass, fewer); the most promising come last, as
        the search takes the last-pushed of equal scores first."""
        cols, stock, cleared = node
        self._level_nodes[stock // COLUMNS] += 1
        same_suit = not self.rules.relaxed
        skipped = False
        # the columns each rank may go onto (a face-down top takes nothing), and empty ones
        onto: list[list[int]] = [[] for _ in range(KING + 2)]
        empty: list[int] = []
        for d in range(COLUMNS):
            col = cols[d]
            if not col:
                empty.append(d)
            elif not col[-1] & DOWN:
                onto[(col[-1] & RANK_MASK) - 1].append(d)
        first_empty = -1
        # (priority, -src, -count, -dst), and for a macro its index in ``macros``
        scored: list[tuple[int, ...]] = []
        for s in range(COLUMNS):
            src = cols[s]
            n = len(src)
            if not n or src[-1] & DOWN:
                continue
            for k in range(1, n + 1):
                moved = src[-k]
                rank = moved & RANK_MASK
                whole = k == n
                under = 0 if whole else src[-k - 1]
                for d in onto[rank] + empty if empty else onto[rank]:
                    top = cols[d]
                    score = 0
                    if whole:
                        if not top:
                            if pruned:
                                skipped = True
                                continue  # a whole column into an empty one only renames it
                            score -= 200
                        else:
                            score += 40
                    elif under & DOWN:
                        score += 50
                    elif (under & RANK_MASK) == rank + 1:
                        if (under & SUIT_MASK) == (moved & SUIT_MASK):
                            if pruned:
                                skipped = True
                                continue  # breaks a same-suit run
                            score -= 60
                        else:
                            if pruned and top and (top[-1] & SUIT_MASK) != (moved & SUIT_MASK):
                                skipped = True
                                continue  # from one other-suit card to another
                            if not same_suit:
                                score -= 20  # breaks a movable (relaxed) run
                    if top:
                        if (top[-1] & SUIT_MASK) == (moved & SUIT_MASK):
                            score += 30 + k
                        else:
                            score += 5
                    else:
                        if pruned:
                            if first_empty < 0:
                                first_empty = d
                            elif d != first_empty:
                                skipped = True
                                continue  # one empty column stands for all
                        score -= 30
                    scored.append((score, -s, -k, -d))
                if whole or under & DOWN or (under & RANK_MASK) != rank + 1 or (
                        same_suit and (under & SUIT_MASK) != (moved & SUIT_MASK)):
                    break  # the movable group ends here
        macros: list[tuple[Move, ...]] = []
        if same_suit and self._weights.through:
            skipped = self.through(cols, onto, empty, pruned, scored, macros) or skipped
        scored.sort(reverse=not self._weights.promising_first)
        out: list[tuple[tuple[Move, ...], Node]] = []
        runs = self._runs
        if stock >= COLUMNS and not empty:
            new = list(cols)
            deck = self._stock
            gone = cleared
            for i in range(COLUMNS):
                col = new[i] = cols[i] + _BYTE[deck[stock - 1 - i] & _UP]
                if col[-KING:] in runs:
                    new[i] = _flip(col[:-KING])
                    gone += 1
            out.append(((DEAL,), (tuple(new), stock - COLUMNS, gone)))
        for entry in scored:
            s, k, d = -entry[1], -entry[2], -entry[3]
            macro = macros[entry[4]] if len(entry) > 4 else (_MOVES[s, d, k],)
            new = list(cols)
            src = cols[s]
            new[s] = _flip(src[:-k])
            col = new[d] = cols[d] + src[-k:]
            gone = cleared
            if col[-KING:] in runs:
                new[d] = _flip(col[:-KING])
                gone += 1
            out.append((macro, (tuple(new), stock, gone)))
        return out, skipped

    def expand(self, node: Node, key: Hashable, parent: dict[Hashable, Any], fresh: Fresh,
               queue: int, pruned: bool) -> tuple[Hashable | None, bool]:
        """:meth:`Space.expand` in one go, the same children in the same order with the same
        scores as :meth:`steps` gives them (a test checks this), but faster: what each
        column offers (its movable cards, what they leave behind, its score) is worked out
        once per column met (:meth:`_column`), the moves are sorted as numbers, a column
        a move or a deal makes is looked up by the column and the cards put on it (its
        info's joins, :meth:`_join`), and a child's score is its parent's with the changed
        columns swapped. The macros of :meth:`through` go the slow way."""
        w = self._weights
        # (the weights as locals: a named tuple's field is a slow attribute)
        _, _, _, _, per_stock, quota, promising_first, through, look, run, _, _ = w
        cols, stock, cleared = node
        levels = self._level_nodes
        quotas = self._quotas
        level = stock // COLUMNS
        levels[level] += 1
        links = self.links_macros
        infos = list(map(self._info.__getitem__, cols))
        total = 0
        reach = 0  # bit r set: some column takes a card of rank index r (onto[r])
        breaks = 0  # bit r set: a card of rank index r may break a same-suit run
        # (slots 14 and 15 gather the empty and face-down columns, which take no card)
        onto: list[list[int]] = [[], [], [], [], [], [], [], [], [], [], [], [], [], [], [], []]
        multi: list[tuple[int, tuple[Cut, ...]]] = []  # the columns with cuts (_cuts)
        d = 0
        if through:  # (the same loop, gathering the columns with cuts for the macros)
            for packed, top, _, _, cuts, bit, _, _, same, _, _ in infos:
                total += packed
                onto[top].append(d)
                reach |= bit
                breaks |= same
                if cuts:
                    multi.append((d, cuts))
                d += 1
        else:
            for packed, top, _, _, _, bit, _, _, same, _, _ in infos:
                total += packed
                onto[top].append(d)
                reach |= bit
                breaks |= same
                d += 1
        empty = onto[_NO_TOP]  # the empty columns
        # moves as numbers, (priority + 512) << 16 | (9 - src) << 12 | (255 - count) << 4 |
        # (9 - dst): sorted as steps sorts (priority, -src, -count, -dst)
        codes: list[int] = []
        add = codes.append
        # (the pruned pass leaves out the moves that break a same-suit run)
        skipped = pruned and breaks != 0 and (empty != [] or breaks & reach != 0)
        which, ranked = (9, 7) if pruned else (3, 6)  # (the moves of the pass, their ranks)
        for s in range(COLUMNS):
            info = infos[s]
            if not (info[ranked] & reach or empty and info[which]):
                continue  # no card of this column has a place to go
            entries = info[which]
            ends = _ENDS[s]  # (9 - s) << 12 | (9 - d) for each d
            for _, rank, suit, _, kind, _, _, _, _, joined, other, into_empty in entries:
                for d in onto[rank]:
                    if infos[d][2] == suit:
                        add(joined | ends[d])
                    elif pruned and kind == _ON_OTHER:
                        skipped = True  # from one other-suit card to another
                    else:
                        add(other | ends[d])
                if empty:
                    if kind == _WHOLE:
                        if pruned:
                            skipped = True  # a whole column into an empty one only renames it
                            continue
                        for d in empty:
                            add(into_empty | ends[d])  # (priority -200 - 30)
                    elif pruned:
                        add(into_empty | ends[empty[0]])
                        if len(empty) > 1:
                            skipped = True  # one empty column stands for all
                    else:
                        for d in empty:
                            add(into_empty | ends[d])
        big: dict[int, tuple[Move, ...]] = {}  # code -> macro of several moves (through)
        if through and not self.rules.relaxed:
            scored: list[tuple[int, ...]] = []
            macros: list[tuple[Move, ...]] = []
            if multi:
                skipped = self.through(cols, onto, empty, pruned, scored, macros,
                                       multi) or skipped
            for priority, s, k, d, index in scored:
                code = (priority + 512) << 16 | (9 + s) << 12 | (255 + k) << 4 | (9 + d)
                add(code)
                big[code] = macros[index]
        if len(codes) > 1:
            codes.sort(reverse=not promising_first)
        if stock >= COLUMNS and not empty:
            # each column with its dealt card, by the columns' infos' joins (one per card)
            cards = self._dealt_bytes[stock]
            joins = list(map(dict.get, map(_JOINS, infos), cards))
            if not all(joins):
                for i in range(COLUMNS):
                    if joins[i] is None:
                        joins[i] = infos[i][10][cards[i]] = self._join(cols[i], cards[i])
            dealt_cols, parts, runs = zip(*joins, strict=True)
            gone = cleared + sum(runs) if self._aces[stock] else cleared
            rest = stock - COLUMNS
            child = (dealt_cols, rest, gone)
            ckey = child if rest else tuple(sorted(dealt_cols))
            size = len(parent)  # (new when the table grows: one lookup)
            if links:
                if ckey not in parent:
                    parent[ckey] = (key, (DEAL,))
            else:
                parent.setdefault(ckey, key)
            if len(parent) != size:
                t = sum(parts)
                if gone >= 8:
                    return ckey, skipped
                base = t + rest * per_stock - run * gone + (
                    self._ahead(child, look) if look else 0)
                fresh.append((base + (levels[rest // COLUMNS] // quotas[rest // COLUMNS]
                                      if quota else 0),
                              ckey, child))
        packs = self._column_scores
        same_col = self._same.setdefault
        weights = w
        plain = stock * per_stock + (levels[level] // quotas[level] if quota else 0) - (
            run * cleared)
        ahead = look if stock >= COLUMNS else 0
        if ahead:
            dealt = self._dealt[stock]
            land = self._land
            plain += ahead * sum(land(cols[i], dealt[i]) for i in range(COLUMNS))
        size = len(parent)  # (a child is new when it makes the table grow: one lookup)
        known = parent.setdefault
        for code in codes:
            d = 9 - (code & 15)
            k = 255 - (code >> 4 & 255)
            s = 9 - (code >> 12 & 15)
            if big and code in big:
                src = cols[s]
                left = _flip(src[:-k])
                left = same_col(left, left)
                moved = packs.get(left)
                if moved is None:
                    moved = packs[left] = _column_score(left, weights)
                entry = (0, 0, 0, 0, 0, left, src[-k:], 0, moved)
            else:
                entry = infos[s][3][k - 1]
            new = list(cols)
            new[s] = entry[5]
            joins = infos[d][10]
            join = joins.get(entry[6])
            if join is None:
                join = joins[entry[6]] = self._join(cols[d], entry[6])
            col = new[d] = join[0]
            gone = cleared + join[2]
            child = (tuple(new), stock, gone)
            ckey = child if stock else tuple(sorted(new))
            if links:
                if ckey in parent:
                    continue
                parent[ckey] = (key, big.get(code) or _STEPS[s, d, k])
            else:
                known(ckey, key)
                if len(parent) == size:
                    continue
            size += 1
            if gone >= 8:
                return ckey, skipped
            t = total - infos[s][0] - infos[d][0] + entry[8] + join[1]
            score = t + plain
            if gone != cleared:
                score -= run
            if ahead:
                score += ahead * (land(entry[5], dealt[s]) + land(col, dealt[d])
                                  - land(cols[s], dealt[s]) - land(cols[d], dealt[d]))
            fresh.append((score, ckey, child))
        return None, skipped

    def _column(self, col: bytes) -> tuple[Any, ...]:
        """What :meth:`expand` needs of a column: its part of the score (:func:`_column_score`), the
        rank index of :meth:`steps`' ``onto`` its top card takes (_NO_TOP: empty,
        _DOWN_TOP: face down), its top card's suit, for each count of its movable cards (1
        up) ``(count, rank index, suit, priority from the source, what the move leaves on
        top (_ON_*), the column after, the cards moved, whether the top card is an Ace, the
        score part of the column after, and the move's number (expand) but for its
        columns onto a card of its suit, onto another card and into an empty column)``,
        its cuts (:func:`_cuts`, for the macros), the bit of its rank index in ``onto`` (0
        if it takes no card), the bits of the rank indexes its moves need (all of them, and
        those of the pruned pass), the bits of those that break a same-suit run, the moves
        of the pruned pass (every one but those), and its joins: the cards a move or a deal
        put on it -> :meth:`_join` (filled as met)."""
        w = self._weights
        packs = self._column_scores
        packed = packs.get(col)
        if packed is None:
            packed = packs[col] = _column_score(col, w)
        if not col:
            return packed, _NO_TOP, -1, (), (), 0, 0, 0, 0, (), {}
        top = col[-1]
        if top & DOWN:
            return packed, _DOWN_TOP, -1, (), (), 0, 0, 0, 0, (), {}
        same_suit = not self.rules.relaxed
        n = len(col)
        ace = (top & RANK_MASK) == 1
        keep = self._same.setdefault
        entries = []
        rest = packed  # the score part of col[:-k], its cards' parts taken off one by one
        for k in range(1, n + 1):
            moved = col[-k]
            rank = moved & RANK_MASK
            suit = moved & SUIT_MASK
            rest -= _part(col[-k - 1] if k < n else 0, moved, w)
            after = _flip(col[:-k])
            after = keep(after, after)  # (one copy of each column: SpiderSpace.expand)
            # (the cards moved, one copy of each too: the joins' keys, _join, compare fast)
            cards = _BYTE[moved] if k == 1 else keep(col[-k:], col[-k:])
            left = packs.get(after)
            if left is None:
                # (a card turned over is loose: the card below it, if any, is face down)
                left = packs[after] = (-w.empty if k == n else
                                       rest - w.down + w.loose if col[-k - 1] & DOWN
                                       else rest)
            if k == n:
                entries.append((k, rank, suit, 40, _WHOLE, after, cards, ace, left))
                break
            under = col[-k - 1]
            if under & DOWN:
                entries.append((k, rank, suit, 50, _ON_DOWN, after, cards, ace, left))
                break
            if (under & RANK_MASK) != rank + 1:
                entries.append((k, rank, suit, 0, _ON_LOOSE, after, cards, ace, left))
                break
            if (under & SUIT_MASK) == suit:
                entries.append((k, rank, suit, -60, _ON_SAME, after, cards, ace, left))
                continue
            entries.append((k, rank, suit, 0 if same_suit else -20, _ON_OTHER, after, cards,
                            ace, left))
            if same_suit:
                break
        # each move's number but for its source and destination (see expand): onto a card of
        # its suit, onto another card, into an empty column
        entries = [(*entry, (entry[3] + 542 + entry[0]) << 16 | (255 - entry[0]) << 4,
                    (entry[3] + 517) << 16 | (255 - entry[0]) << 4,
                    (282 if entry[4] == _WHOLE else entry[3] + 482) << 16
                    | (255 - entry[0]) << 4) for entry in entries]
        pieces = _cuts(col) if same_suit and w.through else ()
        kept = tuple(entry for entry in entries if entry[4] != _ON_SAME)
        ranks = kept_ranks = same = 0
        for entry in entries:
            ranks |= 1 << entry[1]
            if entry[4] == _ON_SAME:
                same |= 1 << entry[1]
            else:
                kept_ranks |= 1 << entry[1]
        rank_index = (top & RANK_MASK) - 1
        return (packed, rank_index, top & SUIT_MASK, tuple(entries), pieces, 1 << rank_index,
                ranks, kept_ranks, same, kept, {})

    def _join(self, col: bytes, moved: bytes) -> tuple[bytes, int, int]:
        """``moved`` put on ``col`` (a run it completes cleared): the column after (its
        first copy), its part of the score (:func:`_column_score`), and 1 if a run was
        cleared, else 0. :meth:`expand` keeps it by destination column (its info's last
        part) and cards."""
        joined = col + moved
        gone = 0
        if (moved[-1] & RANK_MASK) == 1 and joined[-KING:] in self._runs:
            joined = _flip(joined[:-KING])
            gone = 1
        joined = self._same.setdefault(joined, joined)
        packs = self._column_scores
        packed = packs.get(joined)
        if packed is None:
            w = self._weights
            if gone or not col:
                packed = _column_score(joined, w)
            else:  # col's score and the parts of the cards put on it
                packed = packs.get(col)
                if packed is None:
                    packed = packs[col] = _column_score(col, w)
                below = col[-1]
                for card in moved:
                    packed += _part(below, card, w)
                    below = card
            packs[joined] = packed
        return joined, packed, gone

    def through(self, cols: tuple[bytes, ...], onto: list[list[int]], empty: list[int],
                pruned: bool, scored: list[tuple[int, ...]], macros: list[tuple[Move, ...]],
                sources: list[tuple[int, tuple[Cut, ...]]] | None = None) -> bool:
        """Macro steps that move a descending run of several suits, which the rules move
        one same-suit piece at a time: the upper pieces wait on other columns (each on a
        card one rank above its lowest card, or in an empty column), the lowest piece
        moves, and the waiting pieces follow it in turn. The columns that lent a place end
        as they were, so the step's position does not depend on which lent it: one macro
        per source, cut and destination. Only macros that turn a card over, empty a column
        or put the run on a card of its own suit are made. Appends their entries to
        ``scored`` (as :meth:`steps` lists moves, with an index into ``macros``); returns
        whether the pruned pass left one out. ``sources``: the columns whose top run is of
        several suits, with its cuts (:func:`_cuts`), where the caller knows them."""
        skipped = False
        if sources is None:
            memo = self._pieces
            sources = []
            for s in range(COLUMNS):
                src = cols[s]
                if src and not src[-1] & DOWN:
                    cuts = memo.get(src)
                    if cuts is None:
                        cuts = memo[src] = _cuts(src)
                    if cuts:
                        sources.append((s, cuts))
        for s, cuts in sources:
            src = cols[s]
            if not empty and not onto[src[-cuts[0][6][0]] & RANK_MASK]:
                continue  # the top piece, which waits in every cut, has no place (_parked)
            for k, whole, rank, suit, opens, base, pieces in cuts:
                for d in onto[rank] + empty if empty else onto[rank]:
                    top = cols[d]
                    if top:
                        if (top[-1] & SUIT_MASK) == suit:
                            priority = base + 30 + k
                        elif not opens:
                            continue  # turns no card, empties no column, joins no suit
                        else:
                            priority = base + 5
                    elif not opens:
                        continue  # turns no card, empties no column
                    elif whole:
                        continue  # a whole column into an empty one only renames it
                    elif pruned and d != empty[0]:
                        skipped = True
                        continue  # one empty column stands for all
                    else:
                        priority = base - 30
                    macro = self._parked(cols, src, s, d, pieces, onto, empty)
                    if macro is not None:
                        scored.append((priority, -s, -k, -d, len(macros)))
                        macros.append(macro)
        return skipped

    def _parked(self, cols: tuple[bytes, ...], src: bytes, s: int, d: int,
                pieces: tuple[int, ...], onto: list[list[int]], empty: list[int]
                ) -> tuple[Move, ...] | None:
        """The moves that carry ``pieces`` (sizes, top first) from column ``s`` to ``d``,
        the upper ones waiting on other columns, or None when they find no places."""
        used = {s, d}
        places: list[int] = []
        depth = 0
        for size in pieces[:-1]:
            depth += size
            low = src[-depth]
            place = -1
            for c in onto[low & RANK_MASK]:
                # (a waiting piece must not complete a run: it would be cleared)
                if c not in used and (cols[c] + src[-depth:][:size])[-KING:] not in self._runs:
                    place = c
                    break
            if place < 0:
                place = next((c for c in empty if c not in used), -1)
                if place < 0:
                    return None
            used.add(place)
            places.append(place)
        moves = [_MOVES[s, place, size] for place, size in zip(places, pieces, strict=False)]
        moves.append(_MOVES[s, d, pieces[-1]])
        moves += [_MOVES[place, d, size] for place, size in
                  zip(reversed(places), reversed(pieces[:-1]), strict=True)]
        return tuple(moves)


class _Columns(dict):
    """column -> what :meth:`SpiderSpace.expand` needs of it, worked out on first use."""

    def __init__(self, make: Any) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, col: bytes) -> tuple[Any, ...]:
        found = self[col] = self._make(col)
        return found


def _pieces(col: bytes) -> tuple[int, ...]:
    """The sizes of the same-suit pieces of ``col``'s top descending run, top first; empty
    when that run is of one suit (the rules move it whole already)."""
    pieces: list[int] = []
    size = 1
    i = len(col) - 1
    while i > 0:
        below, card = col[i - 1], col[i]
        if below & DOWN or (below & RANK_MASK) != (card & RANK_MASK) + 1:
            break
        if (below & SUIT_MASK) != (card & SUIT_MASK):
            pieces.append(size)
            size = 0
        size += 1
        i -= 1
    pieces.append(size)
    return tuple(pieces) if len(pieces) > 1 else ()


def _cuts(col: bytes) -> tuple[Cut, ...]:
    """Where :meth:`SpiderSpace.through` may cut ``col``'s top run of several suits (none
    when it is of one suit), worked out once per column: for each cut below the first
    piece, the cards moved, whether that is the whole column, the lowest card's rank
    (its index in ``onto``) and suit, whether the cut turns a card over or empties the
    column, the priority that gives, and the pieces' sizes (top first)."""
    pieces = _pieces(col)
    cuts: list[Cut] = []
    n = len(col)
    k = pieces[0] if pieces else 0
    for t in range(1, len(pieces)):
        k += pieces[t]
        whole = k == n
        bottom = col[-k]
        down = not whole and col[-k - 1] & DOWN != 0
        cuts.append((k, whole, bottom & RANK_MASK, bottom & SUIT_MASK, down or whole,
                     (45 if down else 0) + (40 if whole else 0), pieces[:t + 1]))
    return tuple(cuts)


def _flip(col: bytes) -> bytes:
    """``col`` with its top card face up."""
    if col and col[-1] & DOWN:
        return col[:-1] + _BYTE[col[-1] & _UP]
    return col


def _part(below: int, card: int, w: Weights) -> int:
    """What ``card`` on ``below`` (0: none) adds to :func:`_column_score`'s sum."""
    if card & DOWN:
        return w.down
    if not below or below & DOWN or (below & RANK_MASK) != (card & RANK_MASK) + 1:
        return w.loose
    return w.other_suit if (below & SUIT_MASK) != (card & SUIT_MASK) else 0


def _column_score(col: bytes, w: Weights) -> int:
    """A column's part of the score: its face-down cards, its face-up cards not on their
    same-suit successor, less an empty column's worth (the sum of :func:`_part` over its
    cards)."""
    if not col:
        return -w.empty
    total = 0
    below = 0
    for card in col:
        if card & DOWN:
            total += w.down
        elif not below or below & DOWN or (below & RANK_MASK) != (card & RANK_MASK) + 1:
            total += w.loose
        elif (below & SUIT_MASK) != (card & SUIT_MASK):
            total += w.other_suit
        below = card
    return total


def space(rules: SpiderRules) -> SpiderSpace:
    """The search space of a Spider variant (with its portfolio, where it has one)."""
    return SpiderSpace(rules, portfolio=PORTFOLIOS.get((rules.suits, rules.relaxed)))


def daily_space(rules: SpiderRules) -> SpiderSpace | None:
    """The space of a Spider variant's daily search, when it is not the solver's own."""
    weights = DAILY_WEIGHTS.get((rules.suits, rules.relaxed))
    return None if weights is None else SpiderSpace(rules, weights)
