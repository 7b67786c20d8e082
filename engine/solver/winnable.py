"""The deals proved winnable, one list a variant, as shipped in ``data/winnable-<variant>.txt``.

The lists are made by ``python -m engine winnable VARIANT --count N`` (:func:`find_winnable`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ..rules.game import new_game
from .search import Solution, solve

DATA = Path(__file__).resolve().parent / "data"
_WINNABLE: dict[str, tuple[int, ...]] = {}


def winnable_path(variant: str) -> Path:
    """Where the list of proven-winnable deal numbers of ``variant`` is kept."""
    return DATA / f"winnable-{variant}.txt"


def winnable_deals(variant: str) -> tuple[int, ...]:
    """The deal numbers of ``variant`` the solver proved winnable, as shipped (may be empty).

    The file holds one deal number a line; lines starting with ``#`` are comments.
    """
    deals = _WINNABLE.get(variant)
    if deals is None:
        path = winnable_path(variant)
        try:
            text = path.read_text(encoding="ascii")
        except FileNotFoundError:
            text = ""
        deals = tuple(int(line) for line in text.split("\n")
                      if line.strip() and not line.startswith("#"))
        _WINNABLE[variant] = deals
    return deals


def find_winnable(variant: str, count: int, start: int = 1, budget_ms: float = 3000.0,
                  max_nodes: int | None = None) -> Iterator[tuple[int, Solution]]:
    """Solve deals ``start``, ``start + 1``... of ``variant``; yield ``(deal, answer)`` for
    each deal tried, until ``count`` of them were won (each win replayed to check it).

    With ``max_nodes`` the list does not depend on how loaded the machine is.
    """
    won = 0
    seed = start
    while won < count:
        game = new_game(variant, seed)
        answer = solve(game, budget_ms, max_nodes)
        if answer.result == "won":
            check = game.copy()
            for move in answer.moves:
                check.play(move)  # IllegalMove here would be a solver bug: let it raise
            if check.status != "won":
                raise AssertionError(f"{variant} deal {seed}: the solution does not win")
            won += 1
        yield seed, answer
        seed += 1
