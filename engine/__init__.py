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

from .rules.compat import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from .rules.cards import card_name, card_text, parse_card
    from .rules.finish import finish_moves, play_finish
    from .rules.game import Game, from_position, new_game, parse_move, replay
    from .rules.hint import hint
    from .rules.moves import IllegalMove, Move
    from .rules.safe import safe_moves
    from .rules.variants import VARIANTS
    from .solver import Solution, Solver, solve, winnable_deals

# Where each public name lives. They are imported on first use, so that importing the
# package runs no rules module's body: the page (under MicroPython) imports the rules'
# modules one by one, a few to a task (web/start/micropython-loader.mjs), and none of its
# tasks runs them all; dealing and playing never import the solver.
_HOMES = {
    "card_name": "cards", "card_text": "cards", "parse_card": "cards",
    "finish_moves": "finish", "play_finish": "finish",
    "Game": "game", "from_position": "game", "new_game": "game", "parse_move": "game",
    "replay": "game",
    "hint": "hint",
    "IllegalMove": "moves", "Move": "moves",
    "safe_moves": "safe",
    "VARIANTS": "variants",
    "Solution": "solver", "Solver": "solver", "solve": "solver", "winnable_deals": "solver",
}


def _home(module: str) -> "Any":
    """The module a public name lives in (written out: MicroPython has no importlib)."""
    if module == "solver":
        from . import solver
        return solver
    from .rules import cards, finish, game, hint, moves, safe, variants

    return {"cards": cards, "finish": finish, "game": game, "hint": hint, "moves": moves,
            "safe": safe, "variants": variants}[module]


def __getattr__(name: str) -> "Any":
    """A public name, imported on its first use and kept in the module from then on."""
    module = _HOMES.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(_home(module), name)
    globals()[name] = value
    return value


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
