"""Klondike's relaxed game: a sound proof of loss at the root (docs/solver.md §7.16).

The relaxed game is Klondike with most suits forgotten: only the next ``k`` cards of each
suit above its foundation (in the position the relaxed search starts from) are *known*,
by rank and suit; every other card is known by its rank and colour alone. A known card goes
onto its own suit's foundation; a card known by colour onto any foundation of its colour
whose card of that rank is not a known one (the real card is one of those suits'). Building
in the columns and the talon are as in the real game, as they ask for rank and colour only,
and a card brought back from a foundation is its top card as the relaxed game knows it.
Every real move is a relaxed move from the relaxed form of a position to the relaxed form of
the next, and a real win is a relaxed win: so when the relaxed game, searched to the end,
has no win, the real position has none either.

Positions that differ only in which of two cards of one rank and colour (both known by
colour) lies where are one relaxed position, and a relaxed position keeps the talon as a
set (any talon card can be played at any time, §7.1): so the relaxed game is much smaller
than the real one (on the real search's positions of deals 107 and 438, lost after 28,467
and 25,780 positions: 4,500 and 756 relaxed positions with ``k`` = 0).

The relaxed game is searched with the real space's tests of use, whose proofs ask only for
the building rule and count cards by rank and colour (§7.5): a talon card placed or a
foundation card brought back must start a chain of use, part of a run moved must uncover a
card that can be used, a column emptied must wait for a King. Safe cards go home at once
where the foundation they go to is the only one they can ever go to (a known card, or a
card whose twin of the same rank and colour is home or known; §7.3, §7.4). Tests check the
relaxed search against a plain search of the relaxed rules, and both against the real rules.

A relaxed position from which some foundation can provably never be completed is not
expanded (:meth:`Relaxed.dead`, the real game's dead test by rank and colour, docs/solver.md
§7.18): it has no relaxed win, so the search stays complete. A position whose step brought
a foundation card back onto a column card is not tested (§7.36): it is never dead when the
one before it was not, and sparing a test never loses a win.

The search is depth first with a table of the relaxed positions met, in two orders taking
turns (foundation moves first, and shuffled), and it can be stopped and resumed
(:meth:`Relaxed.run`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import add

from ..rules.cards import DOWN, KING, RANK_MASK
from ..rules.klondike import COLUMNS, F0, STOCK, WASTE
from ..rules.state import Pile
from .space import Table

# A relaxed card is a byte: its rank, its colour (0x10: red), and for a known card 0x80 and
# a second suit bit (0x20), so that the four foundations are numbered 0 spades, 1 hearts,
# 2 clubs, 3 diamonds (a foundation's colour is its low bit); DOWN when face down. Its
# *class* (rank and colour, ``card & 0x1F``) is all that building asks for.
_RED = 0x10
_KNOWN = 0x80
_CLASS = 0x1F
_UP = ~DOWN & 0xFF
_CODE = (0, 1, 3, 2)  # real suit (S H D C) -> foundation number
_SUIT = (0, 1, 3, 2)  # foundation number -> real suit
_SEP = b"\xff"
_WON = (KING, KING, KING, KING)
# a child whose step brought a foundation card back onto a column card carries this as a
# fourth item: it is not dead if its parent was not (the card can go home again, and all
# it lay on is as before), so run() spares it the dead test
_ALIVE = True

# a relaxed position: the columns (sorted), the talon (sorted) and the foundations' heights
Position = tuple[tuple[bytes, ...], bytes, tuple[int, int, int, int]]


class Relaxed:
    """A search of the relaxed game of ``k`` known cards a suit from one position, which can
    be stopped and resumed."""

    def __init__(self, piles: tuple[Pile, ...] | list[Pile], k: int = 0) -> None:
        heights = [len(piles[F0 + _SUIT[f]]) for f in range(4)]
        # known[f << 4 | rank]: the card of that rank on foundation f is a known one
        self.known = [False] * 64
        for f in range(4):
            for rank in range(heights[f] + 1, min(KING, heights[f] + k) + 1):
                self.known[f << 4 | rank] = True
        table = bytearray(256)
        for card in range(128):
            rank, f = card & RANK_MASK, _CODE[(card >> 4) & 3]
            if not rank:
                continue
            relaxed = (f << 4 | _KNOWN if self.known[f << 4 | rank] else (f & 1) << 4) | rank
            table[card] = relaxed | (card & DOWN)
        self._table = bytes(table)
        self.sort = k == 0  # no card known: the two foundations of a colour are alike
        self._taken: dict[int, dict[int, list[int]]] = {}  # by heights (taken())
        self._home: dict[tuple[int, ...], tuple[list[int], list[int], list[int]]] = {}
        self._runs: dict[bytes, tuple[int, bytes]] = {}  # column -> its run, its run's classes
        # children(): a talon's cards counted by class; of columns, their runs' lengths, their
        # runs' cards counted by class, the columns by their top's class, the first empty one
        self._in_talon: dict[bytes, list[int]] = {}
        self._laid: dict[tuple[bytes, ...], tuple[list[int], list[int], dict[int, list[int]],
                                                  int | None]] = {}
        # dead(): each foundation's cards' classes as bits, all their codes' bits, and the
        # ranks below each height, by heights; a talon's bits
        self._founds: dict[tuple[int, ...], tuple[list[list[int]], int, list[int]]] = {}
        self._talons: dict[bytes, tuple[int, int]] = {}  # its cards' bits, its classes' bits
        self._faces: dict[bytes, tuple[bytes, int, int, int, int, int]] = {}  # dead()'s start
        # dead(): a column's closure by the bits of placed and homeable its cards have
        self._closures: dict[tuple[bytes, int, int], tuple[int, int, bool, int]] = {}
        # dead(): per foundation, where its cards lie among the bits of the codes (the lane
        # of its colour's cards known by colour, and its known cards' lane) and which ranks
        # each lane holds for it; by its height, the codes it may take (as _homes says)
        self._lanes = []
        self._homes_by_height = []
        for f in range(4):
            unknown_ranks = sum(1 << r for r in range(1, KING + 1) if not self.known[f << 4 | r])
            known_ranks = sum(1 << r for r in range(1, KING + 1) if self.known[f << 4 | r])
            self._lanes.append(((f & 1) << 4, unknown_ranks, _BIT[_KNOWN | f << 4], known_ranks))
            self._homes_by_height.append([
                sum(1 << ((f & 1) << 4 | r) for r in range(1, min(height + 1, KING) + 1)
                    if not self.known[f << 4 | r])
                | sum(1 << _BIT[_KNOWN | f << 4 | r] for r in range(1, min(height + 1, KING) + 1)
                      if self.known[f << 4 | r])
                for height in range(KING + 1)])
        self._lanes_flat = tuple(x for lane in self._lanes for x in lane)
        # dead(): per foundation, by its reach (the rank it can reach so far, Ace to Queen),
        # the bit of its card of the next rank; and at -1 (no reach worked out yet), all bits
        self._nexts = [
            [1 << (_BIT[_KNOWN | f << 4 | r] if self.known[f << 4 | r] else (f & 1) << 4 | r)
             for r in range(1, KING + 1)] + [-1]
            for f in range(4)]
        columns, talon, start_heights = self.form(piles)
        cols, h = list(columns), list(start_heights)
        talon = self.settle(cols, talon, h)
        start = (tuple(sorted(cols)), talon, self._heights(h))
        self._seen = {key(start)}
        self._stack = [start]
        # run(): the second order's stack, its shuffles, whose turn it is
        self._other: list[Position] = []
        self._rng = random.Random(0)
        self._turn = 0

    def form(self, piles: tuple[Pile, ...] | list[Pile]) -> Position:
        """The relaxed form of a real position (with the cards known from the start)."""
        table = self._table
        columns = tuple(sorted(bytes(p).translate(table) for p in piles[:COLUMNS]))
        talon = bytes(sorted((bytes(piles[WASTE]) + bytes(piles[STOCK])).translate(
            table).translate(_FACE_UP)))
        return columns, talon, self._heights([len(piles[F0 + _SUIT[f]]) for f in range(4)])

    @property
    def waiting(self) -> int:
        """Positions met and not expanded yet (both orders' stacks): how wide the search is
        now, which :class:`.proofs.Probed` compares between two games."""
        return len(self._stack) + len(self._other)

    def tables(self) -> list[Table]:
        """What it holds (for Space.release)."""
        return [self._seen, self._stack, self._other, self._talons, self._founds, self._faces,
                self._closures, self._in_talon, self._laid]

    def run(self, limit: int) -> tuple[bool | None, int]:
        """Search on for at most ``limit`` positions: True once a relaxed win is found, False
        once the relaxed game is searched to the end without one, None when the positions
        ran out first; and the positions spent.

        Two depth-first orders take turns over the one table of positions met: the children
        as listed (foundation moves first), and a second stack, fed from the bottom of the
        first (the oldest branch waiting) whenever it runs dry, that takes its children in
        a shuffled order. Each position met is expanded once, by whichever stack holds it,
        so a loss costs every relaxed position met, as with one order; a win comes from
        whichever order finds one first (docs/solver.md §7.23)."""
        seen, stack, other = self._seen, self._stack, self._other
        shuffle = self._rng.shuffle
        spent = 0
        while stack or other:
            if spent >= limit:
                return None, spent
            self._turn ^= 1
            if self._turn and other or not stack:
                own = other
            else:
                own = stack
            position = own.pop()
            spent += 1
            if position[2] == _WON:
                return True, spent
            if len(position) > 3:
                position = position[:3]  # alive as its parent was (children())
            elif self.dead(position):
                continue
            children = self.children(position)
            if own is other:
                shuffle(children)
            for child in reversed(children):
                ckey = _SEP.join(child[0]) + _SEP + child[1] + _SEP + bytes(child[2])  # (key())
                if ckey not in seen:
                    seen.add(ckey)
                    own.append(child)
            if not other and len(stack) > 1:
                other.append(stack.pop(0))
        return False, spent

    def dead(self, position: Position) -> bool:
        """True when some foundation can provably never be completed from ``position`` (so:
        no relaxed win). The real game's dead test (klondike_dead.dead, docs/solver.md §7.18) by
        rank and colour: a least fixed point over-estimating what can ever happen, with
        column cards told apart by where they lie (two may be of one class):

        - a column card is *uncovered* if it is its column's top or the card on it can leave;
        - it can *leave* when it is in its column's face-up run or uncovered, and it can go
          home (uncovered, and a foundation that may take it can reach its rank - 1), or onto
          a card of its class's place (one rank higher, other colour) that can lie exposed,
          or, as a King, into a column that can be emptied (one whose bottom card, not a
          King, can leave);
        - a card can lie exposed if it is uncovered; a talon card, and a foundation's top
          (then the card under it in turn), if it has such a place;
        - a foundation can reach height r if it can reach r - 1 and a card that may be its
          r-th lies in the talon, on a foundation or uncovered.
        """
        columns, talon, heights = position
        found = self._founds.get(heights)
        if found is None:
            cards = self._found_cards(heights)
            found = self._founds[heights] = (
                [[1 << (c & _CLASS) for c in each] for each in cards],
                sum(1 << _BIT[c] for c in {c for each in cards for c in each}),
                [(2 << height) - 1 for height in heights])
        bits, starts = found[0], found[2]
        # the cards that may go home, a bit per code: talon and foundation cards, uncovered
        # cards; and the talon's classes
        got = self._talons.get(talon)
        if got is None:
            got = self._talons[talon] = (sum(1 << _BIT[c] for c in set(talon)),
                                         sum(1 << c for c in {c & _CLASS for c in talon}))
        avail = got[0] | found[1]
        talon_classes = got[1]
        exposed = 0  # classes that can lie exposed, as a bit mask
        emptyable = False
        # per column (its face, _face, to start with): the column, the classes and codes of
        # all its cards (what its closure may ask of placed and homeable), and of the cards
        # that may leave and have not, the classes and the uncovered ones' codes, one mask (a
        # column none of whose cards can leave is passed over at once); then its top's code
        # and class as bits, what the top gives avail and exposed
        state = []
        faces = self._faces
        for column in columns:
            if not column:
                emptyable = True
                continue
            face = faces.get(column)
            if face is None:
                face = faces[column] = _face(column)
            avail |= face[4]
            exposed |= face[5]
            state.append(list(face))
        closures = self._closures
        out = list(heights)  # per foundation: its cards not come out yet
        s0, r0, k0, kr0, s1, r1, k1, kr1, s2, r2, k2, kr2, s3, r3, k3, kr3 = self._lanes_flat
        h0, h1, h2, h3 = self._homes_by_height
        n0, n1, n2, n3 = self._nexts
        t0, t1, t2, t3 = starts
        homeable = reached = -1  # (avail when the reach was last worked out)
        passed = -1  # (placed when the talon and foundations were last looked at)
        a = b = c = d = -1
        while True:
            # the foundations' reach: the longest run of ranks up from the Ace whose cards
            # (each the known card or, not known, one of its rank and colour) may be had;
            # the same as last round unless avail grew, and a foundation's grows only if its
            # card of the next rank came (avail only grows; the first round works all out)
            if avail != reached:
                reached = avail
                if a != KING and avail & n0[a]:
                    reach = (avail >> s0 & r0) | (avail >> k0 & kr0) | t0
                    a = ((reach + 1) & ~reach).bit_length() - 2
                if b != KING and avail & n1[b]:
                    reach = (avail >> s1 & r1) | (avail >> k1 & kr1) | t1
                    b = ((reach + 1) & ~reach).bit_length() - 2
                if c != KING and avail & n2[c]:
                    reach = (avail >> s2 & r2) | (avail >> k2 & kr2) | t2
                    c = ((reach + 1) & ~reach).bit_length() - 2
                if d != KING and avail & n3[d]:
                    reach = (avail >> s3 & r3) | (avail >> k3 & kr3) | t3
                    d = ((reach + 1) & ~reach).bit_length() - 2
                if a == KING and b == KING and c == KING and d == KING:
                    return False
                homeable = h0[a] | h1[b] | h2[c] | h3[d]
            # the classes whose place (one rank higher, other colour) can lie exposed
            placed = (exposed >> 17 & 0x7FFF) | ((exposed & 0xFFFF) >> 1) << 16
            if emptyable:
                placed |= _KING_CLASSES
            changed = False
            # column cards that can leave: each column's closure under placed and homeable
            # (a pure function of the column and the bits of them its cards have, memoized)
            have = placed << _WANT | homeable
            for entry in state:
                if not have & entry[3]:
                    continue
                ckey = (entry[0], placed & entry[1], homeable & entry[2])
                got = closures.get(ckey)
                if got is None:
                    got = closures[ckey] = _closure(entry[0], ckey[1], ckey[2])
                entry[3] = got[3]
                grown = avail | got[0]
                if grown != avail:
                    avail = grown
                    changed = True
                grown = exposed | got[1]
                if grown != exposed:
                    exposed = grown
                    changed = True
                if got[2] and not emptyable:
                    emptyable = changed = True
                    placed |= _KING_CLASSES
                    have |= _KING_CLASSES << _WANT
            # talon cards and foundation tops with a place (as last round unless placed grew)
            if placed != passed:
                passed = placed
                more = talon_classes & placed & ~exposed
                if more:
                    exposed |= more
                    changed = True
                for f in range(4):
                    n = out[f]
                    if n and placed & bits[f][n - 1]:
                        cards = bits[f]
                        while n and placed & cards[n - 1]:
                            n -= 1
                            if not exposed & cards[n]:
                                exposed |= cards[n]
                                changed = True
                        out[f] = n
            if not changed:
                return True

    def _found_cards(self, heights: tuple[int, ...]) -> list[list[int]]:
        """Each foundation's cards (as codes), bottom up."""
        known = self.known
        return [[f << 4 | _KNOWN | rank if known[f << 4 | rank] else (f & 1) << 4 | rank
                 for rank in range(1, heights[f] + 1)] for f in range(4)]

    def _homes(self, card: int, heights: list[int]) -> bool:
        """A foundation that may take ``card`` can reach its rank - 1 (``heights``)."""
        rank = card & RANK_MASK
        if card & _KNOWN:
            return heights[(card >> 4) & 3] >= rank - 1
        f = (card >> 4) & 1
        known = self.known
        return (heights[f] >= rank - 1 and not known[f << 4 | rank]
                or heights[f | 2] >= rank - 1 and not known[(f | 2) << 4 | rank])

    def _heights(self, heights: list[int]) -> tuple[int, int, int, int]:
        a, b, c, d = heights
        if self.sort:
            if a > c:
                a, c = c, a
            if b > d:
                b, d = d, b
        return a, b, c, d

    def foundations(self, card: int, heights: list[int]) -> list[int]:
        """The foundations that take ``card`` (relaxed, face up) now."""
        rank = card & RANK_MASK
        if card & _KNOWN:
            f = (card >> 4) & 3
            return [f] if heights[f] == rank - 1 else []
        f = (card >> 4) & 1
        return [g for g in (f, f | 2) if heights[g] == rank - 1 and not self.known[g << 4 | rank]]

    def safe(self, card: int, heights: list[int]) -> int:
        """The foundation ``card`` goes to at once, or -1: the only one it can ever go to
        takes it now (a known card's; or its twin's is home or known, or no card is known),
        and every card that could ever lie on it is home (an Ace or a Two; or the other
        colour's foundations hold its rank - 1, the other of its colour its rank - 2)."""
        where = self.foundations(card, heights)
        if not where:
            return -1
        f = where[0]
        rank = card & RANK_MASK
        if not card & _KNOWN and not self.sort and (
                len(where) > 1 or not (heights[f ^ 2] >= rank or self.known[(f ^ 2) << 4 | rank])):
            return -1
        if rank <= 2:
            return f
        other = (f & 1) ^ 1
        if heights[other] >= rank - 1 and heights[other | 2] >= rank - 1 \
                and heights[f ^ 2] >= rank - 2:
            return f
        return -1

    def settle(self, columns: list[bytes], talon: bytes, heights: list[int]) -> bytes:
        """Play every safe card home in place (``columns`` and ``heights`` change); the
        talon left."""
        moved = True
        taken = self.taken(heights)
        while moved:
            moved = False
            for s in range(COLUMNS):
                column = columns[s]
                if column and column[-1] in taken:
                    f = self.safe(column[-1], heights)
                    if f >= 0:
                        heights[f] += 1
                        columns[s] = _pop(column, 1)
                        moved = True
                        taken = self.taken(heights)
            for card in taken:
                if card in talon:
                    break
            else:
                continue  # (no talon card goes home now)
            for card in set(talon):
                if card not in taken:
                    continue
                f = self.safe(card, heights)
                if f >= 0:
                    heights[f] += 1
                    i = talon.index(card)
                    talon = talon[:i] + talon[i + 1:]
                    moved = True
                    taken = self.taken(heights)
        return talon

    def taken(self, heights: list[int]) -> dict[int, list[int]]:
        """The cards (relaxed, face up) some foundation takes now, each with the foundations
        that take it (as :meth:`foundations` gives them)."""
        a, b, c, d = heights
        memo = self._taken.get(a | b << 4 | c << 8 | d << 12)
        if memo is None:
            memo = {}
            known = self.known
            for f in range(4):
                rank = heights[f] + 1
                if rank > KING:
                    continue
                if known[f << 4 | rank]:
                    memo[f << 4 | _KNOWN | rank] = [f]
                else:
                    memo.setdefault((f & 1) << 4 | rank, []).append(f)
            self._taken[a | b << 4 | c << 8 | d << 12] = memo
        return memo

    def children(self, position: Position) -> list[Position]:
        """The relaxed steps from a settled relaxed position, foundation moves first, each
        child settled; only moves that have a use (see the module docstring). A talon card
        goes to a column only together with a move that puts a card on it (:meth:`_covers`),
        as in the real space (docs/solver.md §7.11, §7.14). A child that brought a
        foundation card back onto a column card carries ``_ALIVE`` as a fourth item."""
        columns, talon, heights = position
        hl = list(heights)
        known = self.known
        homes = self._home.get(heights)
        if homes is None:
            home = [0] * 32  # by class
            for f in range(4):
                for rank in range(1, heights[f] + 1):
                    home[(f & 1) << 4 | rank] += 1
            low = [n if c & RANK_MASK <= 2 else 0 for c, n in enumerate(home)]
            high = [n if c & RANK_MASK > 2 else 0 for c, n in enumerate(home)]
            homes = self._home[heights] = (home, low, high)
        home = homes[0]
        in_talon = self._in_talon.get(talon)
        if in_talon is None:
            in_talon = self._in_talon[talon] = [0] * 32
            for card in talon:
                in_talon[card & _CLASS] += 1
        laid = self._laid.get(columns)
        if laid is None:
            runs = []
            in_runs = [0] * 32
            memo = self._runs
            for column in columns:
                got = memo.get(column)
                if got is None:
                    run = _run(column)
                    got = memo[column] = (run, bytes(card & _CLASS for card in column[
                        len(column) - run:]))
                runs.append(got[0])
                for cls in got[1]:
                    in_runs[cls] += 1
            laid = self._laid[columns] = (runs, in_runs, *_tops(columns, runs))
        runs, in_runs, tops, empty = laid
        free = list(map(add, map(add, in_talon, in_runs), home))  # cards that can come into
        # play, maybe after other such moves
        taken = self.taken(hl)
        out_found: list[Position] = []
        out: list[Position] = []
        child = self._child
        no: list[int] = []

        def targets(card: int, not_from: int) -> list[int]:
            where = [d for d in tops.get(_ONTO[card], ()) if d != not_from]
            if card & RANK_MASK == KING and empty is not None:
                where.append(empty)
            return where

        # column tops to a foundation
        for s, column in enumerate(columns):
            if runs[s]:
                for f in taken.get(column[-1], no):
                    cols = list(columns)
                    cols[s] = _pop(column, 1)
                    h = hl.copy()
                    h[f] += 1
                    child(cols, talon, h, out_found, -1, taken)
        # talon cards to a foundation or a column
        for card in sorted(set(talon)):
            if card not in taken and _ONTO[card] not in tops and (
                    card & RANK_MASK != KING or empty is None):
                continue  # (neither home nor a place for it)
            i = talon.index(card)
            rest = talon[:i] + talon[i + 1:]
            for f in taken.get(card, no):
                h = hl.copy()
                h[f] += 1
                child(list(columns), rest, h, out_found, -1, taken)
            where = targets(card, -1)
            if where and _chain_follows(card, in_talon, homes[1], in_runs, homes[2]):
                for d in where:  # placed, and covered at once
                    out += self._placed(columns, card, d, rest, hl, homes, in_talon,
                                        in_runs, runs, taken, free, tops, empty)
        # runs, or parts of them, to another column
        for s, column in enumerate(columns):
            n, run = len(column), runs[s]
            if not run:
                continue
            for k in range(1, run + 1):
                card = column[-k]
                if _ONTO[card] not in tops and (card & RANK_MASK != KING or empty is None):
                    continue  # (no place for it: what targets() would find)
                where = targets(card, s)
                if not where or (k == n and card & RANK_MASK == KING):
                    continue
                if k == n:
                    if not _king_waits(columns, runs, in_talon, home, s):
                        continue
                elif k < run:
                    if column[-k - 1] not in taken and not _uncovered_use(
                            columns, runs, free, tops, empty, s, k):
                        continue
                for d in where:
                    cols = list(columns)
                    cols[s] = _pop(column, k)
                    cols[d] = cols[d] + column[-k:]
                    child(cols, talon, hl.copy(), out, s, taken)
        # foundation tops back to a column
        for f in range(4):
            rank = hl[f]
            if not rank or self.sort and f >= 2 and hl[f ^ 2] == rank:
                continue  # (sorted: the two of a colour alike)
            card = (f << 4 | _KNOWN if known[f << 4 | rank] else (f & 1) << 4) | rank
            where = targets(card, -1)
            if not where:
                continue
            twin = (card & _CLASS) ^ _RED  # the card under it could lie on one of these
            if not (_chain_follows(card, in_talon, homes[1], in_runs, homes[2])
                    or rank > 2 and (free[twin] or twin in tops)):
                continue
            for d in where:
                cols = list(columns)
                cols[d] = cols[d] + bytes((card,))
                h = hl.copy()
                h[f] -= 1
                child(cols, talon, h, out, -1, taken)
                if rank != KING or columns[d]:
                    out[-1] += (_ALIVE,)
        return out_found + out

    def _placed(self, columns: Sequence[bytes], card: int, onto: int, rest: bytes,
                hl: list[int], homes: tuple[list[int], list[int], list[int]],
                in_talon: list[int], in_runs: list[int], runs: list[int],
                taken: dict[int, list[int]], free: list[int], tops: dict[int, list[int]],
                empty: int | None) -> list[Position]:
        """The talon card ``card`` placed on column ``onto`` (``rest``: the talon after it;
        the other arguments as :meth:`_covers` takes them, before the placement), covered
        at once: :meth:`_covers` of the columns and counts after it."""
        cls = card & _CLASS
        after_talon = in_talon.copy()
        after_talon[cls] -= 1
        after_runs = in_runs.copy()
        after_runs[cls] += 1
        cols = list(columns)
        cols[onto] = cols[onto] + bytes((card,))
        after = runs.copy()
        after[onto] += 1
        return self._covers(tuple(cols), rest, hl, onto, homes, after_talon, after_runs,
                            after, taken, free, tops, empty)

    def _covers(self, columns: tuple[bytes, ...], talon: bytes, hl: list[int], onto: int,
                homes: tuple[list[int], list[int], list[int]], in_talon: list[int],
                in_runs: list[int], runs: list[int], taken: dict[int, list[int]],
                free: list[int], tops: dict[int, list[int]], empty: int | None,
                ) -> list[Position]:
        """The steps that put a card onto the talon card just placed on column ``onto``
        (``columns`` and ``talon`` after the placement; ``in_talon``, ``in_runs`` and ``runs``
        count their cards; ``hl``, ``homes`` and ``taken`` are the foundations', and ``free``
        the cards that can come into play, all unchanged by a placement; ``tops`` and
        ``empty`` are :meth:`children`'s, true of every column but ``onto``):
        from the talon (that card covered in turn), a run or a foundation, with the tests of
        use of :meth:`children`. Only what these moves ask for is worked out, and only when
        they ask for it: a position here is not settled, and most have no such move."""
        want = _TAKES[columns[onto][-1]]
        if not want:
            return []
        colour, rank = want >> 4, want & RANK_MASK
        from_talon, from_runs = in_talon[want], in_runs[want]
        if not from_talon and not from_runs and hl[colour] != rank and hl[colour | 2] != rank:
            return []  # no card of that class to put there
        out: list[Position] = []
        low, high = homes[1], homes[2]
        if from_talon:
            # the talon cards of that class in sorted order: known by colour, then known
            for card in (want, _KNOWN | want, _KNOWN | 0x20 | want):
                if card not in talon:
                    continue
                i = talon.index(card)
                rest = talon[:i] + talon[i + 1:]
                if _chain_follows(card, in_talon, low, in_runs, high):
                    out += self._placed(columns, card, onto, rest, hl, homes, in_talon,
                                        in_runs, runs, taken, free, tops, empty)
        if from_runs:
            memo = self._runs
            for s, column in enumerate(columns):
                run = runs[s]
                if not run or s == onto:
                    continue
                classes = memo[column][1]  # (the run's classes, bottom up)
                if want not in classes:
                    continue
                k = run - classes.rindex(want)
                n = len(column)
                if k == n:
                    if column[0] & RANK_MASK == KING or not _king_waits(
                            columns, runs, in_talon, homes[0], s):
                        continue
                elif k < run and column[-k - 1] not in taken:
                    if empty == onto:  # (a King placed there: the next empty one)
                        empty = next((e for e in range(onto + 1, COLUMNS) if not columns[e]),
                                     None)
                    if not _uncovered_use(columns, runs, free, tops, empty, s, k, onto):
                        continue
                cols = list(columns)
                cols[s] = _pop(column, k)
                cols[onto] = cols[onto] + column[-k:]
                self._child(cols, talon, hl.copy(), out, s, taken)
        for f in (colour, colour | 2):
            if hl[f] != rank or self.sort and f >= 2 and hl[f ^ 2] == rank:
                continue  # (sorted: the two of a colour alike)
            card = (f << 4 | _KNOWN if self.known[f << 4 | rank] else want) | rank
            if not _chain_follows(card, in_talon, low, in_runs, high):
                if rank <= 2:
                    continue
                twin = want ^ _RED  # the card under it could lie on one of these
                if not (free[twin] or columns[onto][-1] & _CLASS == twin
                        or any(d != onto for d in tops.get(twin, ()))):
                    continue
            cols = list(columns)
            cols[onto] = cols[onto] + bytes((card,))
            h = hl.copy()
            h[f] -= 1
            self._child(cols, talon, h, out, -1, taken)
        return out

    def _child(self, cols: list[bytes], talon: bytes, h: list[int], into: list[Position],
               probe: int, taken: dict[int, list[int]]) -> None:
        """Add the position of ``cols``, ``talon`` and ``h`` to ``into``, settled: after a
        foundation changed (``probe`` -1), or when the card uncovered in column ``probe`` goes
        home (``taken``: what the foundations took before)."""
        if probe < 0 or cols[probe] and cols[probe][-1] in taken and \
                self.safe(cols[probe][-1], h) >= 0:
            talon = self.settle(cols, talon, h)
        into.append((tuple(sorted(cols)), talon, self._heights(h) if self.sort else tuple(h)))


_FACE_UP = bytes(i & _UP for i in range(256))
# dead()'s bit of a face-up code: a known card's moved down from 0x80 to 0x20 (its suit
# above the classes, which stay ``code & _CLASS``), so that its masks of codes are 94 bits
# wide, not 190 (fewer digits for each operation on them)
_BIT = bytes(i - 0x60 if i >= _KNOWN else i for i in range(256))
_UP_BIT = _FACE_UP.translate(_BIT)
_WANT = 96  # dead(): classes above codes in one mask (codes' bits are below 94)
_KING_CLASSES = 1 << KING | 1 << (_RED | KING)  # Kings by class, as a bit mask


def _face(column: bytes) -> tuple[bytes, int, int, int, int, int]:
    """:meth:`Relaxed.dead`'s start for a column (not empty): the column; the classes and
    the codes of all its cards; the cards that may leave, as :func:`_closure` gives them
    (its run's classes, its top's code); its top's code and class, as bits."""
    up = column.translate(_UP_BIT)
    top = up[-1]
    run = sum(1 << c for c in {c & _CLASS for c in up[len(column) - _run(column):]})
    return (column, sum(1 << c for c in {c & _CLASS for c in up}), sum(1 << c for c in set(up)),
            run << _WANT | 1 << top, 1 << top, 1 << (top & _CLASS))


def _closure(column: bytes, placed: int, homeable: int) -> tuple[int, int, bool, int]:
    """What a column gives :meth:`Relaxed.dead` when the classes ``placed`` have a place that
    can lie exposed and the codes ``homeable`` may go home: the codes and the classes of its
    cards that can be uncovered below its top, whether it can be emptied (its bottom card,
    not a King, can leave), and of the cards that may leave (its run, or uncovered) and
    cannot, the classes (shifted up by ``_WANT``) and the uncovered ones' codes, one mask.
    One walk down does it: a card that may leave leaves if its class is placed or,
    uncovered, its code is homeable, and then the card under it is uncovered (and may
    leave)."""
    up = column.translate(_UP_BIT)
    i = len(up) - 1
    low = len(up) - _run(column)  # the lowest card that may leave, so far
    uncovered = 1 << i
    avail = exposed = classes = codes = 0
    emptied = False
    while i >= low:
        card = up[i]
        cls = card & _CLASS
        if placed >> cls & 1 or uncovered >> i & 1 and homeable >> card & 1:
            if not i:
                emptied = card & RANK_MASK != KING
            else:
                uncovered |= 1 << (i - 1)
                below = up[i - 1]
                avail |= 1 << below
                exposed |= 1 << (below & _CLASS)
                if i - 1 < low:
                    low = i - 1
        else:
            classes |= 1 << cls
            if uncovered >> i & 1:
                codes |= 1 << card
        i -= 1
    return avail, exposed, emptied, classes << _WANT | codes


def key(position: Position) -> bytes:
    """One bytes value per relaxed position."""
    columns, talon, heights = position
    return _SEP.join(columns) + _SEP + talon + _SEP + bytes(heights)


def _pop(column: bytes, k: int) -> bytes:
    """The column with its top ``k`` cards gone, a face-down card uncovered turned over."""
    rest = column[:-k]
    if rest and rest[-1] & DOWN:
        rest = rest[:-1] + bytes((rest[-1] & _UP,))
    return rest


def _run(column: bytes) -> int:
    """How many face-up cards the column ends with (one run, as in the real game)."""
    n = 0
    for card in reversed(column):
        if card & DOWN:
            break
        n += 1
    return n


def _takes(card: int) -> int:
    """The class that may be built on ``card`` (one rank lower, other colour), or 0."""
    rank = card & RANK_MASK
    return ((card & _RED) ^ _RED) | (rank - 1) if rank > 1 else 0


def _onto(card: int) -> int:
    """The class ``card`` may be built on (one rank higher, other colour), or 0."""
    rank = card & RANK_MASK
    return ((card & _RED) ^ _RED) | (rank + 1) if rank < KING else 0


# _takes and _onto of each byte, looked up
_TAKES = bytes(_takes(card) for card in range(256))
_ONTO = bytes(_onto(card) for card in range(256))


def _chain_follows(card: int, in_talon: list[int], low: list[int], in_runs: list[int],
                   high: list[int]) -> bool:
    """A card placed from the talon or brought back from a foundation can be of use only if
    a chain of cards, each one rank lower and the other colour, through passing cards
    (talon cards ``in_talon``, foundation Aces and Twos ``low``: their own moves need a use
    in turn) reaches a settled one (face-up column cards ``in_runs``, foundation cards
    above the Twos ``high``): docs/solver.md §7.5. All count the cards by class."""
    below = _TAKES[card]
    while below:
        if in_runs[below] or high[below]:
            return True
        if not (in_talon[below] or low[below]):
            return False
        below = _TAKES[below]
    return False


def _tops(columns: tuple[bytes, ...], runs: list[int]) -> tuple[dict[int, list[int]], int | None]:
    """The columns by the class of their face-up top card; the first empty column (or
    None)."""
    tops: dict[int, list[int]] = {}
    for s, column in enumerate(columns):
        if runs[s]:
            tops.setdefault(column[-1] & _CLASS, []).append(s)
    empty = columns.index(b"") if b"" in columns else None
    return tops, empty


def _king_waits(columns: tuple[bytes, ...], runs: list[int], in_talon: list[int],
                home: list[int], src: int) -> bool:
    """A King could enter column ``src`` emptied now: from the talon, a foundation, or a run
    in another column with cards under it."""
    for colour in (0, _RED):
        king = colour | KING
        if in_talon[king] or home[king]:
            return True
        for c, column in enumerate(columns):
            if c != src and column and column[0] & _CLASS != king and any(
                    card & _CLASS == king for card in column[len(column) - runs[c]:]):
                return True
    return False


def _uncovered_use(columns: tuple[bytes, ...], runs: list[int], free: list[int],
                   tops: dict[int, list[int]], empty: int | None, s: int, k: int,
                   onto: int = -1) -> bool:
    """Moving the top ``k`` cards of column ``s`` uncovers the face-up card E: of use if a
    card other than the one moved can come onto E, or E (with the run under it) can move
    onto a card of another column or a free card, or, a King not at the bottom, into an
    empty column. ``tops`` may be wrong about column ``onto`` (not ``s``): its top is
    looked at instead."""
    column = columns[s]
    below = _TAKES[column[-k - 1]]
    if below and free[below] - (1 if column[-k] & _CLASS == below else 0) > 0:
        return True
    n = len(column)
    for depth in range(k + 1, runs[s] + 1):
        card = column[-depth]
        host = _ONTO[card]
        if host and (free[host] or any(d != s and d != onto for d in tops.get(host, ()))
                     or onto >= 0 and columns[onto][-1] & _CLASS == host):
            return True
        if card & RANK_MASK == KING and empty is not None and depth < n:
            return True
    return False
