"""A solver for every variant: proven wins, proven losses, or "unknown" when time runs out.

The solver is *thoughtful*: it knows the cards hidden from the player (face-down
cards, the order of the stock). A win it finds is a win for someone who could see
through the backs of the cards, so a deal it wins may still be lost by a player who
guesses wrong; a loss it proves is a loss however the hidden cards lie -- no play can
win from there.

>>> import engine
>>> game = engine.new_game("klondike", seed=1)
>>> answer = engine.solve(game, budget_ms=2000)
>>> answer.result, game.copy().status
('won', 'playing')

How it searches. Each variant's :class:`~engine.solver.space.Space` (``solver/<game>.py``)
gives the steps from a state (real moves, or macros of real moves such as Klondike's
turns through the stock), a key that is equal for states with the same future (columns
that the rules treat alike are sorted, for instance), safe moves to the foundations
made at once, and a score. The search is best-first on that score (or depth-first, for
a space that asks for it) and remembers every key it has met, so each state is expanded
once. A space may give several orderings (Beleaguered Castle: three, steps from the root
weighed 2, 1 and 1): they take turns, each going on from the states it found itself, over the one
table of states met, so a win comes as soon as one ordering finds it and a loss
costs no more than with one ordering. Some spaces first run a *pruned pass* that skips
moves which are seldom needed; if that pass runs out of states, a complete pass follows.
Only a complete pass that runs out of states answers "lost": every state reachable from
the position was searched and none was won (the spaces skip a move only when they prove
it can be done without).

For the browser, :class:`Solver` works in slices, so the page never freezes::

    solver = engine.Solver(game)
    while solver.step(ms=30) is None:   # resume between frames
        ...
    solver.result, solver.moves          # "won" with the moves, or "lost"/"unknown"

``engine.solve(game, budget_ms, max_nodes)`` is the one-call form; the command line
is ``python -m engine solve VARIANT SEED [--budget-ms N] [--json]``. Deals proved
winnable ship in ``engine/solver/data/winnable-<variant>.txt`` (:func:`winnable_deals`),
made by ``python -m engine winnable VARIANT --count N``.
"""

from __future__ import annotations

import gc
import heapq
import time
from collections.abc import Hashable, Iterator
from typing import Any, NamedTuple

from ..rules.game import Game
from ..rules.moves import Move
from ..rules.state import Rules, State
from .space import Child, Macro, Space, Table
from .spaces import space_for

# States a portfolio's two searches expand in a round, times their shares (Solver)
_ROUND = 256

# Loop turns between clock readings: a Klondike position can take a millisecond or more to
# expand in the browser, so a slice of a few ms must look at the clock often.
_CHECK_EVERY = 4


class Solution(NamedTuple):
    """A solver's answer: ``"won"`` (with moves that win), ``"lost"`` or ``"unknown"``."""

    result: str
    moves: list[Move]
    nodes: int
    ms: float

    def as_json(self) -> dict[str, object]:
        """The answer as plain data, moves as the texts :func:`engine.parse_move` reads."""
        return {"result": self.result, "moves": [str(m) for m in self.moves],
                "nodes": self.nodes, "ms": round(self.ms, 1)}


class _Frame:
    """One state on the depth-first path and the steps from it not yet tried."""

    __slots__ = ("state", "children", "next")

    def __init__(self, state: State) -> None:
        self.state = state
        self.children: list[Child] | None = None
        self.next = 0


class _Search:
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
        self._frontiers = [_frontier([(0, root_key, root)]) for _ in range(self.space.queues)]
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
                frontiers[queue] = _frontier(
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
            self._frontiers.append(_frontier(
                [(space.score(state, queue), key, state) for key, state in self._partial]))
        self._done.difference_update(key for key, _ in self._partial)
        if space.queues > 1:  # they wait in every frontier again
            self._shared.update(key for key, _ in self._partial)
        self.dropped.append(self._partial)
        self._partial = []

    def _best_first(self, deadline: float, until: int) -> bool:
        """Best-first; True when the pass ran out of states.

        A frontier holds the states waiting, lowest score first and, among equal scores,
        the one met last first (see :func:`_frontier`). With several orderings
        (:attr:`Space.queues`) they take turns (:attr:`Space.turns`): a turn expands the
        best state of one ordering's frontier, and the new states it reaches join that
        frontier only (the root's children join every one). So each ordering searches on
        from what it found itself, as if alone, while the table of states met is shared:
        no state is expanded twice, every state met waits somewhere, and a complete pass
        that runs out has expanded every reachable state once, as with one ordering.
        """
        space, frontiers, parent, done = self.space, self._frontiers, self._parent, self._done
        expand, partial, pruned = space.expand, self._partial, self.pruned
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
                                _join(each, ranks, (space.score(child, other), ckey, child))
                        shared.update(ckey for _, ckey, _ in fresh)
                        continue
                for item in fresh:  # (_join, written out: the loop is hot)
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


def _frontier(items: list[tuple[int, Hashable, Any]]) -> Frontier:
    """A frontier of ``(score, key, state)`` items, in the order given: a list (a stack) per
    score and a heap of the scores that have one. The next state out is the last one in
    of the lowest score, as from a heap on (score, -order met) but with no comparisons of
    states and a push that is one append."""
    buckets: dict[int, list[tuple[int, Hashable, Any]]] = {}
    scores: list[int] = []
    for item in items:
        _join(buckets, scores, item)
    return buckets, scores


def _join(buckets: dict[int, list[tuple[int, Hashable, Any]]], scores: list[int],
          item: tuple[int, Hashable, Any]) -> None:
    """Put ``item`` on top of its score's stack (the first of that score starts one)."""
    bucket = buckets.get(item[0])
    if bucket is None:
        buckets[item[0]] = [item]
        heapq.heappush(scores, item[0])
    else:
        bucket.append(item)


class Solver:
    """An incremental search from one position; call :meth:`step` until it answers.

    ``result`` is None while undecided, then ``"won"`` (``moves`` win from the
    position), ``"lost"`` (the whole search space was searched) or ``"unknown"``
    (``max_nodes`` states were expanded without an answer). The answer does not depend
    on how the time is sliced.

    A space may ask for a *portfolio* (:attr:`Space.second_after`): once the first search
    has expanded that many states, a second one from the root with a table of its own
    (depth-first, or best-first in another space: :meth:`Space.second`) takes turns with
    it, in rounds of positions (:attr:`Space.second_share`).
    Either answers for both: each is complete on its own, so either proves a loss, and a
    win replays whoever found it. The turns go by the positions each has expanded, never
    by time, so the answer does not depend on the slicing.
    """

    def __init__(self, game: Game, max_nodes: int | None = None,
                 space: Space[Any] | None = None) -> None:
        self.rules: Rules = game.rules
        self.start: State = game.state
        self.space = space_for(self.rules) if space is None else space  # (daily.py pins one)
        self.max_nodes = max_nodes
        self.elapsed_ms = 0.0
        self.result: str | None = None
        self.moves: list[Move] = []
        self._search = _Search(self.space, self.start)
        self._second: _Search | None = None  # the portfolio's second search, once on
        self._check()

    @property
    def nodes(self) -> int:
        """States expanded so far (by both searches of a portfolio)."""
        second = self._second
        return self._search.nodes + (second.nodes if second is not None else 0)

    def _searches(self) -> list[_Search]:
        return [self._search] if self._second is None else [self._search, self._second]

    def _check(self) -> None:
        for search in self._searches():
            if search.result is not None:
                self.result, self.moves = search.result, search.moves
                break
        else:
            if self.max_nodes is not None and self.nodes >= self.max_nodes:
                self.result = "unknown"
        if self.result is not None:  # answered: the tables are of no more use
            for search in self._searches():
                search._drop()
            spaces = {id(search.space): search.space for search in self._searches()}
            for space in spaces.values():
                self._search.dropped += [table for table in space.release() if table]

    def _due(self) -> tuple[_Search, int]:
        """The search whose turn it is and how many states it may expand in this turn:
        the first alone up to ``second_after``, then rounds of ``_ROUND`` states shared
        as ``second_share`` says. Worked out from the counts alone."""
        first, after = self._search, self.space.second_after
        if after is None:
            return first, 1 << 62
        if first.nodes < after:
            return first, after - first.nodes
        second = self._second
        if second is None:
            other = self.space.second()
            second = self._second = _Search(other or self.space, self.start, deep=other is None)
        ours, theirs = self.space.second_share
        rounds = second.nodes // (theirs * _ROUND) + 1
        if first.nodes - after < ours * _ROUND * rounds:
            return first, ours * _ROUND * rounds - (first.nodes - after)
        return second, theirs * _ROUND * rounds - second.nodes

    def _run(self, deadline: float, quota: int) -> None:
        """Expand up to ``quota`` states before ``deadline``, each search in its turn."""
        while quota > 0:
            search, due = self._due()
            asked = min(quota, due)
            made = search.run(deadline, asked)
            quota -= made
            if search.result is not None or made < asked:
                return  # answered, or out of time

    def released(self) -> list[Table]:
        """The tables the solver let go of since the last call (when it answered, or when a
        pass started over), for the caller to free: a table of a hundred thousand states
        takes a tenth of a second to free in the browser, so a page empties them a little
        at a time. Not taken, they go with the solver."""
        dropped: list[Table] = []
        for search in self._searches():
            dropped += search.dropped
            search.dropped = []
        return dropped

    def release(self) -> list[Table]:
        """Give up every table now (see :meth:`released`): the search stops, and answers
        ``"unknown"`` unless it had answered already."""
        if self.result is None:
            self.result = "unknown"
        self._check()
        return self.released()

    def step(self, ms: float = 30.0) -> str | None:
        """Search for about ``ms`` milliseconds; the result once decided, else None."""
        if self.result is None:
            began = time.perf_counter()
            quota = 1 << 62 if self.max_nodes is None else self.max_nodes - self.nodes
            # The search makes no reference cycles, and the cycle collector walking its
            # ever larger tables would cost up to a quarter of the time: off meanwhile.
            collecting = gc.isenabled()
            gc.disable()
            try:
                self._run(began + ms / 1000.0, quota)
            finally:
                if collecting:
                    gc.enable()
            self._check()
            self.elapsed_ms += (time.perf_counter() - began) * 1000.0
        return self.result

    def slices(self, ms: float = 30.0) -> Iterator[str | None]:
        """Yield after every slice of about ``ms`` milliseconds until the answer, then stop."""
        while self.step(ms) is None:
            yield None
        yield self.result

    def solution(self) -> Solution:
        """The answer so far (``"unknown"`` while undecided)."""
        return Solution(self.result or "unknown", list(self.moves), self.nodes, self.elapsed_ms)


def solve(game: Game, budget_ms: float = 1000.0, max_nodes: int | None = None) -> Solution:
    """Search from ``game``'s position for at most ``budget_ms`` (and ``max_nodes`` states).

    The answer's moves, when won, replay with ``game.play`` to a win. ``"lost"`` means no
    sequence of legal moves wins from here; ``"unknown"`` that the budget ran out.
    """
    solver = Solver(game, max_nodes)
    solver.step(budget_ms)
    return solver.solution()
