"""Solver hooks for Klondike (docs/rules/klondike.md; the design and its proofs: docs/solver.md
§7): draw one, unlimited recycles, foundation returns.

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

A Two (its Ace home) is always safe. Only the two Aces of the other colour can ever lie
on it, and an Ace can always go to its foundation. Take a winning line and play the Two
home first; then follow the line, except: an Ace it puts on the Two goes home instead
(from a foundation it stays there; its foundation is empty, as that Ace is not on it),
an Ace it takes off the Two to a column comes from its foundation instead (it is that
foundation's only card) and one it takes home stays; moves of the Two itself, and of
the Ace of its suit out of and back to the foundation (nothing can lie on an Ace, so
that is never of use), are left out; a run moved with any of these cards at its end
moves without them. Every other move sees the same cards it saw in the line, so it
stays legal, and the line still wins.

Moves must have a use. Four kinds of move only prepare something: playing a talon card
to a column, bringing a card back from a foundation, moving part of a run (which
uncovers a face-up card) and emptying a column. In any winning line such a move can be
put off until just before the first later move that depends on it (its *use*: a card
put on the card it placed, the card under a returned foundation card coming back too,
the uncovered card moving or taking a card, a King entering the emptied column), the
moves in between never touch what it changed. So only lines where each such move is
followed by its use, maybe after other such moves put off to the same point, need
searching, and the search skips such a move when no card that could take part in a use
exists: a talon card, a run card or a foundation card (any of them, as returns can dig
one out) of the right rank and colour. For a talon card placed or a foundation card
brought back, the card put on it must have a use in turn when it too comes from the
talon or a foundation: so a chain of such cards must reach a card from a column
(:func:`_chain_follows`, docs/solver.md §7.5). Random endgames checked against a
brute-force search of the real rules (tests/engine/test_solver.py,
tests/engine/test_solve_klondike.py) keep this honest.

Covered placements. Put off to just before its use, a talon card placed in a column is
followed at once by the move that puts a card on it, so a step places a talon card only
together with such a move (a run from another column, a foundation card, or another talon
card placed and covered in turn), and no step leaves a talon card bare (docs/solver.md
§7.11, §7.14). The dailies' space (:func:`daily_space`) places it bare, as when they were
defined.

Dead positions: :func:`.klondike_dead.dead` proves some card can never reach its foundation.

After RELAX_AFTER positions the root is also searched, as many positions at a time, in a
*relaxed game* (:mod:`.klondike_relaxed`) where most cards are known by rank and colour
alone: every real line is a relaxed line, so a relaxed game with no win proves the deal lost
(:attr:`lost`); until then the search goes on as if it were not there (docs/solver.md §7.16).

After DIVE_AFTER positions the root is also searched by *dives* (:mod:`.klondike_dives`):
short depth-first searches, each in a jittered order of its own, as many positions as the
search's; a dive's win is the answer (:attr:`found`), and the search goes on as if they were
not there (docs/solver.md §7.25).

After LATER_AFTER positions a second ordering, depth first, takes one turn in four over
the same table of positions met (a loss costs the same positions; docs/solver.md §7.12).

The first, pruned pass moves part of a run only when that uncovers a card for a
foundation; the complete pass (the only one that may prove a loss) moves any part that
has a use. It expands again only the states where the pruned pass left such a move out,
and makes only those moves there: every other child of such a state is known already.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ..rules.cards import DOWN, KING, RANK_MASK
from ..rules.klondike import COLUMNS, F0, STOCK, TURN, WASTE, KlondikeRules
from ..rules.moves import Move
from ..rules.state import Pile, State
from .klondike_bits import (
    ACES,
    ALL,
    BLACK_LANES,
    HOME,
    KING_BITS,
    LOW_BITS,
    ONTO2,
    OTHER_COLOUR,
    RED_LANES,
    TAKES,
    TAKES_BITS,
    TWINS_BITS,
    UP,
)
from .klondike_dead import ColumnBits, column_bits, dead
from .klondike_dives import Dives
from .klondike_relaxed import Relaxed
from .proofs import Probed, RootProofs
from .space import Child, Fresh, Macro, Space, Table

_SEP = b"\xff"
_SAME_COLOUR = (3, 2, 1, 0)  # the other suit of the same colour
# score weights: face-down card, face-up column card, talon card, empty column
WEIGHTS = (15, 5, 5, 2)
# after LATER_AFTER positions a second ordering, depth first (the newest position first),
# takes one turn in four, starting from the positions waiting in the first one's frontier
LATER_AFTER = 5000
LATER_TURNS = (0, 0, 0, 1)
# a covered placement's child is scored this much worse in best-first order (§7.14)
COVER_BIAS = 20
# the relaxed game (klondike_relaxed.Relaxed, docs/solver.md §7.16): once a search has
# expanded RELAX_AFTER positions, every RELAX_EVERY positions the root is searched on in
# the relaxed games of k known cards a suit, RELAX_EVERY * RELAX_SHARE relaxed positions at
# a time: first k = RELAX_KS[0] for at most RELAX_CAP positions, then RELAX_KS[1] and [2]
# as one proofs.Probed pair (the second probed for RELAX_PROBE positions once the first
# has spent as many with RELAX_PROBE_GATE waiting on average, and taken first if it keeps
# fewer than RELAX_PROBE_RATIO times as many; otherwise it follows a slow win of the
# first); a relaxed win within RELAX_QUICK_WIN of its game's positions ends them all
# (§7.22, §7.27, §7.29, §7.32, §7.34); once the games have spent RELAX_LONG positions with
# no answer, the share is RELAX_LONG_SHARE (§7.37)
RELAX_AFTER = 5_000
RELAX_EVERY = 64
RELAX_KS = (3, 4, 6)
RELAX_CAP = 300
RELAX_QUICK_WIN = 1_000
RELAX_SHARE = 16.0
RELAX_LONG = 4_096
RELAX_LONG_SHARE = 32.0
RELAX_PROBE = 500
RELAX_PROBE_GATE = 150
RELAX_PROBE_RATIO = 0.75
# dives (klondike_dives.Dives, docs/solver.md §7.25): once a search has expanded DIVE_AFTER
# positions, every DIVE_EVERY positions the root's dives go on for DIVE_EVERY * DIVE_SHARE
# positions of their own; each dive at most DIVE_LIMIT positions, dive i's jitter
# DIVE_JITTERS[i % len(DIVE_JITTERS)], fading with the depth to none at DIVE_FADE steps; one
# dive in DIVE_COMPLETE (the first too) takes all the steps, the others the pruned pass's
# (docs/solver.md §7.28, §7.31)
DIVE_AFTER = 5_000
DIVE_EVERY = 32
DIVE_SHARE = 2.0
DIVE_LIMIT = 100
DIVE_JITTERS = (80,)
DIVE_COMPLETE = 8
DIVE_FADE = 80


def talon(piles: tuple[Pile, ...] | list[Pile]) -> tuple[int, ...]:
    """The stock and waste cards in turning order, face up: waste bottom..top, stock top..bottom."""
    return piles[WASTE] + tuple(_stock_bytes(piles[STOCK]))


def _stock_bytes(stock: Pile) -> bytes:
    """The stock from its top down, face up, as bytes."""
    return bytes(stock[::-1]).translate(_FACE_UP)


_FACE_UP = bytes(i & ~DOWN & 0xFF for i in range(256))  # a translation table


def talon_macro(piles: tuple[Pile, ...] | list[Pile], j: int) -> tuple[Move, ...]:
    """The turns (and recycle) that bring talon card ``j`` to the top of the waste."""
    waste, stock = len(piles[WASTE]), len(piles[STOCK])
    macro = _MACROS.get((waste, stock, j))
    if macro is None:
        if j == waste - 1:
            macro = ()
        elif j >= waste:
            macro = (TURN,) * (j - waste + 1)
        else:
            macro = ((TURN,) * stock + (Move("waste", "stock", waste + stock),)
                     + (TURN,) * (j + 1))
        _MACROS[waste, stock, j] = macro
    return macro


_MACROS: dict[tuple[int, int, int], tuple[Move, ...]] = {}  # at most 25 ** 3 entries


def take_from_talon(piles: list[Pile], cards: tuple[int, ...], j: int) -> int:
    """Leave the talon as after playing card ``j`` from the waste; return that card."""
    piles[WASTE] = cards[:j]
    piles[STOCK] = tuple(bytes(cards[:j:-1]).translate(_FACE_DOWN))
    return cards[j]


_FACE_DOWN = bytes(i | DOWN for i in range(128)) + bytes(128)  # a translation table


class KlondikeSpace(Space[State]):
    """Klondike's search space."""

    rules: KlondikeRules
    best_first = True
    can_prune = True
    queues = 2
    turns = (0,)
    later = (LATER_AFTER, LATER_TURNS)
    # a talon card goes to a column only together with a move that puts a card on it
    # (docs/solver.md §7.14); the dailies' space places it bare (daily_space)
    covers = True
    cover_bias = COVER_BIAS
    # dead() with its twins' rule (docs/solver.md §7.24); the dailies' space without it
    twins = True

    def __init__(self, rules: KlondikeRules, weights: tuple[int, int, int, int] = WEIGHTS,
                 ) -> None:
        super().__init__(rules)
        self._ids = rules.pile_ids
        self._scores: dict[Pile, int] = {}
        self._columns: dict[Pile, ColumnBits] = {}  # for dead()
        self._down, self._up, self._talon, self._empty = weights
        # the states the pruned pass expanded in part, by id (held, so no id is reused),
        # and whether it left out covers of talon cards too
        self._partial: dict[int, tuple[State, bool]] = {}
        # the relaxed game's searches of the root (see _relax): on or off, the root, the
        # positions expanded, the coarse game then the probed pair; lost (Space.lost): the
        # root is proved lost
        self.relax = True
        self._root: tuple[Pile, ...] | None = None
        self._expanded = 0
        self._proofs = RootProofs(2, self._relaxed_game, (RELAX_CAP, None),
                                  win_ends=RELAX_QUICK_WIN)
        # the dives from the root (see _dive): on or off, the moves that settled the root,
        # the dives once started
        self.dives = True
        self._root_auto: Macro = ()
        self._dives: Dives | None = None

    def forget_partial(self) -> None:
        """Drop the notes of the states the pruned pass expanded in part: a space whose
        states are expanded by dives alone needs none (no complete pass reads them)."""
        self._partial.clear()

    def release(self) -> list[Table]:
        tables = [self._scores, self._columns, self._partial]
        self._scores, self._columns, self._partial = {}, {}, {}
        dives, self._dives, self.dives = self._dives, None, False
        return tables + self._proofs.release() + (dives.tables() if dives else [])

    def _relaxed_game(self, i: int) -> Relaxed | Probed:
        """The root's i-th relaxed game: the coarse one, then the probed pair."""
        root = self._root
        assert root is not None
        if i == 0:
            return Relaxed(root, RELAX_KS[0])
        return Probed(Relaxed(root, RELAX_KS[1]), lambda: Relaxed(root, RELAX_KS[2]),
                      RELAX_PROBE, RELAX_PROBE_GATE, RELAX_PROBE_RATIO, RELAX_QUICK_WIN)

    def _relax(self) -> None:
        """Go on searching the root in the relaxed games (engine/solver/proofs.py), with
        RELAX_SHARE of the positions the search expanded since: one searched to the end
        without a win proves the root lost (:attr:`lost`). Games that have gone on for
        RELAX_LONG positions with no answer take RELAX_LONG_SHARE: a won deal's games most
        often win within a few hundred, and the search wins most of the others before the
        games get that far or long after the second, so what is left to gain is a loss
        proved sooner (docs/solver.md §7.37)."""
        proofs = self._proofs
        share = RELAX_SHARE if proofs.spent < RELAX_LONG else RELAX_LONG_SHARE
        if self._root is not None and proofs.go(RELAX_EVERY * share):
            self.lost = True

    def _dive(self) -> None:
        """Dive on from the root with DIVE_SHARE of the positions the search expanded since:
        a dive's win is the answer (:attr:`found`)."""
        if self._root is None:
            return
        if self._dives is None:
            space = KlondikeSpace(self.rules, (self._down, self._up, self._talon, self._empty))
            space.covers, space.cover_bias = self.covers, self.cover_bias
            space.relax = space.dives = False
            self._dives = Dives(space, State(self._root), self._root_auto, DIVE_LIMIT,
                                DIVE_JITTERS, DIVE_COMPLETE, DIVE_FADE)
        self.found = self._dives.go(DIVE_EVERY * DIVE_SHARE)

    def key(self, state: State) -> bytes:
        """Sorted columns, then the talon in turning order."""
        piles = state.piles
        columns = sorted(map(bytes, piles[:COLUMNS]))
        columns.append(bytes(piles[WASTE]) + _stock_bytes(piles[STOCK]))
        return _SEP.join(columns)

    def is_won(self, state: State) -> bool:
        """All 52 cards on the foundations."""
        piles = state.piles
        return (len(piles[F0]) == KING and len(piles[F0 + 1]) == KING
                and len(piles[F0 + 2]) == KING and len(piles[F0 + 3]) == KING)

    def score(self, state: State, queue: int = 0) -> int:
        """A weight per face-down card, face-up column card and talon card (the cards on the
        foundations weigh nothing); an empty column takes a little off. The second ordering
        scores every position alike, so it goes depth first."""
        if queue:
            return 0
        memo = self._scores
        total = 0
        for column in state.piles[:COLUMNS]:
            value = memo.get(column)
            if value is None:
                if column:
                    value = sum(self._down if card & DOWN else self._up for card in column)
                else:
                    value = -self._empty
                memo[column] = value
            total += value
        return total + self._talon * (len(state.piles[STOCK]) + len(state.piles[WASTE]))

    def settle(self, state: State) -> Child:
        """Play every safe card to its foundation (from the columns or the talon)."""
        piles = list(state.piles)
        moves = self._settle(piles)
        self._root = tuple(piles)
        self._root_auto = tuple(moves)
        return (tuple(moves), State(tuple(piles))) if moves else ((), state)

    def _settle(self, piles: list[Pile], talon_bits: int = -1) -> list[Move]:
        """Play every safe card home; ``talon_bits`` holds at least the talon's cards as a
        bit mask (a child's talon is part of its parent's), so a talon with none of the
        wanted cards is passed over without a look."""
        moves: list[Move] = []
        ids = self._ids
        while True:
            # the next card of each suit, where it would be safe on its foundation
            key = len(piles[F0]) | len(piles[F0 + 1]) << 4 | len(piles[F0 + 2]) << 8 | \
                len(piles[F0 + 3]) << 12
            bits = _WANTED_BITS.get(key)
            if bits is None:
                bits = _WANTED_BITS[key] = sum(1 << c for c in _wanted(
                    key & 15, key >> 4 & 15, key >> 8 & 15, key >> 12))
            if not bits:
                break
            for s in range(COLUMNS):
                column = piles[s]
                if column and bits >> column[-1] & 1:
                    f = F0 + ((column[-1] >> 4) & 3)
                    piles[f] = piles[f] + (column[-1],)
                    column = column[:-1]
                    if column and column[-1] & DOWN:
                        column = column[:-1] + (column[-1] & UP,)
                    piles[s] = column
                    moves.append(Move(ids[s], ids[f]))
                    break
            else:
                if not bits & talon_bits:
                    break
                waste, stock = piles[WASTE], piles[STOCK]
                wanted = _WANTED[key]
                card = next((c for c in wanted if c in waste or c | DOWN in stock), None)
                if card is None:
                    break
                cards = talon(piles)
                j = cards.index(card)
                moves.extend(talon_macro(piles, j))
                take_from_talon(piles, cards, j)
                f = F0 + ((card >> 4) & 3)
                piles[f] = piles[f] + (card,)
                moves.append(Move("waste", ids[f]))
        return moves

    def children(self, state: State) -> list[Child]:
        """Column, talon and foundation plays that have a use, most promising first."""
        return self.steps(state, False)[0]

    def steps(self, state: State, pruned: bool) -> tuple[list[Child], bool]:
        """:meth:`children`; the pruned pass leaves out the moves of part of a run that are
        of use only after other moves (see above)."""
        children, _, skipped = self.ordered_steps(state, pruned)
        return children, skipped

    def ordered_steps(self, state: State, pruned: bool, macro: Macro = (),
                      ) -> tuple[list[Child], list[int], bool]:
        """:meth:`steps`, with each child's bias in the first ordering (a covered
        placement's, see :meth:`expand`), in the children's order. ``macro``: the step
        that made ``state`` from a position found not dead, if known (see :func:`_alive`)."""
        piles = state.piles
        skipped = False
        cover = self.covers
        # a state the pruned pass expanded in part: its other children are known already
        noted = not pruned and self._partial and self._partial.pop(id(state), None)
        only_skipped = bool(noted)
        cover_skipped = bool(noted and noted[1])
        if not only_skipped and not _alive(macro, piles) and \
                dead(piles, self._columns, self.twins):
            return [], [], False
        ids = self._ids
        columns = piles[:COLUMNS]
        empty = next((d for d in range(COLUMNS) if not columns[d]), None)
        found = [len(piles[F0 + s]) for s in range(4)]
        cards = talon(piles)
        # cards that can be brought into play, maybe after other such moves: talon cards,
        # column run cards and foundation cards (see "moves must have a use" above), as a
        # bit mask over the card numbers; and the cards a card may come to lie on
        memo = self._columns
        runs = []
        movables = []
        free = column_tops = in_column = 0
        for column in columns:
            if column:
                bits = memo.get(column)
                if bits is None:
                    bits = memo[column] = column_bits(column)
                runs.append(bits[4])
                movables.append(bits[1])
                free |= bits[1]
                column_tops |= bits[2]
                in_column |= bits[0]
            else:
                runs.append(0)
                movables.append(0)
        home = HOME[found[0]] | HOME[found[1]] << 16 | HOME[found[2]] << 32 | \
            HOME[found[3]] << 48
        # every card of a whole deck is in a column, the talon or home; a position of fewer
        # cards (engine.from_position) counts the missing ones in the talon too, which only
        # weakens the tests of use below (they allow more), never a move the rules allow
        in_talon = ALL & ~in_column & ~home
        # a chain of cards put on a card placed from the talon or a foundation ends on a
        # face-up column card or a foundation card above the Twos; it may go through talon
        # cards and foundation Aces and Twos (see _chain_follows)
        settled = free | (home & ~LOW_BITS)
        passing = in_talon | (home & LOW_BITS)
        free |= home | in_talon
        hosts = free | column_tops
        tops = [piles[F0 + s][-1] for s in range(4) if found[s]]
        # where each card fits: card -> columns whose top takes it
        fits: dict[int, list[int]] = {}
        fit_bits = 0  # the cards that fit on a column's top, or (a King) enter an empty one
        for d, column in enumerate(columns):
            if column:
                top = column[-1]
                rank = top & RANK_MASK
                if rank > 1:
                    fit_bits |= TAKES_BITS[top]
                    for suit in OTHER_COLOUR[(top >> 4) & 3]:
                        fits.setdefault(suit << 4 | (rank - 1), []).append(d)
        if empty is not None:
            fit_bits |= KING_BITS
        out: list[tuple[int, Macro, list[Pile], int | None, int]] = []
        # the parent is settled: a child needs settling only when a foundation changed
        # (probe -1) or a column uncovered the next card of a suit where it is safe
        wanted = _wanted(*found)

        def add(priority: int, macro: Macro, new: list[Pile], probe: int | None,
                bias: int = 0) -> None:
            # sorted by priority, highest first, then in the order made (fewer than 256)
            out.append((len(out) - (priority << 8), macro, new, probe, bias))

        for s in range(COLUMNS):
            column = columns[s]
            n, run = len(column), runs[s]
            if not run:
                continue
            top = column[-1]
            suit = (top >> 4) & 3
            if found[suit] == (top & RANK_MASK) - 1 and not only_skipped:
                new = list(piles)
                _move(new, s, F0 + suit, 1)
                add(60 + _reveals(column, 1), (Move(ids[s], ids[F0 + suit]),), new, -1)
            hits = movables[s] & fit_bits
            if not hits:
                continue
            # the run cards that fit somewhere, top first
            depths = []
            while hits:
                low = hits & -hits
                hits ^= low
                depths.append(n - column.index(low.bit_length() - 1))
            depths.sort()
            for k in depths:
                card = column[-k]
                targets = fits.get(card, ())
                if card & RANK_MASK == KING and empty is not None and k < n:
                    targets = [*targets, empty]  # one empty column stands for all
                if not targets:
                    continue
                if only_skipped and k >= run:
                    continue
                if k == n:  # the column empties: of use only to a King that can go there
                    if not _king_waits(columns, runs, free, s):
                        continue
                    gain = 30
                elif k == run:  # turns a card over
                    gain = 50
                else:  # uncovers a face-up card: of use only if it can be used at once
                    under = column[-k - 1]
                    to_foundation = found[(under >> 4) & 3] == (under & RANK_MASK) - 1
                    if only_skipped and to_foundation:
                        continue
                    if not to_foundation:
                        if not _uncovered_use(columns, runs, s, k, free, empty):
                            continue
                        if pruned:
                            if not skipped:
                                skipped = True  # the complete pass will make it
                                self._partial[id(state)] = (state, False)
                            continue
                    gain = 45 if to_foundation else 0
                for d in targets:
                    new = list(piles)
                    _move(new, s, d, k)
                    add(gain, (Move(ids[s], ids[d], k),), new, s)
        def covered(new: list[Pile], d: int, placed: int, macro: Macro) -> None:
            # the steps that put a card on ``placed``, just placed on column d from the
            # talon: a run from another column, a foundation card, or another talon card
            # placed in turn (and covered at once); the moves these steps would make from
            # ``new`` onto it, with the same tests of use. A stack, not a call of itself: a
            # closure that calls itself holds itself through its cell, and all it reaches
            # (every child made) would then wait for the cycle collector
            nonlocal skipped
            pending = [(new, placed, macro)]
            while pending:
                new, placed, macro = pending.pop()
                want = TAKES_BITS[placed]
                cols: tuple[Pile, ...] = ()
                after = runs
                for s in range(COLUMNS):
                    if s == d or not movables[s] & want:
                        continue
                    column, run = new[s], runs[s]
                    k = 1
                    while not want >> column[-k] & 1:
                        k += 1
                    n = len(column)
                    if not cols and (k == n or k < run):  # the position after the placement
                        cols = tuple(new[:COLUMNS])
                        after = runs.copy()
                        after[d] += 1
                    if k == n:  # the column empties
                        if only_skipped or not _king_waits(cols, after, free, s):
                            continue
                        gain = 30
                    elif k == run:  # turns a card over
                        if only_skipped:
                            continue
                        gain = 50
                    else:
                        under = column[-k - 1]
                        if found[(under >> 4) & 3] == (under & RANK_MASK) - 1:
                            if only_skipped:
                                continue
                            gain = 45
                        else:
                            gap = next((e for e in range(COLUMNS) if not cols[e]), None)
                            if not _uncovered_use(cols, after, s, k, free, gap):
                                continue
                            if pruned:  # the complete pass will make it
                                skipped = True
                                self._partial[id(state)] = (state, True)
                                continue
                            gain = 0
                    child = new.copy()
                    _move(child, s, d, k)
                    add(gain + 5, (*macro, Move(ids[s], ids[d], k)), child, s, self.cover_bias)
                if not only_skipped:
                    rank = (placed & RANK_MASK) - 1
                    for f in OTHER_COLOUR[(placed >> 4) & 3]:
                        if found[f] == rank:
                            top = f << 4 | rank
                            if (_chain_follows(top, passing, settled)
                                    or rank > 2 and _below_fits(top, hosts)):
                                child = new.copy()
                                _move(child, F0 + f, d, 1)
                                add(-5, (*macro, Move(ids[F0 + f], ids[d])), child, -1,
                                    self.cover_bias)
                if not in_talon & want:
                    continue
                rest = talon(new)
                further = []
                # the (at most two) talon cards that fit, in turning order
                places = sorted(rest.index(card) for card in TAKES[placed]
                                if in_talon >> card & 1 and card in rest)
                for j in places:
                    card = rest[j]
                    if _chain_follows(card, passing, settled):
                        child = new.copy()
                        take_from_talon(child, rest, j)
                        child[d] = child[d] + (card,)
                        further.append(
                            (child, card, (*macro, *talon_macro(new, j), Move("waste", ids[d]))))
                pending.extend(reversed(further))  # in the order found, each one's own first

        if only_skipped and not cover_skipped:
            cards = ()
        if only_skipped:
            tops = []
        # the talon cards that go home or fit somewhere
        playable = fit_bits if only_skipped else fit_bits | ((home + ACES) & ~home & ALL)
        # the talon cards that go home or fit somewhere, in turning order
        hits = playable & in_talon if cards else 0
        order = []
        while hits:
            low = hits & -hits
            hits ^= low
            card = low.bit_length() - 1
            if card in cards:  # (not a card missing from the position)
                order.append(cards.index(card))
        order.sort()
        for j in order:
            card = cards[j]
            suit = (card >> 4) & 3
            to_found = found[suit] == (card & RANK_MASK) - 1 and not only_skipped
            targets = fits.get(card, [])
            if card & RANK_MASK == KING and empty is not None:
                targets = [empty]
            if targets and not _chain_follows(card, passing, settled):
                targets = []  # a card placed in the tableau must take a card at once
            if not to_found and not targets:
                continue
            lead = talon_macro(piles, j)
            if to_found:
                new = list(piles)
                take_from_talon(new, cards, j)
                new[F0 + suit] = new[F0 + suit] + (card,)
                add(40, (*lead, Move("waste", ids[F0 + suit])), new, -1)
            for d in targets:
                new = list(piles)
                take_from_talon(new, cards, j)
                new[d] = new[d] + (card,)
                if cover:
                    covered(new, d, card, (*lead, Move("waste", ids[d])))
                else:
                    add(20, (*lead, Move("waste", ids[d])), new, None)
        for card in tops:
            targets = fits.get(card, [])
            if card & RANK_MASK == KING and empty is not None:
                targets = [empty]
            if not targets or not (_chain_follows(card, passing, settled)
                                   or card & RANK_MASK > 2 and _below_fits(card, hosts)):
                continue
            f = F0 + ((card >> 4) & 3)
            for d in targets:
                new = list(piles)
                _move(new, f, d, 1)
                add(-10, (Move(ids[f], ids[d]),), new, -1)
        out.sort(key=_first)
        result: list[Child] = []
        biases = [item[4] for item in out]
        for _, macro, new, probe, _ in out:
            if probe is None or (probe >= 0 and not (new[probe] and new[probe][-1] in wanted)):
                result.append((macro, State(tuple(new))))
                continue
            auto = self._settle(new, in_talon)
            result.append(((*macro, *auto) if auto else macro, State(tuple(new))))
        return result, biases, skipped

    def expand(self, node: State, key: Hashable, parent: dict[Hashable, Any], fresh: Fresh,
               queue: int, pruned: bool) -> tuple[Hashable | None, bool]:
        """:meth:`Space.expand`, with a covered placement's child scored ``cover_bias``
        worse in the first ordering: the cover's gain counts as if it came a step later.
        Not the root's children: they wait in every ordering, each scored by :meth:`score`
        alone (see the search), whatever the number of orderings."""
        if parent[key] is not None and (self.relax or self.dives):
            self._expanded += 1
            expanded = self._expanded
            if self.relax and expanded % RELAX_EVERY == 0 and expanded > RELAX_AFTER and \
                    self._proofs.open:
                self._relax()
                if self.lost:
                    return None, False
            if self.dives and expanded % DIVE_EVERY == 0 and expanded > DIVE_AFTER:
                self._dive()
                if self.found:
                    return None, False
        link = parent[key]
        children, biases, skipped = self.ordered_steps(node, pruned,
                                                       () if link is None else link[1])
        if queue != 0 or parent[key] is None:
            biases = []
        score, is_won = self.score, self.is_won
        # a child whose talon is its parent's (the same tuples) has its parent's talon bytes
        # in its key (see key())
        waste, stock = node.piles[WASTE], node.piles[STOCK]
        same: bytes | None = None
        for i, (macro, child) in enumerate(children):
            piles = child.piles
            columns = sorted(map(bytes, piles[:COLUMNS]))
            if piles[WASTE] is waste and piles[STOCK] is stock:
                if same is None:
                    assert isinstance(key, bytes)
                    same = key[key.rindex(_SEP) + 1:]
                columns.append(same)
            else:
                columns.append(bytes(piles[WASTE]) + _stock_bytes(piles[STOCK]))
            ckey = _SEP.join(columns)
            if ckey in parent:
                continue
            parent[ckey] = (key, macro)
            if is_won(child):
                return ckey, skipped
            fresh.append((score(child, queue) + (biases[i] if biases else 0), ckey, child))
        return None, skipped


def _alive(macro: Macro, piles: tuple[Pile, ...]) -> bool:
    """The step ``macro`` brought a foundation card back onto a card of a column, from a
    position :func:`.klondike_dead.dead` found not dead: then this one is not dead either
    (the card can go home again, uncovering what it lay on, so the dead test's fixed point
    reaches all it reached before), and the test is spared. Not a King into an empty
    column, which takes that column's emptiness away."""
    if not macro or macro[0].src[0] != "f":
        return False
    return len(piles[int(macro[0].dst[1:])]) > 1


def _first(item: tuple[int, Macro, list[Pile], int | None, int]) -> int:
    return item[0]


def _chain_follows(card: int, passing: int, settled: int) -> bool:
    """A card placed from the talon or brought back from a foundation can be of use only
    if a card comes to lie on it (for a foundation card, or if the card under it comes back
    too): see "moves must have a use". If that card comes from the talon or a foundation,
    its own move needs a use in turn, and so on down, until a card comes from a column;
    no card can lie on an Ace, nor on a foundation Two but an Ace, so a foundation Ace or
    Two is of use only through a card put on it. True when a chain of cards one rank lower
    and the other colour each, through ``passing`` cards (talon cards, foundation Aces and
    Twos), reaches one of ``settled`` (face-up column cards, foundation cards above the
    Twos, whose uses are not followed further)."""
    reach = TAKES_BITS[card]
    while reach:
        if reach & settled:
            return True
        reach &= passing
        black = (reach | (reach >> 48)) & 0xFFFF
        red = ((reach >> 16) | (reach >> 32)) & 0xFFFF
        reach = (black >> 1) * RED_LANES | (red >> 1) * BLACK_LANES
    return False


def _below_fits(card: int, hosts: int) -> bool:
    """The card under ``card`` on its foundation (same suit, one lower) could come to lie on
    a card of ``hosts``: one of ``card``'s rank in the other colour."""
    return bool(hosts & TWINS_BITS[card])


def _king_waits(columns: tuple[Pile, ...], runs: list[int], free: int, src: int) -> bool:
    """A King could enter a column emptied now: from the talon, a foundation, or a run
    in another column with cards under it."""
    for suit in range(4):
        king = suit << 4 | KING
        if not free >> king & 1:
            continue
        for c, column in enumerate(columns):
            if king in column[len(column) - runs[c]:]:
                if c != src and column[0] != king:
                    return True
                break
        else:
            return True  # in the talon or on a foundation
    return False


def _uncovered_use(columns: tuple[Pile, ...], runs: list[int], s: int, k: int,
                   free: int, empty: int | None) -> bool:
    """Moving the top ``k`` cards of column ``s`` uncovers a face-up card E; True when E can be
    used, maybe after other such moves: a free card (not the one moved) can come to lie on
    it, or E, with the run under it, can move onto a card of another column or a free card
    (or, a King not at the bottom, into an empty column). Its foundation the caller checked."""
    column = columns[s]
    moved, uncovered = column[-k], column[-k - 1]
    if free & ~(1 << moved) & TAKES_BITS[uncovered]:
        return True
    own = set(column)
    n = len(column)
    for depth in range(k + 1, runs[s] + 1):  # E and the run cards under it
        card = column[-depth]
        for host in ONTO2[card]:
            if host and host not in own and (free >> host & 1 or any(
                    c and c[-1] == host for c in columns)):
                return True
        if card & RANK_MASK == KING and empty is not None and depth < n:
            return True
    return False


def _move(piles: list[Pile], src: int, dst: int, count: int) -> None:
    """Move ``count`` cards; an exposed face-down card flips (as the rules do)."""
    group = piles[src][-count:]
    rest = piles[src][:-count]
    if rest and rest[-1] & DOWN:
        rest = rest[:-1] + (rest[-1] & UP,)
    piles[src] = rest
    piles[dst] = piles[dst] + group


def _reveals(column: Pile, k: int) -> int:
    """1 when moving the top ``k`` cards turns a card over."""
    return 1 if len(column) > k and column[-k - 1] & DOWN else 0


def _wanted(spades: int, hearts: int, diamonds: int, clubs: int) -> tuple[int, ...]:
    """The next card of each suit, where it would be safe on its foundation (:func:`_safe`),
    given the foundations' heights."""
    key = spades | hearts << 4 | diamonds << 8 | clubs << 12
    wanted = _WANTED.get(key)
    if wanted is None:
        heights = (spades, hearts, diamonds, clubs)
        wanted = _WANTED[key] = tuple(s << 4 | heights[s] + 1 for s in range(4)
                                      if _safe(s << 4 | heights[s] + 1, heights))
    return wanted


_WANTED: dict[int, tuple[int, ...]] = {}  # foundation heights -> wanted cards (14 ** 4 at most)
_WANTED_BITS: dict[int, int] = {}  # ... as a bit mask


def _safe(card: int, heights: tuple[int, ...]) -> bool:
    """``card``, the next card of its suit, is safe on its foundation (see the module
    docstring): the foundations of the other colour hold its rank - 1, the other one of its
    colour its rank - 2; or it is an Ace or a Two (``heights``: the foundations' heights,
    by suit)."""
    suit = (card >> 4) & 3
    rank = card & RANK_MASK
    if rank > KING:
        return False
    if rank <= 2:
        return True
    a, b = OTHER_COLOUR[suit]
    return (heights[a] >= rank - 1 and heights[b] >= rank - 1
            and heights[_SAME_COLOUR[suit]] >= rank - 2)


def space(rules: KlondikeRules) -> KlondikeSpace:
    """The search space of Klondike."""
    return KlondikeSpace(rules)


def daily_space(rules: KlondikeRules) -> KlondikeSpace:
    """The space of Klondike's daily search: the one the dailies were defined with, whose
    talon cards go to a column bare (docs/solver.md §13.3) and whose dead test is the plain
    fixed point (§7.24)."""
    daily = KlondikeSpace(rules)
    daily.covers = False
    daily.relax = daily.dives = False
    daily.twins = False
    return daily
