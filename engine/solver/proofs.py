"""Proofs of loss at the root: relaxed games searched in turn beside the search.

A relaxed game allows every real move and more (Castle's, docs/solver.md §9.12; Klondike's,
§7.16), so a relaxed game searched to the end without a win proves the real root lost. The
search hands :class:`RootProofs` a credit of relaxed positions now and then, so a proof
costs a share of the search's positions, never a long pause: the games are taken coarsest
last, a won one giving way to the next. A game may be given a cap (its positions at most,
then the next game is taken: one that has not ended in its cap proves nothing, and the next
game, finer, is a proof as good), and a quick win may end the proofs instead (a game won
within a few of its positions says the deal is likely won, so a finer game would spend its
share in vain; a win that took long says little, and the next game is taken).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

Table = Any


class Relaxed(Protocol):
    """What a relaxed game's search gives: resumable runs, and its tables to free."""

    def run(self, quota: int) -> tuple[bool | None, int]:
        """Search up to ``quota`` positions: (True won, False lost, None not yet; spent)."""

    def tables(self) -> list[Table]:
        """The containers it holds."""


class RootProofs:
    """The relaxed games of one root, ``make(i)`` the i-th of ``count``, searched in turn:
    the i-th for at most ``caps[i]`` positions (None: to its end); a relaxed win ends the
    proofs if the game took at most ``win_ends`` positions, else (or with None) passes to
    the next game."""

    def __init__(self, count: int, make: Callable[[int], Relaxed],
                 caps: Sequence[int | None] | None = None, win_ends: int | None = None,
                 ) -> None:
        self.count = count
        self.make = make
        self.caps = list(caps) if caps is not None else [None] * count
        self.win_ends = win_ends
        self.next = 0  # the game searched now (count: none left)
        self.game: Relaxed | None = None  # its search, once started
        self.credit = 0.0  # relaxed positions it may still spend
        self.spent = 0
        self.used = 0  # positions the game searched now has spent

    @property
    def open(self) -> bool:
        """Whether a game is left to search."""
        return self.next < self.count

    def go(self, credit: float) -> bool:
        """Search on with ``credit`` more positions; True once the root is proved lost."""
        self.credit += credit
        while self.credit >= 1 and self.next < self.count:
            if self.game is None:
                self.game = self.make(self.next)
                self.used = 0
            quota = int(self.credit)
            cap = self.caps[self.next]
            if cap is not None:
                quota = min(quota, cap - self.used)
            answer, spent = self.game.run(quota)
            self.spent += spent
            self.used += spent
            self.credit -= spent
            if answer is None:
                if cap is None or self.used < cap:
                    return False
                self.game = None  # its cap spent: the next game
                self.next += 1
                continue
            self.game = None
            if answer is False:
                self.next = self.count
                return True
            quick = self.win_ends is not None and self.used <= self.win_ends
            self.next = self.count if quick else self.next + 1
        return False

    def release(self) -> list[Table]:
        """Stop for good (a search let go of is not resumed); the tables to free."""
        game, self.game = self.game, None
        self.next = self.count
        return game.tables() if game is not None else []


class Widening(Relaxed, Protocol):
    """A relaxed game that says how many positions wait in its search."""

    @property
    def waiting(self) -> int:
        """Positions met and not expanded yet."""


class Probed:
    """Two relaxed games of one root searched as one game: a loss of either is the root's.

    The ``first`` is searched; once it has spent ``probe`` positions with no answer, keeping
    ``gate`` positions or more waiting on average (a wide search, likely a large game), the
    second (``make_second()``, finer) is searched for ``probe`` positions too, and goes on
    first if it keeps fewer than ``ratio`` times the first's waiting on average: of two games
    that end in a loss, the narrower search is most often the smaller one (docs/solver.md
    §7.34). The waiting are sampled every ``every`` positions. A win within ``quick`` of a
    game's own positions (``probe`` is less) ends the pair with a win (the deal is likely
    won); a slower one gives way to the other game, as in :class:`RootProofs`.
    """

    def __init__(self, first: Widening, make_second: Callable[[], Widening], probe: int,
                 gate: float, ratio: float, quick: int, every: int = 100) -> None:
        assert probe <= quick and probe % every == 0
        self.make_second: Callable[[], Widening] | None = make_second
        self.probe, self.gate, self.ratio, self.quick, self.every = (
            probe, gate, ratio, quick, every)
        # the games in the order they are searched, the first under way: [game, positions
        # it has spent]; the probe under way (the first's, the second's, or none left), and
        # the mean waiting of each game probed
        self.order: list[list[Any]] = [[first, 0]]
        self.probing = 1
        self.means: list[float] = []
        self._samples: list[int] = []

    def run(self, quota: int) -> tuple[bool | None, int]:
        """Search up to ``quota`` positions: (True won, False lost, None not yet; spent)."""
        spent = 0
        while spent < quota and self.order:
            entry = self.order[0]
            step = quota - spent
            if self.probing:
                step = min(step, self.every - entry[1] % self.every)
            answer, n = entry[0].run(step)
            spent += n
            entry[1] += n
            if answer is False:
                return False, spent
            if answer is True:
                self.order.pop(0)
                if entry[1] <= self.quick or not self._other():
                    self.order = []
                    return True, spent
            elif self.probing and entry[1] % self.every == 0:
                self._samples.append(entry[0].waiting)
                if entry[1] == self.probe:
                    self._probed()
        return None, spent

    def _probed(self) -> None:
        """A probe is over: after the first's, probe the second if the first is wide; after
        the second's, the first goes on first again unless the second is narrower."""
        self.means.append(sum(self._samples) / len(self._samples))
        self._samples = []
        if self.probing == 1 and self.means[0] >= self.gate and self._other(first=True):
            self.probing = 2
            return
        self.probing = 0
        if len(self.means) == 2 and self.means[1] >= self.ratio * self.means[0]:
            self.order.reverse()

    def _other(self, first: bool = False) -> bool:
        """Make the second game (searched ``first``, or after the rest); False if it was
        made already and none is left."""
        if self.make_second is None:
            return bool(self.order)
        game, self.make_second = self.make_second(), None
        self.order.insert(0 if first else len(self.order), [game, 0])
        return True

    def tables(self) -> list[Table]:
        """The containers its games hold."""
        return [table for entry in self.order for table in entry[0].tables()]


__all__ = ["Probed", "Relaxed", "RootProofs", "Widening"]
