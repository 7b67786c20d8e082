"""The solver's own registry: the search space of each variant family (the families are
those of the variant registry, :mod:`engine.rules.variants`).

A game's module is imported on first use, so a page that never solves that game never
loads it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..rules.state import Rules
from ..rules.variants import variant
from .space import MoveSpace, Space


def _spider(rules: Rules) -> Space[Any]:
    from .spider import space
    return space(rules)


def _klondike(rules: Rules) -> Space[Any]:
    from .klondike import space
    return space(rules)


def _castle(rules: Rules) -> Space[Any]:
    from .castle import space
    return space(rules)


def _doublets(rules: Rules) -> Space[Any]:
    from .doublets import space
    return space(rules)


SPACES: dict[str, Callable[[Rules], Space[Any]]] = {
    "spider": _spider,
    "klondike": _klondike,
    "castle": _castle,
    "doublets": _doublets,
}


def space_for(rules: Rules) -> Space[Any]:
    """The search space of ``rules``' variant (the generic one for a family without one)."""
    make = SPACES.get(variant(rules.variant).family)
    return MoveSpace(rules) if make is None else make(rules)
