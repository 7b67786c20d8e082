"""What the solver searches: a variant's successors, canonical keys and safe automatic moves.

The search in :mod:`engine.solver.search` is the same for every game; a :class:`Space` says
what is particular to one. The base class works for any :class:`~engine.rules.state.Rules`
(one real move per step, the state itself as the key); the ``<game>`` modules beside it
subclass it with what makes the search short: keys that ignore the order of
interchangeable columns, safe moves to the foundations taken as one step, and good move
ordering.

Every step a space produces is a *macro*: a tuple of real engine moves that the rules
accept one after the other, so a solution is always a plain list of moves that
:meth:`engine.Game.play` replays. The positions a space searches need not be engine
States: :meth:`Space.settle` turns the starting State into the space's own form (the
Castle space searches compact rows of bytes), and the solver only hands those back.

The promise that makes "lost" answers sound: from any
state, whenever the real rules can reach a win, so can the space's steps (pruning and
automatic moves must never cut off the last winning line), and states with equal keys
have the same future up to renaming piles.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ..rules.cards import DOWN
from ..rules.moves import Move
from ..rules.state import Rules, State

Macro = tuple[Move, ...]
Child = tuple[Macro, State]
Table = list[Any] | set[Any] | dict[Any, Any]  # what a solver lets go of (Solver.released)


class Space:
    """The default search space: every legal move is a step, the state is its own key."""

    best_first = False  # True: search the best-scoring state first (``score``), else depth-first
    queues = 1  # how many orderings best-first takes turns between (see Solver)
    turns: tuple[int, ...] = ()  # the orderings' turns, in order (empty: one each in turn)
    queue = 0  # set by the solver: the ordering ``score`` and ``expand`` score for
    links_macros = True  # False: ``expand`` links a key to its parent's key only (no macro)
    can_prune = False  # True: a first pass with ``pruned`` set may skip moves on a guess
    pruned = False  # set by the solver during that first pass (which cannot prove a loss)
    skipped = False  # set by ``children`` when the pruned pass left out a move of that state

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._foundations = tuple(i for pid, i in rules.index.items() if pid.startswith("f"))

    def settle(self, state: State) -> Child:
        """Safe automatic moves from ``state`` (none by default) and the state they reach."""
        return (), state

    def key(self, state: State) -> Hashable:
        """A value equal for states with the same future (here: the state itself)."""
        return state

    def is_won(self, state: State) -> bool:
        """True when ``state`` is won."""
        return self.rules.is_won(state)

    def children(self, state: State) -> list[Child]:
        """The steps from ``state`` and their settled results, most promising first."""
        rules = self.rules
        scored = []
        for n, move in enumerate(rules.moves(state)):
            after = rules.apply(state, move)
            auto, after = self.settle(after)
            scored.append((-self.gain(state, after), n, (move, *auto), after))
        scored.sort(key=lambda item: item[:2])
        return [(macro, after) for _, _, macro, after in scored]

    def expand(self, state: State, key: Hashable, parent: dict[Hashable, Any],
               fresh: list[tuple[int, Hashable, Any]]) -> Hashable | None:
        """Best-first's step: append to ``fresh`` the children of ``state`` (whose key is
        ``key``) not in ``parent`` yet, as ``(score, key, child)`` in :meth:`children`'s
        order, each linked in ``parent`` to ``key`` with its macro; return the key of a won
        child, where one is met (the children after it are left out), else None. A space
        may do this in one go, faster."""
        for macro, child in self.children(state):
            ckey = self.key(child)
            if ckey in parent:
                continue
            parent[ckey] = (key, macro)
            if self.is_won(child):
                return ckey
            fresh.append((self.score(child), ckey, child))
        return None

    def release(self) -> list[Table]:
        """Give up the caches grown during a search (fresh ones fill again if it goes on)."""
        return []

    def score(self, state: State) -> int:
        """For best-first search: how far ``state`` looks from a win (lower is better),
        by ordering :attr:`queue` where the space has several."""
        return 0

    def gain(self, before: State, after: State) -> int:
        """How much better ``after`` looks than ``before``: foundation cards, then face-up cards."""
        return 8 * (self._on_foundations(after) - self._on_foundations(before)) + (
            _hidden(before) - _hidden(after)
        )

    def _on_foundations(self, state: State) -> int:
        return sum(len(state.piles[i]) for i in self._foundations)


def _hidden(state: State) -> int:
    return sum(1 for pile in state.piles for card in pile if card & DOWN)

