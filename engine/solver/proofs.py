"""Proofs of loss at the root: relaxed games searched in turn beside the search.

A relaxed game allows every real move and more (Castle's, docs/solver.md §9.12; Klondike's,
§7.16), so a relaxed game searched to the end without a win proves the real root lost. The
search hands :class:`RootProofs` a credit of relaxed positions now and then, so a proof
costs a share of the search's positions, never a long pause: the games are taken coarsest
last, a won one giving way to the next.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

Table = Any


class Relaxed(Protocol):
    """What a relaxed game's search gives: resumable runs, and its tables to free."""

    def run(self, quota: int) -> tuple[bool | None, int]:
        """Search up to ``quota`` positions: (True won, False lost, None not yet; spent)."""

    def tables(self) -> list[Table]:
        """The containers it holds."""


class RootProofs:
    """The relaxed games of one root, ``make(i)`` the i-th of ``count``, searched in turn."""

    def __init__(self, count: int, make: Callable[[int], Relaxed]) -> None:
        self.count = count
        self.make = make
        self.next = 0  # the game searched now (count: none left)
        self.game: Relaxed | None = None  # its search, once started
        self.credit = 0.0  # relaxed positions it may still spend
        self.spent = 0

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
            answer, spent = self.game.run(int(self.credit))
            self.spent += spent
            self.credit -= spent
            if answer is None:
                return False
            self.game = None
            if answer is False:
                self.next = self.count
                return True
            self.next += 1
        return False

    def release(self) -> list[Table]:
        """Stop for good (a search let go of is not resumed); the tables to free."""
        game, self.game = self.game, None
        self.next = self.count
        return game.tables() if game is not None else []


__all__ = ["Relaxed", "RootProofs"]
