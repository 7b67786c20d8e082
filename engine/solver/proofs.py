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


__all__ = ["Relaxed", "RootProofs"]
