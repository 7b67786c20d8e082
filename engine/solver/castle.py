"""Solver hooks for Beleaguered Castle (docs/rules/beleaguered-castle.md; the design and its
proofs: docs/solver.md §9): the search space. Its relaxed game is in castle_relaxed.py, its
dead-position tests in castle_dead.py, and the packed form of the rows all three read in
castle_rows.py.

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

Dead positions have no children: :func:`stuck` (castle_dead.py) proves that no row can
ever be emptied again, following the foundations up as far as they could ever go (a win
empties every row). It runs when a position is expanded, not for every child made (most
children are positions met before), so a dead position costs one expansion; and not
where a row is empty or one move empties a row (it would say "not dead" there).

Once a search has expanded RELAX_AFTER positions, the root is also searched, a share of
the positions at a time, in a *relaxed game* (:class:`Relaxed`, castle_relaxed.py) where
most cards are known by their rank alone: every real line is a relaxed line, so a relaxed
game with no win proves the deal lost (:attr:`lost`), and until then the search goes on as
if it were not there. Beside the games of the larger k, short probes of the finest one
(:class:`RelaxedProbed`), from the root and from positions the search reached, look for a
relaxed win: a win of the finest game is a win of every coarser one, so then no relaxed
game can prove anything and the relaxed search stops.

The card just moved is not moved again, when the step that moved it was a plain move
from row to row (no foundation move with it). Proof sketch: from its new place it can go
onto the same row ends as from its old one (only its old row and its new one changed,
and going back to its old row restores the previous position), to its foundation, or to
an empty row that was empty before too (a card alone in its row is never moved to an
empty row); so each such child is the previous position or one of that position's
children, which the search has met already. Only duplicates are skipped: the positions
the search expands are the same, found with less work.

Once a search has expanded LAYER_AFTER positions, a run of cards (each a rank below the one
under it) that the empty rows let through moves as one step too (:func:`_runs`), besides
every one-card move: winning lines get shorter, and a loss still costs every position.

The search is best-first on a score that adds twice the number of steps from the root
to an estimate of the work left, so a long detour loses to a shorter line (the score
never changes which positions a complete search visits, so it cannot change a "lost").
Three orderings take turns over one table of positions met (steps weighed 2, 1 and 1;
see :mod:`engine.solver.search`), joined after LAYER_AFTER positions by a deepest-first
and a greedy one: different weights win on different deals, and a loss costs the same.
After LAYER_AFTER positions, too, each empty row of a child puts it LATE_EMPTY further
forward in the orderings (with the runs, an empty row doubles what a step can carry), and a
card taken off one a rank above it puts it LATE_SIDE further back (onto another such card
it leaves the score nearly as it was, and the orderings would wander among such exchanges).
The measurements behind these choices: docs/solver.md §9.

Once a search has expanded PROBE_AFTER positions, every PROBE_EVERY positions a *probe*
(:meth:`CastleSpace._probe`) searches the root depth first, with a space and a table of its
own, for at most PROBE_LIMIT positions (PROBE_PIECE of them at each of the search's own
expansions, so no slice waits for a whole probe), the moves in a random order of its own (seeded):
a deep search wins at once or not for a long while, depending on that order, so many short
ones win deals best-first needs a hundred thousand positions for. A probe's win is the
answer (:attr:`found`); probes never answer "lost" and never change the search's positions.
When a probe ends without a win, the finest relaxed game is tried from the position it reached
with the most cards home: a relaxed win there is a relaxed win of the root (the position is
reached by real moves), so the relaxed games stop, and the next probes (FOLLOW_PROBES) start
from that position (:meth:`CastleSpace._follow`). And once a relaxed game of the root took
more than RELAX_HARD relaxed positions to be won, the ones after it get the slow share at once.

Each position links to its parent's key only; a won line's moves are found again from
the keys (two steps from one position reach one key only when neither is a plain move,
and then both leave no "card just moved", so the line found again expands as the search
did).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from ..rules.castle import F0, ROWS, CastleRules
from ..rules.moves import Move
from ..rules.state import State
from .castle_dead import layer_dead, layer_table, stuck
from .castle_relaxed import Relaxed, RelaxedProbed
from .castle_rows import BYTE, SEP, WON
from .passes import SpaceSearch
from .proofs import RootProofs
from .space import Fresh, Space, Table

# A position, inside the search: the rows as one bytes object (each row's cards bottom
# first, rows joined by SEP), how many cards each foundation holds, the steps from the
# root, the score without the steps (kept so a child's is found from the two rows a move
# changes) and the card a plain move just moved (-1: none). The positions the search
# makes hold their rows sorted: that bytes object is their key too, so a position waiting
# costs one small tuple. The root and the positions children() makes keep the rows in
# pile order, so the moves found there name the real piles.
Node = tuple[bytes, tuple[int, ...], int, int, int]
# score weights: empty row, card, card above a lower one, loose card, depth of the cards
# the foundations take next
WEIGHTS = (4, 2, 3, 1, 1)
# weight of a step from the root, one per ordering the search takes turns between; DEEP
# makes an ordering that goes deepest first (the most promising among equals), and 0 one
# that goes by the estimate of the work left alone (greedy)
DEEP = -1000
STEP_WEIGHTS = (2, 1, 1, DEEP, 0)
# the orderings' turns: the first three in turn, and after LAYER_AFTER positions the
# deepest-first and the greedy ones too, one turn in eight each
TURNS = (0, 1, 2)
LATER_TURNS = (0, 1, 2, 0, 1, 2, 3, 4)
# the layer test (layer_dead) runs once a search has expanded this many positions, each
# run at most LAYER_LIMIT positions of its own and all runs no more than the positions
# the search expanded divided by LAYER_RATIO
LAYER_AFTER = 5000
LAYER_LIMIT = 3000
LAYER_RATIO = 8
# once a search has expanded LAYER_AFTER positions, each empty row of a child made takes
# this much more off its place in every ordering (not off the score it keeps): with runs
# moved through the empty rows as one step (_runs), each empty row doubles the cards a
# step can carry
LATE_EMPTY = 8
# ... and a child made by a plain move of a card off a card one rank above it (onto another
# such card, or into an empty row) this much further back, unless the card it uncovers is
# one a foundation takes next: onto another such card the score stays as it was, so the
# orderings would wander among such exchanges (docs/solver.md §9.28)
LATE_SIDE = 16
# the relaxed game (Relaxed): once a search has expanded RELAX_AFTER positions, the root is
# searched in it with the next k cards of each suit known, for each k of RELAX_KS in turn
# (a larger k is a stronger test and a larger search), every RELAX_EVERY positions; each
# time the k under way may spend RELAX_EVERY / its ratio more relaxed positions (the i-th
# k's ratio is RELAX_RATIOS[i], the last one for the k after): eight to each of the
# search's (a relaxed position costs about a quarter of one of the search's, and the losses
# only the relaxed game proves need 30,000 to 50,000 of them), until they have spent
# RELAX_FAST in all, then RELAX_SLOW (a quarter)
RELAX_AFTER = 1024
RELAX_KS = (2, 3, 4)
RELAX_EVERY = 256
RELAX_RATIOS = (0.125,)
RELAX_FAST = 50_000
RELAX_SLOW = 4
# the games after one that took more than RELAX_HARD relaxed positions to be won get
# RELAX_SLOW at once: of the deals searched past 5,000 positions, those whose relaxed game
# was won that slowly were all real wins, and the fast share then cost them up to a third of
# their CPU for nothing
RELAX_HARD = 5000
# from the RELAX_PROBED-th k of RELAX_KS on, the relaxed game is searched beside probes of the
# finest one (RelaxedProbed): RELAX_PROBES = (how many, positions each from the root, from a
# position the search reached); (0, 0, 0): none
RELAX_PROBED = 1
RELAX_PROBES = (24, 1000, 600)
# probes (CastleSpace._probe): once a search has expanded PROBE_AFTER positions, every
# PROBE_EVERY positions a depth-first search from the root with a table of its own, at most
# PROBE_LIMIT positions, each move's promise made worse by up to a jitter at random, seeded
# by the probe's number; probe i takes the jitter PROBE_JITTERS[i % len(PROBE_JITTERS)]
PROBE_AFTER = LAYER_AFTER
PROBE_EVERY = 1024
PROBE_LIMIT = 500
PROBE_JITTERS = (100, 1000)
# positions of a probe expanded at a time, at one expansion of the search after another: a
# whole probe takes some ms (more in the browser), which one slice of the page must not wait
PROBE_PIECE = 50
# (probes, positions): after that many probes PROBE_EVERY apart, one every that many
# positions instead (the probes that win are mostly the first few); None: PROBE_EVERY
# throughout
PROBE_LATER: tuple[int, int] | None = (8, 2048)
# follow-ups (CastleSpace._follow): when a probe ends without a win, the relaxed game of the
# finest k is searched from the position it reached with the most cards home, at most
# FOLLOW_CHECK relaxed positions; if that finds a relaxed win, no
# relaxed game of the root can prove it lost (they stop), and the next FOLLOW_PROBES probes
# start from that position, with seeds of their own; 0: none
FOLLOW_CHECK = 300
FOLLOW_PROBES = 2
FOLLOW_SEED = 1 << 20
# ... only from a position with at least FOLLOW_GAIN more cards home than the probe's start
# (nearer, the relaxed game is mostly lost or big: a check for nothing)
FOLLOW_GAIN = 5


class CastleSpace(Space[Node]):
    """Beleaguered Castle's search space, over :data:`Node` positions."""

    rules: CastleRules
    best_first = True
    links_macros = False

    def __init__(self, rules: CastleRules,
                 weights: tuple[int, ...] = WEIGHTS,
                 step_weights: tuple[int, ...] = STEP_WEIGHTS) -> None:
        super().__init__(rules)
        self._weights = weights
        self._steps = step_weights
        self.queues = len(step_weights)
        if step_weights == STEP_WEIGHTS:
            self.turns = TURNS
            self.later = (LAYER_AFTER, LATER_TURNS)
        # per foundation heights: each row's share of the score (see _memo)
        self._memos: dict[tuple[int, ...], tuple[bytes, dict[bytes, int], bytes]] = {}
        ids = rules.pile_ids
        self._to_foundation = {(s, f): Move(ids[s], ids[F0 + f]) for s in range(ROWS)
                               for f in range(4)}
        self._row_moves = {s << 4 | d: Move(ids[s], ids[d])  # by src << 4 | dst
                           for s in range(ROWS) for d in range(ROWS)}
        # the layer test: positions expanded, its own positions spent, and per foundation
        # heights the rows (in its form) proved dead or met by a run that proved nothing
        self.layers = True
        # runs moved through the empty rows as one step (_runs), once a search has expanded
        # LAYER_AFTER positions
        self.runs = True
        self._expanded = 0
        self._spent = 0
        self._layers: dict[tuple[int, ...], tuple[bytes, set[bytes], set[bytes]]] = {}
        # the relaxed game's searches of the root (see _relax), one for each k of RELAX_KS;
        # lost: the root is proved lost
        self.relax = True
        self._root: tuple[list[bytes], tuple[int, ...]] | None = None
        self._proofs = RootProofs(len(RELAX_KS), self._relaxed_game)
        self._probed: RelaxedProbed | None = None
        # the most relaxed positions a game of the root took to be won, and the relaxed
        # positions spent when the game under way began
        self._hard = 0
        self._began = 0
        # of the positions the search expanded, one with the most cards home (the last
        # met): cards home, its rows and its foundations
        self._deepest: tuple[int, list[bytes], tuple[int, ...]] = (-1, [], ())
        self._recent: tuple[list[bytes], tuple[int, ...]] = ([], ())  # expanded last
        # the probes (see _probe): on or off, how many were run, the position searched, and
        # in a probe's own space the random order of its moves
        self.probes = True
        self._probes = 0
        self._probe_next = (PROBE_AFTER // PROBE_EVERY + 1) * PROBE_EVERY  # at _expanded
        self._probing: SpaceSearch | None = None  # the probe under way
        self._start: State | None = None
        self._jitter: tuple[random.Random, int] | None = None
        # a probe's position with the most cards home: its key (see _follow); the follow-ups
        # waiting to start (how their position was reached, see _real; the position; its
        # cards home), how many were started, and those of the probe under way
        self._deep_key: Hashable = None
        self._follows: list[tuple[Any, State, int]] = []
        self._followed = 0
        self._prefix: tuple[Any, State, int] = (None, None, 0)  # type: ignore[arg-type]

    def release(self) -> list[Table]:
        memos, self._memos = self._memos, {}
        layers, self._layers = self._layers, {}
        return [memos, layers, *(part for _, *parts in layers.values() for part in parts),
                *self._proofs.release()]

    def settle(self, state: State) -> tuple[tuple[Move, ...], Node]:
        """The search's root: ``state`` as a :data:`Node`, after every safe foundation move."""
        rows = [bytes(p) for p in state.piles[:ROWS]]
        heights = [len(p) for p in state.piles[F0:F0 + 4]]
        moves = _settle(rows, heights, self._to_foundation)
        self._root = (list(rows), tuple(heights))
        self._start = state
        return tuple(moves), (SEP.join(rows), tuple(heights), 0, self._static(rows, heights),
                              -1)

    def key(self, node: Node) -> bytes:
        """The rows, sorted."""
        return SEP.join(sorted(node[0].split(SEP)))

    def is_won(self, node: Node) -> bool:
        """Every foundation up to its King."""
        return node[1] == WON

    def score(self, node: Node, queue: int = 0) -> int:
        """Cards still in rows, cards above a lower card of their row, cards above the card a
        foundation takes next, steps from the root (weighed by the current ordering); empty
        rows help."""
        return node[3] + self._steps[queue] * node[2]

    def _static(self, rows: list[bytes] | tuple[bytes, ...], heights: tuple[int, ...] | list[int]
                ) -> int:
        """The score without the steps: each row's share (see :meth:`_memo`)."""
        nexts, memo, _ = self._memo(tuple(heights))
        total = 0
        for row in rows:
            value = memo.get(row)
            if value is None:
                value = memo[row] = self._row_score(row, nexts)
            total += value
        return total

    def _memo(self, heights: tuple[int, ...]) -> tuple[bytes, dict[bytes, int], bytes]:
        """Under these foundation heights: the cards the foundations take next, the rows'
        shares of the score met so far (see :meth:`_row_score`), and the cards of the first
        that are safe to send up (rank at most 2 above the lowest foundation, see _settle)."""
        found = self._memos.get(heights)
        if found is None:
            nexts = bytes(suit << 4 | (height + 1)
                          for suit, height in enumerate(heights) if height < 13)
            low2 = min(heights) + 2
            found = self._memos[heights] = (nexts, {},
                                            bytes(c for c in nexts if (c & 15) <= low2))
        return found

    def _row_score(self, row: bytes, nexts: bytes) -> int:
        """A row's share of the score: per card, more for a card above a lower one of its
        row, a little for a card not one rank below the card under it, and how deep the
        cards the foundations take next lie in it; an empty row takes off."""
        empty, card_weight, block, loose, need = self._weights
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
        if need:
            last = len(row) - 1
            for card in nexts:
                i = row.find(card)
                if i >= 0:
                    total += need * (last - i)
        return total

    def _layer_dead(self, rows: bytes, heights: tuple[int, ...], nexts: bytes) -> bool:
        """:func:`layer_dead` within the positions it may still spend, its answers kept."""
        allowed = min(LAYER_LIMIT, self._expanded // LAYER_RATIO - self._spent)
        if allowed <= 0:
            return False
        layer = self._layers.get(heights)
        if layer is None:
            layer = self._layers[heights] = (layer_table(nexts), set(), set())
        answer, spent = layer_dead(rows, *layer, allowed)
        self._spent += spent
        return answer is True

    def _relaxed_game(self, i: int) -> Relaxed | RelaxedProbed:
        """The root's relaxed game (:class:`Relaxed`) of the i-th k of RELAX_KS; from the
        RELAX_PROBED-th on, searched beside probes of the finest one (:class:`RelaxedProbed`),
        and once one of those has won, a game known to be won."""
        assert self._root is not None
        if i:  # the game before was won (else the root would be lost): after how many
            spent = self._proofs.spent
            self._hard = max(self._hard, spent - self._began)
            self._began = spent
        game = Relaxed(*self._root, RELAX_KS[i])
        if i < RELAX_PROBED or not RELAX_PROBES[0]:
            return game
        if self._probed is None:
            self._probed = RelaxedProbed(*self._root, RELAX_KS[-1], *RELAX_PROBES,
                                         self._reached)
        self._probed.game = game
        return self._probed

    def _reached(self, deepest: bool) -> tuple[list[bytes], tuple[int, ...]]:
        """Of the positions the search expanded, the last met with the most cards home, or
        else the last one."""
        if deepest:
            _, rows, heights = self._deepest
            return rows, heights
        return self._recent

    def _relax(self) -> None:
        """Go on searching the root in the relaxed games (engine/solver/proofs.py), the
        k-th's share of positions 1 in RELAX_RATIOS[k]: one that is lost proves the root
        lost (:attr:`lost`)."""
        if self._root is None:
            return
        proofs = self._proofs
        ratio = RELAX_RATIOS[min(proofs.next, len(RELAX_RATIOS) - 1)]
        if proofs.spent >= RELAX_FAST or self._hard > RELAX_HARD:
            ratio = RELAX_SLOW
        if proofs.go(RELAX_EVERY / ratio):
            self.lost = True

    def _probe(self) -> None:
        """Start a probe: a search of the position this space started from, depth first,
        with a table of its own and at most PROBE_LIMIT positions, the moves in an order of
        this probe's own (:meth:`_probe_on` runs it; if it wins, :attr:`found` holds the
        moves). A deep search meets its first wins after a few hundred positions or not for
        a long while, and which depends on the order of the moves: so many short ones in
        orders of their own win deals that best-first needs a hundred thousand positions
        for. They never change the search's positions."""
        if self._start is None:
            return
        space = CastleSpace(self.rules, self._weights, self._steps)
        space.relax = space.probes = False
        space._expanded = LAYER_AFTER + 1  # runs as one step from the first position
        if self._follows:  # a follow-up (_follow)
            self._prefix = self._follows.pop()
            seed = FOLLOW_SEED + self._followed
            space._jitter = (random.Random(seed), PROBE_JITTERS[seed % len(PROBE_JITTERS)])
            self._followed += 1
        else:
            space._jitter = (random.Random(self._probes),
                             PROBE_JITTERS[self._probes % len(PROBE_JITTERS)])
            self._probes += 1
            assert self._root is not None
            self._prefix = (None, self._start, sum(self._root[1]))
        self._probing = SpaceSearch(space, self._prefix[1], deep=True)

    def _probe_on(self) -> None:
        """Run the probe under way for PROBE_PIECE more positions; it ends at PROBE_LIMIT."""
        probe = self._probing
        if probe is None:
            return
        probe.run(float("inf"), min(PROBE_PIECE, PROBE_LIMIT - probe.nodes))
        if probe.result == "won":
            self.found = self._real(self._prefix[0], self._prefix[1], probe.moves)
        elif probe.nodes >= PROBE_LIMIT and FOLLOW_PROBES:
            self._follow(probe)
        if probe.result is not None or probe.nodes >= PROBE_LIMIT:
            self._probing = None

    def _follow(self, probe: SpaceSearch) -> None:
        """After a probe that ran out: if the relaxed game of the finest k (with the root's
        known cards) is won from the position the probe reached with the most cards home,
        within FOLLOW_CHECK relaxed positions, that is a relaxed win of the root (the
        position is reached by real moves, which are relaxed moves), so no relaxed game of
        the root is lost and they stop; and the next FOLLOW_PROBES probes (in the probes'
        turns) start from there, as a real win is often near (their moves then follow the
        moves to it). Only from a position with FOLLOW_GAIN more cards home than the probe's
        start, and while none is waiting."""
        space = probe.space
        assert isinstance(space, CastleSpace) and self._root is not None
        up, rows, heights = space._deepest
        prefix, state, home = self._prefix
        if up < home + FOLLOW_GAIN or self._follows:
            return
        if not Relaxed(rows, heights, RELAX_KS[-1], self._root[1]).run(FOLLOW_CHECK)[0]:
            return
        if self._proofs.open:
            self._proofs.release()
        # the follow-ups start from the position with its rows as the probe keeps them
        # (sorted); the moves to it are found only if one wins (_real)
        start = State((*(tuple(row) for row in rows),
                       *(tuple(suit << 4 | rank for rank in range(1, height + 1))
                         for suit, height in enumerate(heights))))
        self._follows = [((prefix, state, probe, space._deep_key), start, up)] * FOLLOW_PROBES

    def _real(self, how: Any, start: State, moves: list[Move]) -> list[Move]:
        """The real moves from the root for ``moves`` played from ``start``: ``how`` is None
        for the root, or for a follow-up (``how`` of the probe before, its start, that probe,
        the key of the position the follow-up starts from). The moves to that position are
        found again from the probe's links, made real in turn, and played; the position
        reached has the follow-up's rows in another order, so its moves are renamed to the
        rows holding the same cards (rows are interchangeable; empty ones in order)."""
        if how is None:
            return moves
        before, origin, probe, key = how
        line = self._real(before, origin, [move for macro in probe._line(key) for move in macro])
        state = self._start
        assert state is not None
        for move in line:
            state = self.rules.apply(state, move)
        ids = self.rules.pile_ids
        where = {state.piles[j]: j for j in range(ROWS) if state.piles[j]}
        empty = [j for j in range(ROWS) if not state.piles[j]]
        names = {ids[i]: ids[where[row] if row else empty.pop(0)]
                 for i, row in enumerate(start.piles[:ROWS])}
        return line + [Move(names.get(move.src, move.src), names.get(move.dst, move.dst),
                            move.count) for move in moves]

    def children(self, node: Node) -> list[tuple[tuple[Move, ...], Node]]:
        """Foundation moves, then moves onto a card one rank higher, then into one empty row
        (most promising last); none from a position where no row can ever be emptied again."""
        out: list = []
        self.expand(node, None, None, out, 0, False)
        return out

    def expand(self, node: Node, key: Hashable, parent: dict[Hashable, Any] | None, out: Fresh,
               queue: int, pruned: bool) -> tuple[Hashable | None, bool]:
        """:meth:`Space.expand` (nothing is pruned here), with the key, the win test and the
        score made inline (a child met before is dropped before its score is worked out);
        with ``parent`` None, :meth:`children`: every child, as ``(macro, child)``."""
        packed, heights, steps, static, moved = node
        rows = packed.split(SEP)
        found = self._memos.get(heights)
        nexts, memo, safe = found if found is not None else self._memo(heights)
        row_score = self._row_score
        # rank -> rows ending in it
        onto: list[list[int]] = [[], [], [], [], [], [], [], [], [], [], [], [], [], [], []]
        empty = -1
        for d, row in enumerate(rows):
            if row:
                onto[row[-1] & 15].append(d)
            elif empty < 0:
                empty = d
        # moves as one number each, (200 - how promising) << 12 | cards << 8 | src << 4 | dst,
        # dst >= ROWS for a foundation, cards 0 for one card, else a run's length (_runs)
        scored: list[int] = []
        frees = empty >= 0  # a row is empty, or a move empties one: not stuck()
        home = False  # a card can go to its foundation
        for s, row in enumerate(rows):
            if not row:
                continue
            card = row[-1]
            # what the move uncovers: a card its foundation takes next is worth most
            if len(row) > 1:
                if card == moved:
                    continue
                uncover = 30 if row[-2] in nexts else 0
                if empty >= 0:
                    scored.append((215 - uncover) << 12 | s << 4 | empty)
            else:
                if card in nexts or onto[(card & 15) + 1]:
                    frees = True
                if card == moved:
                    continue
                uncover = 20
            if card in nexts:
                home = True
                scored.append((100 - uncover) << 12 | s << 4 | (ROWS + (card >> 4)))
            for d in onto[(card & 15) + 1]:
                scored.append((190 - uncover) << 12 | s << 4 | d)
        if not frees and stuck(rows, heights):
            return None, False  # no row can ever be emptied again
        expanded = self._expanded
        if parent is not None:
            expanded = self._expanded = expanded + 1
            if expanded % RELAX_EVERY == 0 and expanded > RELAX_AFTER and \
                    self.relax and self._proofs.open:
                self._recent = (rows, heights)
                self._relax()
                if self.lost:
                    return None, False
            if self.probes and (self._probing is not None
                                or expanded >= self._probe_next):
                if self._probing is None:
                    later = PROBE_LATER  # (follow-ups take their turns among the probes)
                    self._probe_next += PROBE_EVERY \
                        if later is None or self._probes + self._followed < later[0] \
                        else later[1]
                    self._probe()
                self._probe_on()
                if self.found:
                    return None, False
            if not home and self.layers and expanded > LAYER_AFTER and \
                    self._layer_dead(packed, heights, nexts):
                return None, False  # no card can ever go to a foundation again
            if queue >= 0 or self._jitter is not None:
                up = sum(heights)
                if up >= self._deepest[0]:  # (the relaxed game's probes start there)
                    self._deepest = (up, rows, heights)
                    self._deep_key = key
        if empty >= 0 and self.runs and expanded > LAYER_AFTER:
            _runs(rows, onto, nexts, scored, empty)
        # the most promising last: among equal scores the search takes the newest first
        if self._jitter is None:
            scored.sort(reverse=True)
        else:  # a probe's own order (_probe): each move's promise made up to a jitter worse
            rng, jitter = self._jitter[0].random, self._jitter[1]
            scored.sort(key=lambda code: (code >> 12) + rng() * jitter, reverse=True)
        steps += 1
        to_foundation, row_moves = self._to_foundation, self._row_moves
        join = SEP.join
        step = self._steps[queue] * steps
        late = LATE_EMPTY if expanded > LAYER_AFTER else 0
        if parent is not None and queue >= 0:
            return self._fresh(rows, heights, steps, static, nexts, memo, scored, key, parent,
                               out, step, safe, late)
        for code in scored:
            s = code >> 4 & 15
            d = code & 15
            new = list(rows)
            src = rows[s]
            card = src[-1]
            run = code >> 8 & 15
            if run:  # a run of cards through the empty rows
                row = new[s] = src[:-run]
                grow = new[d] = rows[d] + src[-run:]
                if row and row[-1] in safe:
                    grown = list(heights)
                    auto = _settle(new, grown, to_foundation)
                    after = tuple(grown)
                else:
                    after = heights
                    auto = []
                plain = False
            elif d >= ROWS:
                row = new[s] = src[:-1]
                grown = list(heights)
                grown[d - ROWS] += 1
                auto = _settle(new, grown, to_foundation)
                after = tuple(grown)
                plain = False
            else:
                row = new[s] = src[:-1]
                grow = new[d] = rows[d] + BYTE[card]
                # only the uncovered card can have become safe
                if row and row[-1] in safe:
                    grown = list(heights)
                    auto = _settle(new, grown, to_foundation)
                    after = tuple(grown)
                    plain = False
                else:
                    after = heights
                    plain = True
            if parent is not None:
                ckey = join(sorted(new))
                if ckey in parent:
                    continue
                parent[ckey] = key  # the solver finds the macro again for a won line
                if after == WON:
                    return ckey, False
            if queue < 0:  # depth first: no score
                out.append((0, ckey, (ckey, after, steps, 0, card if plain else -1)))
                continue
            if plain or (run and after is heights):  # two rows changed
                a = memo.get(row)
                if a is None:
                    a = memo[row] = row_score(row, nexts)
                b = memo.get(grow)
                if b is None:
                    b = memo[grow] = row_score(grow, nexts)
                value = static - memo[src] - memo[rows[d]] + a + b
            else:
                value = self._static(new, after)
            child = (ckey if parent is not None else join(new), after, steps, value,
                     card if plain else -1)
            if parent is None:
                if plain:
                    macro = (row_moves[code & 255],)
                elif run:
                    free = [e for e in range(ROWS) if not rows[e] and e != d]
                    macro = (*(row_moves[a << 4 | b] for a, b in _run_moves(s, d, run, free)),
                             *auto)
                else:
                    first = to_foundation[(s, d - ROWS)] if d >= ROWS else row_moves[code & 255]
                    macro = (first, *auto)
                out.append((macro, child))
            else:
                out.append((value + step - late * new.count(b"") if late else value + step,
                            ckey, child))
        return None, False


    def _fresh(self, rows: list[bytes], heights: tuple[int, ...], steps: int, static: int,
               nexts: bytes, memo: dict[bytes, int], scored: list[int], key: Hashable,
               parent: dict[Hashable, Any], out: Fresh, step: int, safe: bytes, late: int
               ) -> tuple[Hashable | None, bool]:
        """The best-first part of :meth:`expand`: the children of ``scored``'s moves, in that
        order, the ones not met before keyed, linked and scored into ``out``. It makes the
        same children as the general loop there (which :meth:`children` and depth-first
        use), with less work for the plain moves from row to row, most of the moves: no
        copy of the rows sorted anew (a list sorted in place), the empty rows counted from
        the parent's, the rows' shares of the score looked up once."""
        to_foundation = self._to_foundation
        join = SEP.join
        row_score = self._row_score
        empties = rows.count(b"")
        append = out.append
        for code in scored:
            s = code >> 4 & 15
            d = code & 15
            src = rows[s]
            if code & 0xF08:  # (a run's length, or dst >= ROWS: a foundation)
                # a run or a foundation move: the general way
                new = list(rows)
                run = code >> 8 & 15
                if run:
                    row = new[s] = src[:-run]
                    grow = new[d] = rows[d] + src[-run:]
                    if row and row[-1] in safe:
                        grown = list(heights)
                        _settle(new, grown, to_foundation)
                        after = tuple(grown)
                    else:
                        after = heights
                else:
                    new[s] = src[:-1]
                    grown = list(heights)
                    grown[d - ROWS] += 1
                    _settle(new, grown, to_foundation)
                    after = tuple(grown)
                ckey = join(sorted(new))
                if ckey in parent:
                    continue
                parent[ckey] = key
                if after == WON:
                    return ckey, False
                if after is heights:  # two rows changed
                    a = memo.get(row)
                    if a is None:
                        a = memo[row] = row_score(row, nexts)
                    b = memo.get(grow)
                    if b is None:
                        b = memo[grow] = row_score(grow, nexts)
                    value = static - memo[src] - memo[rows[d]] + a + b
                    empty = empties + (not row) - (not rows[d])
                else:
                    value = self._static(new, after)
                    empty = new.count(b"")
                append((value + step - late * empty if late else value + step, ckey,
                        (ckey, after, steps, value, -1)))
                continue
            row = src[:-1]
            dst = rows[d]
            card = src[-1]
            grow = dst + BYTE[card]
            new = list(rows)
            new[s] = row
            new[d] = grow
            # only the uncovered card can have become safe
            if row and row[-1] in safe:
                grown = list(heights)
                _settle(new, grown, to_foundation)
                ckey = join(sorted(new))
                if ckey in parent:
                    continue
                parent[ckey] = key
                after = tuple(grown)
                if after == WON:
                    return ckey, False
                value = self._static(new, after)
                append((value + step - late * new.count(b"") if late else value + step, ckey,
                        (ckey, after, steps, value, -1)))
                continue
            new.sort()
            ckey = join(new)
            if ckey in parent:
                continue
            parent[ckey] = key
            a = memo.get(row)
            if a is None:
                a = memo[row] = row_score(row, nexts)
            b = memo.get(grow)
            if b is None:
                b = memo[grow] = row_score(grow, nexts)
            value = static - memo[src] - memo[dst] + a + b
            if late:
                place = value + step - late * (empties + (not row) - (not dst))
                if row and (row[-1] & 15) == (card & 15) + 1 and row[-1] not in nexts:
                    place += LATE_SIDE  # a card taken off the one a rank above it
                append((place, ckey, (ckey, heights, steps, value, card)))
            else:
                append((value + step, ckey, (ckey, heights, steps, value, card)))
        return None, False


def _runs(rows: list[bytes], onto: list[list[int]], nexts: bytes, scored: list[int],
          free: int) -> None:
    """Append to ``scored`` (coded as in CastleSpace.expand) the moves of runs of two cards
    or more (each a rank below the one under it, any suits) through the empty rows: with
    ``e`` empty rows, a run of up to ``2 ** e`` cards onto a card one rank above its lowest,
    or of up to ``2 ** (e - 1)`` into an empty row (:func:`_run_moves`); ``free`` is the
    first empty row."""
    cap = 1 << rows.count(b"")
    for s, row in enumerate(rows):
        size = len(row)
        if size < 2:
            continue
        uncover = 0
        run = 1
        while run < size and run < cap and (row[-run - 1] & 15) == (row[-run] & 15) + 1:
            run += 1
            if run < size:
                uncover = 30 if row[-run - 1] in nexts else 0
            else:
                uncover = 20
            for d in onto[(row[-run] & 15) + 1]:
                scored.append((185 - uncover) << 12 | run << 8 | s << 4 | d)
            if run < size and run <= cap >> 1:
                scored.append((210 - uncover) << 12 | run << 8 | s << 4 | free)


def _run_moves(src: int, dst: int, cards: int, free: list[int]) -> list[tuple[int, int]]:
    """The one-card moves (from, to) that carry the top ``cards`` of row ``src`` onto row
    ``dst`` through the empty rows ``free`` (at most ``2 ** len(free)`` cards): the upper
    half into an empty row, the rest onto ``dst``, the upper half after it, each through the
    other empty rows."""
    if cards == 1:
        return [(src, dst)]
    spare, rest = free[0], free[1:]
    upper = cards // 2
    return (_run_moves(src, spare, upper, rest) + _run_moves(src, dst, cards - upper, rest)
            + _run_moves(spare, dst, upper, rest))


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
