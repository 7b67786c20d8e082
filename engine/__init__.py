"""Pocket Patience's rules engine: pure Python, standard library only.

Runs unchanged in CPython and in Pyodide; this module and engine.rules (not the solver)
run unchanged in MicroPython too (engine/rules/compat.py). The public API::

    import engine
    engine.VARIANTS                          # variant ids, menu order
    game = engine.new_game("spider-2", seed=123456)
    game.legal_moves(); game.play(move); game.undo(); game.redo()
    game.status, game.move_count, game.undo_count
    game.position(); game.record(); engine.replay(record)
    engine.parse_move(game, "t3-t7:2"); engine.IllegalMove
    engine.solve(game, budget_ms=1000)       # Solution: result won|lost|unknown, moves
    engine.Solver(game).step(ms=30)          # the same, in slices (browser)
    engine.winnable_deals("klondike")        # deal numbers proved winnable
    engine.finish_moves(game)                # the rest, when the rules say it is won by force
    engine.play_finish(game)                 # ... played on the game itself
    engine.safe_moves(game)                  # cards no line of play needs out: home, in turn
"""

from .rules.cards import card_name, card_text, parse_card
from .rules.compat import TYPE_CHECKING
from .rules.finish import finish_moves, play_finish
from .rules.game import Game, from_position, new_game, parse_move, replay
from .rules.hint import hint
from .rules.moves import IllegalMove, Move
from .rules.safe import safe_moves
from .rules.variants import VARIANTS

if TYPE_CHECKING:
    from typing import Any

    from .solver import Solution, Solver, solve, winnable_deals

_SOLVER_NAMES = frozenset({"Solution", "Solver", "solve", "winnable_deals"})


def __getattr__(name: str) -> "Any":
    """The solver's names, imported on first use: dealing and playing need none of it."""
    if name in _SOLVER_NAMES:
        from . import solver

        return getattr(solver, name)
    raise AttributeError(f"module 'engine' has no attribute {name!r}")

__all__ = [
    "VARIANTS",
    "Game",
    "IllegalMove",
    "Move",
    "Solution",
    "Solver",
    "card_name",
    "card_text",
    "finish_moves",
    "play_finish",
    "from_position",
    "hint",
    "new_game",
    "parse_card",
    "parse_move",
    "replay",
    "safe_moves",
    "solve",
    "winnable_deals",
]
