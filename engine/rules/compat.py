"""The few things CPython and MicroPython do differently, in one place.

The rules run unchanged in CPython (the tests, the solver, Pyodide) and in MicroPython
(which can draw the first table long before Pyodide has loaded: docs/architecture.md §8).
Every other module here keeps to what both run: no ``__future__``, ``typing``,
``dataclasses`` or ``collections.abc`` at run time (type-only names are imported under
``TYPE_CHECKING`` and named in quoted annotations), no ``zip(strict=)``, no
``str.isascii``, no fields declared in a class body, and annotations CPython can
evaluate (MicroPython does not evaluate them). tests/engine/test_micropython.py plays the
same games in both and compares them.
"""

import sys
from collections import namedtuple

try:
    from typing import TYPE_CHECKING
except ImportError:  # MicroPython has no typing module
    TYPE_CHECKING = False

MICROPYTHON = sys.implementation.name == "micropython"

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from typing import TypeVar

    T = TypeVar("T")


def pairwise(items: "Sequence[T]") -> "Iterator[tuple[T, T]]":
    """Each item of a sequence with the next one, as itertools.pairwise (which MicroPython
    lacks) gives them."""
    return zip(items, items[1:])  # noqa: B905 - one shorter by design; MicroPython's zip takes no strict=


if not MICROPYTHON:

    def record(name: str, fields: tuple[str, ...], defaults: tuple = ()) -> type:
        """A tuple class with named fields, the last ``len(defaults)`` of them optional: the
        base of an immutable, hashable value (State, Roles, Move, Variant) whose subclass
        adds methods and ``__slots__ = ()``. Here it is collections.namedtuple, so the
        fields are read by C getters as fast as a typing.NamedTuple's."""
        return namedtuple(name, fields, defaults=defaults)

else:

    def record(name: str, fields: tuple[str, ...], defaults: tuple = ()) -> type:
        """The same for MicroPython, whose namedtuple takes no defaults and whose subclass
        may not override ``__new__``: an ``__init__`` hands the base the values, defaults
        filled in."""
        first = len(fields) - len(defaults)

        class Record(namedtuple(name, fields)):
            def __init__(self, *args: object, **kwargs: object) -> None:
                if len(args) < len(fields):
                    values = list(args)
                    for i in range(len(args), len(fields)):
                        if fields[i] in kwargs:
                            values.append(kwargs.pop(fields[i]))
                        elif i >= first:
                            values.append(defaults[i - first])
                        else:
                            raise TypeError(f"{name}() missing argument {fields[i]!r}")
                    if kwargs:
                        raise TypeError(f"{name}() got unexpected arguments {sorted(kwargs)}")
                    args = values
                super().__init__(*args)

        Record._fields = fields
        return Record
