"""Beleaguered Castle's relaxed game: a sound proof of loss at the root (docs/solver.md §9.12,
§9.23). :class:`Relaxed` searches the game with most cards known by their rank alone, where a
search to the end without a win proves the real position lost; :class:`RelaxedProbed` runs
one beside short probes of the finest game, whose win shows that no relaxed game can prove
anything. The search (castle.py) decides when they run and for how many positions; they
take rows and foundation heights (the probes also positions the search reached, through a
function it hands them), never the search itself, so they live apart from it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..rules.cards import KING
from .castle_rows import BYTE, SEP, WON
from .space import Table

_KNOWN = 0x40  # a card known by its suit too, in the relaxed game's rows


class Relaxed:
    """A search of the *relaxed game* from one position, which can be stopped and resumed.

    The relaxed game is Beleaguered Castle with most cards known by their rank alone: only
    the next ``k`` cards of each suit (above its foundation's height in the position the
    search starts from) keep their suit. A card known by its rank alone goes to any
    foundation that takes a card of its rank and whose card of that rank is not a known one
    (the real card is one of those). Row moves are as in the real game (building ignores
    suits, any card may enter an empty row: into the first one only, as the rows are kept
    sorted). Every real move is a move of the relaxed game, from the relaxed form of the
    position to the relaxed form of the next, and a real win is a relaxed win: so when the
    relaxed game, searched to the end, has no win, the real position has none either. Many
    real positions are one relaxed position (those that differ in the suits of cards known
    by rank), so the relaxed game is far smaller.
    """

    def __init__(self, rows: list[bytes] | tuple[bytes, ...], heights: tuple[int, ...],
                 k: int, root: tuple[int, ...] | None = None) -> None:
        base = heights if root is None else root
        known = {suit << 4 | rank for suit in range(4)
                 for rank in range(base[suit] + 1, min(KING, base[suit] + k) + 1)}
        table = bytearray(range(256))
        for card in range(128):
            table[card] = card | _KNOWN if card in known else card & 15
        relaxed = bytes(table)
        self._known = known
        # per foundation heights: each card (in the relaxed form) a foundation takes, the
        # suits of the foundations that take it, in order (see _homes)
        self._takes: dict[tuple[int, ...], dict[int, tuple[int, ...]]] = {}
        start = (SEP.join(sorted(row.translate(relaxed) for row in rows)), tuple(heights))
        self._seen = {start}
        self._stack = [start]
        self._shuffle: Callable[[list[Any]], None] | None = None

    def tables(self) -> list[Table]:
        """What it holds (for Space.release)."""
        return [self._seen, self._stack, self._takes]

    def _homes(self, heights: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
        """Under these foundation heights: each card (a known one with its suit, any other by
        its rank) that a foundation takes, and the suits of those foundations, lowest first:
        a known card goes to its own; one known by rank alone to any whose card of that rank
        is not a known one."""
        takes: dict[int, tuple[int, ...]] = {}
        for suit in range(4):
            rank = heights[suit] + 1
            if rank > KING:
                continue
            if suit << 4 | rank in self._known:
                takes[_KNOWN | suit << 4 | rank] = (suit,)
            else:
                takes[rank] = takes.get(rank, ()) + (suit,)
        self._takes[heights] = takes
        return takes

    def run(self, limit: int) -> tuple[bool | None, int]:
        """Search on for at most ``limit`` positions: True once a relaxed win is found, False
        once the relaxed game is searched to the end without one, None when the positions
        ran out first; and the positions spent."""
        seen, stack, cache, shuffle = self._seen, self._stack, self._takes, self._shuffle
        join = SEP.join
        spent = 0
        while stack:
            if spent >= limit:
                return None, spent
            packed, heights = stack.pop()
            spent += 1
            if heights == WON:
                return True, spent
            rows = packed.split(SEP)
            takes = cache.get(heights)
            if takes is None:
                takes = self._homes(heights)
            empty = not rows[0]  # sorted: an empty row comes first
            ends: list[list[int]] = [[], [], [], [], [], [], [], [], [], [], [], [], [], [], []]
            for d, row in enumerate(rows):
                if row:
                    ends[row[-1] & 15].append(d)
            # the children, searched in turn: foundation moves first, then the moves that
            # uncover a card a foundation takes or empty a row, then the others, moves
            # into an empty row last (a relaxed win, where there is one, comes sooner)
            later: list[tuple[bytes, tuple[int, ...]]] = []
            sooner: list[tuple[bytes, tuple[int, ...]]] = []
            found: list[tuple[bytes, tuple[int, ...]]] = []
            for s, row in enumerate(rows):
                if not row:
                    continue
                card = row[-1]
                rank = card & 15
                rest = row[:-1]
                if card in takes:
                    for suit in takes[card]:
                        new = list(rows)
                        new[s] = rest
                        new.sort()
                        grown = list(heights)
                        grown[suit] = rank
                        found.append((join(new), tuple(grown)))
                dests = ends[rank + 1]  # (none for a King: ends[14])
                if rest:
                    if empty:
                        new = list(rows)
                        new[s] = rest
                        new[0] = BYTE[card]
                        new.sort()
                        later.append((join(new), heights))
                    if not dests:
                        continue
                    useful = rest[-1] in takes
                else:
                    useful = True
                into = sooner if useful else later
                for d in dests:
                    new = list(rows)
                    new[s] = rest
                    new[d] = rows[d] + BYTE[card]
                    new.sort()
                    into.append((join(new), heights))
            if shuffle is not None:  # a probe's own order (RelaxedProbed)
                shuffle(later)
                shuffle(sooner)
                shuffle(found)
            for children in (later, sooner, found):  # (the last out first)
                for child in children:
                    if child not in seen:
                        seen.add(child)
                        stack.append(child)
        return False, spent


class RelaxedProbed:
    """A relaxed game's search (:attr:`game`) beside short searches of the finest relaxed
    game (every ``k`` known of the games the root is searched in), each in a random order
    of its own and at most ``limit`` positions, ``count`` of them, the two taking turns
    position for position. A win of the finest game is a win of every coarser one (a card
    known by its suit goes where the same card known by rank alone may go), so once a
    probe wins, no relaxed game of the root can prove it lost: this one and the ones after
    answer "won" at once. A probe's end without a win proves nothing. A deep search wins a
    relaxed game at once or not for a long while, depending on its order, so short ones in
    many orders find the wins the one search takes a hundred thousand positions for."""

    def __init__(self, rows: list[bytes] | tuple[bytes, ...], heights: tuple[int, ...],
                 k: int, count: int, limit: int, near: int,
                 reached: Callable[[bool], tuple[list[bytes], tuple[int, ...]]] | None = None
                 ) -> None:
        self._start = (list(rows), heights, k)
        self._reached = reached
        self._last: tuple[list[bytes], tuple[int, ...]] | None = None  # a probe's start
        self._count = count
        self._limit = limit
        self._near = near
        self._cap = limit  # of the probe under way
        self._probes = 0
        self._roots = 0  # of them from the root
        self._probe: Relaxed | None = None
        self._spent = 0  # by the probe under way
        self.won = False  # a probe won the finest game
        self.game: Relaxed | None = None

    def tables(self) -> list[Table]:
        """What it holds (for Space.release)."""
        return [*(self.game.tables() if self.game is not None else []),
                *(self._probe.tables() if self._probe is not None else [])]

    def run(self, limit: int) -> tuple[bool | None, int]:
        """Search on for at most ``limit`` positions, half in the probes while any is left,
        as :meth:`Relaxed.run` answers."""
        if self.won:
            return True, 0
        spent = 0
        if self._probes < self._count:
            share = limit // 2
            while share > 0 and self._probes < self._count:
                if self._probe is None:
                    rows, heights, k = self._start
                    turn = self._probes % 3
                    deep = None
                    if self._reached is not None and turn < 2:
                        deep = self._reached(turn == 0)
                        if turn == 0 and self._last is not None and deep[0] is self._last[0]:
                            deep = self._reached(False)  # the deepest was probed already
                    if deep is not None and deep[1]:
                        # from a real position the search reached (so a relaxed one the
                        # root's game reaches), where a relaxed win is often near
                        self._last = deep
                        self._probe = Relaxed(*deep, k, heights)
                        self._cap = self._near
                        seed = self._probes
                    else:
                        self._probe = Relaxed(rows, heights, k)
                        self._cap = self._limit
                        seed = self._roots
                        self._roots += 1
                    self._probe._shuffle = random.Random(seed).shuffle
                    self._spent = 0
                answer, used = self._probe.run(min(share, self._cap - self._spent))
                spent += used
                share -= used
                self._spent += used
                if answer:
                    self.won = True
                    self._probe = None
                    return True, spent
                if answer is False or self._spent >= self._cap:
                    self._probe = None
                    self._probes += 1
        assert self.game is not None
        answer, used = self.game.run(limit - spent)
        return answer, spent + used
