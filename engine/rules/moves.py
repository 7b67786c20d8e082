"""Moves and their text form.

A move names a source pile, a destination pile and how many cards go. Its text is
``src-dst`` for one card and ``src-dst:count`` for more, e.g. ``t3-t7:4``. A Spider
deal is ``stock-tableau:10``; a Klondike recycle is ``waste-stock:<cards>``.

>>> str(Move("t3", "t7", 4))
't3-t7:4'
>>> read_move("t0-f1")
Move(src='t0', dst='f1', count=1)
"""

from .compat import record


class IllegalMove(ValueError):
    """Raised when a move is not legal in the current position."""


class Move(record("Move", ("src", "dst", "count"), (1,))):
    """An immutable move: ``count`` cards from pile ``src`` to pile ``dst``. A tuple
    ``(src, dst, count)``; ``count`` is 1 unless given."""

    __slots__ = ()
    # the fields, for type checkers (record() makes them; MicroPython drops these lines)
    src: str
    dst: str
    count: int

    def __str__(self) -> str:
        text = f"{self.src}-{self.dst}"
        return text if self.count == 1 else f"{text}:{self.count}"


_DIGITS = "0123456789"  # str.isdigit() takes other scripts' digits too


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
        if not count_text or count_text.strip(_DIGITS) or int(count_text) < 1:
            raise ValueError(f"unreadable move {text!r}: the count must be a whole number >= 1")
        count = int(count_text)
    return Move(src, dst, count)
