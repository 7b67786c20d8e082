"""Dives: short depth-first searches of a Klondike root, each in a jittered order of its own,
which find wins the best-first search finds only after tens of thousands of positions
(docs/solver.md §7.25).

A dive searches depth first from the root with a table of its own (so it never goes round a
cycle), at most ``limit`` positions, taking each position's steps in the order of their
score (the best-first search's, a covered placement's bias included) made worse by up to a
jitter at random, the jitter shrinking with the depth to none at ``fade`` steps from the root
(the order goes astray early: later steps follow the score more closely; docs/solver.md
§7.31); its random numbers are seeded by its number, so every run is the same.
A deep search meets its first win after a few hundred positions or not for a long while,
and which depends on the order: many short dives in orders of their own win deals whose
best-first order goes astray early. A dive takes the pruned pass's steps (it leaves out the
moves of part of a run that are of use only after other moves): fewer steps a position, so
a dive of the same positions goes deeper, and wins sooner (docs/solver.md §7.28). A dive's
win is a line of real moves the rules replay; dives never answer "lost" (their tables are
their own, their positions few) and never change the positions the search expands.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from ..rules.moves import Move
from ..rules.state import State
from .space import Macro, Space, Table


class Dives:
    """The dives of one root, run in pieces: :meth:`go` hands them a credit of positions."""

    def __init__(self, space: Space[State], root: State, auto: Macro, limit: int,
                 jitters: tuple[int, ...], complete: int = 0, fade: int = 0) -> None:
        self.space = space  # a space of the dives' own (its caches, and no notes of a pass)
        self.root = root
        self.auto = auto  # the moves that settled the root
        self.limit = limit
        self.jitters = jitters
        # every complete-th dive (the first too) takes all the steps, the others the pruned
        # pass's; 0: all take the pruned pass's
        self.complete = complete
        # the jitter of the steps from the n-th position of a dive's path (the root the first)
        # is jitter * (1 - n / fade), none from the fade-th on; 0: it never fades
        self.fade = fade
        self._pruned = True  # the dive under way takes the pruned pass's steps
        self.count = 0  # dives started
        self.spent = 0  # positions expanded by all of them
        self.credit = 0.0
        # the dive under way: its random numbers and jitter, the positions it met, the path
        # (a frame per position: the position, its steps not tried yet, the macro to it), and
        # the positions it expanded
        self._rng = random.Random(0)
        self._jitter = 0
        self._seen: set[Hashable] = set()
        self._frames: list[list[Any]] = []
        self._expanded = 0

    def _start(self) -> None:
        """Begin the next dive from the root. Each kind of dive numbers its own, and dive i of
        a kind has the random numbers of ``random.Random(i)``."""
        n, every = self.count, self.complete
        self._pruned = not every or n % every != 0
        i = (n - n // every - 1 if self._pruned else n // every) if every else n
        self._rng = random.Random(i)
        self._jitter = self.jitters[i % len(self.jitters)]
        self.count += 1
        self._seen = {self.space.key(self.root)}
        self._frames = [[self.root, None, ()]]
        self._expanded = 0
        # the pruned pass's notes of the states it expanded in part: a dive that takes all
        # the steps would take a note for its state's own, and the dives need none
        self.space.forget_partial()  # type: ignore[attr-defined]

    def go(self, credit: float) -> list[Move] | None:
        """Dive on with ``credit`` more positions; the moves of a win once one is found."""
        self.credit += credit
        space, seen = self.space, self._seen
        frames = self._frames
        while self.credit >= 1:
            if not frames or self._expanded >= self.limit:
                self._start()
                seen, frames = self._seen, self._frames
            frame = frames[-1]
            steps = frame[1]
            if steps is None:  # expand it: its steps, the best last (popped first)
                self.credit -= 1
                self.spent += 1
                self._expanded += 1
                children, biases, _ = space.ordered_steps(  # type: ignore[attr-defined]
                    frame[0], self._pruned, frame[2])
                rng, jitter, score = self._rng.random, self._jitter, space.score
                if self.fade:
                    jitter *= max(0.0, 1.0 - len(frames) / self.fade)
                steps = []
                for i, (macro, child) in enumerate(children):
                    key = space.key(child)
                    if key in seen:
                        continue
                    if space.is_won(child):
                        return [move for each in (self.auto, *(f[2] for f in frames[1:]), macro)
                                for move in each]
                    steps.append((score(child) + biases[i] + jitter * rng(), i, key, child,
                                  macro))
                steps.sort(key=_order, reverse=True)
                frame[1] = steps
            if not steps:
                frames.pop()
                continue
            _, _, key, child, macro = steps.pop()
            if key in seen:
                continue
            seen.add(key)
            frames.append([child, None, macro])
        return None

    def tables(self) -> list[Table]:
        """The containers the dive under way holds, and its space's caches."""
        tables: list[Table] = [self._seen, self._frames, *self.space.release()]
        self._seen, self._frames = set(), []
        return tables


def _order(step: tuple[float, int, Hashable, State, Macro]) -> tuple[float, int]:
    return step[0], step[1]


__all__ = ["Dives"]
