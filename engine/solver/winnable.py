"""The deals proved winnable, one list a variant, as shipped in ``data/winnable-<variant>.txt``.

The lists are made by ``python -m engine winnable VARIANT --count N`` (:func:`find_winnable`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ..rules.game import Game, new_game
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
                  max_nodes: int | None = None, jobs: int = 1) -> Iterator[tuple[int, Solution]]:
    """Solve deals ``start``, ``start + 1``... of ``variant``; yield ``(deal, answer)`` for
    each deal tried, in order, until ``count`` of them were won (each win replayed to check
    it).

    With ``max_nodes`` the list does not depend on how loaded the machine is. With ``jobs``
    above 1 that many processes solve the next deals at once (a few ahead of the one
    awaited), so the answers, and the order they come in, are those of one process.
    """
    if jobs <= 1:
        won = 0
        seed = start
        while won < count:
            answer = attempt(variant, seed, budget_ms, max_nodes)
            won += answer.result == "won"
            yield seed, answer
            seed += 1
        return
    yield from _in_parallel(variant, count, start, budget_ms, max_nodes, jobs)


def attempt(variant: str, seed: int, budget_ms: float, max_nodes: int | None) -> Solution:
    """Solve deal ``seed``; a win is replayed under the rules first (an AssertionError, or
    the rules' IllegalMove, means a solver bug)."""
    game = new_game(variant, seed)
    return replayed(game, solve(game, budget_ms, max_nodes))


def replayed(game: Game, answer: Solution) -> Solution:
    """``answer`` for ``game``, its win (if any) first replayed under the rules (an
    AssertionError, or the rules' IllegalMove, means a solver bug)."""
    if answer.result == "won":
        check = game.copy()
        for move in answer.moves:
            check.play(move)
        if check.status != "won":
            raise AssertionError(f"{game.variant} deal {game.seed}: the solution does not win")
    return answer


def _in_parallel(variant: str, count: int, start: int, budget_ms: float,
                 max_nodes: int | None, jobs: int) -> Iterator[tuple[int, Solution]]:
    """:func:`find_winnable` over ``jobs`` processes: ``2 * jobs`` deals are under way at a
    time and the answers are handed on in deal order; the deals begun past the last one
    needed are dropped. (Imported here: a browser has no processes.)"""
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    pending: deque[tuple[int, Future[Solution]]] = deque()
    won = 0
    seed = start
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        try:
            while won < count:
                while len(pending) < 2 * jobs:
                    pending.append((seed, pool.submit(attempt, variant, seed, budget_ms,
                                                      max_nodes)))
                    seed += 1
                deal, future = pending.popleft()
                answer = future.result()
                won += answer.result == "won"
                yield deal, answer
        finally:
            for _, future in pending:
                future.cancel()
