"""The solver at the table: time-sliced searches, winning lines, verdicts per position.

Pure Python (no browser imports). The page never runs the solver in one go: it calls a
:class:`Search` for one short slice at a time (web/table/table.js yields to the browser between
slices), so no slice freezes the page for long. What a finished search learns is kept:

- :class:`Lines`, the newest few :class:`Line` (the moves of a proven win from some
  position), which answer the next hints at once while the player follows one;
- a :class:`Verdicts` table, position -> "won" / "lost" / "unknown", so a position is
  searched once and "This game can no longer be won" is said only on a proven "lost";
- what the history of a game implies (:func:`implied`): a position reached from one
  proved lost is lost, one that leads to a position proved winnable is winnable;
- a :class:`LookBack`, the walk back through the history of a lost game, newest
  position first, for the latest position the solver proves winnable.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import Any

import engine
from engine.rules.state import Rules, State

WON, LOST, UNKNOWN = "won", "lost", "unknown"

class Line:
    """A proven winning line: the moves from a start position and every position on the way."""

    def __init__(self, rules: Rules, state: State, moves: list[engine.Move]) -> None:
        self.variant = rules.variant  # two variants may share positions, never their lines
        self.moves = list(moves)
        self.index: dict[Hashable, int] = {state: 0}
        for n, move in enumerate(self.moves, 1):
            state = rules.apply(state, move)
            self.index.setdefault(state, n)

    def move_at(self, state: Any) -> engine.Move | None:
        """The line's next move from ``state``, or None when ``state`` is not on the line."""
        n = self.index.get(state)
        return None if n is None or n >= len(self.moves) else self.moves[n]

    def __contains__(self, state: object) -> bool:
        return state in self.index


class Lines:
    """The newest winning lines found (a few): a position on any of them is winnable and
    its next winning move is known, whether the player follows a line, leaves it and
    comes back by undoing, or deals the same deal again."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._lines: list[Line] = []

    def add(self, line: Line) -> None:
        """Keep ``line`` (the oldest goes when there are too many)."""
        self._lines.append(line)
        del self._lines[:-self.size]

    def find(self, variant: str, state: object) -> Line | None:
        """The newest line of ``variant`` through ``state``, or None."""
        for line in reversed(self._lines):
            if line.variant == variant and state in line:
                return line
        return None


Bin = list | set | dict
_POP_CHECK = 256  # containers emptied between clock readings


class Trash:
    """Containers left by finished or dropped searches, emptied a little at a time.

    A search holds a hundred thousand positions or more; freeing them all at once, when
    the search ends or the position changes, can take a tenth of a second in the browser.
    Held here instead, they are emptied in idle slices (:meth:`empty`).
    """

    def __init__(self) -> None:
        self.bins: list[Bin] = []

    def __bool__(self) -> bool:
        return bool(self.bins)

    def add(self, bins: list[Bin]) -> None:
        """Hold these containers until they are emptied (the small ones go at once)."""
        self.bins.extend(b for b in bins if len(b) > _POP_CHECK)

    def empty(self, ms: float) -> bool:
        """Empty containers for about ``ms``; True once nothing is left."""
        clock = time.perf_counter
        deadline = clock() + ms / 1000.0
        bins = self.bins
        while bins:
            box = bins[-1]
            pop = box.popitem if isinstance(box, dict) else box.pop
            for _ in range(min(_POP_CHECK, len(box))):
                pop()
            if not box:
                bins.pop()
            if clock() >= deadline:
                break
        return not bins


class Search:
    """One solver run on one position, spent in slices, with a budget of solver time.

    ``result`` stays None until the solver answers or the budget is spent: then it is
    "won" (``moves`` win from the position), "lost" (proved) or "unknown".
    """

    def __init__(self, game: engine.Game, budget_ms: float, max_nodes: int | None = None,
                 trash: Trash | None = None) -> None:
        self.state = game.state
        self.budget_ms = budget_ms
        self.trash = trash if trash is not None else Trash()
        self.solver = engine.Solver(game, max_nodes)
        self.result: str | None = self.solver.result

    @property
    def moves(self) -> list[engine.Move]:
        """The winning moves once the result is "won"."""
        return self.solver.moves

    @property
    def spent_ms(self) -> float:
        """Solver time spent so far."""
        return self.solver.elapsed_ms

    def discard(self) -> None:
        """The search is no longer wanted: its tables go to the trash, to be freed slowly."""
        self.trash.add(self.solver.release())

    def allow(self, more_ms: float) -> None:
        """Make sure at least ``more_ms`` of solver time is left (a hint joins a search)."""
        self.budget_ms = max(self.budget_ms, self.spent_ms + more_ms)

    def step(self, ms: float) -> str | None:
        """Search for at most about ``ms`` (less when the budget ends sooner); the result."""
        if self.result is None:
            left = self.budget_ms - self.spent_ms
            if left > 0:
                self.solver.step(min(ms, left))
                self.result = self.solver.result
                # The solver lets go of its tables when it answers (or starts a new pass):
                # they are freed later a little at a time, not here.
                self.trash.add(self.solver.released())
            if self.result is None and self.spent_ms >= self.budget_ms:
                self.result = UNKNOWN
        return self.result


Known = Callable[[Hashable], "str | None"]


def implied(game: engine.Game, known: Known, any_lost: bool = True) -> str | None:
    """What the line of play says of the position in play, searched or not.

    Every position of the line is reached from the one before by legal moves, so
    winnability can only be lost along it: a position after one proved lost is lost, and
    one before a position proved winnable (on the redo line, after an undo) is winnable.
    None when neither is known (an "unknown" says nothing either way). With ``any_lost``
    false (no position of the game's variant is known lost) the past is not looked at:
    a long game's every move would pay for it."""
    if any_lost:
        past = game.copy()
        while past.undo():
            if known(past.state) == LOST:
                return LOST
    if game.can_redo:
        ahead = game.copy()
        while ahead.redo():
            if known(ahead.state) == WON:
                return WON
    return None


class LookBack:
    """The walk back from a lost position to the latest one the solver proves winnable.

    Newest first, one move further back at a time: the first position proved winnable
    ends it (``found`` is then how many moves back it lies); positions proved lost or
    left undecided are passed. It gives up, with ``found`` None, at the start of the
    game or once ``budget_ms`` of solver time is spent.
    """

    def __init__(self, game: engine.Game, budget_ms: float, known: Known) -> None:
        self.state = game.state  # the lost position this walk starts from
        self.probe = game.copy()  # stands on the position being looked at
        self.back = 0
        # Start from the newest position proved lost: those after it are lost too.
        probe, back = game.copy(), 0
        while known(probe.state) != LOST and probe.undo():
            back += 1
        if known(probe.state) == LOST:
            self.probe, self.back = probe, back
        self.found: int | None = None
        self.done = False
        self.budget_ms = budget_ms
        self.spent_ms = 0.0

    def next(self, known: Known) -> engine.Game | None:
        """Step back to the next position that needs a search (settling on one already
        known winnable on the way); None once the walk is over."""
        while not self.done:
            if self.spent_ms >= self.budget_ms or not self.probe.undo():
                self.done = True
                break
            self.back += 1
            verdict = known(self.probe.state)
            if verdict is None:
                return self.probe
            self.settle(verdict)
        return None

    def settle(self, verdict: str) -> None:
        """The position ``back`` moves back is ``verdict``: a win ends the walk."""
        if verdict == WON:
            self.found = self.back
            self.done = True


class Verdicts:
    """What searches found about recent positions (the newest ``size`` kept), by
    (variant, position): two variants may share a position (Spider and relaxed Spider
    deal alike) but not what can be won from it."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._found: dict[Hashable, str] = {}

    def get(self, state: object) -> str | None:
        """"won", "lost", "unknown", or None when the position was not searched."""
        return self._found.get(state)  # type: ignore[arg-type]

    def holds(self, variant: str, result: str) -> bool:
        """True when some position of ``variant`` has the verdict ``result``."""
        return any(v == result and k[0] == variant  # type: ignore[index]
                   for k, v in self._found.items())

    def put(self, state: Hashable, result: str) -> None:
        """Remember the answer of a finished search."""
        self._found.pop(state, None)
        self._found[state] = result
        while len(self._found) > self.size:
            del self._found[next(iter(self._found))]


__all__ = ["LOST", "Line", "Lines", "LookBack", "Search", "Trash", "UNKNOWN", "Verdicts", "WON",
           "implied"]
