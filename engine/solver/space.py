"""What the solver searches: a variant's successors, canonical keys and safe automatic moves.

The search in :mod:`engine.solver.search` is the same for every game; a :class:`Space` says
what is particular to one. :class:`MoveSpace` works for any :class:`~engine.rules.state.Rules`
(one real move per step, the state itself as the key); the ``<game>`` modules beside it
give what makes the search short: keys that ignore the order of
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

from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from ..rules.cards import DOWN
from ..rules.moves import Move
from ..rules.state import Rules, State

Macro = tuple[Move, ...]
Child = tuple[Macro, State]
Table = list[Any] | set[Any] | dict[Any, Any]  # what a solver lets go of (Solver.released)
N = TypeVar("N")  # a position as the space searches it: a State, or a compact form of one
Fresh = list[tuple[int, Hashable, Any]]  # (score, key, position) of the children met first


class Space(Generic[N]):
    """What the search asks of a variant, over positions of type ``N``. The search passes
    its options (the ordering, the pruned pass) as arguments and keeps its own state."""

    best_first = False  # True: search the best-scoring state first (``score``), else depth-first
    queues = 1  # how many orderings best-first takes turns between (see Solver)
    turns: tuple[int, ...] = ()  # the orderings' turns, in order (empty: one each in turn)
    # (positions, turns): after that many positions these turns instead; an ordering that
    # had no turn before starts from the first ordering's waiting states (passes.py)
    later: tuple[int, tuple[int, ...]] | None = None
    links_macros = True  # False: ``expand`` links a key to its parent's key only (no macro)
    # best-first, one ordering: (state, the score it waits with) -> its score now, called as
    # a state comes first in the frontier; a higher one puts it back to wait with that
    # (for scores that only grow while a state waits). None: scores are final when met.
    rescore: Callable[[N, int], int] | None = None
    can_prune = False  # True: a first, pruned pass may skip moves on a guess (no loss proved)
    # a portfolio (see Solver): after this many positions a second search from the root
    # with a table of its own (depth-first in this space, or best-first in the space
    # ``second()`` gives) takes turns with the first, in this ratio of positions (first,
    # second; more shares: a search in each space ``further()`` gives, in turn); None: one
    # search
    second_after: int | None = None
    second_share: tuple[int, ...] = (1, 1)
    # set by the space once it has proved the root lost by a test of its own (a sound
    # over-estimate of the real game, searched to the end): the search then answers "lost"
    lost = False
    # set by the space once a search of its own (a probe) has found a win: the real moves
    # from the position searched, which the search then answers "won" with
    found: list[Move] | None = None

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def settle(self, state: State) -> tuple[Macro, N]:
        """Safe automatic moves from ``state`` and the position they reach: the root."""
        raise NotImplementedError

    def key(self, node: N) -> Hashable:
        """A value equal for positions with the same future."""
        raise NotImplementedError

    def is_won(self, node: N) -> bool:
        """True when ``node`` is won."""
        raise NotImplementedError

    def children(self, node: N) -> list[tuple[Macro, N]]:
        """Every step from ``node`` and the settled position it reaches, most promising first."""
        raise NotImplementedError

    def steps(self, node: N, pruned: bool) -> tuple[list[tuple[Macro, N]], bool]:
        """:meth:`children`, in the pruned pass perhaps fewer; and whether any was left out
        (the complete pass then expands ``node`` again)."""
        return self.children(node), False

    def expand(self, node: N, key: Hashable, parent: dict[Hashable, Any], fresh: Fresh,
               queue: int, pruned: bool) -> tuple[Hashable | None, bool]:
        """Best-first's step: append to ``fresh`` the children of ``node`` (whose key is
        ``key``) not in ``parent`` yet, as ``(score, key, child)`` in :meth:`steps`' order,
        scored for ordering ``queue``, each linked in ``parent`` to ``key`` with its macro.
        Return the key of a won child, where one is met (the children after it are left
        out), else None; and whether the pruned pass left a step out. A space may do this
        in one go, faster."""
        children, skipped = self.steps(node, pruned)
        for macro, child in children:
            ckey = self.key(child)
            if ckey in parent:
                continue
            parent[ckey] = (key, macro)
            if self.is_won(child):
                return ckey, skipped
            fresh.append((self.score(child, queue), ckey, child))
        return None, skipped

    def score(self, node: N, queue: int = 0) -> int:
        """For best-first search: how far ``node`` looks from a win (lower is better), by
        ordering ``queue`` where the space has several."""
        return 0

    def release(self) -> list[Table]:
        """Give up the caches grown during a search (fresh ones fill again if it goes on)."""
        return []

    def second(self) -> Space[Any] | None:
        """The space a portfolio's second search searches best-first (:attr:`second_after`),
        made when that search starts; None: this space, searched depth-first."""
        return None

    def further(self) -> list[Space[Any]]:
        """The spaces of a portfolio's third search and those after it, best-first, one for
        each share of :attr:`second_share` past the second (made when the second search
        starts)."""
        return []


class MoveSpace(Space[State]):
    """The default search space: every legal move is a step, the state is its own key."""

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self._foundations = rules.roles.foundation

    def settle(self, state: State) -> Child:
        """No automatic moves."""
        return (), state

    def key(self, state: State) -> Hashable:
        """The state itself."""
        return state

    def is_won(self, state: State) -> bool:
        return self.rules.is_won(state)

    def children(self, state: State) -> list[Child]:
        """Every legal move, those that gain most first."""
        rules = self.rules
        scored = []
        for n, move in enumerate(rules.moves(state)):
            after = rules.apply(state, move)
            auto, after = self.settle(after)
            scored.append((-self.gain(state, after), n, (move, *auto), after))
        scored.sort(key=lambda item: item[:2])
        return [(macro, after) for _, _, macro, after in scored]

    def gain(self, before: State, after: State) -> int:
        """How much better ``after`` looks than ``before``: foundation cards, then face-up cards."""
        return 8 * (self._on_foundations(after) - self._on_foundations(before)) + (
            _hidden(before) - _hidden(after)
        )

    def _on_foundations(self, state: State) -> int:
        return sum(len(state.piles[i]) for i in self._foundations)


def _hidden(state: State) -> int:
    return sum(1 for pile in state.piles for card in pile if card & DOWN)
