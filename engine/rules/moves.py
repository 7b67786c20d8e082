"""Moves and their text form.

A move names a source pile, a destination pile and how many cards go. Its text is
``src-dst`` for one card and ``src-dst:count`` for more, e.g. ``t3-t7:4``. A Spider
deal is ``stock-tableau:10``; a Klondike recycle is ``waste-stock:<cards>``.

>>> str(Move("t3", "t7", 4))
't3-t7:4'
>>> read_move("t0-f1")
Move(src='t0', dst='f1', count=1)
"""

from __future__ import annotations

from typing import NamedTuple


class IllegalMove(ValueError):
    """Raised when a move is not legal in the current position."""


class Move(NamedTuple):
    """An immutable move: ``count`` cards from pile ``src`` to pile ``dst``."""

    src: str
    dst: str
    count: int = 1

    def __str__(self) -> str:
        text = f"{self.src}-{self.dst}"
        return text if self.count == 1 else f"{text}:{self.count}"


def read_move(text: str) -> Move:
    """The move a text names, without checking legality; ValueError if unreadable."""
    if not isinstance(text, str):
        raise ValueError(f"a move is text such as 't3-t7:4', not {type(text).__name__}")
    body, colon, count_text = text.strip().partition(":")
    src, sep, dst = body.partition("-")
    if not sep or not src or not dst:
        raise ValueError(f"unreadable move {text!r}: write it as src-dst or src-dst:count")
    count = 1
    if colon:
        if not (count_text.isascii() and count_text.isdigit()) or int(count_text) < 1:
            raise ValueError(f"unreadable move {text!r}: the count must be a whole number >= 1")
        count = int(count_text)
    return Move(src, dst, count)
