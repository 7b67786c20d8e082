"""Finishing a game the rules say is won by force: the moves that play every card home.

>>> import engine
>>> home = {f"f{i}": [r + s for r in "A23456789TJQK"] for i, s in enumerate("SHDC") if i}
>>> spades = [r.lower() + "s" for r in "KQJT98765432"]  # face down, the two on top
>>> game = engine.from_position("klondike", dict(home, t0=["AS"], stock=spades))
>>> len(finish_moves(game))  # the ace home, then a turn and a play for each spade
25
"""

from .game import Game
from .moves import Move
from .state import Rules

# A finish plays at most 52 cards, and before each play at most one pass of the stock.
STEP_LIMIT = 52 * 60


def _next_move(rules: Rules, legal: list[Move]) -> Move | None:
    """The finish's next move among ``legal``: a card home whenever one can go, first in
    the rules' order, else the stock turned or turned back over."""
    move = next((m for m in legal if rules.role(m.dst) == "foundation"
                 and rules.role(m.src) != "foundation"), None)
    return move or next((m for m in legal if "stock" in (m.src, m.dst)), None)


def finish_moves(game: Game) -> list[Move] | None:
    """The moves that win ``game`` from here when its rules say it is won by force; None
    when it is not won by force. The game itself is left as it is."""
    rules = game.rules
    if game.status != "playing" or not rules.won_by_force(game.state):
        return None
    state, moves = game.state, []
    for _ in range(STEP_LIMIT):
        if rules.is_won(state):
            return moves
        move = _next_move(rules, rules.moves(state))
        if move is None:
            return None
        state = rules.apply(state, move)
        moves.append(move)
    return None


def play_finish(game: Game) -> int:
    """Play the finish on ``game`` itself (the moves :func:`finish_moves` gives); the
    number of moves played, 0 when the game is not won by force. A step asks the rules for
    the cards that can go home, and for every legal move only when none can (to turn the
    stock): what the rules list is legal, so it is played without listing it again. (Should
    a step find no move, which the rules' ``won_by_force`` rules out, the moves played so
    far stay played.)"""
    rules = game.rules
    if game.status != "playing" or not rules.won_by_force(game.state):
        return 0
    start = game.move_count
    for _ in range(STEP_LIMIT):
        state = game.state
        if rules.is_won(state):
            break
        home = rules.home_moves(state)
        move = home[0] if home else _next_move(rules, rules.moves(state))
        if move is None:
            break
        game._advance(move)  # noqa: SLF001 - the rules just listed it for this state
    return game.move_count - start


__all__ = ["finish_moves", "play_finish"]
