"""How hard the solver found each shipped winnable deal: Easy, Medium or Hard.

``data/rated-<variant>.txt`` holds, one deal a line, ``deal positions moves``: the
positions the solver expanded before it won that deal and the moves of its win, made by
``python -m engine rate VARIANT`` (:func:`rate`), which solves the deals of
``winnable-<variant>.txt`` again with no time limit. A position count, unlike a time,
is the same on every machine.

The rating is by rank within the variant's rated deals, hardest last: the deals sorted by
positions (ties by the length of the win, then by deal number), the first third Easy, the
next Medium, the rest Hard. So the cut-offs are the 1/3 and 2/3 quantiles of the position
counts, and each rating holds a third of the deals even where many counts are equal.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from .search import Solution
from .winnable import DATA, attempt

LEVELS = ("easy", "medium", "hard")
LEVEL_TITLES = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}


class Rated(NamedTuple):
    """One rated deal: the positions the solver expanded to win it and its win's length."""

    deal: int
    positions: int
    moves: int


class Ratings(NamedTuple):
    """A variant's rated deals, each level's deal numbers (ascending) and the cut-offs:
    the largest position count rated Easy and rated Medium."""

    rated: tuple[Rated, ...]
    levels: dict[str, tuple[int, ...]]
    cutoffs: tuple[int, int] | None


_RATINGS: dict[str, Ratings] = {}


def rated_path(variant: str) -> Path:
    """Where the rated deals of ``variant`` are kept."""
    return DATA / f"rated-{variant}.txt"


def parse_rated(text: str) -> tuple[Rated, ...]:
    """The ``deal positions moves`` lines of a rated file (``#`` lines are comments)."""
    rated = []
    for line in text.split("\n"):
        if line.strip() and not line.startswith("#"):
            deal, positions, moves = (int(field) for field in line.split())
            rated.append(Rated(deal, positions, moves))
    return tuple(rated)


def split_levels(rated: Iterable[Rated]) -> Ratings:
    """Thirds by rank (see the module's text): each level's deals and the cut-offs."""
    ranked = sorted(rated, key=lambda r: (r.positions, r.moves, r.deal))
    n = len(ranked)
    bounds = (0, -(-n // 3), -(-2 * n // 3), n)  # a third each, the first ones rounded up
    parts = [ranked[bounds[i]:bounds[i + 1]] for i in range(3)]
    levels = {level: tuple(sorted(r.deal for r in part))
              for level, part in zip(LEVELS, parts, strict=True)}
    cutoffs = (parts[0][-1].positions, parts[1][-1].positions) if all(parts) else None
    return Ratings(tuple(ranked), levels, cutoffs)


def ratings(variant: str) -> Ratings:
    """The ratings of ``variant`` as shipped, read on first use (empty when not rated)."""
    known = _RATINGS.get(variant)
    if known is None:
        try:
            text = rated_path(variant).read_text(encoding="ascii")
        except FileNotFoundError:
            text = ""
        known = _RATINGS[variant] = split_levels(parse_rated(text))
    return known


def rated_deals(variant: str, level: str) -> tuple[int, ...]:
    """The deal numbers of ``variant`` rated ``level`` ("easy", "medium" or "hard")."""
    return ratings(variant).levels.get(level, ())


def rating(variant: str, deal: int) -> str | None:
    """The level of deal ``deal`` of ``variant``, None when it is not rated."""
    for level, deals in ratings(variant).levels.items():
        if deal in deals:
            return level
    return None


def rate(variant: str, deals: Iterable[int], max_nodes: int) -> Iterator[tuple[int, Solution]]:
    """Solve each of ``deals`` with no time limit and at most ``max_nodes`` positions;
    yield ``(deal, answer)`` (a win is replayed under the rules first)."""
    for deal in deals:
        yield deal, attempt(variant, deal, 1e12, max_nodes)


__all__ = ["LEVELS", "LEVEL_TITLES", "Rated", "Ratings", "parse_rated", "rate", "rated_deals",
           "rated_path", "rating", "ratings", "split_levels"]
