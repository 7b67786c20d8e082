"""One search of one space from one root: the pruned pass, then the complete pass, each
best-first over the space's orderings or depth-first (docs/solver.md §4, §5).

:class:`~engine.solver.search.Solver` runs one or two of these in slices and answers for
the page and the command line; a space may run more of its own (Castle's probes), which is
why this module imports no space and no registry of them.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Hashable
from typing import Any

from ..rules.moves import Move
from ..rules.state import State
from .space import Child, Macro, Space, Table

# Loop turns between clock readings: a Klondike position can take a millisecond or more to
# expand in the browser, so a slice of a few ms must look at the clock often.
_CHECK_EVERY = 4


class _Frame:
    """One state on the depth-first path and the steps from it not yet tried."""

    __slots__ = ("state", "children", "next")

    def __init__(self, state: State) -> None:
        self.state = state
        self.children: list[Child] | None = None
        self.next = 0


class SpaceSearch:
    """One search of one space from the root: a pruned pass if the space has one, then the
    complete pass. :meth:`run` expands states until a deadline or a node quota."""

    def __init__(self, space: Space[Any], start: State, deep: bool = False) -> None:
        self.space = space
        self.deep = deep  # depth-first from the root, every child once, no scores
        self.nodes = 0
        self.result: str | None = None  # "won" or "lost" once decided
        self.moves: list[Move] = []
        self.dropped: list[Table] = []  # tables let go of, until Solver.released() takes them
        self._root_auto, self._root = space.settle(start)
        self.pruned = space.can_prune  # in the pruned pass (which cannot prove a loss)
        self._empty()
        self._reset()
        if space.is_won(self._root):
            self._won([self._root_auto])

    def _reset(self) -> None:
        """Start a pass from the root."""
        self._drop()
        root = self._root
        root_key = self.space.key(root)
        # depth-first: the path of macros and a frame per state on it
        self._path: list[Macro] = [self._root_auto]
        self._stack = [_Frame(root)]
        self._seen: set[Hashable] = {root_key}
        # best-first: a frontier per ordering the space has (Space.queues); parent link of
        # each key; the keys expanded already (with several orderings the root's children
        # wait in every frontier)
        self._frontiers = [frontier([(0, root_key, root)]) for _ in range(self.space.queues)]
        # (a link is (parent key, macro), or the parent key alone: Space.links_macros)
        self._parent: dict[Hashable, Any] = {root_key: None}
        self._done: set[Hashable] = set()  # of those in several frontiers, the expanded
        self._shared: set[Hashable] = {root_key}
        self._turn = 0
        self._late = False  # taking the space's later turns (Space.later)
        self._partial: list[tuple[Hashable, State]] = []  # expanded in part by a pruned pass
        # deep: the states met and not expanded yet, the newest on top
        self._deep: list[tuple[Hashable, Any]] | None = [(root_key, root)] if self.deep else None

    def _won(self, macros: list[Macro]) -> None:
        self.result = "won"
        self.moves = [move for macro in macros for move in macro]
        self._drop()

    def _empty(self) -> None:
        self._path, self._stack, self._frontiers = [], [], []
        self._seen, self._parent, self._done, self._shared = set(), {}, set(), set()
        self._partial = []
        self._deep = None

    def tables(self) -> list[Table]:
        """The containers the search holds now, the frontiers' parts too."""
        parts = [part for frontier in self._frontiers for part in frontier]
        return [self._path, self._stack, self._frontiers, *parts, self._seen, self._parent,
                self._done, self._shared, self._partial, *([self._deep] if self._deep else [])]

    def _drop(self) -> None:
        """Let go of the tables: they wait in :attr:`dropped` (the empty ones need no freeing)."""
        self.dropped += [table for table in self.tables() if table]
        self._empty()

    def run(self, deadline: float, quota: int) -> int:
        """Expand up to ``quota`` states before ``deadline``; the number expanded."""
        before = self.nodes
        while self.result is None:
            ran_out = self._search(deadline, before + quota)
            if self.result is None and self.space.lost:  # the space proved the root lost
                self.result = "lost"
                self._drop()
            elif self.result is None and self.space.found:  # the space's own search won
                self.result, self.moves = "won", list(self.space.found)
                self._drop()
            elif not ran_out:
                break
            elif self.pruned:  # the pruned pass ran out: the complete pass next
                self._complete_pass()
            else:  # the complete pass ran out: no win anywhere
                self.result = "lost"
                self._drop()
        return self.nodes - before

    def _search(self, deadline: float, until: int) -> bool:
        """The current pass's search; True when it ran out of states."""
        if self._deep is not None:
            return self._deep_first(deadline, until)
        space = self.space
        if space.best_first:
            if space.later is not None and not self._late:
                after = space.later[0]
                if self.nodes < after:
                    if self._best_first(deadline, min(until, after)):
                        return True
                    if self.result is not None or self.nodes < after:
                        return False  # won, or out of time or quota
                self._begin_later()
            return self._best_first(deadline, until)
        return self._depth_first(deadline, until)

    def _begin_later(self) -> None:
        """Take the later turns (:attr:`Space.later`): each ordering that had no turn yet
        starts from every state waiting in the first ordering's frontier (they wait in both,
        and whichever expands one first marks it done)."""
        space, frontiers, done = self.space, self._frontiers, self._done
        self._late = True
        self._turn = 0
        if not frontiers:
            return
        early = set(space.turns or range(space.queues))
        waiting = [(key, state) for bucket in frontiers[0][0].values()
                   for _, key, state in bucket if key not in done]
        for queue in range(len(frontiers)):
            if queue not in early:
                self.dropped += [frontiers[queue], *frontiers[queue]]
                frontiers[queue] = frontier(
                    [(space.score(state, queue), key, state) for key, state in waiting])
        self._shared.update(key for key, _ in waiting)

    def _deep_first(self, deadline: float, until: int) -> bool:
        """Depth-first, for the second search of a portfolio (:class:`Solver`): the newest
        state met first, its children met at once (each state is met, and expanded, once,
        as in best-first), the space's step order kept and no scores worked out; True when
        no state is left waiting."""
        stack, parent, partial, pruned = self._deep, self._parent, self._partial, self.pruned
        expand = self.space.expand
        clock = time.perf_counter
        nodes = self.nodes
        fresh: list[tuple[int, Hashable, Any]] = []
        pop, extend = stack.pop, stack.extend
        try:
            while stack:
                if nodes >= until or (nodes % _CHECK_EVERY == 0 and (
                        clock() >= deadline or self.space.lost or self.space.found)):
                    return False
                key, state = pop()
                nodes += 1
                fresh.clear()
                won, skipped = expand(state, key, parent, fresh, -1, pruned)
                if skipped:
                    partial.append((key, state))
                if won is not None:
                    self.nodes = nodes
                    self._won(self._line(won))
                    return False
                extend([(ckey, child) for _, ckey, child in fresh])
            return True
        finally:
            self.nodes = nodes

    def _complete_pass(self) -> None:
        """After the pruned pass: search again every state that pass expanded only in part.

        Best-first keeps what the pruned pass saw: its states were expanded fully except
        those it noted, and those are searched again with every move (the states they reach
        that are new join the search as usual), so every state reachable with every move is
        expanded once more at most. Depth-first starts over.
        """
        space = self.space
        self.pruned = False
        if self.deep:
            self._deep, self._partial = self._partial, []
            return
        if not space.best_first:
            self._reset()
            return
        self.dropped += [self._frontiers, *(part for each in self._frontiers for part in each)]
        self._frontiers = []
        for queue in range(space.queues):
            self._frontiers.append(frontier(
                [(space.score(state, queue), key, state) for key, state in self._partial]))
        self._done.difference_update(key for key, _ in self._partial)
        if space.queues > 1:  # they wait in every frontier again
            self._shared.update(key for key, _ in self._partial)
        self.dropped.append(self._partial)
        self._partial = []

    def _best_first(self, deadline: float, until: int) -> bool:
        """Best-first; True when the pass ran out of states.

        A frontier holds the states waiting, lowest score first and, among equal scores,
        the one met last first (see :func:`frontier`). With several orderings
        (:attr:`Space.queues`) they take turns (:attr:`Space.turns`): a turn expands the
        best state of one ordering's frontier, and the new states it reaches join that
        frontier only (the root's children join every one). So each ordering searches on
        from what it found itself, as if alone, while the table of states met is shared:
        no state is expanded twice, every state met waits somewhere, and a complete pass
        that runs out has expanded every reachable state once, as with one ordering.
        """
        space, frontiers, parent, done = self.space, self._frontiers, self._parent, self._done
        expand, partial, pruned = space.expand, self._partial, self.pruned
        rescore = space.rescore
        clock = time.perf_counter
        push, pop = heapq.heappush, heapq.heappop
        nodes = self.nodes
        queues = len(frontiers)
        turns = (space.later[1] if self._late and space.later is not None else space.turns
                 ) or tuple(range(queues))
        buckets, scores = frontiers[0]
        fresh: list[tuple[int, Hashable, Any]] = []  # the children each expansion adds
        shared = self._shared  # the root's children: they wait in every frontier
        turn = queue = self._turn
        try:
            while True:
                if queues > 1:  # the next ordering that still holds a state not expanded yet
                    for _ in turns:
                        queue = turns[turn]
                        buckets, scores = frontiers[queue]
                        while scores:
                            bucket = buckets[scores[0]]
                            while bucket and bucket[-1][1] in done:
                                bucket.pop()
                            if bucket:
                                break
                            del buckets[pop(scores)]
                        if scores:
                            break
                        turn = (turn + 1) % len(turns)
                if not scores:
                    return True
                if nodes % _CHECK_EVERY == 0 and (
                        clock() >= deadline or space.lost or space.found):
                    return False  # (the turn is taken when the search goes on)
                if nodes >= until:
                    return False
                if queues > 1:
                    turn = (turn + 1) % len(turns)
                low = scores[0]
                bucket = buckets[low]
                _, key, state = bucket.pop()
                if not bucket:
                    del buckets[low]
                    pop(scores)
                if rescore is not None:
                    now = rescore(state, low)
                    if now > low:  # its score grew while it waited: back in its place
                        join(buckets, scores, (now, key, state))
                        continue
                nodes += 1
                fresh.clear()
                won, skipped = expand(state, key, parent, fresh, queue, pruned)
                if skipped:
                    partial.append((key, state))
                if won is not None:
                    self.nodes = nodes
                    self._won(self._line(won))
                    return False
                if queues > 1 and key in shared:  # not to be expanded again from another frontier
                    done.add(key)
                    if parent[key] is None:  # the root: its children join every ordering
                        for other, (each, ranks) in enumerate(frontiers):
                            for _, ckey, child in fresh:
                                join(each, ranks, (space.score(child, other), ckey, child))
                        shared.update(ckey for _, ckey, _ in fresh)
                        continue
                for item in fresh:  # (join, written out: the loop is hot)
                    bucket = buckets.get(item[0])
                    if bucket is None:
                        buckets[item[0]] = [item]
                        push(scores, item[0])
                    else:
                        bucket.append(item)
        finally:
            self._turn, self.nodes = turn, nodes

    def _line(self, key: Hashable) -> list[Macro]:
        """The macros from the root to the state of ``key``, by the parent links (or, for a
        space that links keys only, by the keys: each step is found again among the
        children of the state before)."""
        space, parent = self.space, self._parent
        if space.links_macros:
            macros: list[Macro] = []
            link = parent[key]
            while link is not None:
                key, macro = link
                macros.append(macro)
                link = parent[key]
            macros.append(self._root_auto)
            return macros[::-1]
        keys = [key]
        while (key := parent[key]) is not None:
            keys.append(key)
        macros = [self._root_auto]
        state = self._root
        for key in reversed(keys[:-1]):
            macro, state = next((macro, child) for macro, child in space.children(state)
                                if space.key(child) == key)
            macros.append(macro)
        return macros

    def _depth_first(self, deadline: float, until: int) -> bool:
        """Depth-first; True when the pass ran out of states."""
        space, stack, path, seen = self.space, self._stack, self._path, self._seen
        clock = time.perf_counter
        turns = 0
        while stack:
            turns += 1
            if turns % _CHECK_EVERY == 0 and clock() >= deadline:
                return False
            frame = stack[-1]
            children = frame.children
            if children is None:
                if self.nodes >= until:
                    return False
                self.nodes += 1
                children = frame.children = space.children(frame.state)
            if frame.next >= len(children):
                stack.pop()
                path.pop()
                continue
            macro, child = children[frame.next]
            frame.next += 1
            key = space.key(child)
            if key in seen:
                continue
            seen.add(key)
            path.append(macro)
            if space.is_won(child):
                self._won(path)
                return False
            stack.append(_Frame(child))
        return True


Frontier = tuple[dict[int, list[tuple[int, Hashable, Any]]], list[int]]


def frontier(items: list[tuple[int, Hashable, Any]]) -> Frontier:
    """A frontier of ``(score, key, state)`` items, in the order given: a list (a stack) per
    score and a heap of the scores that have one. The next state out is the last one in
    of the lowest score, as from a heap on (score, -order met) but with no comparisons of
    states and a push that is one append."""
    buckets: dict[int, list[tuple[int, Hashable, Any]]] = {}
    scores: list[int] = []
    for item in items:
        join(buckets, scores, item)
    return buckets, scores


def join(buckets: dict[int, list[tuple[int, Hashable, Any]]], scores: list[int],
          item: tuple[int, Hashable, Any]) -> None:
    """Put ``item`` on top of its score's stack (the first of that score starts one)."""
    bucket = buckets.get(item[0])
    if bucket is None:
        buckets[item[0]] = [item]
        heapq.heappush(scores, item[0])
    else:
        bucket.append(item)


__all__ = ["Frontier", "SpaceSearch", "frontier", "join"]
