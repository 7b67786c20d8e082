"""The solver: a search over each game's space, and the deals it proved winnable.

It imports the rules (:mod:`engine.rules`); the rules never import it.
"""

from __future__ import annotations

from .search import Solution, Solver, solve
from .winnable import find_winnable, winnable_deals

__all__ = ["Solution", "Solver", "find_winnable", "solve", "winnable_deals"]
