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
import time
from collections.abc import Iterator
from typing import Any, NamedTuple

from ..rules.game import Game
from ..rules.moves import Move
from ..rules.state import Rules, State
from .passes import SpaceSearch
from .space import Space, Table
from .spaces import space_for

# States each of a portfolio's searches expands in a round, times their shares (Solver)
_ROUND = 256


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


class Solver:
    """An incremental search from one position; call :meth:`step` until it answers.

    ``result`` is None while undecided, then ``"won"`` (``moves`` win from the
    position), ``"lost"`` (the whole search space was searched) or ``"unknown"``
    (``max_nodes`` states were expanded without an answer). The answer does not depend
    on how the time is sliced.

    A space may ask for a *portfolio* (:attr:`Space.second_after`): once the first search
    has expanded that many states, a second one from the root with a table of its own
    (depth-first, or best-first in another space: :meth:`Space.second`) takes turns with
    it, in rounds of positions (:attr:`Space.second_share`); with more shares, a search
    in each space :meth:`Space.further` gives takes its turn in each round too.
    Any answers for all: each is complete on its own, so either proves a loss, and a
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
        self._search = SpaceSearch(self.space, self.start)
        self._second: SpaceSearch | None = None  # the portfolio's second search, once on
        self._later: list[SpaceSearch] = []  # and its third and further ones, if any
        self._check()

    @property
    def nodes(self) -> int:
        """States expanded so far (by every search of a portfolio)."""
        return sum(search.nodes for search in self._searches())

    def _searches(self) -> list[SpaceSearch]:
        return [s for s in (self._search, self._second) if s is not None] + self._later

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

    def _due(self) -> tuple[SpaceSearch, int]:
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
            second = self._second = SpaceSearch(other or self.space, self.start, deep=other is None)
            more = self.space.further()[:len(self.space.second_share) - 2]
            self._later = [SpaceSearch(space, self.start) for space in more]
        searches = self._searches()
        done = [first.nodes - after] + [search.nodes for search in searches[1:]]
        shares = self.space.second_share
        # the round under way: the first one some search has not finished, each in turn
        rounds = min(d // (share * _ROUND) for d, share in zip(done, shares, strict=False)
                     if share) + 1
        for search, d, share in zip(searches, done, shares, strict=False):
            if d < share * _ROUND * rounds:
                return search, share * _ROUND * rounds - d
        raise AssertionError("every search has had its turn in the round under way")

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
